"""Nothing heard is lost: on a real recording that switches from English to Mandarin, speech Whisper's
first decoding skipped is decoded on its own; what still cannot be transcribed is named; a loop
Whisper falls into is decoded again; a file whose speech yields no text at all fails with a sentence."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import opencc
import pytest

from desktop.core.common.errors import UserFacingError
from desktop.core.gpu.fallback import FallbackLog
from desktop.core.transcription.transcript import Segment, Transcript
from desktop.core.transcription.whisper_models import ModelStore
from desktop.engines.transcription.engine import EngineResult
from desktop.engines.transcription.transcriber import TranscribeSettings, Transcriber
from tests.helpers.weights import DATA_DIR, base_dir, error_rate, normalize_english, reference, tiny_en_dir

pytestmark = pytest.mark.slow

MIXED = DATA_DIR / "mixed_en_zh.wav"  # two English Harvard sentences, then one Mandarin AISHELL sentence
MANDARIN = reference("BAC009S0764W0121.wav")
TO_SIMPLIFIED = opencc.OpenCC("t2s")


class WrappedEngine:
    """The real engine, with what its decodings give back changed by ``change(call, options, result)``."""

    def __init__(self, real, change):
        self.real, self.change = real, change
        self.name, self.device, self.model_name = real.name, real.device, real.model_name
        self.calls = []

    def transcribe(self, audio, options, *, on_segment=None, **kwargs):
        result = self.real.transcribe(audio, options, **kwargs)
        self.calls.append(options)
        result = self.change(len(self.calls), options, result)
        for segment in result.segments:
            if on_segment is not None:
                on_segment(segment)
        return result

    def expect(self, seconds):
        self.real.expect(seconds)

    def close(self):
        self.real.close()


class TranscriberWithWrappedEngine(Transcriber):
    def __init__(self, store, change):
        super().__init__(store, FallbackLog(), gpu_available=lambda: False)
        self.change = change
        self.engine = None

    def _load(self, model, plan):
        self.engine = WrappedEngine(super()._load(model, plan), self.change)
        return self.engine


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> ModelStore:
    return ModelStore(tmp_path_factory.mktemp("models"))


@pytest.fixture(scope="module")
def transcriber(store) -> Iterator[Transcriber]:
    transcriber = Transcriber(store, FallbackLog(), gpu_available=lambda: False)
    yield transcriber
    transcriber.release()


def base(engine: str = "ct2", **overrides) -> TranscribeSettings:
    return TranscribeSettings(model=str(base_dir()), engine=engine, device="cpu", **overrides)


def is_cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def character_error_rate(ref: str, hyp: str) -> float:
    return error_rate([ch for ch in ref if ch.isalnum()], [ch for ch in hyp if ch.isalnum()])


@pytest.mark.parametrize("engine", ["ct2", "torch"])
def test_a_switch_to_mandarin_mid_recording_keeps_every_sentence_each_in_its_own_language(transcriber, engine):
    transcript = transcriber.transcribe_file(MIXED, base(engine))

    english = [s for s in transcript.segments if not is_cjk(s.text)]
    mandarin = [s for s in transcript.segments if is_cjk(s.text)]
    assert "a thin stripe runs down the middle" in normalize_english(" ".join(s.text for s in english))
    assert all(s.text.isascii() for s in english), english
    assert mandarin, [s.text for s in transcript.segments]
    spoken = "".join(s.text for s in mandarin)
    assert character_error_rate(MANDARIN, spoken) <= 0.2, spoken
    assert TO_SIMPLIFIED.convert(spoken) == spoken, "Simplified characters"
    assert all(s.start >= 4.0 for s in mandarin), "the Mandarin sentence comes last"
    starts = [s.start for s in transcript.segments]
    assert starts == sorted(starts)
    assert all(a.end <= b.start for a, b in zip(transcript.segments, transcript.segments[1:]))
    assert transcript.gaps == []


def test_speech_that_no_decoding_can_transcribe_is_named_with_its_time(store):
    def first_decoding_only(call, options, result):
        return result if call == 1 else replace(result, segments=[], avg_logprobs=[])

    transcriber = TranscriberWithWrappedEngine(store, first_decoding_only)
    transcript = transcriber.transcribe_file(MIXED, base())

    assert not any(is_cjk(s.text) for s in transcript.segments)
    (gap,) = transcript.gaps
    assert 4.2 <= gap.start <= 5.2 and 7.8 <= gap.end <= 8.8, gap
    assert gap.message == "0:04–0:08: speech that could not be transcribed"
    assert transcriber.engine.calls[1].language is None, "the stretch had its own language detection"
    restored = Transcript.from_dict(transcript.to_dict())
    assert restored.gaps == transcript.gaps and restored.segments == transcript.segments


def test_a_file_whose_speech_gives_no_text_at_all_fails_with_a_sentence(store):
    def nothing(call, options, result):
        return replace(result, segments=[], avg_logprobs=[])

    transcriber = TranscriberWithWrappedEngine(store, nothing)
    with pytest.raises(UserFacingError) as error:
        transcriber.transcribe_file(DATA_DIR / "jfk.flac", base(language="en"))
    assert "none of it could be transcribed" in error.value.message


def test_a_loop_in_the_first_decoding_is_replaced_by_decoding_it_again(tmp_path_factory):
    import ctranslate2

    ctranslate2.set_random_seed(0)  # the second decoding samples at a higher temperature
    store = ModelStore(tmp_path_factory.mktemp("tiny"))
    store.import_model(tiny_en_dir(), "tiny-test")
    looped = " And so, my fellow Americans, and so, my fellow Americans, and so, my fellow Americans,"

    def loop_first(call, options, result):
        if call > 1:
            return result
        # Whisper's loop: the first words again and again over the whole recording.
        start, end = result.segments[0].start, result.segments[-1].end
        return replace(result, segments=[Segment(start=start, end=end, text=looped)], avg_logprobs=[-0.3])

    transcriber = TranscriberWithWrappedEngine(store, loop_first)
    transcript = transcriber.transcribe_file(DATA_DIR / "jfk.flac", TranscribeSettings(model="tiny-test",
                                                                                       language="en"))

    assert normalize_english(transcript.text) == normalize_english(reference("jfk.flac"))
    again = transcriber.engine.calls[1]
    assert again.initial_prompt is None and not again.condition_on_previous_text and again.temperature > 0
