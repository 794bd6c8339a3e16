"""Which PyTorch and CTranslate2 builds fit a Radeon card: a table by gfx target and ROCm release.

Pure decisions, no network and no heavy library: packaging/install.sh asks them through the command
line at the bottom, the doctor through the functions.

PyTorch's ROCm builds come from PyTorch's own wheel index, one per ROCm release (``.../whl/rocm6.4``).
They bundle their HIP runtime, but new cards need new releases: RDNA4 (RX 9070/9060, gfx1200/gfx1201)
has no code in wheels built for ROCm 6.2 ("invalid device function") and needs ROCm 6.4.1 or later;
Strix Halo (gfx1151) needs ROCm 7.2, below it PyTorch segfaults.

CTranslate2 publishes its ROCm build (from 4.7.0) on its GitHub releases page, not on the package
index: one archive per release, ``rocm-python-wheels-Linux.zip``, holding one wheel per Python version
(``ctranslate2-<version>-cp312-cp312-<platform>.whl``), built against ROCm 7.2 for the targets in
``CT2_ROCM_TARGETS``. It links against the system's ROCm libraries, so it needs ROCm 7.2 installed: a
mismatched ROCm fails at import with ``libamdhip64.so.7: undefined symbol``. The release address and
the archive's name are the two constants below; a company mirror replaces the address.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from desktop.core.common.i18n import N_, Message

PYTORCH_WHEELS = "https://download.pytorch.org/whl"
# PyTorch's ROCm indexes VoxDesk installs from. A newer card gets the newest; an older card keeps the
# release that has worked for it (the one matching an installed ROCm 6, else ROCm 7.1).
TORCH_INDEX_ROCM6 = f"{PYTORCH_WHEELS}/rocm6.4"
TORCH_INDEX_ROCM7 = f"{PYTORCH_WHEELS}/rocm7.1"
TORCH_INDEX_ROCM72 = f"{PYTORCH_WHEELS}/rocm7.2"

# Where CTranslate2's releases are, and the one archive of each that holds its ROCm wheels.
CT2_RELEASES = "https://github.com/OpenNMT/CTranslate2/releases/download"
CT2_ROCM_ARCHIVE = "rocm-python-wheels-Linux.zip"
CT2_FIRST_ROCM_VERSION = (4, 7, 0)
CT2_ROCM_RELEASE = "7.2"  # the ROCm release CTranslate2's ROCm wheels are built against
CT2_ROCM_TARGETS = frozenset({"gfx1030", "gfx1100", "gfx1101", "gfx1102", "gfx1150", "gfx1151", "gfx1200",
                              "gfx1201"})

# Cards whose PyTorch needs a minimum ROCm release, with that release.
RDNA4 = frozenset({"gfx1200", "gfx1201"})
RDNA4_MINIMUM_ROCM = (6, 4, 1)
STRIX_HALO = "gfx1151"
STRIX_HALO_MINIMUM_ROCM = (7, 2)

# HSA_OVERRIDE_GFX_VERSION values and the target they make a card run as.
_OVERRIDE_TARGETS = {"10.3.0": "gfx1030", "11.0.0": "gfx1100", "11.0.1": "gfx1101", "11.0.2": "gfx1102",
                     "11.5.0": "gfx1150", "11.5.1": "gfx1151", "12.0.0": "gfx1200", "12.0.1": "gfx1201"}


def gfx_target(name: str | None) -> str | None:
    """"gfx90a:sramecc+:xnack-" -> "gfx90a"; None for anything that is not a gfx target."""
    arch = (name or "").split(":", 1)[0].strip().lower()
    return arch if re.fullmatch(r"gfx[0-9a-f]{3,4}", arch) else None


def release_tuple(release: str | None) -> tuple[int, ...] | None:
    """"6.4.1-120" -> (6, 4, 1); None when it does not start with a version."""
    match = re.match(r"\s*(\d+(?:\.\d+)*)", release or "")
    return tuple(int(part) for part in match.group(1).split(".")) if match else None


def _release_text(release: tuple[int, ...]) -> str:
    return ".".join(str(part) for part in release)


def effective_target(gfx: str | None, hsa_override: str | None = None) -> str | None:
    """The target the runtime runs the card as: the override's when one is set, else the card's own."""
    return _OVERRIDE_TARGETS.get((hsa_override or "").strip()) or gfx_target(gfx)


@dataclass(frozen=True)
class TorchChoice:
    index: str  # PyTorch's wheel index to install torch and torchaudio from
    reason: Message  # why this index, in a sentence
    system_rocm_too_old: Message | None = None  # the installed ROCm is below what the card needs


def torch_index(gfx: str | None, rocm_release: str | None) -> TorchChoice:
    """PyTorch's ROCm wheel index for a card (gfx target) and the installed ROCm release (None: none)."""
    target = gfx_target(gfx)
    installed = release_tuple(rocm_release)
    if target == STRIX_HALO:
        too_old = None
        if installed is not None and installed < STRIX_HALO_MINIMUM_ROCM:
            too_old = N_("Wheels", "This card ({target}) needs ROCm {needed} or later; ROCm {installed} is installed. "
                                   "Update ROCm, then run the installer again.").format(
                target=target, needed=_release_text(STRIX_HALO_MINIMUM_ROCM), installed=rocm_release)
        return TorchChoice(TORCH_INDEX_ROCM72, N_("Wheels", "{target} (Strix Halo) needs PyTorch built for ROCm 7.2.").format(
            target=target), too_old)
    if target in RDNA4:
        too_old = None
        if installed is not None and installed < RDNA4_MINIMUM_ROCM:
            too_old = N_("Wheels", "This card ({target}) needs ROCm {needed} or later; ROCm {installed} is installed. "
                                   "Update ROCm, then run the installer again.").format(
                target=target, needed=_release_text(RDNA4_MINIMUM_ROCM), installed=rocm_release)
        return TorchChoice(TORCH_INDEX_ROCM7, N_("Wheels", "{target} (RDNA4) needs PyTorch built for ROCm 6.4.1 or "
                                                           "later; VoxDesk uses the ROCm 7 build.").format(target=target),
                           too_old)
    if installed is not None and installed[0] == 6:
        return TorchChoice(TORCH_INDEX_ROCM6, N_("Wheels", "PyTorch built for ROCm 6.4, matching the installed ROCm "
                                                           "{installed}.").format(installed=rocm_release))
    return TorchChoice(TORCH_INDEX_ROCM7, N_("Wheels", "PyTorch built for ROCm 7.1."))


@dataclass(frozen=True)
class Ct2Choice:
    """CTranslate2's ROCm archive for this card, or why the CPU build stays."""

    archive_url: str | None  # None: keep the CPU wheel from the package index
    wheel_prefix: str | None  # the start of the wheel's file name inside the archive ("ctranslate2-4.7.2-cp312-cp312-")
    reason: Message


def ct2_archive_url(version: str, base: str = CT2_RELEASES) -> str:
    return f"{base.rstrip('/')}/v{version}/{CT2_ROCM_ARCHIVE}"


def ct2_wheel(gfx: str | None, rocm_release: str | None, ct2_version: str, python_tag: str, *,
              hsa_override: str | None = None, base: str = CT2_RELEASES) -> Ct2Choice:
    """CTranslate2's ROCm wheel for a card, the installed ROCm release and a CTranslate2 version.

    python_tag: "cp312". Anything CTranslate2 does not build for keeps the CPU wheel, with a sentence.
    """
    target = effective_target(gfx, hsa_override)
    installed = release_tuple(rocm_release)
    version = release_tuple(ct2_version)
    if target is None:
        return Ct2Choice(None, None, N_("Wheels", "No AMD graphics card found; faster-whisper runs on the processor."))
    if target not in CT2_ROCM_TARGETS:
        return Ct2Choice(None, None, N_(
            "Wheels", "CTranslate2 has no ROCm build for {target}; faster-whisper runs on the processor (the GPU "
                      "still runs Whisper through PyTorch).").format(target=target))
    if version is None or version < CT2_FIRST_ROCM_VERSION:
        return Ct2Choice(None, None, N_(
            "Wheels", "CTranslate2 {version} has no ROCm build (it starts with 4.7.0); faster-whisper runs on the "
                      "processor.").format(version=ct2_version))
    if installed is None or installed[:2] != release_tuple(CT2_ROCM_RELEASE):
        return Ct2Choice(None, None, N_(
            "Wheels", "CTranslate2's ROCm build needs ROCm {needed} installed on this computer (found: {installed}); "
                      "faster-whisper runs on the processor.").format(
            needed=CT2_ROCM_RELEASE, installed=rocm_release or N_("Wheels", "none")))
    return Ct2Choice(ct2_archive_url(ct2_version, base), f"ctranslate2-{ct2_version}-{python_tag}-{python_tag}-",
                     N_("Wheels", "CTranslate2 {version} for ROCm {rocm} on {target}.").format(
                         version=ct2_version, rocm=CT2_ROCM_RELEASE, target=target))


def main(argv: list[str] | None = None) -> int:
    """``python -m desktop.core.gpu.wheels torch-index``: print the index for this machine's card (the
    discrete one when there are two) and, on standard error, why; a ROCm release too old for the card
    is said there as well. --gfx and --rocm replace what is detected."""
    import argparse
    import os
    import sys

    parser = argparse.ArgumentParser(description="The PyTorch ROCm wheel index for this machine's card")
    parser.add_argument("what", choices=["torch-index"])
    parser.add_argument("--gfx")
    parser.add_argument("--rocm")
    args = parser.parse_args(argv)
    gfx, rocm = args.gfx, args.rocm
    if gfx is None or rocm is None:
        from desktop.core.gpu.this_machine import this_machine

        machine = this_machine(os.environ)
        gfx, rocm = gfx or machine.gfx, rocm or machine.rocm_release
    choice = torch_index(gfx, rocm)
    print(choice.reason, file=sys.stderr)
    if choice.system_rocm_too_old:
        print(choice.system_rocm_too_old, file=sys.stderr)
    print(choice.index)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
