"""Run the GPU's known-answer check: the bundled test speech on the GPU and on the processor, compared
(``desktop.core.gpu.known_answer`` judges and keeps the verdict).

The same model is loaded the way a transcription loads it (``loading.load_engine``), on the GPU with
the engine being checked and on the processor with the engine Automatic uses there; the GPU gets a
short warm-up first so the one-time start of its kernels is not counted against it.
"""
from __future__ import annotations

import functools
import logging
import time
from typing import Callable

import numpy as np

from desktop.core.common.audio import SAMPLE_RATE
from desktop.core.gpu.known_answer import GpuVerdict, GpuVerdicts, verdict
from desktop.core.transcription.whisper_models import LocalModel
from desktop.engines.transcription.engine import TranscribeOptions, WhisperEngine
from desktop.engines.transcription import plan

log = logging.getLogger(__name__)

_WARM_UP_SECONDS = 2.0
Loader = Callable[[LocalModel, str, str], WhisperEngine]


def _default_loader(model: LocalModel, engine: str, device: str) -> WhisperEngine:
    from desktop.engines.transcription.decoders.loading import load_engine

    return load_engine(model, engine, device)


def _timed_text(loader: Loader, model: LocalModel, engine: str, device: str, speech: np.ndarray,
                cancelled: Callable[[], bool] | None, clock: Callable[[], float]) -> tuple[str, float]:
    # Greedy decoding without a prompt: the same question to both devices, and the quickest answer.
    options = TranscribeOptions(language="en", beam_size=1, condition_on_previous_text=False, temperature=0.0)
    loaded = loader(model, engine, device)
    try:
        if device == "cuda":
            loaded.transcribe(speech[: int(_WARM_UP_SECONDS * SAMPLE_RATE)], options, cancelled=cancelled)
        start = clock()
        result = loaded.transcribe(speech, options, cancelled=cancelled)
        seconds = clock() - start
    finally:
        loaded.close()
    return " ".join(segment.text for segment in result.segments), seconds


def check_gpu(model: LocalModel, engine: str, key: str, *, cpu_model: LocalModel | None = None,
              cpu_engine: str | None = None, speech: np.ndarray | None = None, loader: Loader | None = None,
              cancelled: Callable[[], bool] | None = None,
              clock: Callable[[], float] = time.perf_counter) -> GpuVerdict:
    """Transcribe the test speech with ``engine`` on the GPU and on the processor and judge the GPU.

    cpu_model/cpu_engine: what runs on the processor (default: the same model and engine). Raises the
    engines' UserFacingError when a model cannot load, and Cancelled; a GPU that fails while loading or
    decoding raises what it raised, for the GPU fallback to judge.
    """
    loader = loader or _default_loader
    if speech is None:
        from desktop.engines.transcription.computer_measurement import bundled_speech

        speech = bundled_speech()
    gpu_text, gpu_seconds = _timed_text(loader, model, engine, "cuda", speech, cancelled, clock)
    cpu_text, cpu_seconds = _timed_text(loader, cpu_model or model, cpu_engine or engine, "cpu", speech, cancelled,
                                        clock)
    result = verdict(engine, model.name, key, gpu_text=gpu_text, cpu_text=cpu_text, gpu_seconds=gpu_seconds,
                     cpu_seconds=cpu_seconds)
    log.info("GPU check of %s with %s: word error %.3f, GPU %.2f s, CPU %.2f s", model.name, engine,
             result.word_error, gpu_seconds, cpu_seconds)
    return result


def checked_verdict(verdicts: GpuVerdicts, model: LocalModel, engine: str, key: str, **options) -> GpuVerdict:
    """The kept verdict on ``engine`` for this machine as it is now, or a new check, kept."""
    kept = verdicts.latest(engine, key)
    if kept is not None:
        return kept
    new = check_gpu(model, engine, key, **options)
    try:
        verdicts.add(new)
    except Exception:  # noqa: BLE001 - an unwritable file means checking again next time, nothing worse
        log.warning("The GPU check's verdict could not be kept", exc_info=True)
    return new


class GpuProof:
    """What the Transcriber asks before it uses the GPU: which engine Automatic takes there, and whether
    the GPU has proved its answers with the engine about to run. The Transcriber owns the loading (in an
    engine process), so it hands in a ``loader``; the verdicts and speed records are files of their own."""

    def __init__(self, verdicts: GpuVerdicts | None = None, records=None, *, key: Callable[[], str] | None = None,
                 clock: Callable[[], float] = time.perf_counter):
        from desktop.core.transcription.speed_records import SpeedRecords

        self.verdicts = verdicts or GpuVerdicts()
        self.records = records or SpeedRecords()
        self._key = key or current_check_key
        self._clock = clock
        self.last: GpuVerdict | None = None  # the verdict behind the last decision, for the status bar

    def key(self) -> str:
        return self._key()

    def kept(self, engine: str) -> GpuVerdict | None:
        """The verdict on ``engine`` for this machine as it is now, when it was checked already."""
        return self.verdicts.latest(engine, self.key())

    def automatic_engine(self, model_name: str, ct2_gpu_count: int):
        """Automatic's engine on the GPU for ``model_name`` (desktop.core.gpu.engine_choice)."""
        from desktop.core.gpu.engine_choice import automatic_gpu_engine
        from desktop.core.transcription.speed_records import machine_key

        machine, key = machine_key(), self.key()
        factors = {record.engine: record.factor for record in self.records.all()
                   if record.machine == machine and record.model == model_name and record.device == "cuda"}
        verdicts = {engine: self.verdicts.latest(engine, key) for engine in ("torch", "ct2")}
        return automatic_gpu_engine(ct2_gpu_count, factors, verdicts)

    def prove(self, model: LocalModel, engine: str, loader: Loader, *, cpu_model: LocalModel | None = None,
              cpu_engine: str | None = None, cancelled: Callable[[], bool] | None = None) -> GpuVerdict:
        self.last = checked_verdict(self.verdicts, model, engine, self.key(), cpu_model=cpu_model,
                                    cpu_engine=cpu_engine, loader=loader, cancelled=cancelled, clock=self._clock)
        return self.last


def current_check_key() -> str:
    """check_key for this machine as it is now (library versions, cards, ROCm release, kernel)."""
    from desktop.core.gpu.known_answer import check_key
    from desktop.core.transcription.speed_records import machine_key

    return check_key(machine_key(), _installed_rocm())


@functools.lru_cache(maxsize=1)
def _installed_rocm() -> str | None:
    """Read once per process, like the machine key: ROCm is not upgraded under a running VoxDesk."""
    from desktop.core.gpu.device import Probes, rocm_release

    return rocm_release(Probes())


def record_wrong_answers(fallbacks, job: str, wrong: GpuVerdict) -> None:
    """A GPU that gave other words than the processor: unusable for the session, said as a fallback entry."""
    from datetime import datetime

    from desktop.core.gpu.fallback import FallbackEvent
    from desktop.core.gpu.known_answer import WRONG_FIX
    from desktop.core.common.i18n import N_

    fallbacks.mark_gpu_unusable()
    fallbacks.record(FallbackEvent(datetime.now().astimezone(), job, N_("KnownAnswer", "GPU check"),
                                   wrong.sentence(), WRONG_FIX))


def isolated_loader(model: LocalModel, engine: str, device: str) -> WhisperEngine:
    """Load in an engine process of its own, as a transcription does: a GPU that crashes ends only that."""
    from desktop.engines.transcription.process.isolated import IsolatedEngine

    return IsolatedEngine(model, engine, device).load(None)


def doctor_check(store, model_name: str, *, verdicts: GpuVerdicts | None = None,
                 ct2_gpu_count: Callable[[], int] | None = None, loader: Loader | None = None) -> list[GpuVerdict]:
    """The doctor's known-answer check: every GPU engine that can run ``model_name`` here, checked
    afresh and kept (an empty list when the model is not on this computer)."""
    verdicts = verdicts or GpuVerdicts()
    loader = loader or isolated_loader
    local = {model.format: model for model in store.local(model_name)}
    if not local:
        return []
    count = ct2_gpu_count() if ct2_gpu_count is not None else plan.ct2_gpu_count()
    cpu_model = local.get("ct2") or local.get("pt")
    cpu_engine = "ct2" if cpu_model.format == "ct2" else "torch"
    key = current_check_key()
    found = []
    for engine, model in (("torch", local.get("pt") or local.get("ct2")), ("ct2", local.get("ct2"))):
        if model is None or (engine == "ct2" and count <= 0):
            continue
        result = check_gpu(model, engine, key, cpu_model=cpu_model, cpu_engine=cpu_engine, loader=loader)
        try:
            verdicts.add(result)
        except Exception:  # noqa: BLE001 - shown all the same; kept next time
            log.warning("The GPU check's verdict could not be kept", exc_info=True)
        found.append(result)
    return found
