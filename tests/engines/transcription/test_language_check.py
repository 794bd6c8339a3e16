"""An English-only model's engine has a multilingual model on this computer tell the language of its
speech, in the engine process as in live captions' own engine; what it heard decides the warning
over the English-only model's own signs. Real tiny.en, real base as the checker, real speech."""
from __future__ import annotations

import shutil
from dataclasses import replace

import numpy as np
import pytest

from desktop.core.common.paths import models_dir
from desktop.core.gpu.fallback import FallbackLog
from desktop.core.transcription.english_only import OTHER_LANGUAGE_WARNING
from desktop.core.transcription.whisper_models import LocalModel, ModelStore
from desktop.engines.transcription.decoders.language_check import LanguageChecker, listened_windows
from desktop.engines.transcription.decoders.loading import load_engine
from desktop.engines.transcription.engine import TranscribeOptions
from desktop.engines.transcription.live.captioner import LiveCaptioner, LiveOptions
from desktop.engines.transcription.live.engine import load_live_engine
from desktop.engines.transcription.plan import TranscribeSettings, language_checker
from desktop.engines.transcription.process.isolated import IsolatedEngine
from desktop.engines.transcription.transcriber import Transcriber
from tests.helpers.weights import DATA_DIR, base_dir, in_loud_noise, recording, tiny_en_dir, write_wav

pytestmark = pytest.mark.slow

AUTO = TranscribeOptions(language=None, check_language=True)  # as a file's or an utterance's first decoding asks
MANDARIN = "BAC009S0764W0122.wav"
NOISY_ENGLISH = "speakers/spk2_snt6.wav"  # in loud noise tiny.en's word probability is 0.39 (the line: 0.6)
SECOND = 16000


def tiny_en() -> LocalModel:
    return LocalModel(name="tiny.en", format="ct2", path=tiny_en_dir(), imported=False)


def base() -> LocalModel:
    return LocalModel(name="base", format="ct2", path=base_dir(), imported=False)


def noisy_english() -> np.ndarray:
    """A Harvard sentence in loud noise: tiny.en is unsure of its words, as over another language."""
    return in_loud_noise(recording(NOISY_ENGLISH))


def heard(result) -> list[str]:
    """The language the checker heard in each window of the speech it listened to."""
    return [window.language for window in result.checked]


def store_with(*names: str) -> ModelStore:
    """The user's model store with these official models' CTranslate2 folders in it (base, tiny.en)."""
    folders = {"base": base_dir(), "tiny.en": tiny_en_dir()}
    (models_dir() / "ct2").mkdir(parents=True, exist_ok=True)
    for name in names:
        (models_dir() / "ct2" / name).symlink_to(folders[name], target_is_directory=True)
    return ModelStore(models_dir())


@pytest.fixture(scope="module")
def isolated():
    engine = IsolatedEngine(tiny_en(), "ct2", "cpu", checker=base()).load()
    yield engine
    engine.close()


def test_the_engine_process_hears_mandarin_and_english_through_its_checker(isolated):
    mandarin = isolated.transcribe(recording(MANDARIN), AUTO)
    english = isolated.transcribe(recording("jfk.flac"), AUTO)

    assert not mandarin.multilingual and mandarin.language == "en", "tiny.en itself knows only English"
    assert heard(mandarin) == ["zh"] and all(window.confident for window in mandarin.checked)
    assert heard(english) == ["en"] and all(window.confident for window in english.checked)
    assert "country" in " ".join(segment.text for segment in english.segments)


def test_only_a_decoding_asked_to_check_is_checked(isolated):
    """A second look at a stretch, a live caption's passing guess, a language the user chose: no check."""
    assert isolated.transcribe(recording(MANDARIN), replace(AUTO, check_language=False)).checked == ()


def test_without_a_checker_or_with_a_broken_one_the_transcription_goes_on_unchecked(tmp_path):
    broken = tmp_path / "base"
    broken.mkdir()
    (broken / "model.bin").write_bytes(b"not a model")
    (broken / "config.json").write_text("{}")
    for checker in (None, LocalModel(name="base", format="ct2", path=broken, imported=False)):
        engine = load_engine(tiny_en(), "ct2", "cpu", checker=checker)
        try:
            result = engine.transcribe(recording("jfk.flac"), AUTO)
        finally:
            engine.close()
        assert result.checked == ()
        assert "country" in " ".join(segment.text for segment in result.segments)


def test_a_multilingual_model_tells_the_language_itself():
    engine = load_engine(base(), "ct2", "cpu", checker=base())
    try:
        result = engine.transcribe(recording(MANDARIN), AUTO)
    finally:
        engine.close()
    assert result.multilingual and result.language == "zh" and result.checked == ()


def test_a_file_is_warned_of_as_the_check_heard_it(tmp_path):
    """Mandarin is warned of; English is not, even in loud noise, which tiny.en's own signs take for
    another language, once base can tell it is English."""
    noisy = write_wav(tmp_path / "noisy english.wav", noisy_english())
    mandarin = shutil.copy(DATA_DIR / MANDARIN, tmp_path / "mandarin.wav")
    settings = TranscribeSettings(model="tiny.en", language=None)

    alone = Transcriber(store_with("tiny.en"), FallbackLog(), gpu_available=lambda: False)
    try:
        assert OTHER_LANGUAGE_WARNING in alone.transcribe_file(noisy, settings).warnings, "the signs alone"
    finally:
        alone.release()
    checked = Transcriber(store_with("base"), FallbackLog(), gpu_available=lambda: False)
    try:
        assert OTHER_LANGUAGE_WARNING in checked.transcribe_file(mandarin, settings).warnings
        assert OTHER_LANGUAGE_WARNING not in checked.transcribe_file(noisy, settings).warnings
        assert OTHER_LANGUAGE_WARNING not in checked.transcribe_file(DATA_DIR / "jfk.flac", settings).warnings
    finally:
        checked.release()


def test_live_captions_load_their_engine_with_the_checker():
    store = store_with("tiny.en", "base")
    engine = load_live_engine(store, TranscribeSettings(model="tiny.en", language=None), FallbackLog())
    try:
        assert engine.language_checker is not None and engine.language_checker.model.name == "base"
        mandarin = engine.transcribe(recording(MANDARIN), AUTO)
    finally:
        engine.close()
    assert heard(mandarin) == ["zh"] and all(window.confident for window in mandarin.checked)


def test_live_captions_are_warned_of_as_the_check_heard_it():
    store = store_with("tiny.en", "base")
    engine = load_live_engine(store, TranscribeSettings(model="tiny.en", language=None), FallbackLog())
    try:
        mandarin, mandarin_warned = captioned(engine, recording("BAC009S0764W0121.wav"), recording(MANDARIN))
        english, english_warned = captioned(engine, noisy_english())
    finally:
        engine.close()
    assert mandarin_warned == [OTHER_LANGUAGE_WARNING] and mandarin.lines.warnings == [OTHER_LANGUAGE_WARNING]
    assert english_warned == [] and english.lines.warnings == []
    assert english.lines.committed, "the noisy sentence is still captioned"


def test_the_checker_is_the_same_familys_multilingual_model_else_the_smallest_here(tmp_path):
    store = ModelStore(tmp_path)
    assert language_checker(store, "tiny.en") is None, "no multilingual model here: the signs alone"
    for name in ("small", "base"):
        folder = tmp_path / "ct2" / name
        folder.mkdir(parents=True)
        (folder / "model.bin").write_bytes(b"")
        (folder / "config.json").write_text("{}")
    assert language_checker(store, "tiny.en").name == "base"
    assert language_checker(store, "small.en").name == "small"
    assert language_checker(store, "/somewhere/my-english-model").name == "base"
    assert language_checker(store, "base") is None and language_checker(store, "large-v3") is None

    (tmp_path / "openai").mkdir()
    (tmp_path / "openai" / "tiny.pt").write_bytes(b"")
    (tmp_path / "openai" / "small.pt").write_bytes(b"")
    tiny = language_checker(store, "tiny.en")
    assert (tiny.name, tiny.format) == ("tiny", "pt"), "a checkpoint of the same family is converted when needed"
    assert language_checker(store, "small.en").format == "ct2", "a folder of the family before its checkpoint"


def test_a_multilingual_checkpoint_tells_the_language_once_converted_beside_it(tmp_path):
    from tests.engines.transcription.test_whisper_ct2 import save_openai_checkpoint

    checkpoint = tmp_path / "base.pt"
    save_openai_checkpoint(base_dir(), checkpoint)
    checker = LanguageChecker(LocalModel(name="base", format="pt", path=checkpoint, imported=True))
    mandarin = np.concatenate([recording(MANDARIN)] * 2)
    assert [window.language for window in checker.heard(mandarin)] == ["zh"]
    assert (tmp_path / "base.ct2" / "model.bin").is_file()


def test_long_speech_is_listened_to_at_its_start_middle_and_end():
    minute = 60 * SECOND
    assert listened_windows(int(0.5 * SECOND)) == [], "a word or two is not checked"
    assert listened_windows(minute + 10 * SECOND) == [(0, 30 * SECOND), (30 * SECOND, minute),
                                                      (minute, minute + 10 * SECOND)]
    starts = [start // SECOND for start, _ in listened_windows(10 * minute)]
    assert starts == [0, 300, 570], "a meeting that turns to another language half-way is heard doing so"
    assert listened_windows(10 * minute + SECOND // 2)[-1] == (570 * SECOND, 600 * SECOND), "not a last scrap"


def test_speech_that_turns_from_english_to_mandarin_is_heard_doing_so():
    """Two minutes of a meeting: under a minute of English, then Mandarin. The start alone would say English."""
    english, mandarin = [], []
    while sum(part.size for part in english) < 50 * SECOND:
        english += [recording("jfk.flac"), recording("lj050-0131.wav")]
    while sum(part.size for part in english + mandarin) < 110 * SECOND:
        mandarin += [recording("BAC009S0764W0121.wav"), recording(MANDARIN)]
    speech = np.concatenate(english + mandarin)
    assert 50 * SECOND <= sum(part.size for part in english) < 60 * SECOND and speech.size < 120 * SECOND

    heard = LanguageChecker(base()).heard(speech)

    assert [window.language for window in heard] == ["en", "zh", "zh"]  # 0–30 s, 60–90 s, 90 s to the end
    assert all(window.confident for window in heard)


def captioned(engine, *parts: np.ndarray) -> tuple[LiveCaptioner, list[str]]:
    warned: list[str] = []
    captioner = LiveCaptioner(engine, LiveOptions(language=None, tentative=False), on_warning=warned.append)
    pause = np.zeros(SECOND, np.float32)
    audio = np.concatenate([piece for part in parts for piece in (part, pause)])
    for start in range(0, audio.size, SECOND // 10):  # 100 ms blocks, as a microphone delivers them
        captioner.feed(audio[start:start + SECOND // 10])
    captioner.finish()
    return captioner, warned
