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
    # Not 1.5 / 0.7 = 2.1: Piper divides each sound's length by the speed and rounds it up to whole
    # frames, so part of the length does not scale (this sentence: about 0.95 s of its 3.2 s), and its
    # duration predictor draws at random, each run within about 5 %. Measured over 30 runs of each:
    # a median ratio of 1.68, never below 1.45.
    assert 1.3 < (slow - SENTENCE_PAUSE_SECONDS) / (fast - SENTENCE_PAUSE_SECONDS) < 2.8


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


# --- damaged voice configs: a sentence, never a traceback, and never an unbounded inference --------


def damaged_joe(folder, change):
    """A copy of the real voice in folder, its config changed by change(config)."""
    import json

    copy_of_joe(folder)
    config_path = folder / f"{JOE_KEY}.onnx.json"
    config = json.loads(config_path.read_text(encoding="utf-8"))
    change(config)
    config_path.write_text(json.dumps(config), encoding="utf-8")
    return folder


def refused_by_the_engine(engine, folder) -> str:
    with pytest.raises(UserFacingError) as caught:
        engine.synthesize("Good morning.", SynthesisSettings(model=str(folder)))
    message = caught.value.message
    assert "\n" not in message and "Traceback" not in message and message.endswith("source.")
    return message


def test_a_phoneme_id_beyond_the_models_symbols_is_refused_in_a_sentence(engine, tmp_path):
    # The config claims 1000 symbols; the model's embedding table has 256 rows.
    folder = damaged_joe(tmp_path / "voice", lambda c: c.update(num_symbols=1000) or c["phoneme_id_map"].update(
        {"_": [500]}))
    assert refused_by_the_engine(engine, folder) == (
        "The Piper voice “voice” is damaged: the sound “_” stands for symbol 500, but its model has only 256 "
        "symbols. Copy or download the voice again from its source.")


def test_an_id_of_ten_to_the_nineteen_is_refused_in_a_sentence(engine, tmp_path):
    folder = damaged_joe(tmp_path / "voice", lambda c: c.update(num_symbols=10 ** 20) or c["phoneme_id_map"].update(
        {"_": [10 ** 19]}))
    assert "is damaged: its settings give 100000000000000000000 as its number of symbols" in \
        refused_by_the_engine(engine, folder)
    within = damaged_joe(tmp_path / "within", lambda c: c["phoneme_id_map"].update({"a": [10 ** 19]}))
    assert "is damaged: the sound “a” stands for symbol 10000000000000000000, but its settings give only 256" in \
        refused_by_the_engine(engine, within)


def test_the_voice_still_speaks_after_a_damaged_one_was_refused(engine, tmp_path):
    damaged = damaged_joe(tmp_path / "voice", lambda c: c["phoneme_id_map"].update({"_": [0] * 5}))
    assert "stands for 5 symbols" in refused_by_the_engine(engine, damaged)
    speech = engine.synthesize("Good morning.", joe(watermark=False))
    assert speech.complete and np.max(np.abs(speech.samples)) > 0.05


# Run with its address space capped: the real voice speaks, then the damaged one is tried.
BOUNDED_RUN = r"""
import sys
from desktop.core.common.errors import UserFacingError
from desktop.engines.speech.piper import load_voice
# The limit leaves room for the real voice...
samples = load_voice(sys.argv[1], "joe").speak("Good morning.")
assert samples.size > 10_000, samples.size
# ...and the damaged one is refused within it.
try:
    load_voice(sys.argv[2], "padded").speak("Good morning.")
except UserFacingError as error:
    print("REFUSED:", error.message)
"""


def test_a_pad_symbol_standing_for_100000_ids_is_refused_within_bounded_memory(tmp_path):
    import resource
    import subprocess
    import sys

    require_tool("espeak-ng")
    # 303 KB of config: every sound followed by 100,000 pad ids, an inference onnxruntime would give terabytes.
    folder = damaged_joe(tmp_path / "voice", lambda c: c["phoneme_id_map"].update({"_": [0] * 100_000}))
    assert (folder / f"{JOE_KEY}.onnx.json").stat().st_size > 300_000
    limit = 2 * 1024 ** 3  # the real voice speaks in under 600 MB of address space

    def capped() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    done = subprocess.run(
        [sys.executable, "-c", BOUNDED_RUN, str(joe_folder() / f"{JOE_KEY}.onnx"), str(folder / f"{JOE_KEY}.onnx")],
        capture_output=True, text=True, timeout=600, preexec_fn=capped,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == (
        "REFUSED: The Piper voice “padded” is damaged: the sound “_” stands for 100000 symbols in its phoneme "
        "map, where a Piper voice uses at most 4. Copy or download the voice again from its source.")


def test_a_long_sentence_is_spoken_in_bounded_runs_and_all_of_it_is_heard(tmp_path):
    from desktop.engines.speech.piper import MAX_IDS_PER_RUN, load_voice

    require_tool("espeak-ng")
    voice = load_voice(joe_folder(), "joe")
    runs = []
    session_run = voice._session.run
    voice._session.run = lambda names, feed: runs.append(feed["input"].shape[1]) or session_run(names, feed)
    # One sentence with no comma: about 1,500 ids at once before, three runs now.
    words = ("the quarterly report lists every office and every team with the money each of them spent "
             "on travel and on training and on the new printers ") * 6
    samples = voice.speak(words.strip() + ".")
    assert len(runs) >= 2 and max(runs) <= MAX_IDS_PER_RUN
    one_run = voice.speak("the quarterly report lists every office and every team with the money each of them "
                          "spent on travel and on training and on the new printers.")
    # All six repeats are spoken: about six times the length of one, not one run's worth.
    assert 4.5 < samples.size / one_run.size < 7.5
