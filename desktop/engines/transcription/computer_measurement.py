"""Measure how fast each Whisper model on this computer transcribes: 10 s of the bundled test speech per
model, engine and device, loaded the way a transcription loads it (``loading.load_engine``).

The result is a real-time factor: seconds of audio per second of work (15 means a 1-hour recording
takes about 4 minutes). Model loading is not counted; on the GPU a short warm-up runs first, so the
one-time start of the GPU's kernels is not counted either.

For each CTranslate2 model it also measures which of the fast engine's encoders is faster on this
processor (``bf16_encoder.measure``), in a process of its own: that is where an engine process would
import torch, and a processor that cannot run torch's kernels ends only that process.
"""
from __future__ import annotations

import json
import logging
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from desktop.core.common.audio import SAMPLE_RATE
from desktop.core.common.errors import Cancelled, UserFacingError
from desktop.core.transcription.speed_records import EncoderRecord, SpeedRecord, SpeedRecords, machine_key
from desktop.core.transcription.whisper_models import LocalModel, ModelStore
from desktop.engines.transcription.engine import TranscribeOptions

log = logging.getLogger(__name__)

TEST_SPEECH = ("speech", "test-speech.flac")  # under resources/: 10 s of English speech
TEST_SECONDS = 10.0
_WARM_UP_SECONDS = 2.0
ENCODER_MEASURE_SECONDS = 900.0  # at most, for one model's encoders (a large model on a slow processor)
_POLL_SECONDS = 0.1


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
    from desktop.engines.transcription.decoders.loading import load_engine

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
    from desktop.engines.transcription.plan import TranscribeSettings

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
    encoders = [trial.model for trial in trials_for_encoders(store)
                if not (only_missing and records.encoder(trial.model.name, machine) is not None)]
    steps = len(trials) + len(encoders)
    speech = bundled_speech() if steps else None
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
            on_progress((number + 1) / steps)
    for number, model in enumerate(encoders, start=len(trials)):
        figures = measure_encoders(model, speech, cancelled)
        if figures is not None:
            records.add_encoder(model.name, machine, **figures)
        if on_progress is not None:
            on_progress((number + 1) / steps)
    return results


def trials_for_encoders(store: ModelStore) -> list[Trial]:
    """The CTranslate2 models on this computer, whose two encoders can be compared on the processor."""
    return [Trial(model, "ct2", "cpu") for name in store.names() for model in store.local(name)
            if model.format == "ct2"]


def measure_encoders(model: LocalModel, speech: np.ndarray, cancelled: Callable[[], bool] | None = None,
                     limit_seconds: float = ENCODER_MEASURE_SECONDS) -> dict | None:
    """Seconds per window of each encoder, and of loading torch's, measured in a process of its own
    (keyword arguments of ``SpeedRecords.add_encoder``); None when nothing could be learnt (a damaged
    model, short memory, the time limit). A process that dies after timing CTranslate2's encoder, as on
    a processor that cannot run torch's kernels, means torch's encoder cannot run here. Raises
    Cancelled."""
    from desktop.engines.transcription.process.started_ahead import child_environment

    with tempfile.TemporaryDirectory(prefix="voxdesk-encoders-") as scratch:
        speech_file = Path(scratch) / "speech.f32"
        np.asarray(speech, dtype=np.float32).tofile(speech_file)
        with open(Path(scratch) / "out", "w+b") as out:
            child = subprocess.Popen(
                [sys.executable, "-m", "desktop.engines.transcription.decoders.bf16_encoder", str(model.path), str(speech_file)],
                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.PIPE, env=child_environment())
            try:
                _wait(child, cancelled, time.monotonic() + limit_seconds)
            finally:
                if child.poll() is None:
                    child.kill()
                _, error = child.communicate()
            out.seek(0)
            lines = [line for line in out.read().decode("utf-8", "replace").splitlines() if line.startswith("{")]
    if child.returncode != 0:
        log.warning("measuring the encoders of %s: exit %s %s", model.name, child.returncode,
                    error.decode("utf-8", "replace").strip()[-500:])
    figures = _figures(lines[-1]) if lines else None
    if figures is None or "bf16_seconds" in figures:
        return figures
    if child.returncode < 0:  # killed after timing CTranslate2's encoder: by the processor, or the time limit
        return {**figures, "bf16_seconds": None, "load_seconds": None}
    return None  # it failed in Python (a damaged model, short memory): nothing learnt about torch here


def _wait(child: subprocess.Popen, cancelled: Callable[[], bool] | None, deadline: float) -> None:
    while child.poll() is None:
        if cancelled is not None and cancelled():
            raise Cancelled()
        if time.monotonic() > deadline:
            log.warning("measuring the encoders took longer than %.0f s; stopped", ENCODER_MEASURE_SECONDS)
            return
        try:
            child.wait(timeout=_POLL_SECONDS)
        except subprocess.TimeoutExpired:
            pass


def _figures(line: str) -> dict | None:
    """The measurement's last report, with only the figures it may hold."""
    try:
        data = json.loads(line)
    except ValueError:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("int8_seconds"), (int, float)):
        return None
    return {key: data[key] for key in ("int8_seconds", "bf16_seconds", "load_seconds") if key in data}
