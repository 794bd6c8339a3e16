"""Finishing a chunk on another engine after a failure, keeping the segments already shown.

When the GPU fails part-way through a chunk, what it decoded so far is on screen already. Only the
audio after the last shown segment is decoded again, on the next engine, and its segments follow the
shown ones: nothing shown is lost, and nothing is shown twice.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from desktop.core.common.audio import SAMPLE_RATE
from desktop.core.transcription.transcript import Segment
from desktop.engines.transcription.review import repetition
from desktop.engines.transcription.decoders import vad
from desktop.engines.transcription.engine import CancelCheck, EngineResult, TranscribeOptions, WhisperEngine

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
        offset = cut / SAMPLE_RATE
        shown = list(self.segments)
        kept: list[Segment] = []

        def show_rest(moved: Segment) -> None:
            if not kept and self._echoes_last(moved):
                return
            kept.append(moved)
            self._add(moved)

        rest = decode_rest(engine, samples, cut, offset, options, on_progress=progress, on_segment=show_rest,
                           cancelled=cancelled)
        before = vad.prepare(samples[:cut], options.vad)[1].speech_stretches(offset)
        return EngineResult(
            segments=shown + kept,
            language=rest.language,
            speech=before + [(start + offset, end + offset) for start, end in rest.speech],
            avg_logprobs=[],  # the shown segments' are gone with the failed engine
            # How it was decoded: as the engine that finished the chunk did it.
            batch_size=rest.batch_size, bf16_encoder=rest.bf16_encoder, compute_type=rest.compute_type,
            device=rest.device, multilingual=rest.multilingual, checked=rest.checked,
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



def decode_rest(engine: WhisperEngine, samples: np.ndarray, first: int, offset: float, options: TranscribeOptions,
                *, on_progress: Callable[[float], None], on_segment: Callable[[Segment], None],
                cancelled: CancelCheck | None, digits: int | None = None) -> EngineResult:
    """``samples`` from sample ``first`` on, decoded by ``engine``: each segment goes to ``on_segment``
    moved by ``offset`` seconds (rounded to ``digits``) onto the timeline of ``samples``, and progress is
    counted over the whole of ``samples``. The result is on the timeline of the rest, as decoded."""
    share = first / max(1, samples.size)
    return engine.transcribe(samples[first:], options, cancelled=cancelled,
                             on_segment=lambda segment: on_segment(segment.shifted(offset, digits=digits)),
                             on_progress=lambda fraction: on_progress(share + (1.0 - share) * fraction))
