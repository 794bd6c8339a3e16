"""Whisper's audio encoder in bfloat16 on torch, for the fast (CTranslate2) engine on processors where
it encodes faster than CTranslate2's own: those with bfloat16 instructions (AVX-512 BF16: AMD Zen 4 and
5, Intel Cooper Lake and later) or matrix units (Intel AMX), as measured on this computer.

On the CPU the encoder is most of the work of batched decoding: a full 30-second window each time, run
by CTranslate2 in int8 with its attention in float32. With AMX, torch's encoder in bfloat16 (oneDNN,
scaled-dot-product attention) takes well under half that time per window with the same weights
(BENCHMARKS.md), and CTranslate2 decodes and aligns words from its output unchanged. With AVX-512 BF16
alone the gain is smaller, or none, depending on the processor; without bfloat16 instructions torch
emulates them and is several times slower. So which encoder is faster is measured on this computer
(``measure``, run by Tools → Measure this computer and once quietly, in a process of its own) and kept
with the speed records; the engine follows the measurement.

It costs a torch import (unless torch is loaded already) and the encoder's weights in bfloat16, once per
loaded engine, so the engine switches to it for the first recording long enough to repay that: the
number of windows follows from the measured gain per window and the measured cost of loading.
"""
from __future__ import annotations

import json
import logging
import math
import os
import sys
import threading
import time
from concurrent.futures import Future
from pathlib import Path
from typing import Any, Callable

import numpy as np

from desktop.core.common.errors import ModelError
from desktop.core.common.model_files import check_model
from desktop.core.gpu.device import cpu_flags
from desktop.core.transcription.speed_records import EncoderRecord, SpeedRecords, machine_key
from desktop.engines.transcription.decoders.batching import WINDOW_SECONDS
from desktop.engines.transcription.model_files import ct2_format, weight_mapping
from desktop.engines.transcription.engine import DAMAGED_MODEL

log = logging.getLogger(__name__)

# Before this computer is measured only processors with AMX switch, from this many windows: there
# torch's encoder was measured faster on every model (BENCHMARKS.md; loading takes about 2 s, each
# window of Whisper base saves about 0.3 s). Other processors wait for the measurement.
UNMEASURED_AMX_FROM_WINDOWS = 8
# A measured gain below this share of CTranslate2's time per window is within one measurement's noise.
LEAST_GAIN = 0.1
# The fewest windows worth switching for: a one-window recording gains nothing from the batched path.
FEWEST_WINDOWS = 2
VOCABULARY = 51866  # Whisper's tokens (large-v3; one fewer before it): the decoder's logits per hypothesis


def worth_loading_from_windows(flags: frozenset[str], measured: EncoderRecord | None) -> int | None:
    """From how many 30-second windows a recording repays switching to torch's bfloat16 encoder, for a
    processor with these flags and, where this computer was measured, its measurement; None: never."""
    if measured is None:
        return UNMEASURED_AMX_FROM_WINDOWS if "amx_bf16" in flags else None
    if measured.bf16_seconds is None or measured.load_seconds is None:  # it could not run here
        return None
    gain = measured.int8_seconds - measured.bf16_seconds
    if gain < LEAST_GAIN * measured.int8_seconds:
        return None
    return max(FEWEST_WINDOWS, math.ceil(measured.load_seconds / gain))


def automatic_from_windows(model_name: str, records: SpeedRecords | None = None,
                           cpuinfo: Path = Path("/proc/cpuinfo")) -> int | None:
    """``worth_loading_from_windows`` with this computer's facts: its processor's flags and the encoder
    measurement kept with its speed records."""
    records = records if records is not None else SpeedRecords()
    return worth_loading_from_windows(cpu_flags(cpuinfo), records.encoder(model_name, machine_key()))


class Bf16Encoder:
    """Stands in for faster-whisper's ``WhisperModel.encode``."""

    def __init__(self, encoder: Any):
        self._encoder = encoder
        self._output: np.ndarray | None = None

    @property
    def dims(self) -> dict[str, int]:
        """The model's sizes as ``batching.automatic_batch_size`` reads them: Whisper's text decoder has
        its audio encoder's width and depth."""
        blocks = self._encoder.blocks
        width = self._encoder.ln_post.normalized_shape[0]
        return {"n_audio_ctx": self._encoder.positional_embedding.shape[0], "n_audio_state": width,
                "n_audio_head": blocks[0].attn.n_head, "n_text_layer": len(blocks), "n_text_state": width,
                "n_vocab": VOCABULARY}

    def encode(self, features: np.ndarray) -> Any:
        """Mel features, [batch, n_mels, 3000] or one window [n_mels, 3000], to CTranslate2's encoder
        output [batch, 1500, width] (float32)."""
        import ctranslate2
        import torch

        mel = np.ascontiguousarray(features, dtype=np.float32)
        if mel.ndim == 2:
            mel = mel[None]
        with torch.inference_mode(), torch.autocast("cpu", dtype=torch.bfloat16):
            output = self._encoder(torch.from_numpy(mel))
        # The StorageView reads this array in place: it is kept until the next window replaces it, as
        # faster-whisper is done with one window's encoder output when it encodes the next.
        self._output = output.float().numpy()
        return ctranslate2.StorageView.from_array(self._output)


def load_encoder(folder: Path, meminfo: Path = Path("/proc/meminfo")) -> Bf16Encoder:
    """The encoder of the CTranslate2 model in ``folder``, in bfloat16 (layer norms stay float32, as
    openai-whisper computes them in float32). Raises MemoryError rather than crowd a computer whose
    memory is short: the encoder is a speed-up, not worth the system's out-of-memory killer."""
    check_model(folder, "ct2")  # it may have changed since CTranslate2 loaded it: a FIFO would hang the read
    wanted = 2 * (folder / "model.bin").stat().st_size  # the weights, and room to convert them
    available = available_memory(meminfo)
    if available is not None and available < wanted:
        raise MemoryError(f"{available >> 20} MiB of memory available, {wanted >> 20} MiB wanted")

    import torch
    from whisper.model import AudioEncoder

    from desktop.engines.transcription.decoders.whisper_torch import half_weights

    dims, state = weight_mapping.to_whisper_encoder_state_dict(
        ct2_format.read_model_bin(folder / "model.bin", weights_under="encoder/"))
    encoder = AudioEncoder(dims["n_mels"], dims["n_audio_ctx"], dims["n_audio_state"], dims["n_audio_head"],
                           dims["n_audio_layer"])
    try:
        encoder.load_state_dict({name: torch.from_numpy(value) for name, value in state.items()})
    except (RuntimeError, ValueError) as exc:
        raise ModelError(DAMAGED_MODEL, detail=f"{type(exc).__name__}: {exc}") from exc
    half_weights(encoder, torch.bfloat16)
    return Bf16Encoder(encoder.eval())


class Bf16Switch:
    """When one loaded model's encoding goes over to torch's bfloat16 encoder: once, for the first
    recording of enough windows (``worth_loading_from_windows``). Told beforehand that a long
    recording comes (``expect``), it loads the encoder in the background, so the torch import and the
    weights (about 2 s) overlap loading the model, reading the audio and finding its speech instead of
    coming after them."""

    def __init__(self, load: Callable[[], Bf16Encoder], from_windows: Callable[[], int | None]):
        """load: the encoder, read from the model's folder; from_windows: asked each time, as a
        measurement made since counts (None: never worth it here)."""
        self._load = load
        self._from_windows = from_windows
        self._loading: Future | None = None
        self._settled = False  # switched, or failed to load: decided for the model's life

    def expect(self, seconds: float) -> None:
        """A recording of about ``seconds`` comes next: start loading now where it will switch."""
        if not self._settled and self._loading is None and self._worth_it(math.ceil(seconds / WINDOW_SECONDS)):
            self._loading = _in_background(self._load)

    def encoder_for(self, windows: int) -> Bf16Encoder | None:
        """The encoder to switch to before decoding ``windows`` windows, once; None: CTranslate2's stays.
        Loaded ahead (``expect``), it is taken for any recording of more than one window."""
        if self._settled or windows < FEWEST_WINDOWS or (self._loading is None and not self._worth_it(windows)):
            return None
        loading, self._loading, self._settled = self._loading, None, True
        try:
            return loading.result() if loading is not None else self._load()
        except Exception as exc:  # noqa: BLE001 - a speed-up only: CTranslate2's own encoder carries on
            log.warning("CTranslate2's own encoder stays in use: %s: %s", type(exc).__name__, exc)
            return None

    def _worth_it(self, windows: int) -> bool:
        from_windows = self._from_windows()
        return from_windows is not None and windows >= max(from_windows, FEWEST_WINDOWS)


def _in_background(work: Callable[[], Any]) -> Future:
    """``work`` on a thread of its own (a daemon: an engine process that ends need not wait for it)."""
    future: Future = Future()

    def run() -> None:
        try:
            future.set_result(work())
        except BaseException as exc:  # noqa: BLE001 - handed to whoever takes the result
            future.set_exception(exc)

    threading.Thread(target=run, name="bf16-encoder", daemon=True).start()
    return future


def available_memory(meminfo: Path = Path("/proc/meminfo")) -> int | None:
    """Bytes the kernel says can be used without swapping (MemAvailable), or None if it does not say."""
    try:
        for line in meminfo.read_text(encoding="ascii", errors="replace").splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


# --- measuring both encoders on this computer ---------------------------------------------------------

MEASURE_BATCH = 2  # windows encoded at once, as the batched pipeline does on the CPU (batching.CPU_BATCH_SIZE)
_REPEATS = 3
_HOPELESS = 3.0  # a bfloat16 batch this many times slower than CTranslate2's is not timed again


def measure(folder: Path, speech: np.ndarray, report: Callable[[dict], None]) -> None:
    """Time CTranslate2's int8 encoder and torch's bfloat16 encoder on windows of ``speech`` (16 kHz) with
    the CTranslate2 model in ``folder``, in seconds per 30-second window: the best of a few runs after a
    warm-up, the two encoders in turn. ``report`` gets CTranslate2's figure first, then all three, so
    that a crash in torch still leaves the first. Other failures (a damaged model, short memory) raise:
    nothing is learnt then. Loading is timed as it happens in a fresh engine process: importing torch
    (unless it is loaded already) and reading the encoder's weights."""
    import ctranslate2
    from faster_whisper import WhisperModel

    check_model(folder, "ct2")
    model = WhisperModel(str(folder), device="cpu", compute_type="int8", cpu_threads=os.cpu_count() or 0,
                         local_files_only=True)
    window = np.zeros(model.feature_extractor.n_samples, np.float32)
    window[: min(speech.size, window.size)] = speech[: window.size]
    features = model.feature_extractor(window)[:, : model.feature_extractor.nb_max_frames]
    batch = np.ascontiguousarray(np.stack([features] * MEASURE_BATCH))

    def encode_int8() -> None:
        model.model.encode(ctranslate2.StorageView.from_array(batch))

    encode_int8()  # warm-up: the libraries' first call prepares their kernels
    int8_seconds = min(_per_window(encode_int8) for _ in range(_REPEATS))
    report({"int8_seconds": int8_seconds})

    began = time.perf_counter()
    try:
        encoder = load_encoder(folder)
    except ImportError:  # torch or openai-whisper is not installed: CTranslate2's encoder it is
        report({"int8_seconds": int8_seconds, "bf16_seconds": None, "load_seconds": None})
        return
    load_seconds = time.perf_counter() - began

    def encode_bf16() -> None:
        encoder.encode(batch)

    encode_bf16()
    bf16_seconds = _per_window(encode_bf16)
    if bf16_seconds <= _HOPELESS * int8_seconds:
        # In turn, so that another program busy on the processor slows both alike.
        for _ in range(_REPEATS):
            int8_seconds = min(int8_seconds, _per_window(encode_int8))
            bf16_seconds = min(bf16_seconds, _per_window(encode_bf16))
    report({"int8_seconds": int8_seconds, "bf16_seconds": bf16_seconds, "load_seconds": load_seconds})


def _per_window(encode: Callable[[], Any]) -> float:
    began = time.perf_counter()
    encode()
    return (time.perf_counter() - began) / MEASURE_BATCH


def _main(argv: list[str]) -> int:
    """``python -m desktop.engines.transcription.decoders.bf16_encoder FOLDER SPEECH.f32``: ``measure`` in a
    process of its own, one JSON line per report on standard output."""
    folder, speech_file = Path(argv[0]), Path(argv[1])
    speech = np.fromfile(speech_file, dtype=np.float32)

    def report(figures: dict) -> None:
        print(json.dumps(figures), flush=True)

    try:
        measure(folder, speech, report)
    except Exception as exc:  # noqa: BLE001 - said to the parent, which keeps no figure then
        print(f"{type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
