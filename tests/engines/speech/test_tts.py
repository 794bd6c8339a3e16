"""Speech synthesis through Coqui's real loading and inference code, with tiny random VITS models."""
import gc
import json
import shutil
import weakref

import numpy as np
import pytest
import torch

from desktop.core.common.errors import ModelError, UserFacingError
from desktop.core.gpu.fallback import FallbackLog
from desktop.core.speech.tts_models import TtsModelStore
from desktop.engines.speech.tts import SENTENCE_PAUSE_SECONDS, SpeechSynthesizer, SynthesisSettings
from tests.helpers.tiny_tts import SAMPLE_RATE, FakeAmdGpu, build_single_speaker_vits
from tests.helpers.tools import require_tool


@pytest.fixture
def store(tmp_path, tiny_folders):
    store = TtsModelStore(tmp_path / "voices")
    store.import_folder(tiny_folders["single"])
    store.import_folder(tiny_folders["multi"])
    return store


SINGLE = "imported/tiny-english"
MULTI = "imported/tiny-voices"


@pytest.fixture
def engine(store):
    engine = SpeechSynthesizer(store, FallbackLog())
    yield engine
    engine.release()


def test_a_sentence_comes_out_at_the_models_sample_rate(engine):
    speech = engine.synthesize("Hello there.", SynthesisSettings(model=SINGLE))
    assert speech.sample_rate == SAMPLE_RATE
    assert speech.samples.dtype == np.float32 and speech.samples.ndim == 1
    assert speech.duration > SENTENCE_PAUSE_SECONDS
    assert np.any(speech.samples) and np.max(np.abs(speech.samples)) <= 1.0


def test_longer_text_gives_proportionally_longer_speech(engine):
    settings = SynthesisSettings(model=SINGLE)
    short = engine.synthesize("Good morning.", settings).duration - SENTENCE_PAUSE_SECONDS
    long = engine.synthesize("Good morning to everyone in the office and welcome back.", settings).duration
    ratio = (long - SENTENCE_PAUSE_SECONDS) / short
    assert 2.5 < ratio < 8  # the text is about 4.4 times longer


def test_text_is_spoken_sentence_by_sentence_with_progress(engine):
    text = "First point. Second point! Third point? Fourth point."
    sentences, progress = [], []
    speech = engine.synthesize(
        text, SynthesisSettings(model=SINGLE), on_sentence=sentences.append, on_progress=progress.append
    )
    assert [s.sentence.text for s in sentences] == ["First point.", "Second point!", "Third point?", "Fourth point."]
    assert [s.index for s in sentences] == [0, 1, 2, 3] and {s.total for s in sentences} == {4}
    assert [text[s.sentence.start:s.sentence.end] for s in sentences] == [s.sentence.text for s in sentences]
    assert progress == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert speech.complete and len(speech.samples) == sum(len(s.samples) for s in sentences)


def test_cancel_stops_at_the_next_sentence_and_keeps_what_was_made(engine):
    made = []
    speech = engine.synthesize(
        "One. Two. Three. Four. Five.",
        SynthesisSettings(model=SINGLE),
        on_sentence=made.append,
        cancelled=lambda: len(made) >= 2,
    )
    assert not speech.complete
    assert [s.sentence.text for s in speech.sentences] == ["One.", "Two."]
    assert speech.total == 5 and len(speech.samples) > 0


def test_twenty_thousand_characters_are_spoken_with_progress(tmp_path):
    # A quick-talking tiny model: 20,000 characters at the usual pace would be 20 minutes of audio.
    store = TtsModelStore(tmp_path / "voices")
    model = store.import_folder(build_single_speaker_vits(tmp_path / "quick", frames_per_character=1))
    engine = SpeechSynthesizer(store, FallbackLog())
    sentence = ("Please read the safety notice before you start work today, keep the fire doors closed, "
                "wear your badge where it can be seen, and tell the front desk about any visitors who are "
                "expected in the building this week. ")
    text = sentence * 95
    assert len(text) > 20000
    progress = []
    # Six minutes of audio: without the watermark, which is tested on its own (test_tts_watermark.py).
    settings = SynthesisSettings(model=model.name, watermark=False)
    speech = engine.synthesize(text, settings, on_progress=progress.append)
    assert speech.complete and len(speech.sentences) == 95
    assert len(progress) == 96 and progress[-1] == 1.0
    assert progress == sorted(progress)


def test_a_multi_speaker_model_lists_its_named_voices(engine):
    info = engine.voice_info(SynthesisSettings(model=MULTI))
    assert info.speakers == ("alice", "bob", "chen") and info.multi_speaker
    assert info.sample_rate == SAMPLE_RATE and info.languages == ("en",) and info.device == "CPU"
    assert not engine.voice_info(SynthesisSettings(model=SINGLE)).multi_speaker


def test_each_named_voice_sounds_different(engine):
    def samples(speaker):
        torch.manual_seed(0)  # VITS samples noise; the same seed isolates the voice's effect
        return engine.synthesize("Hello there.", SynthesisSettings(model=MULTI, speaker=speaker)).samples

    alice, bob = samples("alice"), samples("bob")
    assert not (len(alice) == len(bob) and np.allclose(alice, bob))


def test_an_unknown_voice_name_is_refused_with_the_choices(engine):
    with pytest.raises(UserFacingError) as error:
        engine.synthesize("Hello.", SynthesisSettings(model=MULTI, speaker="dave"))
    assert "alice, bob, chen" in error.value.message


def test_a_preview_speaks_a_short_sample_in_the_chosen_voice(engine):
    speech = engine.preview(SynthesisSettings(model=MULTI, speaker="chen"))
    assert speech.complete and 1.0 < speech.duration < 15.0


def test_a_higher_speed_gives_shorter_speech(engine):
    fast = engine.synthesize("Speaking at my own pace.", SynthesisSettings(model=SINGLE, speed=1.5))
    slow = engine.synthesize("Speaking at my own pace.", SynthesisSettings(model=SINGLE, speed=0.75))
    assert fast.duration < slow.duration
    assert engine.voice_info(SynthesisSettings(model=SINGLE)).can_change_speed


def test_the_model_stays_loaded_between_runs_and_is_released_on_switch(engine):
    statuses = []
    engine.synthesize("One.", SynthesisSettings(model=SINGLE), on_status=statuses.append)
    engine.synthesize("Two.", SynthesisSettings(model=SINGLE), on_status=statuses.append)
    assert sum("Loading" in s for s in statuses) == 1
    first = weakref.ref(engine._loaded.voice.synthesizer)
    engine.synthesize("Three.", SynthesisSettings(model=MULTI))
    gc.collect()
    assert first() is None
    assert engine.loaded.model == MULTI


# --- bad input -----------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "   \n\t "])
def test_empty_text_asks_for_text(engine, text):
    with pytest.raises(UserFacingError) as error:
        engine.synthesize(text, SynthesisSettings(model=SINGLE))
    assert error.value.message == "There is no text to read. Type or paste some text first."


@pytest.mark.parametrize("text", ["!!! ... ???", "🙂🎉👍", "。。。！？…… 🙂"])
def test_text_of_only_punctuation_or_emoji_says_there_is_nothing_to_read(engine, text):
    with pytest.raises(UserFacingError) as error:
        engine.synthesize(text, SynthesisSettings(model=SINGLE))
    assert "nothing to read aloud" in error.value.message


def test_chinese_text_for_an_english_only_model_says_so_and_suggests_a_model(engine):
    with pytest.raises(UserFacingError) as error:
        engine.synthesize("各位同事，明天上午九点开会。", SynthesisSettings(model=SINGLE))
    message = error.value.message
    assert "English only" in message and "Chinese" in message
    assert "XTTS v2" in message


def test_choosing_a_language_the_model_does_not_speak_is_refused(engine):
    with pytest.raises(UserFacingError) as error:
        engine.synthesize("Hello.", SynthesisSettings(model=SINGLE, language="zh"))
    assert "does not speak Chinese" in error.value.message


def test_a_phoneme_model_reads_english_through_espeak_and_refuses_chinese(tmp_path):
    require_tool("espeak-ng")
    store = TtsModelStore(tmp_path / "voices")
    model = store.import_folder(build_single_speaker_vits(tmp_path / "tiny-phonemes", phonemes=True))
    engine = SpeechSynthesizer(store, FallbackLog())
    short = engine.synthesize("Hello.", SynthesisSettings(model=model.name))
    long = engine.synthesize("Hello, and welcome to the new office building.", SynthesisSettings(model=model.name))
    assert engine.loaded.languages == ("en",)
    assert long.duration > 2 * short.duration - SENTENCE_PAUSE_SECONDS
    with pytest.raises(UserFacingError) as error:
        engine.synthesize("你好。", SynthesisSettings(model=model.name))
    assert "cannot read the Chinese" in error.value.message


def test_a_chinese_grapheme_model_reads_chinese(tmp_path):
    folder = build_single_speaker_vits(tmp_path / "tiny-chinese", characters="各位同事明天上午九点开会 ", language="zh")
    store = TtsModelStore(tmp_path / "voices")
    model = store.import_folder(folder)
    engine = SpeechSynthesizer(store, FallbackLog())
    speech = engine.synthesize("各位同事，明天上午九点开会。", SynthesisSettings(model=model.name))
    assert speech.complete and speech.duration > 0.5
    assert engine.loaded.languages == ("zh",)


def test_a_model_folder_missing_its_config_is_a_plain_error(engine, tmp_path, tiny_folders):
    folder = tmp_path / "copied"
    shutil.copytree(tiny_folders["single"], folder)
    (folder / "config.json").unlink()
    with pytest.raises(ModelError) as error:
        engine.synthesize("Hello.", SynthesisSettings(model=str(folder)))
    assert "config.json" in error.value.message


def test_a_model_folder_can_be_used_directly_by_its_path(engine, tiny_folders):
    speech = engine.synthesize("Hello.", SynthesisSettings(model=str(tiny_folders["single"])))
    assert speech.complete and speech.sample_rate == SAMPLE_RATE


def test_a_model_file_that_does_not_match_its_config_is_a_plain_error(tmp_path, tiny_folders):
    folder = tmp_path / "mismatched"
    shutil.copytree(tiny_folders["single"], folder)
    shutil.copy(tiny_folders["multi"] / "model.pth", folder / "model.pth")  # other weights, same format
    store = TtsModelStore(tmp_path / "voices")
    model = store.import_folder(folder)
    with pytest.raises(ModelError) as error:
        SpeechSynthesizer(store, FallbackLog()).synthesize("Hello.", SynthesisSettings(model=model.name))
    assert "damaged or does not match" in error.value.message


def test_a_model_file_damaged_after_import_is_a_plain_error(tmp_path, tiny_folders):
    store = TtsModelStore(tmp_path / "voices")
    model = store.import_folder(tiny_folders["single"])
    weights = store.folder(model.name) / "model.pth"
    weights.write_bytes(weights.read_bytes()[:5000])
    with pytest.raises(ModelError) as error:
        SpeechSynthesizer(store, FallbackLog()).synthesize("Hello.", SynthesisSettings(model=model.name))
    assert "damaged" in error.value.message


def test_a_config_damaged_after_import_is_a_plain_error(tmp_path, tiny_folders):
    store = TtsModelStore(tmp_path / "voices")
    model = store.import_folder(tiny_folders["single"])
    config = store.folder(model.name) / "config.json"
    config.write_text(config.read_text(encoding="utf-8")[:200], encoding="utf-8")  # cut off
    with pytest.raises(ModelError) as error:
        SpeechSynthesizer(store, FallbackLog()).synthesize("Hello.", SynthesisSettings(model=model.name))
    assert "config.json" in error.value.message and "damaged" in error.value.message


def test_a_catalog_model_not_yet_downloaded_is_named_for_download(engine):
    settings = SynthesisSettings(model="tts_models/en/ljspeech/vits")
    assert engine.missing_model(settings) == "tts_models/en/ljspeech/vits"
    assert engine.missing_model(SynthesisSettings(model=SINGLE)) is None
    with pytest.raises(ModelError) as error:
        engine.synthesize("Hello.", settings)
    assert "not on this computer yet" in error.value.message


def test_a_moved_data_folder_still_finds_the_speaker_file(tmp_path, tiny_folders):
    store = TtsModelStore(tmp_path / "old")
    model = store.import_folder(tiny_folders["multi"])
    shutil.move(tmp_path / "old", tmp_path / "new")
    moved = TtsModelStore(tmp_path / "new")
    info = SpeechSynthesizer(moved, FallbackLog()).voice_info(SynthesisSettings(model=model.name))
    assert info.speakers == ("alice", "bob", "chen")
    config = json.loads((moved.folder(model.name) / "config.json").read_text(encoding="utf-8"))
    assert str(tmp_path / "new") in config["speakers_file"]


# --- CPU by design, GPU as an experiment ---------------------------------------------------------


def test_synthesis_runs_on_the_cpu_unless_the_gpu_is_asked_for(store):
    engine = SpeechSynthesizer(store, FallbackLog(), gpu=FakeAmdGpu())
    assert engine.device_label(SynthesisSettings(model=SINGLE)) == "CPU"
    assert engine.device_label(SynthesisSettings(model=SINGLE, use_gpu=True)) == "GPU"


def test_on_a_rocm_gpu_miopen_is_off_while_speaking_and_back_on_afterwards(store):
    gpu = FakeAmdGpu()
    engine = SpeechSynthesizer(store, FallbackLog(), gpu=gpu)
    before = torch.backends.cudnn.enabled
    speech = engine.synthesize("One. Two.", SynthesisSettings(model=SINGLE, use_gpu=True))
    assert speech.complete and gpu.moved == 1
    assert gpu.cudnn_during_speech == [False, False]
    assert torch.backends.cudnn.enabled == before
    assert engine.loaded.device == "GPU"


def test_a_gpu_failure_falls_back_to_the_cpu_and_is_recorded(store):
    gpu = FakeAmdGpu(fail_on_sentence=2)
    fallbacks = FallbackLog()
    engine = SpeechSynthesizer(store, fallbacks, gpu=gpu)
    made = []
    speech = engine.synthesize("One. Two. Three.", SynthesisSettings(model=SINGLE, use_gpu=True),
                               on_sentence=made.append)
    assert speech.complete and [s.sentence.text for s in made] == ["One.", "Two.", "Three."]
    [event] = fallbacks.events()
    assert event.stage == "speak a sentence" and "invalid device function" in event.error
    assert "no code for this graphics card" in event.fix
    assert engine.loaded.device == "CPU"
    # The GPU stays out of the way until another model is chosen.
    assert engine.device_label(SynthesisSettings(model=SINGLE, use_gpu=True)) == "CPU"
    engine.synthesize("Four.", SynthesisSettings(model=SINGLE, use_gpu=True))
    assert gpu.sentences == 2 and len(fallbacks.events()) == 1


class WatchedAmdGpu(FakeAmdGpu):
    """Notes, each time GPU memory is freed, whether the models it was given are still alive."""

    def __init__(self, fail_on_sentence: int | None = None):
        super().__init__(fail_on_sentence)
        self.models: list[weakref.ref] = []
        self.alive_when_freed: list[list[bool]] = []

    def move(self, synthesizer) -> None:
        super().move(synthesizer)
        self.models.append(weakref.ref(synthesizer))

    def free_memory(self) -> None:
        self.alive_when_freed.append([model() is not None for model in self.models])


def test_after_a_gpu_failure_the_gpu_model_is_gone_when_gpu_memory_is_freed(store):
    gpu = WatchedAmdGpu(fail_on_sentence=2)
    engine = SpeechSynthesizer(store, FallbackLog(), gpu=gpu)
    speech = engine.synthesize("One. Two. Three.", SynthesisSettings(model=SINGLE, use_gpu=True))
    assert speech.complete and gpu.moved == 1
    assert gpu.alive_when_freed == [[False]]  # freed once, with nothing left holding the GPU model
