"""When the transcription server fails, finish on this computer, like a GPU fallback.

What the server had already passed on stays; the local engine transcribes the rest of the chunk from
the point the server stopped (``ServerStopped.resume_at``), so nothing is shown twice and nothing is
lost. The failure is recorded in the FallbackLog with its fix, so the window lists it.
"""
from __future__ import annotations

from datetime import datetime
from typing import Callable

import numpy as np

from desktop.core.common.audio import SAMPLE_RATE
from desktop.core.common.i18n import N_
from desktop.core.gpu.fallback import FallbackEvent, FallbackLog
from desktop.core.transcription.transcript import Segment
from desktop.engines.transcription.engine import EngineResult, TranscribeOptions, WhisperEngine
from desktop.engines.transcription.run.finish_elsewhere import decode_rest
from desktop.engines.transcription.server.engine import ServerStopped

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
    rest = decode_rest(local, samples, first, offset, options, on_progress=on_progress, on_segment=emit,
                       cancelled=cancelled, digits=3)
    done = stop.finished
    segments = done.segments + [segment.shifted(offset, digits=3) for segment in rest.segments]
    logprobs = done.avg_logprobs + rest.avg_logprobs if len(done.avg_logprobs) == len(done.segments) else []
    return EngineResult(
        segments=segments,
        language=done.language or rest.language,
        speech=done.speech + [(round(start + offset, 3), round(end + offset, 3)) for start, end in rest.speech],
        avg_logprobs=logprobs if len(logprobs) == len(segments) else [],
        notes=done.notes + [note.shifted(offset) for note in rest.notes],
        # How the rest was decoded, the last part of the chunk:
        batch_size=rest.batch_size, bf16_encoder=rest.bf16_encoder, compute_type=rest.compute_type, device=rest.device,
        multilingual=rest.multilingual, checked=rest.checked,
    )

