"""Piper voices through the engine the Synthesize tab uses, with the real voice en_US-joe-medium."""
import numpy as np
import pytest

from desktop.core.common.errors import UserFacingError
from desktop.core.gpu.fallback import FallbackLog
from desktop.core.speech.tts_models import TtsModelStore
from desktop.engines.speech.tts import SENTENCE_PAUSE_SECONDS, SpeechSynthesizer, SynthesisSettings
from desktop.engines.voices.watermark import carries_watermark
from tests.helpers.piper_voice import JOE_KEY, copy_of_joe, joe_folder
from tests.helpers.tools import require_tool
from tests.helpers.weights import base_dir, wer

SENTENCE = "Please send the quarterly report to the finance team by Friday."


@pytest.fixture(scope="module")
def engine():
    require_tool("espeak-ng")
    engine = SpeechSynthesizer(TtsModelStore(joe_folder().parent / "unused-store"), FallbackLog())
    yield engine
    engine.release()


def joe(**changes) -> SynthesisSettings:
    return SynthesisSettings(model=str(joe_folder() / f"{JOE_KEY}.onnx"), **changes)


@pytest.fixture(scope="module")
def whisper():
    from faster_whisper import WhisperModel

    return WhisperModel(str(base_dir()), device="cpu", compute_type="int8", cpu_threads=2)


def transcript(whisper, samples: np.ndarray, rate: int) -> str:
    import librosa

    audio = librosa.resample(samples.astype(np.float32), orig_sr=rate, target_sr=16000)
    segments, _ = whisper.transcribe(audio, language="en", beam_size=5)
    return " ".join(s.text for s in segments)


def test_the_real_voice_speaks_a_sentence_that_whisper_understands(engine, whisper):
    speech = engine.synthesize(SENTENCE, joe(watermark=False))
    assert speech.sample_rate == 22050 and speech.complete
    assert wer(SENTENCE, transcript(whisper, speech.samples, speech.sample_rate)) <= 0.15


def test_the_watermarked_voice_is_still_understood_and_carries_the_mark(engine, whisper):
    speech = engine.synthesize(SENTENCE, joe(watermark=True))
    assert wer(SENTENCE, transcript(whisper, speech.samples, speech.sample_rate)) <= 0.15
    assert carries_watermark(speech.sentences[0].samples, speech.sample_rate)


def test_text_is_spoken_sentence_by_sentence_and_a_cancel_keeps_what_was_made(engine):
    text = "The meeting starts at nine. Bring the budget. We finish by noon."
    spoken = []
    speech = engine.synthesize(text, joe(), on_sentence=spoken.append, cancelled=lambda: len(spoken) >= 2)
    assert [s.sentence.text for s in spoken] == ["The meeting starts at nine.", "Bring the budget."]
    assert not speech.complete and len(speech.sentences) == 2
    # Each sentence is where the text says it is (the tab highlights it from these offsets).
    assert all(text[s.sentence.start:s.sentence.end] == s.sentence.text for s in spoken)
    assert all(s.duration > SENTENCE_PAUSE_SECONDS for s in spoken)


def test_the_speed_control_changes_how_long_the_voice_takes(engine):
    slow = engine.synthesize(SENTENCE, joe(speed=0.7, watermark=False)).duration
    fast = engine.synthesize(SENTENCE, joe(speed=1.5, watermark=False)).duration
    assert 1.6 < (slow - SENTENCE_PAUSE_SECONDS) / (fast - SENTENCE_PAUSE_SECONDS) < 2.8  # 1.5 / 0.7 = 2.1


def test_the_voice_says_what_it_offers(engine):
    info = engine.voice_info(joe())
    assert info.languages == ("en",) and info.speakers == () and info.can_change_speed and info.device == "CPU"


def test_chinese_text_to_the_english_voice_is_refused_in_a_sentence(engine):
    with pytest.raises(UserFacingError, match="Chinese") as caught:
        engine.synthesize("请把报告发给财务部。", joe())
    assert "\n" not in caught.value.message and "Traceback" not in caught.value.message


def test_an_imported_voice_speaks_by_its_name(tmp_path):
    store = TtsModelStore(tmp_path / "voices")
    model = store.import_folder(copy_of_joe(tmp_path / "joe"))
    assert model.imported and model.languages == ("en",)
    engine = SpeechSynthesizer(store, FallbackLog())
    try:
        speech = engine.synthesize("Good morning.", SynthesisSettings(model=model.name, watermark=False))
    finally:
        engine.release()
    assert speech.duration > SENTENCE_PAUSE_SECONDS and np.max(np.abs(speech.samples)) > 0.05


def test_a_voice_with_several_speakers_offers_them_by_name_in_the_order_of_their_ids(tmp_path):
    import json

    folder = copy_of_joe(tmp_path / "voices")
    config_path = folder / f"{JOE_KEY}.onnx.json"
    config = json.loads(config_path.read_text(encoding="utf-8"))
    config.update(num_speakers=3, speaker_id_map={"carol": 2, "alice": 0, "bob": 1})
    config_path.write_text(json.dumps(config), encoding="utf-8")
    engine = SpeechSynthesizer(TtsModelStore(tmp_path / "store"), FallbackLog())
    try:
        info = engine.voice_info(SynthesisSettings(model=str(folder)))
        assert info.speakers == ("alice", "bob", "carol") and info.multi_speaker
        with pytest.raises(UserFacingError, match="not one of the voices"):
            engine.synthesize("Hello.", SynthesisSettings(model=str(folder), speaker="dave"))
    finally:
        engine.release()
