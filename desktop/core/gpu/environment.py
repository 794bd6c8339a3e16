"""HSA_OVERRIDE_GFX_VERSION: which value makes a consumer Radeon card run, and putting it in place.

PyTorch's ROCm wheels carry GPU code for a list of gfx targets. Several consumer cards are missing from
that list but run the code of a close relative when the HSA runtime is told to pretend to be it. The
variable is read once, when the HIP runtime starts, so it has to be in the process environment before
anything imports torch: the launcher calls `ensure_gpu_environment` first thing and, when the variable
has to be added, starts the very same command again with it in place.
"""
from __future__ import annotations

import logging
import os
import re
import sys
from dataclasses import dataclass
from typing import Callable, MutableMapping, Sequence

log = logging.getLogger(__name__)

OVERRIDE_VARIABLE = "HSA_OVERRIDE_GFX_VERSION"
# Set together with the override before the re-exec; its presence means "already re-executed once".
REEXEC_MARKER = "VOXDESK_GPU_ENV_APPLIED"

# Cards known to run with the code of a supported relative (RDNA2 -> gfx1030, RDNA3 -> gfx1100).
KNOWN_OVERRIDES: dict[str, str] = {
    "gfx1031": "10.3.0",  # Radeon RX 6700 XT / 6750 XT
    "gfx1032": "10.3.0",  # Radeon RX 6600 / 6650 XT
    "gfx1034": "10.3.0",  # Radeon RX 6500 XT / 6400
    "gfx1035": "10.3.0",  # Radeon 680M (Ryzen 6000 graphics)
    "gfx1036": "10.3.0",  # Radeon graphics of Ryzen 7000 desktop processors
    "gfx1101": "11.0.0",  # Radeon RX 7800 XT / 7700 XT
    "gfx1102": "11.0.0",  # Radeon RX 7600
}
# Cards where forcing an override is known to misbehave, with the ROCm release that supports them.
NEEDS_NEWER_ROCM: dict[str, str] = {
    "gfx1103": "7.2",  # Radeon 780M: 11.0.0 causes page faults on some systems
}

_VERSION_SHAPE = re.compile(r"^\d+\.\d+\.\d+$")


@dataclass(frozen=True)
class GfxAdvice:
    """What to do about a gfx target the installed PyTorch has no code for."""

    override: str | None  # the HSA_OVERRIDE_GFX_VERSION value that is known to work, if any
    rocm_release: str | None  # the ROCm release that supports the card natively, if that is the advice


def advice_for(gfx_arch: str) -> GfxAdvice:
    """The known remedy for a gfx target without code in the wheel (both fields None: none known)."""
    arch = gfx_arch.split(":", 1)[0].strip().lower()
    if arch in NEEDS_NEWER_ROCM:
        return GfxAdvice(override=None, rocm_release=NEEDS_NEWER_ROCM[arch])
    return GfxAdvice(override=KNOWN_OVERRIDES.get(arch), rocm_release=None)


def is_valid_override(value: str) -> bool:
    """True for values shaped like the runtime expects ("10.3.0")."""
    return bool(_VERSION_SHAPE.match(value.strip()))


def ensure_gpu_environment(
    override: str,
    *,
    environ: MutableMapping[str, str] | None = None,
    execv: Callable[[str, Sequence[str]], object] | None = None,
    command: Sequence[str] | None = None,
) -> None:
    """Make sure HSA_OVERRIDE_GFX_VERSION=`override` is in place before the HIP runtime loads.

    Does nothing when `override` is empty, malformed, already in the environment (a value the user set
    by hand wins), or when this process is already the re-executed one (so it can never loop).
    Otherwise adds the variable and replaces this process with the same command (os.execv); it only
    returns from there if the exec itself failed, with the variable set in this process as a best effort.
    `environ`, `execv` and `command` exist for tests; by default they are os.environ, os.execv and
    the interpreter's own command line (sys.orig_argv).
    """
    environ = os.environ if environ is None else environ
    execv = os.execv if execv is None else execv
    value = (override or "").strip()
    if not value:
        return
    if not is_valid_override(value):
        log.warning("Ignoring %s=%r: not a version like 10.3.0", OVERRIDE_VARIABLE, value)
        return
    if OVERRIDE_VARIABLE in environ:
        if environ[OVERRIDE_VARIABLE] != value:
            log.info("%s=%s from the environment wins over the setting %s",
                     OVERRIDE_VARIABLE, environ[OVERRIDE_VARIABLE], value)
        return
    if environ.get(REEXEC_MARKER):
        # We re-executed once already and the variable is still missing: something strips it.
        log.warning("%s could not be put in place; starting without it", OVERRIDE_VARIABLE)
        return
    environ[OVERRIDE_VARIABLE] = value
    environ[REEXEC_MARKER] = "1"
    argv = list(command) if command is not None else [sys.executable, *sys.orig_argv[1:]]
    log.info("Restarting with %s=%s", OVERRIDE_VARIABLE, value)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (AttributeError, OSError, ValueError):
            pass
    try:
        execv(argv[0], argv)
    except OSError as error:
        # The variable is at least in this process's environment, which works as long as nothing
        # has started the HIP runtime yet.
        log.warning("Could not restart with %s (%s); continuing in this process", OVERRIDE_VARIABLE, error)
