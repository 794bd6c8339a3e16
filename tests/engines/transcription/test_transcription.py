"""What both Whisper engines must do on the CPU, with real weights and real recordings.

Each engine/model pair is loaded once for this module, and each (engine, model, recording, options)
transcription runs once and is shared by the tests that look at it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np
import pytest

from desktop.core.common.errors import Cancelled, ModelError, UserFacingError
from desktop.core.transcription.transcript import Segment
from desktop.engines.transcription.engine import EngineResult, TranscribeOptions
from desktop.engines.transcription.decoders.whisper_ct2 import load_ct2_engine
from desktop.engines.transcription.decoders.whisper_batched import load_batched_torch_engine
from tests.helpers.weights import (
    MAX_WER_BETWEEN_DECODERS,
    TINY_EN_MAX_WER,
    ModelRef,
    base_dir,
    normalize_english,
    recording,
    reference,
    tiny_en_dir,
    wer,
)

ENGINES = ["ct2", "torch"]
RATE = 16000


@dataclass
class Run:
    result: EngineResult
    progress: list[float] = field(default_factory=list)
    emitted: list[Segment] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "".join(s.text for s in self.result.segments)


@pytest.fixture(scope="module")
def engine():
    loaded = {}

    def get(kind: str, model: str):
        if (kind, model) not in loaded:
            folder = tiny_en_dir() if model == "tiny.en" else base_dir()
            load = load_ct2_engine if kind == "ct2" else load_batched_torch_engine
            loaded[kind, model] = load(ModelRef(model, "ct2", folder), "cpu")
        return loaded[kind, model]

    yield get
    for loaded_engine in loaded.values():
        loaded_engine.close()


@pytest.fixture(scope="module")
def transcribe(engine):
    runs: dict[tuple, Run] = {}

    def run(kind: str, model: str, name: str, **options) -> Run:
        key = (kind, model, name, tuple(sorted(options.items())))
        if key not in runs:
            progress: list[float] = []
            emitted: list[Segment] = []
            result = engine(kind, model).transcribe(
                recording(name), TranscribeOptions(**options), on_progress=progress.append, on_segment=emitted.append
            )
            runs[key] = Run(result, progress, emitted)
        return runs[key]

    return run


def has_cjk(text: str) -> bool:
    return bool(re.search(r"[\u4e00-\u9fff]", text))


# --- accuracy -------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ENGINES)
@pytest.mark.parametrize("model", ["tiny.en", "base"])
def test_jfk_is_word_perfect(kind, model, transcribe):
    run = transcribe(kind, model, "jfk.flac")
    assert normalize_english(run.text) == normalize_english(reference("jfk.flac"))
    assert run.result.language == "en"


@pytest.mark.parametrize("kind", ENGINES)
def test_lj_speech_is_within_twenty_percent_word_error_with_base(kind, transcribe):
    run = transcribe(kind, "base", "lj050-0131.wav")
    assert wer(reference("lj050-0131.wav"), run.text) <= 0.20


@pytest.mark.parametrize("kind", ENGINES)
def test_mandarin_is_detected_and_written_in_chinese_with_base(kind, transcribe):
    run = transcribe(kind, "base", "BAC009S0764W0121.wav")
    assert run.result.language == "zh"
    assert has_cjk(run.text)
    # The reference is Simplified; Whisper may write Traditional. Most characters still match.
    from opencc import OpenCC

    simplified = OpenCC("t2s").convert(run.text)
    expected = reference("BAC009S0764W0121.wav")
    assert sum(ch in simplified for ch in expected) >= len(expected) // 2


@pytest.mark.parametrize("kind", ENGINES)
def test_translate_turns_mandarin_into_english(kind, transcribe):
    # Unsure of a result, Whisper retries by sampling at higher temperatures: fixed seeds keep any such
    # retry repeatable, and an English prompt naming the topic makes base sure enough not to need one.
    import ctranslate2
    import torch

    torch.manual_seed(0)
    ctranslate2.set_random_seed(0)
    run = transcribe(kind, "base", "BAC009S0764W0122.wav", task="translate", word_timestamps=False,
                     initial_prompt="Housing market news from China.")
    assert run.result.segments
    assert run.result.language == "zh"
    latin = re.findall(r"[A-Za-z]", run.text)
    assert re.search(r"\b[A-Za-z]{2,}\b", run.text)
    assert len(latin) > len(re.findall(r"[\u4e00-\u9fff]", run.text))


@pytest.mark.parametrize("name", ["jfk.flac", "lj050-0131.wav"])
def test_both_engines_give_the_same_words(transcribe, name):
    # CTranslate2 in int8 and torch in float32 are two decoders (tests.helpers.weights): never word for word.
    ct2 = transcribe("ct2", "tiny.en", name)
    torch = transcribe("torch", "tiny.en", name)
    assert wer(reference(name), ct2.text) <= TINY_EN_MAX_WER, ct2.text
    assert wer(reference(name), torch.text) <= TINY_EN_MAX_WER, torch.text
    assert wer(torch.text, ct2.text) <= MAX_WER_BETWEEN_DECODERS, (torch.text, ct2.text)


# --- timing, progress, streaming ------------------------------------------------------------------


@pytest.mark.parametrize("kind", ENGINES)
def test_word_timestamps_are_present_monotonic_and_inside_their_segment(kind, transcribe):
    run = transcribe(kind, "tiny.en", "jfk.flac")
    duration = recording("jfk.flac").size / RATE
    previous_end = 0.0
    for segment in run.result.segments:
        assert segment.words, "every segment carries its words"
        assert segment.start <= segment.end <= duration + 0.05
        for word in segment.words:
            assert segment.start <= word.start <= word.end <= segment.end
            assert word.start >= previous_end - 1e-6
            assert 0.0 <= word.probability <= 1.0
            previous_end = word.end
    assert "".join(w.text for s in run.result.segments for w in s.words).strip() == run.text.strip()


@pytest.mark.parametrize("kind", ENGINES)
def test_progress_rises_to_one_and_every_segment_is_emitted(kind, transcribe):
    run = transcribe(kind, "tiny.en", "jfk.flac")
    assert run.progress and run.progress[-1] == 1.0
    assert run.progress == sorted(run.progress)
    assert all(0.0 <= p <= 1.0 for p in run.progress)
    assert run.emitted == run.result.segments


@pytest.mark.parametrize("kind", ENGINES)
def test_times_stay_on_the_original_timeline_when_silence_is_removed(kind, engine):
    speech = recording("jfk.flac")
    padded = np.concatenate([np.zeros(7 * RATE, np.float32), speech[: 8 * RATE], np.zeros(6 * RATE, np.float32),
                             speech[8 * RATE:]])

    result = engine(kind, "tiny.en").transcribe(padded, TranscribeOptions())

    words = [w for s in result.segments for w in s.words]
    assert normalize_english(" ".join(w.text for w in words)) == normalize_english(reference("jfk.flac"))
    assert words[0].start >= 6.5  # "And" is spoken 7 s in
    ask_what = [w for w in words if w.text.strip().lower().startswith("ask")][-1]
    assert ask_what.start >= 7 + 8 + 6 - 0.6  # the second "ask" comes after the 6 s pause
    assert words[-1].end <= padded.size / RATE


@pytest.mark.parametrize("kind", ENGINES)
def test_without_vad_or_word_timestamps_the_text_is_the_same(kind, transcribe):
    run = transcribe(kind, "tiny.en", "jfk.flac", vad=False, word_timestamps=False)
    assert normalize_english(run.text) == normalize_english(reference("jfk.flac"))
    assert all(not s.words for s in run.result.segments)


# --- silence, cancel, refusals --------------------------------------------------------------------


class ModelCalls:
    """Counts how often the engine's Whisper model actually runs (spying on the real model)."""

    def __init__(self, kind: str, loaded, monkeypatch):
        self.count = 0
        model = loaded._model
        if kind == "torch":
            self._hook = model.encoder.register_forward_pre_hook(lambda *_: self._seen())
        else:
            real = model.transcribe
            monkeypatch.setattr(model, "transcribe", lambda *a, **k: (self._seen(), real(*a, **k))[1])
            self._hook = None

    def _seen(self) -> None:
        self.count += 1

    def remove(self) -> None:
        if self._hook is not None:
            self._hook.remove()


@pytest.mark.parametrize("kind", ENGINES)
def test_silence_gives_no_segments_and_the_model_never_runs(kind, engine, monkeypatch):
    loaded = engine(kind, "tiny.en")
    calls = ModelCalls(kind, loaded, monkeypatch)
    rng = np.random.default_rng(1)
    try:
        for audio in (np.zeros(20 * RATE, np.float32), (0.002 * rng.standard_normal(20 * RATE)).astype(np.float32)):
            progress: list[float] = []
            result = loaded.transcribe(audio, TranscribeOptions(), on_progress=progress.append)
            assert result.segments == []
            assert progress[-1] == 1.0
        assert calls.count == 0
    finally:
        calls.remove()


@pytest.mark.parametrize("kind", ENGINES)
def test_cancel_before_start_raises_cancelled_without_running_the_model(kind, engine, monkeypatch):
    loaded = engine(kind, "tiny.en")
    calls = ModelCalls(kind, loaded, monkeypatch)
    try:
        with pytest.raises(Cancelled):
            loaded.transcribe(recording("jfk.flac"), TranscribeOptions(), cancelled=lambda: True)
        assert calls.count == 0
    finally:
        calls.remove()


@pytest.mark.parametrize("kind", ENGINES)
def test_cancel_during_a_long_recording_stops_before_the_end(kind, engine):
    jfk, lj = recording("jfk.flac"), recording("lj050-0131.wav")
    gap = np.zeros(RATE, np.float32)
    # About 40 s, so two 30-second windows, decoded one at a time (a cancel is noticed between batches);
    # two different texts, so no window looks like a repetition loop (which would make Whisper retry
    # with sampling).
    long_audio = np.concatenate([jfk, gap, lj, gap, jfk, gap, lj])
    progress: list[float] = []
    emitted: list[Segment] = []

    def cancelled() -> bool:
        return bool(progress)  # stop as soon as the first piece of work is reported

    with pytest.raises(Cancelled):
        engine(kind, "tiny.en").transcribe(
            long_audio, TranscribeOptions(beam_size=1, word_timestamps=False, batch_size=1),
            on_progress=progress.append, on_segment=emitted.append, cancelled=cancelled,
        )
    assert progress and progress[-1] < 1.0


@pytest.mark.parametrize("kind", ENGINES)
def test_a_cancel_while_the_last_window_decodes_ends_in_cancelled_not_a_finished_transcript(kind, engine):
    # The user presses Cancel while the one window of a short recording decodes: what comes back is
    # "cancelled", as for a cancel in any earlier window, not a transcript that seems to ignore it.
    pressed: list[Segment] = []
    with pytest.raises(Cancelled):
        engine(kind, "tiny.en").transcribe(recording("jfk.flac"), TranscribeOptions(beam_size=1),
                                           on_segment=pressed.append, cancelled=lambda: bool(pressed))
    assert pressed


@pytest.mark.parametrize("kind", ENGINES)
def test_an_english_only_model_refuses_other_languages_and_translation(kind, engine):
    loaded = engine(kind, "tiny.en")
    audio = recording("jfk.flac")
    with pytest.raises(ModelError, match="only understands English"):
        loaded.transcribe(audio, TranscribeOptions(language="zh"))
    with pytest.raises(ModelError, match="cannot translate"):
        loaded.transcribe(audio, TranscribeOptions(task="translate"))


@pytest.mark.parametrize("kind", ENGINES)
def test_an_unknown_language_code_is_explained(kind, engine):
    with pytest.raises(UserFacingError, match="not a language Whisper knows"):
        engine(kind, "base").transcribe(recording("jfk.flac"), TranscribeOptions(language="klingon"))
