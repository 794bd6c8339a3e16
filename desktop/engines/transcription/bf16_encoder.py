"""Whisper's audio encoder in bfloat16 on torch, for the fast (CTranslate2) engine on processors that
multiply bfloat16 matrices in hardware (Intel AMX: Xeon Scalable of the 4th generation and later).

On the CPU the encoder is most of the work of batched decoding: a full 30-second window each time, run
by CTranslate2 in int8 with its attention in float32. On such a processor torch's encoder in bfloat16
(oneDNN's matrix units, scaled-dot-product attention) takes well under half that time per window with
the same weights (BENCHMARKS.md), and CTranslate2 decodes and aligns words from its output unchanged.
Processors without the units keep CTranslate2's encoder: there bfloat16 is emulated, and slower.

It costs a torch import (unless torch is loaded already) and the encoder's weights in bfloat16, once per
loaded engine, so the engine switches to it for the first recording long enough to repay that.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from desktop.core.common.errors import ModelError
from desktop.core.common.model_files import check_model
from desktop.core.gpu.device import cpu_flags
from desktop.engines.transcription import ct2_format
from desktop.engines.transcription.base import DAMAGED_MODEL

# Loading (mostly importing torch) takes about 2 s, and each 30-second window of Whisper base encoded
# in bfloat16 saves about 0.3 s (benchmarks/batched_benchmark.py): a recording of this many windows
# repays it. Larger models save more per window.
WORTH_LOADING_FROM_WINDOWS = 8


def processor_has_bfloat16_units(cpuinfo: Path = Path("/proc/cpuinfo")) -> bool:
    """Whether the processor multiplies bfloat16 matrices in hardware (AMX), read without importing torch."""
    return "amx_bf16" in cpu_flags(cpuinfo)


class Bf16Encoder:
    """Stands in for faster-whisper's ``WhisperModel.encode``."""

    def __init__(self, encoder: Any):
        self._encoder = encoder
        self._output: np.ndarray | None = None

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
    available = _available_memory(meminfo)
    if available is not None and available < wanted:
        raise MemoryError(f"{available >> 20} MiB of memory available, {wanted >> 20} MiB wanted")

    import torch
    from whisper.model import AudioEncoder

    from desktop.engines.transcription.whisper_torch import half_weights

    dims, state = ct2_format.to_whisper_encoder_state_dict(
        ct2_format.read_model_bin(folder / "model.bin", weights_under="encoder/"))
    encoder = AudioEncoder(dims["n_mels"], dims["n_audio_ctx"], dims["n_audio_state"], dims["n_audio_head"],
                           dims["n_audio_layer"])
    try:
        encoder.load_state_dict({name: torch.from_numpy(value) for name, value in state.items()})
    except (RuntimeError, ValueError) as exc:
        raise ModelError(DAMAGED_MODEL, detail=f"{type(exc).__name__}: {exc}") from exc
    half_weights(encoder, torch.bfloat16)
    return Bf16Encoder(encoder.eval())


def _available_memory(meminfo: Path) -> int | None:
    """Bytes the kernel says can be used without swapping (MemAvailable), or None if it does not say."""
    try:
        for line in meminfo.read_text(encoding="ascii", errors="replace").splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None
