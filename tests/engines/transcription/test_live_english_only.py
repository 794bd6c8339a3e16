"""Live captions with an English-only model on Auto-detect say, once, when the speech seems to be in
another language, and say nothing of it over English. Real tiny.en, real Mandarin and English speech."""
from __future__ import annotations

import numpy as np
import pytest

from desktop.core.transcription.english_only import OTHER_LANGUAGE_WARNING
from desktop.engines.transcription.decoders.loading import load_engine
from desktop.engines.transcription.live.captioner import LiveCaptioner, LiveOptions
from tests.helpers.weights import ModelRef, recording, tiny_en_dir

pytestmark = pytest.mark.slow

SECOND = 16000


@pytest.fixture(scope="module")
def engine():
    import ctranslate2

    ctranslate2.set_random_seed(0)  # as the engine process does: the same words every run where Whisper samples
    engine = load_engine(ModelRef("tiny.en", "ct2", tiny_en_dir()), "ct2", "cpu")
    yield engine
    engine.close()


def captioned(engine, *names: str) -> tuple[LiveCaptioner, list[str]]:
    warned: list[str] = []
    captioner = LiveCaptioner(engine, LiveOptions(language=None, tentative=False), on_warning=warned.append)
    pause = np.zeros(SECOND, np.float32)
    audio = np.concatenate([part for name in names for part in (recording(name), pause)])
    for start in range(0, audio.size, SECOND // 10):  # 100 ms blocks, as a microphone delivers them
        captioner.feed(audio[start:start + SECOND // 10])
    captioner.finish()
    return captioner, warned


def test_mandarin_under_an_english_only_model_is_warned_of_once(engine):
    captioner, warned = captioned(engine, "BAC009S0764W0121.wav", "BAC009S0764W0122.wav")
    assert warned == [OTHER_LANGUAGE_WARNING]
    assert captioner.lines.warnings == [OTHER_LANGUAGE_WARNING]
    transcript = captioner.lines.transcript(duration=captioner.seconds, source=None)
    assert transcript.warnings == [OTHER_LANGUAGE_WARNING]


def test_english_under_an_english_only_model_is_not_warned_of(engine):
    captioner, warned = captioned(engine, "jfk.flac", "lj050-0131.wav")
    assert warned == [] and captioner.lines.warnings == []
    assert "country" in " ".join(line.segment.text for line in captioner.lines.committed)
