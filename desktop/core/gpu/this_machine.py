"""The card VoxDesk will use and the installed ROCm release, as the wheel choices (``wheels``,
``ct2_rocm_wheel``) read them when they are not given on the command line."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping


@dataclass(frozen=True)
class Machine:
    gfx: str | None
    rocm_release: str | None
    hsa_override: str | None


def this_machine(environ: Mapping[str, str]) -> Machine:
    """The card VoxDesk will use (the discrete one when there are two) and the installed ROCm release."""
    from desktop.core.gpu.device import Probes, TOOL_TIMEOUT, parse_rocminfo, rocm_release
    from desktop.core.gpu.multi_gpu import chosen_gpu

    probes = Probes(environ=environ)
    output = probes.run_tool(["rocminfo"], TOOL_TIMEOUT)
    gpu = chosen_gpu(parse_rocminfo(output.stdout)) if output is not None else None
    return Machine(gpu.agent.name if gpu else None, rocm_release(probes), environ.get("HSA_OVERRIDE_GFX_VERSION"))
