"""Speech from the Coqui voices carries VoxDesk's watermark unless the settings leave it out.

The tiny random VITS models speak noise, but the mark is applied and found on it all the same.
"""
import numpy as np
import pytest

from desktop.core.gpu.fallback import FallbackLog
from desktop.core.speech.tts_models import TtsModelStore
from desktop.engines.speech.tts import SpeechSynthesizer, SynthesisSettings
from desktop.engines.voices.watermark import carries_watermark, watermark_score

TEXT = "Hello everyone. The office opens at nine."


@pytest.fixture(scope="module")
def engine(tmp_path_factory, tiny_folders):
    store = TtsModelStore(tmp_path_factory.mktemp("voices"))
    store.import_folder(tiny_folders["single"])
    engine = SpeechSynthesizer(store, FallbackLog())
    yield engine
    engine.release()


def speak(engine, *, watermark: bool):
    streamed = []
    speech = engine.synthesize(TEXT, SynthesisSettings(model="imported/tiny-english", watermark=watermark),
                               on_sentence=streamed.append)
    return speech, streamed


def test_speech_carries_the_watermark_by_default():
    assert SynthesisSettings().watermark


def test_every_sentence_streamed_and_the_whole_speech_carry_the_mark(engine):
    speech, streamed = speak(engine, watermark=True)

    assert len(streamed) == 2
    assert all(carries_watermark(sentence.samples, sentence.sample_rate) for sentence in streamed)
    assert carries_watermark(speech.samples, speech.sample_rate)
    assert np.max(np.abs(speech.samples)) <= 1.0


def test_speech_made_with_the_mark_turned_off_carries_none(engine):
    speech, streamed = speak(engine, watermark=False)

    assert len(streamed) == 2
    assert not any(carries_watermark(sentence.samples, sentence.sample_rate) for sentence in streamed)
    assert watermark_score(speech.samples, speech.sample_rate) < 0.5
