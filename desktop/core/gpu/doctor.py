"""The doctor: one row per environment check, each ✓ / ⚠ / ✗ with what was found and the exact fix.

Checks have stable ids (CHECK_IDS) so the window can refer to them; titles, findings and sentence
fixes are English Messages (desktop.core.common.i18n) that the window shows in the interface language. `run_doctor()` is slow (it imports torch, runs the GPU smoke test and
imports torchaudio / torchcodec in child processes, because a mismatched build can segfault on import):
call it from a worker thread or the command line.
"""
from __future__ import annotations

import dataclasses
import grp
import json
import logging
import os
import pwd
import re
import shlex
import shutil
import sys
import textwrap
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from desktop.core.gpu.device import (
    DeviceReport,
    Probes,
    SmokeResult,
    child_environment,
    detect,
    major_minor,
    run_child,
)
from desktop.core.common.download_sources import DownloadSources, probe_all
from desktop.core.common.errors import Cancelled
from desktop.core.gpu.checks import Check, Status
from desktop.core.gpu.download_check import TITLE as DOWNLOADS_TITLE, check_model_downloads
from desktop.core.gpu.environment import OVERRIDE_VARIABLE, advice_for
from desktop.core.gpu.known_answer import GpuVerdict
from desktop.core.gpu.multi_gpu import VISIBLE_VARIABLE, chosen_gpu, gpu_agents, needs_choosing
from desktop.core.gpu.wheels import RDNA4, STRIX_HALO, ct2_wheel, gfx_target, torch_index
from desktop.core.common.system_packages import (
    PORTAUDIO_LIBRARY,
    install_command,
    package_for_library,
    sound_unavailable,
)
from desktop.core.common.i18n import N_, Message, Translate, localized

log = logging.getLogger(__name__)


CHECK_IDS = (
    "torch_build",
    "rocm_runtime",
    "device_access",
    "gfx_target",
    "gpu_smoke_test",
    "gpu_answers",
    "gpus",
    "torchaudio",
    "torchcodec",
    "ctranslate2",
    "audio_decode",
    "audio_input",
    "disk_space",
    "gpu_memory",
    "model_downloads",
)


@dataclass
class DoctorResult:
    report: DeviceReport
    checks: list[Check]

    @property
    def ok(self) -> bool:
        """Nothing is ✗ (warnings allowed)."""
        return all(check.status is not Status.ERROR for check in self.checks)

    def check(self, check_id: str) -> Check:
        return next(check for check in self.checks if check.id == check_id)

    def to_dict(self) -> dict[str, Any]:
        return {
            "summary": self.report.summary(),
            "ok": self.ok,
            "checks": [check.to_dict() for check in self.checks],
            "device": dataclasses.asdict(self.report),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False)


# -- probes -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ChildImport:
    """What importing a module in a fresh Python process did."""

    ok: bool
    data: dict[str, Any] = field(default_factory=dict)  # what the child printed (version, ...)
    crashed_with: str | None = None  # "SIGSEGV"
    hung: bool = False
    error: str | None = None  # the last line of the child's error output


@dataclass(frozen=True)
class AudioInputs:
    portaudio: bool  # the PortAudio library could be loaded
    inputs: list[str] = field(default_factory=list)  # names of devices that can record
    default: str | None = None


_IMPORT_CODE = {
    "torchaudio": "import json, torchaudio; print(json.dumps({'version': torchaudio.__version__}))",
    "torchcodec": (
        "import json, torchcodec; print(json.dumps({'version': getattr(torchcodec, '__version__', None), "
        "'ffmpeg': getattr(torchcodec, 'ffmpeg_major_version', 'unknown')}))"
    ),
}

_AUDIO_INPUTS_CODE = """
import json
try:
    import sounddevice as sd
except OSError as error:
    print(json.dumps({"portaudio": False, "error": str(error)}))
    raise SystemExit(0)
devices = sd.query_devices()
inputs = [d["name"] for d in devices if d["max_input_channels"] > 0]
index = sd.default.device[0]
default = devices[index]["name"] if isinstance(index, int) and index >= 0 else None
print(json.dumps({"portaudio": True, "inputs": inputs, "default": default}))
"""


def _import_command(module: str) -> list[str]:
    return [sys.executable, "-c", _IMPORT_CODE[module]]


def _package_version(name: str) -> str | None:
    from importlib import metadata

    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def _pyav_round_trip() -> str:
    """Encode a short tone to FLAC in memory and decode it back; returns what was used."""
    import io

    import av
    import numpy as np

    rate, count = 16000, 1600
    tone = (np.sin(2 * np.pi * 440 * np.arange(count) / rate) * 8000).astype(np.int16)[None, :]
    buffer = io.BytesIO()
    with av.open(buffer, "w", format="flac") as output:
        stream = output.add_stream("flac", rate=rate, layout="mono")
        frame = av.AudioFrame.from_ndarray(tone, format="s16", layout="mono")
        frame.sample_rate = rate
        for packet in stream.encode(frame):
            output.mux(packet)
        for packet in stream.encode(None):
            output.mux(packet)
    buffer.seek(0)
    with av.open(buffer) as decoded_file:
        decoded = sum(frame.samples for frame in decoded_file.decode(audio=0))
    if decoded != count:
        raise RuntimeError(f"decoded {decoded} samples of {count}")
    ffmpeg = getattr(av, "ffmpeg_version_info", None)
    return f"PyAV {av.__version__}" + (f" (FFmpeg {ffmpeg})" if ffmpeg else "")


def _query_audio_inputs() -> AudioInputs:
    """Asked in a child process: PortAudio's device scan is slow, noisy, and must not disturb a
    recording running in this process."""
    output = run_child([sys.executable, "-c", _AUDIO_INPUTS_CODE], 60, env=child_environment())
    if output is None or output.returncode != 0:
        detail = (output.stderr.strip().splitlines() or ["no answer"])[-1] if output else "could not start"
        raise RuntimeError(f"the audio device scan failed: {detail}")
    data = _last_json(output.stdout) or {}
    return AudioInputs(bool(data.get("portaudio")), list(data.get("inputs") or []), data.get("default"))


def _models_dir() -> Path:
    from desktop.core.common.paths import models_dir  # lazily: not needed by anything else here

    return models_dir()


def _process_groups() -> set[str]:
    names = set()
    for gid in os.getgroups() + [os.getegid()]:
        try:
            names.add(grp.getgrgid(gid).gr_name)
        except KeyError:
            pass
    return names


def _user_name() -> str:
    try:
        return pwd.getpwuid(os.getuid()).pw_name
    except KeyError:
        return os.environ.get("USER", "")


def _configured_groups() -> set[str]:
    """Groups /etc/group lists the user in: what the next login will have."""
    user = _user_name()
    names = {g.gr_name for g in grp.getgrall() if user in g.gr_mem}
    try:
        names.add(grp.getgrgid(pwd.getpwnam(user).pw_gid).gr_name)
    except KeyError:
        pass
    return names


def _existing_groups() -> set[str]:
    return {g.gr_name for g in grp.getgrall()}


def _can_read_write(path: Path) -> bool:
    return os.access(path, os.R_OK | os.W_OK)


def _existing_parent(path: Path) -> Path:
    for candidate in (path, *path.parents):
        if candidate.exists():
            return candidate
    return Path(path.anchor or ".")


@dataclass
class DoctorProbes:
    """Where the doctor looks, beyond device detection. Tests replace any of these."""

    machine: Probes = field(default_factory=Probes)
    package_version: Callable[[str], str | None] = _package_version
    import_command: Callable[[str], Sequence[str]] = _import_command  # "torchaudio" -> argv
    import_timeout: float = 120.0
    decode_audio: Callable[[], str] = _pyav_round_trip
    audio_inputs: Callable[[], AudioInputs] = _query_audio_inputs
    models_dir: Callable[[], Path] = _models_dir
    disk_free: Callable[[Path], int] = lambda path: shutil.disk_usage(_existing_parent(path)).free
    dev: Path = Path("/dev")
    can_read_write: Callable[[Path], bool] = _can_read_write
    process_groups: Callable[[], set[str]] = _process_groups
    configured_groups: Callable[[], set[str]] = _configured_groups
    existing_groups: Callable[[], set[str]] = _existing_groups
    is_root: Callable[[], bool] = lambda: os.geteuid() == 0
    python: str = sys.executable  # the interpreter pip commands in fixes should use
    probe_downloads: Callable[[DownloadSources], list[tuple]] = probe_all  # see download_check.Probe
    # The GPU's known-answer check, for each GPU engine (engines/transcription/known_answer.py); the
    # window and the command line hand it in, since it runs an engine. None: not checked.
    gpu_answers: Callable[[], list[GpuVerdict]] | None = None


def _last_json(text: str) -> dict[str, Any] | None:
    for line in reversed(text.strip().splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                return json.loads(line)
            except json.JSONDecodeError:
                continue
    return None


def import_in_child(module: str, probes: DoctorProbes) -> ChildImport:
    output = run_child(probes.import_command(module), probes.import_timeout,
                       env=child_environment(probes.machine.environ))
    if output is None:
        return ChildImport(False, error=N_("Doctor", "Python could not be started"))
    if output.timed_out:
        return ChildImport(False, hung=True, error=N_("Doctor", "no answer within {seconds:g} s").format(
            seconds=probes.import_timeout))
    if output.signal_name:
        return ChildImport(False, crashed_with=output.signal_name, error=N_("Doctor", "crashed with {signal}").format(
            signal=output.signal_name))
    if output.returncode != 0:
        lines = [line for line in output.stderr.strip().splitlines() if line.strip()]
        return ChildImport(False, error=lines[-1].strip() if lines else f"exit status {output.returncode}")
    return ChildImport(True, data=_last_json(output.stdout) or {})


# -- fix commands -------------------------------------------------------------------------------

PYTORCH_WHEELS = "https://download.pytorch.org/whl"
GROUP_FIX = "sudo usermod -aG render,video $USER"


def _then_relogin(command: str) -> Message:
    return N_("Doctor", "{command}   # then log out and back in (or restart the computer).").format(command=command)


def rocm_wheel_index(rocm_release: str | None, gfx: str | None = None) -> str:
    """PyTorch's ROCm wheel index for a card and an installed ROCm release (the same choice as
    packaging/install.sh: desktop/core/gpu/wheels.py)."""
    return torch_index(gfx, rocm_release).index


def _card_target(report: DeviceReport) -> str | None:
    """The gfx target of the card VoxDesk uses (the discrete one when there are two)."""
    if report.gfx_arch:
        return report.gfx_arch
    chosen = chosen_gpu(report.rocm_agents or [])
    return chosen.agent.name if chosen else None


def _pip(probes: DoctorProbes, *args: str) -> str:
    return " ".join([shlex.quote(probes.python), "-m", "pip", *args])


def _reinstall_torch(probes: DoctorProbes, index: str | None) -> str:
    """Replace torch and torchaudio; pip would keep an installed build that satisfies a bare "torch"."""
    uninstall = _pip(probes, "uninstall", "-y", "torch", "torchaudio")
    install = _pip(probes, "install", *(["--index-url", index] if index else []), "torch", "torchaudio")
    return f"{uninstall} && {install}"


def _wheel_index_of(torch_version: str | None) -> str | None:
    """The index a torch build came from, from its local version label ("2.5.1+rocm6.2" -> .../rocm6.2)."""
    match = re.search(r"\+((?:rocm|cu)[\d.]+)$", torch_version or "")
    return f"{PYTORCH_WHEELS}/{match.group(1)}" if match else None


def _version_tuple(version: str | None) -> tuple[int, int] | None:
    text = major_minor(version)
    return tuple(int(part) for part in text.split(".")) if text else None  # type: ignore[return-value]


def torchaudio_matches(torch_version: str, torchaudio_version: str) -> bool:
    """Same release, or both 2.11+ (torchaudio 2.11 and later use the stable ABI)."""
    torch_v, audio_v = _version_tuple(torch_version), _version_tuple(torchaudio_version)
    if torch_v is None or audio_v is None:
        return False
    return torch_v == audio_v or (audio_v >= (2, 11) and torch_v >= (2, 11))


# torchcodec release -> the torch release it was built for (TorchCodec's compatibility table).
_TORCHCODEC_FOR_TORCH = {
    (0, 0): (2, 4), (0, 1): (2, 5), (0, 2): (2, 6), (0, 3): (2, 7), (0, 4): (2, 7), (0, 5): (2, 7),
    (0, 6): (2, 8), (0, 7): (2, 8), (0, 8): (2, 9), (0, 9): (2, 9), (0, 10): (2, 10), (0, 11): (2, 11),
}


def torchcodec_matches(torch_version: str, torchcodec_version: str) -> bool | None:
    """True / False from TorchCodec's table; None for a release the table does not know."""
    torch_v, codec_v = _version_tuple(torch_version), _version_tuple(torchcodec_version)
    if torch_v is None or codec_v is None:
        return None
    if codec_v >= (0, 12):
        return torch_v >= (2, 11)  # stable ABI: any torch from 2.11 on
    wanted = _TORCHCODEC_FOR_TORCH.get(codec_v)
    return None if wanted is None else wanted == torch_v


def _torchcodec_requirement(torch_version: str) -> str:
    torch_v = _version_tuple(torch_version) or (0, 0)
    if torch_v >= (2, 11):
        return "torchcodec>=0.12"
    for codec_v, wanted in sorted(_TORCHCODEC_FOR_TORCH.items(), reverse=True):
        if wanted == torch_v:
            return f"torchcodec=={codec_v[0]}.{codec_v[1]}.*"
    return "torchcodec"


def _torchaudio_requirement(torch_version: str) -> str:
    torch_v = _version_tuple(torch_version) or (0, 0)
    if torch_v >= (2, 11):
        return "torchaudio>=2.11"
    base = re.match(r"\d+\.\d+\.\d+", torch_version)
    return f"torchaudio=={base.group(0)}" if base else "torchaudio"


# -- the checks ---------------------------------------------------------------------------------

def _build_name(report: DeviceReport) -> str:
    names = {
        "rocm": N_("Doctor", "a ROCm build"),
        "cuda": N_("Doctor", "a CUDA build"),
        "cpu": N_("Doctor", "a CPU-only build"),
    }
    return names.get(report.torch_build, "")


def check_torch_build(report: DeviceReport, probes: DoctorProbes) -> Check:
    title = N_("Doctor", "PyTorch build")
    amd = report.has_amd_gpu
    index = rocm_wheel_index(report.rocm_version, _card_target(report)) if amd else None
    if report.torch_build == "missing":
        if report.torch_error and "No module named" not in report.torch_error:
            finding = N_("Doctor", "PyTorch is not installed or does not load ({error}).").format(
                error=report.torch_error)
        else:
            finding = N_("Doctor", "PyTorch is not installed or does not load.")
        return Check("torch_build", title, Status.ERROR, finding, _reinstall_torch(probes, index))
    version = report.torch_version or "?"
    if amd and report.torch_build != "rocm":
        choice = torch_index(_card_target(report), report.rocm_version)
        finding = N_("Doctor", "This computer has an AMD graphics card, but PyTorch {version} is {build}, so it cannot "
                     "use it. PyTorch for ROCm comes from PyTorch's own ROCm wheel index.").format(
            version=version, build=_build_name(report))
        finding = N_("Doctor", "{finding} {reason}").format(finding=finding, reason=choice.reason)
        if choice.system_rocm_too_old:
            finding = N_("Doctor", "{finding} {reason}").format(finding=finding, reason=choice.system_rocm_too_old)
        return Check("torch_build", title, Status.ERROR, finding, _reinstall_torch(probes, index))
    if amd:
        return Check("torch_build", title, Status.OK,
                     N_("Doctor", "PyTorch {version} is a ROCm build (HIP {hip}), right for the AMD graphics "
                        "card.").format(version=version, hip=report.hip_version))
    if report.torch_build == "rocm":
        return Check(
            "torch_build", title, Status.WARNING,
            N_("Doctor", "PyTorch {version} is a ROCm build, but no AMD graphics card was found, so it runs on "
               "the CPU.").format(version=version),
            _reinstall_torch(probes, None),
        )
    if report.gpu_present:
        return Check("torch_build", title, Status.OK,
                     N_("Doctor", "PyTorch {version} is {build} and sees {gpu}.").format(
                         version=version, build=_build_name(report), gpu=report.gpu_name or N_("Doctor", "a GPU")))
    return Check("torch_build", title, Status.OK,
                 N_("Doctor", "No GPU found; PyTorch {version} is {build} and runs on the CPU.").format(
                     version=version, build=_build_name(report)))


def _access_problem(probes: DoctorProbes) -> str | None:
    """What keeps this user from the GPU's device files ("missing", or what VoxDesk cannot do), or None."""
    kfd = probes.dev / "kfd"
    if not kfd.exists():
        return "missing"
    render_nodes = sorted((probes.dev / "dri").glob("renderD*"))
    blocked = [path for path in [kfd, *render_nodes] if not probes.can_read_write(path)]
    if blocked:
        return N_("Doctor", "cannot open {paths}").format(paths=", ".join(str(path) for path in blocked))
    if not render_nodes:
        return N_("Doctor", "finds no {pattern} device").format(pattern=probes.dev / "dri" / "renderD*")
    return None


def _groups_phrase(names: set[str]) -> str:
    """"the render group" / "the render and video groups"."""
    ordered = sorted(names)
    if len(ordered) == 1:
        return N_("Doctor", "the {group} group").format(group=ordered[0])
    return N_("Doctor", "the {groups} and {last} groups").format(groups=", ".join(ordered[:-1]), last=ordered[-1])


def _group_fix(probes: DoctorProbes, missing: set[str]) -> str:
    existing = probes.existing_groups()
    groups = [name for name in ("render", "video") if name in missing and name in existing] or ["render", "video"]
    return f"sudo usermod -aG {','.join(groups)} $USER"


def _not_applicable_no_amd() -> Message:
    return N_("Doctor", "Not applicable: no AMD graphics card found.")


def check_device_access(report: DeviceReport, probes: DoctorProbes) -> Check:
    title = N_("Doctor", "GPU device access")
    if not report.has_amd_gpu:
        return Check("device_access", title, Status.OK, _not_applicable_no_amd())
    needed = {"render", "video"} & probes.existing_groups() or {"render", "video"}
    missing_now = needed - probes.process_groups()
    problem = _access_problem(probes)
    if problem == "missing":
        return Check("device_access", title, Status.ERROR,
                     N_("Doctor", "{path} does not exist: the amdgpu kernel driver with compute support is not "
                        "loaded.").format(path=probes.dev / "kfd"), "sudo modprobe amdgpu")
    if probes.is_root():
        if problem:
            return Check("device_access", title, Status.ERROR,
                         N_("Doctor", "Even as root VoxDesk {problem}.").format(problem=problem), "sudo modprobe amdgpu")
        return Check("device_access", title, Status.OK,
                     N_("Doctor", "The GPU's device files are accessible (running as root)."))
    if missing_now and not (missing_now - probes.configured_groups()):
        # Already added to the groups, but this session started before that.
        return Check("device_access", title, Status.ERROR if problem else Status.WARNING,
                     N_("Doctor", "You were added to {groups}, but this login session started before that.").format(
                         groups=_groups_phrase(missing_now)),
                     N_("Doctor", "Log out and back in (or restart the computer), then start VoxDesk again."))
    if problem:
        if missing_now:
            finding = N_("Doctor", "VoxDesk {problem}: your user is not allowed to use the GPU (not in "
                         "{groups}).").format(problem=problem, groups=_groups_phrase(missing_now))
        else:
            finding = N_("Doctor", "VoxDesk {problem}: your user is not allowed to use the GPU.").format(
                problem=problem)
        return Check("device_access", title, Status.ERROR, finding,
                     _then_relogin(_group_fix(probes, missing_now or needed)))
    if missing_now:
        return Check("device_access", title, Status.WARNING,
                     N_("Doctor", "The GPU's device files open now, but your user is not in {groups}, which ROCm "
                        "expects.").format(groups=_groups_phrase(missing_now)),
                     _then_relogin(_group_fix(probes, missing_now)))
    return Check("device_access", title, Status.OK,
                 N_("Doctor", "/dev/kfd and the render node are accessible; you are in the render and video groups."))


def check_rocm_runtime(report: DeviceReport, probes: DoctorProbes) -> Check:
    title = N_("Doctor", "ROCm runtime")
    if not report.has_amd_gpu:
        return Check("rocm_runtime", title, Status.OK, _not_applicable_no_amd())
    release = f"ROCm {report.rocm_version}" if report.rocm_version else "ROCm"
    if report.rocminfo_error:
        fix = _then_relogin(GROUP_FIX) if "/dev/kfd" in report.rocminfo_error else "sudo modprobe amdgpu"
        return Check("rocm_runtime", title, Status.ERROR,
                     N_("Doctor", "{release} is installed, but rocminfo cannot reach the GPU: {error}").format(
                         release=release, error=report.rocminfo_error), fix)
    if report.rocm_agents is not None:
        agents = report.gpu_agents
        if not agents:
            return Check("rocm_runtime", title, Status.ERROR,
                         N_("Doctor", "{release} is installed, but rocminfo lists no GPU agent.").format(
                             release=release),
                         N_("Doctor", "{command}   # then restart the computer if rocminfo still lists no GPU").format(
                             command="sudo modprobe amdgpu"))
        names = ", ".join(f"{a.marketing_name or a.name} ({a.name})" for a in agents)
        return Check("rocm_runtime", title, Status.OK,
                     N_("Doctor", "{release} is installed; rocminfo sees {names}.").format(release=release, names=names))
    if report.rocm_version:
        return Check("rocm_runtime", title, Status.OK,
                     N_("Doctor", "{release} is installed (rocminfo is not).").format(release=release))
    if report.torch_build == "rocm" and report.gpu_available:
        return Check("rocm_runtime", title, Status.OK,
                     N_("Doctor", "ROCm is not installed system-wide; PyTorch's ROCm build brings its own runtime "
                        "(HIP {hip}) and it works.").format(hip=report.hip_version))
    return Check(
        "rocm_runtime", title, Status.WARNING,
        N_("Doctor", "ROCm is not installed (no /opt/rocm, rocminfo or amd-smi). PyTorch's ROCm wheels bring their "
           "own runtime, but AMD's tools help find problems."),
        N_("Doctor", "{command}   # after installing AMD's amdgpu-install package for your Linux release from "
           "{url}").format(command="sudo amdgpu-install --usecase=rocm", url="https://rocm.docs.amd.com"),
    )


def _gfx_fix(arch: str, probes: DoctorProbes) -> tuple[str, str, tuple[str, str] | None]:
    """(advice sentence, fix, setting) for a gfx target the wheel has no code for."""
    advice = advice_for(arch)
    newer = torch_index(arch, None)
    if gfx_target(arch) in RDNA4 or gfx_target(arch) == STRIX_HALO:
        # New cards need a newer PyTorch build, not an override.
        return (newer.reason, _reinstall_torch(probes, newer.index), None)
    if advice.override:
        return (N_("Doctor", "Cards of this family run with {variable}={value}. VoxDesk can set it at every start "
                   "(the switch in Help → Doctor), or start it once from a terminal with the command.").format(
                    variable=OVERRIDE_VARIABLE, value=advice.override),
                f"{OVERRIDE_VARIABLE}={advice.override} voxdesk",
                ("gpu/hsa_override_gfx_version", advice.override))
    if advice.rocm_release:
        index = f"{PYTORCH_WHEELS}/rocm{advice.rocm_release}"
        return (N_("Doctor", "Forcing an override is known to cause page faults on this GPU; ROCm {release} and "
                   "later support it natively. Install PyTorch built for it.").format(release=advice.rocm_release),
                _reinstall_torch(probes, index), None)
    return (N_("Doctor", "No workaround is known for this GPU. VoxDesk works on the CPU, more slowly."),
            N_("Doctor", "Settings → Device → CPU"), None)


def check_gfx_target(report: DeviceReport, probes: DoctorProbes) -> Check:
    title = N_("Doctor", "GPU target (gfx)")
    arch = report.gfx_arch or (report.gpu_agents[0].name if report.gpu_agents else None)
    if not report.has_amd_gpu and report.torch_build != "rocm":
        return Check("gfx_target", title, Status.OK, _not_applicable_no_amd())
    if report.torch_build != "rocm":
        return Check("gfx_target", title, Status.OK,
                     N_("Doctor", "{target}: checked once PyTorch for ROCm is installed (see the first row).").format(
                         target=arch or N_("Doctor", "The GPU target")))
    if not arch:
        return Check("gfx_target", title, Status.OK, N_("Doctor", "Not checked: the GPU's gfx target is not known."))
    if report.hsa_override:
        target = N_("Doctor", "{arch} ({variable}={value} in effect)").format(
            arch=arch, variable=OVERRIDE_VARIABLE, value=report.hsa_override)
    else:
        target = arch
    targets = sorted({a.split(":", 1)[0] for a in report.arch_list}, key=lambda a: (len(a), a))
    supported = report.arch_supported if report.gfx_arch == arch else (arch in targets if targets else None)
    if supported is None:
        return Check("gfx_target", title, Status.OK,
                     N_("Doctor", "{target}: the installed PyTorch does not list its GPU targets.").format(target=target))
    if supported:
        return Check("gfx_target", title, Status.OK,
                     N_("Doctor", "{target}: the installed PyTorch has code for it.").format(target=target))
    advice, fix, setting = _gfx_fix(arch, probes)
    return Check(
        "gfx_target", title, Status.ERROR,
        N_("Doctor", "{target} is not among the GPU targets of the installed PyTorch ({targets}). {advice}").format(
            target=target, targets=", ".join(targets), advice=advice),
        fix, setting,
    )


def _smoke_fix(report: DeviceReport, smoke: SmokeResult, probes: DoctorProbes) -> tuple[str, tuple[str, str] | None]:
    text = (smoke.error or "").lower()
    arch = report.gfx_arch or ""
    no_code = any(m in text for m in ("invalid device function", "no binary for gpu", "code object",
                                      "no kernel image"))
    if arch and (no_code or report.arch_supported is False or smoke.crashed or smoke.hung):
        advice = advice_for(arch)
        if report.arch_supported is False or (no_code and (advice.override or advice.rocm_release)):
            _, fix, setting = _gfx_fix(arch, probes)
            return fix, setting
    if "/dev/kfd" in text or "permission" in text:
        return _then_relogin(GROUP_FIX), None
    if "out of memory" in text:
        return N_("Doctor", "Close programs that use the GPU, then run this check again."), None
    return (N_("Doctor", "Update the graphics driver and ROCm (sudo apt update && sudo apt full-upgrade), restart, "
               "and run this check again; until then choose CPU in Settings → Device."), None)


def _run_again() -> Message:
    return N_("Doctor", "Run this check again.")


def check_smoke_test(report: DeviceReport, probes: DoctorProbes) -> Check:
    title = N_("Doctor", "GPU test")
    smoke = report.smoke
    if not report.gpu_present:
        if report.has_amd_gpu and report.torch_build == "rocm":
            return Check("gpu_smoke_test", title, Status.WARNING,
                         N_("Doctor", "PyTorch (ROCm build) sees no GPU, so there is nothing to test."),
                         N_("Doctor", "Fix the rows marked ✗ above, then run this check again."))
        return Check("gpu_smoke_test", title, Status.OK, N_("Doctor", "Not applicable: PyTorch sees no GPU to test."))
    if smoke is None:
        return Check("gpu_smoke_test", title, Status.WARNING, N_("Doctor", "The GPU has not been tested."),
                     _run_again())
    steps = " ".join(f"{op.op} {'✓' if op.ok else '✗'}" for op in smoke.ops)
    device = report.gpu_name or smoke.device_name or N_("Doctor", "the GPU")
    if smoke.passed:
        return Check("gpu_smoke_test", title, Status.OK,
                     N_("Doctor", "{steps} on {device}.").format(steps=steps, device=device))
    if smoke.crashed:
        if smoke.failed_op:
            finding = N_("Doctor", "The test process crashed ({signal}) during {step}. It ran as a separate "
                         "process, so VoxDesk kept running.").format(signal=smoke.signal, step=smoke.failed_op)
        else:
            finding = N_("Doctor", "The test process crashed ({signal}) before the first step. It ran as a "
                         "separate process, so VoxDesk kept running.").format(signal=smoke.signal)
    elif smoke.hung:
        if smoke.failed_op:
            finding = N_("Doctor", "The test stopped answering in {step} and was ended after {seconds:g} s.").format(
                step=smoke.failed_op, seconds=smoke.timeout)
        else:
            finding = N_("Doctor", "The test stopped answering before the first step and was ended after "
                         "{seconds:g} s.").format(seconds=smoke.timeout)
    elif smoke.failed_op:
        finding = N_("Doctor", "{step} failed on {device}: {error}").format(
            step=smoke.failed_op, device=device, error=smoke.error)
    else:
        finding = N_("Doctor", "The test could not run: {error}").format(error=smoke.error)
    if steps and finding.endswith("."):
        finding = N_("Doctor", "{finding} Steps: {steps}.").format(finding=finding, steps=steps)
    elif steps:
        finding = N_("Doctor", "{finding}. Steps: {steps}.").format(finding=finding, steps=steps)
    fix, setting = _smoke_fix(report, smoke, probes)
    return Check("gpu_smoke_test", title, Status.ERROR, finding, fix, setting)


def _import_failure(result: ChildImport) -> Message:
    """How importing went wrong in the test process: crashed (SIGSEGV) or hung."""
    if result.crashed_with:
        return N_("Doctor", "crashed ({signal})").format(signal=result.crashed_with)
    return N_("Doctor", "hung")


def check_torchaudio(report: DeviceReport, probes: DoctorProbes) -> Check:
    title = "torchaudio"
    torch_version = probes.package_version("torch")
    version = probes.package_version("torchaudio")
    if torch_version is None:
        return Check("torchaudio", title, Status.OK, N_("Doctor", "Not applicable: PyTorch is not installed."))
    index = _wheel_index_of(report.torch_version)
    install = _pip(probes, "install", *(["--index-url", index] if index else []),
                   shlex.quote(_torchaudio_requirement(torch_version)))
    if version is None:
        return Check("torchaudio", title, Status.WARNING,
                     N_("Doctor", "torchaudio is not installed; speech synthesis and voice cloning need it."), install)
    matches = torchaudio_matches(torch_version, version)
    result = import_in_child("torchaudio", probes)
    if result.crashed_with or result.hung:
        if matches:
            finding = N_("Doctor", "Importing torchaudio {version} {what} in a test process; inside VoxDesk it would "
                         "close the window. It should match PyTorch {torch}.")
        else:
            finding = N_("Doctor", "Importing torchaudio {version} {what} in a test process; inside VoxDesk it would "
                         "close the window. It does not match PyTorch {torch}.")
        return Check("torchaudio", title, Status.ERROR,
                     finding.format(version=version, what=_import_failure(result), torch=torch_version), install)
    if not result.ok:
        return Check("torchaudio", title, Status.WARNING,
                     N_("Doctor", "torchaudio {version} does not import: {error}").format(
                         version=version, error=result.error), install)
    if not matches:
        return Check("torchaudio", title, Status.WARNING,
                     N_("Doctor", "torchaudio {version} is not from the same release as PyTorch {torch}; a "
                        "mismatched pair can crash.").format(version=version, torch=torch_version), install)
    return Check("torchaudio", title, Status.OK,
                 N_("Doctor", "torchaudio {version} matches PyTorch {torch} and imports cleanly.").format(
                     version=version, torch=torch_version))


# VoxDesk reads and writes every recording through PyAV (core/common/audio.py), never through torchaudio.
_PYAV_NOTE = N_("Doctor", "{what}. Nothing to do: VoxDesk reads and writes all audio through PyAV, which brings "
                          "its own FFmpeg.")


def check_torchcodec(report: DeviceReport, probes: DoctorProbes) -> Check:
    title = "TorchCodec"
    torch_version = probes.package_version("torch")
    version = probes.package_version("torchcodec")
    if torch_version is None:
        return Check("torchcodec", title, Status.OK, N_("Doctor", "Not applicable: PyTorch is not installed."))
    install = _pip(probes, "install", shlex.quote(_torchcodec_requirement(torch_version)))
    needed = (_version_tuple(torch_version) or (0, 0)) >= (2, 9)
    if version is None:
        if not needed:
            return Check("torchcodec", title, Status.OK,
                         N_("Doctor", "Not needed with PyTorch {torch} (torchaudio loads audio itself).").format(
                             torch=torch_version))
        return Check("torchcodec", title, Status.WARNING,
                     N_("Doctor", "TorchCodec is not installed; with PyTorch {torch} speech synthesis (Coqui TTS) "
                        "does not start without it.").format(torch=torch_version), install)
    matches = torchcodec_matches(torch_version, version)
    result = import_in_child("torchcodec", probes)
    if result.crashed_with or result.hung:
        return Check("torchcodec", title, Status.ERROR,
                     N_("Doctor", "Importing TorchCodec {version} {what} in a test process; inside VoxDesk it would "
                        "close the window.").format(version=version, what=_import_failure(result)), install)
    if not result.ok:
        if "ffmpeg" in (result.error or "").lower():
            return Check("torchcodec", title, Status.INFO, _PYAV_NOTE.format(
                what=N_("Doctor", "TorchCodec {version} finds no FFmpeg libraries").format(version=version)))
        return Check("torchcodec", title, Status.WARNING,
                     N_("Doctor", "TorchCodec {version} does not import: {error}").format(
                         version=version, error=result.error), install)
    if matches is False:
        return Check("torchcodec", title, Status.WARNING,
                     N_("Doctor", "TorchCodec {version} was not made for PyTorch {torch}.").format(
                         version=version, torch=torch_version), install)
    if result.data.get("ffmpeg") is None:
        return Check("torchcodec", title, Status.INFO, _PYAV_NOTE.format(
            what=N_("Doctor", "TorchCodec {version} imports, but finds no FFmpeg libraries").format(version=version)))
    ffmpeg = result.data.get("ffmpeg")
    if ffmpeg not in (None, "unknown"):
        finding = N_("Doctor", "TorchCodec {version} matches PyTorch {torch} and imports cleanly (FFmpeg {ffmpeg}).")
    else:
        finding = N_("Doctor", "TorchCodec {version} matches PyTorch {torch} and imports cleanly.")
    return Check("torchcodec", title, Status.OK, finding.format(version=version, torch=torch_version, ffmpeg=ffmpeg))


def _ct2_rocm_fix(probes: DoctorProbes) -> str:
    """Fetch CTranslate2's ROCm wheel (checked) and put it in place of the CPU one."""
    fetch = " ".join([shlex.quote(probes.python), "-m", "desktop.core.gpu.ct2_rocm_wheel", "--dest",
                      "~/.cache/voxdesk-wheels"])
    return f'{_pip(probes, "install", "--no-deps", "--force-reinstall")} "$({fetch})"'


def check_ctranslate2(report: DeviceReport, probes: DoctorProbes) -> Check:
    title = "CTranslate2"
    if report.ct2_version is None and report.ct2_error and "undefined symbol" in report.ct2_error:
        return Check("ctranslate2", title, Status.ERROR,
                     N_("Doctor", "CTranslate2 does not load: its ROCm build does not match the ROCm installed on "
                                  "this computer ({error}). It needs ROCm 7.2; or put back the CPU build with the "
                                  "command.").format(error=report.ct2_error),
                     _pip(probes, "install", "--force-reinstall", "--no-deps", "ctranslate2"))
    if report.ct2_version is None:
        return Check("ctranslate2", title, Status.ERROR,
                     N_("Doctor", "CTranslate2 is not installed, so the fast CPU engine (faster-whisper) cannot run."),
                     _pip(probes, "install", "ctranslate2", "faster-whisper"))
    count = report.ct2_gpu_count
    types = ", ".join(report.ct2_compute_types) or N_("Doctor", "none listed")
    if count == 1:
        return Check("ctranslate2", title, Status.OK,
                     N_("Doctor", "CTranslate2 {version} sees 1 GPU (compute types: {types}).").format(
                         version=report.ct2_version, types=types))
    if count:
        return Check("ctranslate2", title, Status.OK,
                     N_("Doctor", "CTranslate2 {version} sees {count} GPUs (compute types: {types}).").format(
                         version=report.ct2_version, count=count, types=types))
    if report.gpu_present and report.torch_build == "rocm":
        # On ROCm torch sees the card while the package index's CTranslate2 has no ROCm code at all.
        tag = f"cp{sys.version_info.major}{sys.version_info.minor}"
        choice = ct2_wheel(_card_target(report), report.rocm_version, report.ct2_version, tag,
                           hsa_override=report.hsa_override)
        if choice.archive_url is None:
            return Check("ctranslate2", title, Status.INFO,
                         N_("Doctor", "PyTorch sees the GPU, CTranslate2 {version} sees none: {reason} On the GPU "
                                      "VoxDesk uses openai-whisper through PyTorch.").format(
                             version=report.ct2_version, reason=choice.reason))
        return Check("ctranslate2", title, Status.WARNING,
                     N_("Doctor", "PyTorch sees the GPU, but CTranslate2 {version} sees none: it is the build from "
                                  "the package index, without ROCm, so faster-whisper runs on the processor and on "
                                  "the GPU VoxDesk uses openai-whisper through PyTorch. CTranslate2's ROCm build fits "
                                  "this card.").format(version=report.ct2_version),
                     _ct2_rocm_fix(probes))
    if report.gpu_available:
        return Check("ctranslate2", title, Status.OK,
                     N_("Doctor", "CTranslate2 {version} is a build without support for this GPU, so faster-whisper "
                        "runs on the CPU; on the GPU VoxDesk uses openai-whisper through PyTorch.").format(
                         version=report.ct2_version))
    return Check("ctranslate2", title, Status.OK,
                 N_("Doctor", "CTranslate2 {version}, running on the CPU.").format(version=report.ct2_version))


def check_gpus(report: DeviceReport, probes: DoctorProbes) -> Check:
    """More than one AMD GPU: which one VoxDesk uses, and what an override would do to the other."""
    title = N_("Doctor", "Several GPUs")
    agents = report.rocm_agents or []
    if not needs_choosing(agents):
        count = len(gpu_agents(agents))
        return Check("gpus", title, Status.OK, N_("Doctor", "{count} GPU(s) found; nothing to choose.").format(
            count=count))
    chosen = chosen_gpu(agents)
    names = ", ".join(f"{number}: {agent.marketing_name or agent.name} ({agent.name})"
                      for number, agent in enumerate(gpu_agents(agents)))
    visible = probes.machine.environ.get(VISIBLE_VARIABLE)
    finding = N_("Doctor", "This computer has a Radeon built into the processor and a Radeon card ({names}); "
                           "VoxDesk uses the card, {name}, through {variable}={index}.").format(
        names=names, name=chosen.agent.marketing_name or chosen.agent.name, variable=VISIBLE_VARIABLE,
        index=visible or chosen.index)
    if report.hsa_override:
        return Check("gpus", title, Status.WARNING,
                     N_("Doctor", "{finding} {override}={value} applies to every GPU at once and makes the other one "
                                  "run with code that is not its own; set it only together with {variable}.").format(
                         finding=finding, override=OVERRIDE_VARIABLE, value=report.hsa_override,
                         variable=VISIBLE_VARIABLE),
                     f"{VISIBLE_VARIABLE}={chosen.index} {OVERRIDE_VARIABLE}={report.hsa_override} voxdesk")
    return Check("gpus", title, Status.INFO,
                 N_("Doctor", "{finding} An {override} would apply to both GPUs at once: do not set one for this "
                              "computer without {variable}.").format(
                     finding=finding, override=OVERRIDE_VARIABLE, variable=VISIBLE_VARIABLE))


def check_gpu_answers(report: DeviceReport, probes: DoctorProbes) -> Check:
    """The known-answer check: the test speech on the GPU and on the processor, compared."""
    title = N_("Doctor", "GPU gives the right words")
    if not report.gpu_available:
        return Check("gpu_answers", title, Status.OK, N_("Doctor", "Not applicable: no working GPU to check."))
    if probes.gpu_answers is None:
        return Check("gpu_answers", title, Status.INFO,
                     N_("Doctor", "Not checked here: it runs before the first transcription on the GPU."))
    try:
        verdicts = probes.gpu_answers()
    except Exception as error:  # noqa: BLE001 - a check that cannot run is the finding
        return Check("gpu_answers", title, Status.WARNING,
                     N_("Doctor", "The check could not run: {error}").format(error=str(error).splitlines()[0]
                                                                             if str(error) else type(error).__name__),
                     N_("Doctor", "Download a Whisper model (the model list), then run this check again."))
    if not verdicts:
        return Check("gpu_answers", title, Status.INFO,
                     N_("Doctor", "Not checked: no Whisper model is on this computer yet."))
    wrong = [v for v in verdicts if v.wrong]
    sentences = " ".join(v.sentence() for v in verdicts)
    if wrong:
        from desktop.core.gpu.known_answer import WRONG_FIX

        return Check("gpu_answers", title, Status.ERROR, sentences, WRONG_FIX)
    if all(v.slower for v in verdicts):
        return Check("gpu_answers", title, Status.WARNING, sentences,
                     N_("Doctor", "Nothing to do: Automatic uses the processor; choose GPU in Settings → Device to "
                                  "use it anyway."))
    return Check("gpu_answers", title, Status.OK, sentences)


def check_audio_decode(report: DeviceReport, probes: DoctorProbes) -> Check:
    title = N_("Doctor", "Audio decoding")
    try:
        used = probes.decode_audio()
    except Exception as error:  # noqa: BLE001 - any failure here is the finding
        return Check("audio_decode", title, Status.ERROR,
                     N_("Doctor", "PyAV cannot decode audio ({error}), so no file can be read.").format(
                         error=f"{type(error).__name__}: {error}"),
                     _pip(probes, "install", "--force-reinstall", "av"))
    return Check("audio_decode", title, Status.OK, N_("Doctor", "{used} encodes and decodes audio.").format(used=used))


def check_audio_input(report: DeviceReport, probes: DoctorProbes) -> Check:
    title = N_("Doctor", "Microphone")
    try:
        found = probes.audio_inputs()
    except Exception as error:  # noqa: BLE001
        return Check("audio_input", title, Status.WARNING,
                     N_("Doctor", "The list of microphones could not be read ({error}).").format(error=error),
                     N_("Doctor", "Check that no other program holds the sound card, then run this check again."))
    if not found.portaudio:
        package = package_for_library(PORTAUDIO_LIBRARY) or "libportaudio2"
        return Check("audio_input", title, Status.WARNING, sound_unavailable(), install_command([package]))
    if not found.inputs:
        return Check("audio_input", title, Status.WARNING,
                     N_("Doctor", "No microphone found; recording is not available (transcribing files works)."),
                     N_("Doctor", "Plug in a microphone or headset, then run this check again."))
    names = ", ".join(found.inputs)
    if found.default:
        default = N_("Doctor", "Default: {name}.").format(name=found.default)
    else:
        default = N_("Doctor", "No default input is set.")
    if len(found.inputs) == 1:
        finding = N_("Doctor", "1 input device: {names}. {default}")
    else:
        finding = N_("Doctor", "{count} input devices: {names}. {default}")
    return Check("audio_input", title, Status.OK,
                 finding.format(count=len(found.inputs), names=names, default=default))


# Approximate needs per model family: download size, and GPU memory while transcribing
# (the VRAM figures are the ones openai-whisper's README gives).
GIB = 2**30
MODEL_NEEDS: dict[str, tuple[int, int]] = {
    "tiny": (80 * 2**20, 1 * GIB),
    "base": (150 * 2**20, 1 * GIB),
    "small": (490 * 2**20, 2 * GIB),
    "medium": (1530 * 2**20, 5 * GIB),
    "turbo": (1620 * 2**20, 6 * GIB),
    "large": (3090 * 2**20, 10 * GIB),
}
SPARE_DISK = 5 * GIB  # below this, a warning: larger models will not fit


def model_needs(model: str) -> tuple[int, int] | None:
    """(download bytes, GPU bytes) for a catalog model name, None for an imported one."""
    name = model.lower().removesuffix(".en")
    if name in ("turbo", "large-v3-turbo"):
        return MODEL_NEEDS["turbo"]
    if name.startswith("large"):
        return MODEL_NEEDS["large"]
    return MODEL_NEEDS.get(name)


def _gb(size: int) -> str:
    return f"{size / GIB:.1f} GB"


def check_disk_space(report: DeviceReport, probes: DoctorProbes, model: str) -> Check:
    title = N_("Doctor", "Disk space for models")
    try:
        folder = probes.models_dir()
        free = probes.disk_free(folder)
    except Exception as error:  # noqa: BLE001
        return Check("disk_space", title, Status.WARNING,
                     N_("Doctor", "The model folder could not be checked ({error}).").format(error=error),
                     N_("Doctor", "Check that your home folder's drive is mounted, then run this check again."))
    needs = model_needs(model)
    download = needs[0] if needs else 0
    if free < download + 200 * 2**20:
        return Check("disk_space", title, Status.ERROR,
                     N_("Doctor", "Only {free} free for {folder}; the {model} model needs about {size} to "
                        "download.").format(free=_gb(free), folder=folder, model=model, size=_gb(download)),
                     N_("Doctor", "Free at least {size} on the drive that holds {folder} (for example, empty the "
                        "Trash), then run this check again.").format(
                         size=_gb(download + 200 * 2**20 - free), folder=folder))
    if free < SPARE_DISK:
        return Check("disk_space", title, Status.WARNING,
                     N_("Doctor", "{free} free for {folder}: enough for {model}, but not for larger models.").format(
                         free=_gb(free), folder=folder, model=model),
                     N_("Doctor", "Free some space on the drive that holds {folder} before downloading larger "
                        "models.").format(folder=folder))
    return Check("disk_space", title, Status.OK,
                 N_("Doctor", "{free} free for {folder}.").format(free=_gb(free), folder=folder))


def check_gpu_memory(report: DeviceReport, probes: DoctorProbes, model: str) -> Check:
    title = N_("Doctor", "GPU memory")
    if not report.gpu_present and report.memory_total is None:
        return Check("gpu_memory", title, Status.OK, N_("Doctor", "Not applicable: no GPU."))
    needs = model_needs(model)
    if report.memory_free is None:
        if report.memory_total:
            finding = N_("Doctor", "The free GPU memory of {total} could not be read.").format(
                total=_gb(report.memory_total))
        else:
            finding = N_("Doctor", "The free GPU memory could not be read.")
        return Check("gpu_memory", title, Status.OK, finding)
    if needs is None:
        return Check("gpu_memory", title, Status.OK,
                     N_("Doctor", "{free} free; the need of the imported model {model} is not known.").format(
                         free=_gb(report.memory_free), model=model))
    if report.memory_free < needs[1]:
        return Check("gpu_memory", title, Status.WARNING,
                     N_("Doctor", "{free} of GPU memory is free; the {model} model needs about {size}, so it may "
                        "fall back to the CPU.").format(free=_gb(report.memory_free), model=model, size=_gb(needs[1])),
                     N_("Doctor", "Close programs that use the GPU (games, video), or choose a smaller model in "
                        "Settings."))
    return Check("gpu_memory", title, Status.OK,
                 N_("Doctor", "{free} free; the {model} model needs about {size}.").format(
                     free=_gb(report.memory_free), model=model, size=_gb(needs[1])))


def run_doctor(
    *,
    probes: DoctorProbes | None = None,
    model: str = "base",
    report: DeviceReport | None = None,
    progress: Callable[[str], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    downloads: DownloadSources | None = None,
    shared_folders: int = 0,
    gpu_answers: Callable[[], list[GpuVerdict]] | None = None,
) -> DoctorResult:
    """Run every check in order. `report` skips detection (it must include the smoke test).

    `downloads` are the download sources to try (default: Automatic's two public hosts);
    `shared_folders` how many shared model folders are in use; `gpu_answers` runs the GPU's
    known-answer check (it needs an engine, so the window and the command line hand it in).

    `progress(title)` is called before each check; `cancelled()` is asked between checks and raises
    Cancelled when it says so.
    """
    probes = probes or DoctorProbes()
    if gpu_answers is not None and probes.gpu_answers is None:
        probes = dataclasses.replace(probes, gpu_answers=gpu_answers)

    def step(title: str) -> None:
        if cancelled is not None and cancelled():
            raise Cancelled()
        if progress is not None:
            progress(title)

    if report is None:
        step(N_("Doctor", "Detecting the GPU"))
        report = detect(run_smoke_test=True, probes=probes.machine)
    steps: list[tuple[str, Callable[[], Check]]] = [
        (N_("Doctor", "PyTorch build"), lambda: check_torch_build(report, probes)),
        (N_("Doctor", "ROCm runtime"), lambda: check_rocm_runtime(report, probes)),
        (N_("Doctor", "GPU device access"), lambda: check_device_access(report, probes)),
        (N_("Doctor", "GPU target (gfx)"), lambda: check_gfx_target(report, probes)),
        (N_("Doctor", "GPU test"), lambda: check_smoke_test(report, probes)),
        (N_("Doctor", "GPU gives the right words"), lambda: check_gpu_answers(report, probes)),
        (N_("Doctor", "Several GPUs"), lambda: check_gpus(report, probes)),
        ("torchaudio", lambda: check_torchaudio(report, probes)),
        ("TorchCodec", lambda: check_torchcodec(report, probes)),
        ("CTranslate2", lambda: check_ctranslate2(report, probes)),
        (N_("Doctor", "Audio decoding"), lambda: check_audio_decode(report, probes)),
        (N_("Doctor", "Microphone"), lambda: check_audio_input(report, probes)),
        (N_("Doctor", "Disk space for models"), lambda: check_disk_space(report, probes, model)),
        (N_("Doctor", "GPU memory"), lambda: check_gpu_memory(report, probes, model)),
        (DOWNLOADS_TITLE, lambda: check_model_downloads(downloads or DownloadSources(), shared_folders,
                                                        probes.probe_downloads)),
    ]
    checks = []
    for title, run in steps:
        step(title)
        checks.append(run())
    return DoctorResult(report, checks)


def _english(_context: str, text: str) -> str:
    return text


def _display_width(text: str) -> int:
    """Columns a terminal gives the text: Chinese characters take two."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def _wrap(text: str, width: int) -> list[str]:
    """Lines of at most width columns. Chinese may break between any two characters, Latin words
    only at spaces, so a translated report wraps like the English one."""
    if _display_width(text) == len(text):
        return textwrap.wrap(text, width)
    lines, line = [], ""
    for token in re.findall(r"\s+|[^\s\u2e80-\u9fff\u3000-\u303f\uff00-\uffef]+|.", text):
        if line and _display_width(line + token.rstrip()) > width:
            lines.append(line.rstrip())
            line = ""
        if line or not token.isspace():
            line += token
    return lines + [line.rstrip()] if line.strip() else lines


def format_table(result: DoctorResult, width: int = 100, translate: Translate = _english) -> str:
    """The plain-text report the command line prints and the window copies.

    translate(context, English) gives the report in another language (QCoreApplication.translate).
    """
    def text(value: str) -> str:
        return localized(value, translate)

    titles = [text(check.title) for check in result.checks]
    title_width = max(_display_width(title) for title in titles) + 2
    indent = " " * (2 + title_width)
    lines = [text(N_("Doctor", "VoxDesk doctor: {summary}").format(summary=result.report.summary())), ""]
    for check, title in zip(result.checks, titles):
        wrapped = _wrap(text(check.finding), max(40, width - len(indent))) or [""]
        padding = " " * (title_width - _display_width(title))
        lines.append(f"{check.symbol} {title}{padding}{wrapped[0]}")
        lines.extend(indent + line for line in wrapped[1:])
        if check.fix and check.status is not Status.OK:
            lines.append(indent + text(N_("Doctor", "Fix: {fix}").format(fix=check.fix)))
    errors = sum(check.status is Status.ERROR for check in result.checks)
    warnings = sum(check.status is Status.WARNING for check in result.checks)
    problems = N_("Doctor", "1 problem") if errors == 1 else N_("Doctor", "{count} problems").format(count=errors)
    cautions = N_("Doctor", "1 warning") if warnings == 1 else N_("Doctor", "{count} warnings").format(count=warnings)
    lines += ["", text(N_("Doctor", "{problems}, {warnings}.").format(problems=problems, warnings=cautions))]
    return "\n".join(lines)
