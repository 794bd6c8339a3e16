"""Finishing a chunk on another engine after a failure, keeping the segments already shown.

When the GPU fails part-way through a chunk, what it decoded so far is on screen already. Only the
audio after the last shown segment is decoded again, on the next engine, and its segments follow the
shown ones: nothing shown is lost, and nothing is shown twice.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

import numpy as np

from desktop.core.transcription.transcript import Segment
from desktop.engines.transcription import repetition, vad
from desktop.engines.transcription.base import SAMPLE_RATE, CancelCheck, EngineResult, TranscribeOptions, WhisperEngine

ECHO_SECONDS = 1.5  # a first segment this short, this close to the cut, saying the last words again, is their echo


class ShownSegments:
    """The segments of one chunk as they were shown, and decoding that carries on after them."""

    def __init__(self, show: Callable[[Segment], None]):
        self._show = show
        self.segments: list[Segment] = []

    def decode(self, engine: WhisperEngine, samples: np.ndarray, options: TranscribeOptions,
               progress: Callable[[float], None], cancelled: CancelCheck | None) -> EngineResult:
        """``samples`` decoded by ``engine``; after segments were shown, only the audio that follows them."""
        if not self.segments:
            return engine.transcribe(samples, options, on_progress=progress, on_segment=self._add,
                                     cancelled=cancelled)
        cut = min(len(samples), round(self.segments[-1].end * SAMPLE_RATE))
        offset, total = cut / SAMPLE_RATE, max(len(samples) / SAMPLE_RATE, 1e-6)
        shown = list(self.segments)
        kept: list[Segment] = []

        def show_rest(segment: Segment) -> None:
            moved = _shifted(segment, offset)
            if not kept and self._echoes_last(moved):
                return
            kept.append(moved)
            self._add(moved)

        rest = engine.transcribe(samples[cut:], options, cancelled=cancelled, on_segment=show_rest,
                                 on_progress=lambda f: progress((offset + f * (total - offset)) / total))
        before = vad.prepare(samples[:cut], options.vad)[1].speech_stretches(offset)
        return EngineResult(
            segments=shown + kept,
            language=rest.language,
            speech=before + [(start + offset, end + offset) for start, end in rest.speech],
            avg_logprobs=[],  # the shown segments' are gone with the failed engine
        )

    def _add(self, segment: Segment) -> None:
        self.segments.append(segment)
        self._show(segment)

    def _echoes_last(self, segment: Segment) -> bool:
        """Whether ``segment`` only says again the end of the last shown one: the cut fell inside its
        last word, whose tail the next engine heard as a word of its own."""
        last = self.segments[-1]
        own = " ".join(repetition.tokens(segment.text))
        if segment.end - segment.start > ECHO_SECONDS or segment.start - last.end > ECHO_SECONDS:
            return False
        return not own or own in " ".join(repetition.tokens(last.text))


def _shifted(segment: Segment, offset: float) -> Segment:
    return replace(segment, start=segment.start + offset, end=segment.end + offset,
                   words=[replace(w, start=w.start + offset, end=w.end + offset) for w in segment.words])
