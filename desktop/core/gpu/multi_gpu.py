"""A computer with more than one AMD GPU: use the discrete card, and say what an override would do.

Office machines often have a Radeon inside the processor and a Radeon card. The HIP runtime numbers
the GPUs in the order rocminfo lists its GPU agents, and ``HIP_VISIBLE_DEVICES=<number>`` makes a
process see only that one. ``HSA_OVERRIDE_GFX_VERSION`` applies to every GPU the runtime sees, so on
such a machine it makes one of the two run with code that is not its own (ROCm #5069): with the
discrete card chosen through HIP_VISIBLE_DEVICES the override only reaches that card.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import MutableMapping, Sequence

from desktop.core.gpu.device import RocmAgent

VISIBLE_VARIABLE = "HIP_VISIBLE_DEVICES"

# gfx targets of Radeon graphics built into Ryzen processors.
INTEGRATED_TARGETS = frozenset({
    "gfx902", "gfx909", "gfx90c",  # Vega graphics of Ryzen 2000–5000
    "gfx1033", "gfx1035", "gfx1036", "gfx1037",  # Van Gogh, Radeon 660M/680M, Ryzen 7000 desktop, Mendocino
    "gfx1103",  # Radeon 740M/760M/780M
    "gfx1150", "gfx1151", "gfx1152", "gfx1153",  # Strix Point, Strix Halo, Krackan
})


@dataclass(frozen=True)
class ChosenGpu:
    index: int  # the HIP device number: its place among rocminfo's GPU agents
    agent: RocmAgent
    integrated: bool


def is_integrated(agent: RocmAgent) -> bool:
    return agent.name.split(":", 1)[0].lower() in INTEGRATED_TARGETS


def gpu_agents(agents: Sequence[RocmAgent]) -> list[RocmAgent]:
    return [agent for agent in agents if agent.device_type.upper() == "GPU"]


def chosen_gpu(agents: Sequence[RocmAgent]) -> ChosenGpu | None:
    """The GPU VoxDesk uses: the first discrete one, else the first GPU; None without a GPU agent."""
    gpus = gpu_agents(agents)
    if not gpus:
        return None
    index = next((number for number, agent in enumerate(gpus) if not is_integrated(agent)), 0)
    return ChosenGpu(index, gpus[index], is_integrated(gpus[index]))


def needs_choosing(agents: Sequence[RocmAgent]) -> bool:
    """More than one GPU, at least one of them integrated: the machine the discrete choice is for."""
    gpus = gpu_agents(agents)
    return len(gpus) > 1 and any(is_integrated(agent) for agent in gpus) and not all(map(is_integrated, gpus))


def choose_discrete_gpu(agents: Sequence[RocmAgent], environ: MutableMapping[str, str]) -> ChosenGpu | None:
    """Put HIP_VISIBLE_DEVICES=<the discrete card> into ``environ`` for the processes VoxDesk starts.

    Nothing changes when the machine has one kind of GPU only, or the variable is already set (a choice
    made by hand wins). Returns the card chosen, or None.
    """
    if not needs_choosing(agents) or environ.get(VISIBLE_VARIABLE, "").strip():
        return None
    chosen = chosen_gpu(agents)
    if chosen is not None:
        environ[VISIBLE_VARIABLE] = str(chosen.index)
    return chosen


def use_discrete_gpu(environ: MutableMapping[str, str] | None = None, probes=None) -> ChosenGpu | None:
    """At start, before anything loads the HIP runtime: on a machine with two AMD GPUs (two AMD display
    devices in sysfs), ask rocminfo and choose the discrete one. One AMD GPU costs no child process."""
    import os

    from desktop.core.gpu.device import TOOL_TIMEOUT, Probes, find_amd_gpus, parse_rocminfo

    environ = os.environ if environ is None else environ
    probes = probes or Probes(environ=environ)
    if environ.get(VISIBLE_VARIABLE, "").strip() or len(find_amd_gpus(probes.sysfs_drm)) < 2:
        return None
    output = probes.run_tool(["rocminfo"], TOOL_TIMEOUT)
    if output is None or output.timed_out:
        return None
    return choose_discrete_gpu(parse_rocminfo(output.stdout), environ)
