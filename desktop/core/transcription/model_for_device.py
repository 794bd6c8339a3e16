"""The model to start with on this computer: the most accurate one its GPU can afford at a speed a user
accepts; on the processor, base, as before.

Whisper's models need, in fp16 on the GPU with room for batched decoding: turbo (large-v3 with a small
decoder) about 6 GB, small about 2 GB. A 16–24 GB Radeon runs turbo several times faster than real
time; a smaller card gets small. Where a model was measured on this computer (``speed_records``) and
ran slower than ``ACCEPTABLE_FACTOR``, the next smaller one is chosen instead.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from desktop.core.common.i18n import N_, Message

CPU_DEFAULT = "base"
ACCEPTABLE_FACTOR = 4.0  # seconds of audio per second of work: a 1-hour meeting in 15 minutes
GIB = 2**30
# Largest first: (model, the GPU memory it wants, in GiB as the driver reports it: a "16 GB" card has 15.9).
_BY_GPU_MEMORY = (("turbo", 15.0), ("small", 5.5), ("base", 0.0))


@dataclass(frozen=True)
class Recommendation:
    model: str
    reason: Message


def recommended_model(gpu_works: bool, gpu_memory_total: int | None,
                      factors: Mapping[str, float] | None = None) -> Recommendation:
    """gpu_works: a GPU passed its tests; gpu_memory_total: its memory in bytes; factors: model → real-time
    factor measured here on the GPU."""
    if not gpu_works or not gpu_memory_total:
        return Recommendation(CPU_DEFAULT, N_("ModelAdvice", "Suggested for this computer: base, quick on the "
                                                             "processor."))
    factors = factors or {}
    gigabytes = gpu_memory_total / GIB
    for model, needs in _BY_GPU_MEMORY:
        if gigabytes < needs:
            continue
        measured = factors.get(model)
        if measured is not None and measured < ACCEPTABLE_FACTOR and model != CPU_DEFAULT:
            continue  # measured too slow on this card: try the next smaller one
        if model == "turbo":
            return Recommendation(model, N_("ModelAdvice", "Suggested for this computer: turbo (large-v3-turbo), "
                                                           "the most accurate model at a good speed on a GPU with "
                                                           "{memory:.0f} GB.").format(memory=gigabytes))
        return Recommendation(model, N_("ModelAdvice", "Suggested for this computer: {model}, since the GPU has "
                                                       "{memory:.0f} GB (turbo needs about 16 GB to run well).").format(
            model=model, memory=gigabytes))
    return Recommendation(CPU_DEFAULT, N_("ModelAdvice", "Suggested for this computer: base."))
