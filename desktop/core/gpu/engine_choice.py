"""Automatic on a working GPU: faster-whisper (CTranslate2) or openai-whisper's batched fp16 engine.

CTranslate2 on the GPU is offered only where CTranslate2 itself counts a GPU: on ROCm torch sees the
card even when the installed CTranslate2 has no ROCm code. Between the two, the measurements decide
(``speed_records``: Tools → Measure this computer, or the quiet run after the first transcription),
and only at equal words: an engine whose GPU check found other words than the processor's
(``known_answer``) is never chosen, one slower than the processor is not chosen by Automatic. Without
measurements it stays openai-whisper, as before.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from desktop.core.common.i18n import N_, Message
from desktop.core.gpu.known_answer import GpuVerdict


@dataclass(frozen=True)
class GpuEngineChoice:
    engine: str | None  # "torch" or "ct2" on the GPU; None: Automatic uses the processor
    reason: Message


def automatic_gpu_engine(ct2_gpu_count: int, factors: Mapping[str, float],
                         verdicts: Mapping[str, GpuVerdict | None]) -> GpuEngineChoice:
    """factors: engine -> measured real-time factor of this model on the GPU (missing: not measured);
    verdicts: engine -> its GPU check on this machine as it is now (None: not checked yet)."""
    candidates = ["torch"] + (["ct2"] if ct2_gpu_count > 0 else [])
    refused = {engine: verdicts.get(engine) for engine in candidates
               if verdicts.get(engine) is not None and not verdicts[engine].preferred}
    allowed = [engine for engine in candidates if engine not in refused]
    if not allowed:
        first = next(iter(refused.values()))
        return GpuEngineChoice(None, first.sentence())
    measured = {engine: factors[engine] for engine in allowed if engine in factors}
    if len(measured) == len(allowed) and len(allowed) > 1:
        best = max(allowed, key=lambda engine: measured[engine])
        return GpuEngineChoice(best, N_("EngineChoice", "{engine} on the GPU: measured fastest on this computer "
                                                        "({factor:.0f}× real time).").format(
            engine=_name(best), factor=measured[best]))
    engine = "torch" if "torch" in allowed else allowed[0]
    if ct2_gpu_count <= 0:
        return GpuEngineChoice(engine, N_("EngineChoice", "openai-whisper on the GPU: the installed CTranslate2 "
                                                          "sees no GPU."))
    return GpuEngineChoice(engine, N_("EngineChoice", "{engine} on the GPU (the engines have not been measured "
                                                      "on this computer yet).").format(engine=_name(engine)))


def _name(engine: str) -> str:
    return {"torch": "openai-whisper", "ct2": "faster-whisper"}[engine]
