"""When the transcription server fails, finish on this computer, like a GPU fallback.

What the server had already passed on stays; the local engine transcribes the rest of the chunk from
the point the server stopped (``ServerStopped.resume_at``), so nothing is shown twice and nothing is
lost. The failure is recorded in the FallbackLog with its fix, so the window lists it.
"""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Callable

import numpy as np

from desktop.core.common.i18n import N_
from desktop.core.gpu.fallback import FallbackEvent, FallbackLog
from desktop.core.transcription.transcript import Segment
from desktop.engines.transcription.base import SAMPLE_RATE, EngineResult, TranscribeOptions, WhisperEngine
from desktop.engines.transcription.whisper_server import ServerStopped

SERVER_STAGE = N_("Fallback", "transcription server")
CONTINUING_LOCALLY = N_("Engine", "The transcription server failed; continuing on this computer…")


def transcribe_with_server_fallback(
    engine: WhisperEngine, samples: np.ndarray, options: TranscribeOptions, *,
    on_progress: Callable[[float], None], emit: Callable[[Segment], None], cancelled: Callable[[], bool],
    local_engine: Callable[[], WhisperEngine], log: FallbackLog, job: str,
    on_status: Callable[[str], None] | None = None,
) -> tuple[EngineResult, WhisperEngine]:
    """Run one chunk on the server; when it fails, the rest on ``local_engine()``. Returns the result and
    the engine for the next chunks (the local one after a failure)."""
    try:
        return engine.transcribe(samples, options, on_progress=on_progress, on_segment=emit, cancelled=cancelled), engine
    except ServerStopped as stop:
        log.record(FallbackEvent(datetime.now().astimezone(), job, SERVER_STAGE, stop.message, stop.fix,
                                 from_server=True))
        if on_status:
            on_status(CONTINUING_LOCALLY)
        local = local_engine()
        return _rest_on(local, stop, samples, options, on_progress, emit, cancelled), local


def _rest_on(local: WhisperEngine, stop: ServerStopped, samples: np.ndarray, options: TranscribeOptions,
             on_progress, emit, cancelled) -> EngineResult:
    offset = stop.resume_at
    first = min(samples.size, round(offset * SAMPLE_RATE))
    share = first / max(1, samples.size)

    def progress(fraction: float) -> None:
        on_progress(share + (1.0 - share) * fraction)

    rest = local.transcribe(samples[first:], options, on_progress=progress,
                            on_segment=lambda segment: emit(_shifted(segment, offset)), cancelled=cancelled)
    done = stop.finished
    segments = done.segments + [_shifted(segment, offset) for segment in rest.segments]
    logprobs = done.avg_logprobs + rest.avg_logprobs if len(done.avg_logprobs) == len(done.segments) else []
    return EngineResult(
        segments=segments,
        language=done.language or rest.language,
        speech=done.speech + [(round(start + offset, 3), round(end + offset, 3)) for start, end in rest.speech],
        avg_logprobs=logprobs if len(logprobs) == len(segments) else [],
        notes=done.notes + [note.shifted(offset) for note in rest.notes],
    )


def _shifted(segment: Segment, offset: float) -> Segment:
    if offset == 0:
        return segment
    return replace(segment, start=round(segment.start + offset, 3), end=round(segment.end + offset, 3),
                   words=[replace(w, start=round(w.start + offset, 3), end=round(w.end + offset, 3))
                          for w in segment.words])
