"""Measure how fast each Whisper model on this computer transcribes: 10 s of the bundled test speech per
model, engine and device, loaded the way a transcription loads it (``loading.load_engine``).

The result is a real-time factor: seconds of audio per second of work (15 means a 1-hour recording
takes about 4 minutes). Model loading is not counted; on the GPU a short warm-up runs first, so the
one-time start of the GPU's kernels is not counted either.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

from desktop.core.common.errors import Cancelled, UserFacingError
from desktop.core.transcription.speed_records import SpeedRecord, SpeedRecords, machine_key
from desktop.core.transcription.whisper_models import LocalModel, ModelStore
from desktop.engines.transcription.base import SAMPLE_RATE, TranscribeOptions

TEST_SPEECH = ("speech", "test-speech.flac")  # under resources/: 10 s of English speech
TEST_SECONDS = 10.0
_WARM_UP_SECONDS = 2.0


@dataclass(frozen=True)
class Trial:
    """One measurement to make: a model on disk, run by one engine on one device."""

    model: LocalModel
    engine: str  # "torch" or "ct2"
    device: str  # "cuda" or "cpu"


def bundled_speech() -> np.ndarray:
    """The bundled test speech, 16 kHz mono, at most TEST_SECONDS long."""
    from importlib.resources import as_file

    from desktop.core.common import audio
    from desktop.resources import resource_path

    with as_file(resource_path(*TEST_SPEECH)) as path:
        samples = audio.decode(path)
    return samples[: int(TEST_SECONDS * SAMPLE_RATE)]


def measure(trial: Trial, speech: np.ndarray, cancelled: Callable[[], bool] | None = None) -> float:
    """The real-time factor of one trial. Raises the engine's UserFacingError, or Cancelled."""
    from desktop.engines.transcription.loading import load_engine

    options = TranscribeOptions(language="en")
    engine = load_engine(trial.model, trial.engine, trial.device)
    try:
        if trial.device == "cuda":
            engine.transcribe(speech[: int(_WARM_UP_SECONDS * SAMPLE_RATE)], options, cancelled=cancelled)
        start = time.perf_counter()
        engine.transcribe(speech, options, cancelled=cancelled)
        elapsed = time.perf_counter() - start
    finally:
        engine.close()
    return (len(speech) / SAMPLE_RATE) / max(elapsed, 1e-6)


@dataclass(frozen=True)
class Devices:
    """Where the engines can run on this computer."""

    torch_gpu: bool
    ct2_gpu: bool


def devices_of(transcriber) -> Devices:
    """Ask the Transcriber's own planning where each engine runs (the same rules as a transcription)."""
    from desktop.engines.transcription.transcriber import TranscribeSettings

    try:
        torch_plan = transcriber.plan(TranscribeSettings(engine="torch", device="gpu"))
    except UserFacingError:  # no working GPU
        return Devices(torch_gpu=False, ct2_gpu=False)
    ct2_plan = transcriber.plan(TranscribeSettings(engine="ct2", device="gpu"))
    return Devices(torch_gpu=torch_plan.device == "cuda", ct2_gpu=ct2_plan.device == "cuda")


def trials_for(models: list[LocalModel], devices: Devices) -> list[Trial]:
    """Each engine on each device where it runs, with the format it loads without converting.

    openai-whisper (torch) loads .pt files, CTranslate2 its own folders. torch on the CPU is measured
    only for a model that has no CTranslate2 copy, since that is the only way such a model runs there.
    """
    formats = {model.format for model in models}
    trials = []
    for model in models:
        if model.format == "ct2":
            trials.append(Trial(model, "ct2", "cpu"))
            if devices.ct2_gpu:
                trials.append(Trial(model, "ct2", "cuda"))
        else:
            if devices.torch_gpu:
                trials.append(Trial(model, "torch", "cuda"))
            if "ct2" not in formats:
                trials.append(Trial(model, "torch", "cpu"))
    return trials


def measure_computer(
    store: ModelStore,
    records: SpeedRecords,
    devices: Devices,
    *,
    only_missing: bool,
    on_progress: Callable[[float], None] | None = None,
    on_record: Callable[[SpeedRecord], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> list[SpeedRecord]:
    """Measure every model on this computer (smallest first) and keep the results in ``records``.

    only_missing: skip what was already measured on this machine (the quiet run after the first
    transcription); otherwise measure everything again (Tools → Measure this computer). A model that
    fails to load is skipped: the transcription itself will say what is wrong with it.
    """
    machine = machine_key()
    done_before = records.measured(machine) if only_missing else set()
    trials = [trial for name in store.names() for trial in trials_for(store.local(name), devices)
              if (trial.model.name, trial.engine, trial.device) not in done_before]
    speech = bundled_speech() if trials else None
    results = []
    for number, trial in enumerate(trials):
        if cancelled is not None and cancelled():
            raise Cancelled()
        try:
            factor = measure(trial, speech, cancelled)
        except UserFacingError:
            continue
        record = records.add(trial.model.name, trial.engine, trial.device, machine, factor)
        results.append(record)
        if on_record is not None:
            on_record(record)
        if on_progress is not None:
            on_progress((number + 1) / len(trials))
    return results
