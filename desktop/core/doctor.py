"""The doctor: one row per environment check, each ✓ / ⚠ / ✗ with what was found and the exact fix.

Checks have stable ids (CHECK_IDS) so the window and a later translation layer can refer to them; the
sentences here are plain English. `run_doctor()` is slow (it imports torch, runs the GPU smoke test and
imports torchaudio / torchcodec in child processes, because a mismatched build can segfault on import):
call it from a worker thread or the command line.
"""
from __future__ import annotations

import dataclasses
import enum
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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from desktop.core.device import (
    DeviceReport,
    Probes,
    SmokeResult,
    child_environment,
    detect,
    major_minor,
    run_child,
)
from desktop.core.errors import Cancelled
from desktop.core.gpu_env import OVERRIDE_VARIABLE, advice_for

log = logging.getLogger(__name__)


class Status(str, enum.Enum):
    OK = "ok"
    WARNING = "warning"
    ERROR = "error"

    @property
    def symbol(self) -> str:
        return {"ok": "✓", "warning": "⚠", "error": "✗"}[self.value]


@dataclass(frozen=True)
class Check:
    id: str  # stable, one of CHECK_IDS
    title: str
    status: Status
    finding: str  # what was found, in a sentence or two
    fix: str = ""  # for ⚠ and ✗: a command to copy, or the one thing to do
    setting: tuple[str, str] | None = None  # (Settings key, value) a switch in the window can apply

    @property
    def symbol(self) -> str:
        return self.status.symbol

    def to_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["status"] = self.status.value
        data["symbol"] = self.symbol
        data["setting"] = {"key": self.setting[0], "value": self.setting[1]} if self.setting else None
        return data


CHECK_IDS = (
    "torch_build",
    "rocm_runtime",
    "device_access",
    "gfx_target",
    "gpu_smoke_test",
    "torchaudio",
    "torchcodec",
    "ctranslate2",
    "audio_decode",
    "audio_input",
    "disk_space",
    "gpu_memory",
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
    from desktop.core.paths import models_dir  # lazily: not needed by anything else here

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
        return ChildImport(False, error="Python could not be started")
    if output.timed_out:
        return ChildImport(False, hung=True, error=f"no answer within {probes.import_timeout:g} s")
    if output.signal_name:
        return ChildImport(False, crashed_with=output.signal_name, error=f"crashed with {output.signal_name}")
    if output.returncode != 0:
        lines = [line for line in output.stderr.strip().splitlines() if line.strip()]
        return ChildImport(False, error=lines[-1].strip() if lines else f"exit status {output.returncode}")
    return ChildImport(True, data=_last_json(output.stdout) or {})


# -- fix commands -------------------------------------------------------------------------------

PYTORCH_WHEELS = "https://download.pytorch.org/whl"
GROUP_FIX = "sudo usermod -aG render,video $USER"
RELOGIN = "then log out and back in (or restart the computer)."


def rocm_wheel_index(rocm_release: str | None) -> str:
    """PyTorch's ROCm wheel index for an installed ROCm release (the same choice as packaging/install.sh)."""
    release = major_minor(rocm_release)
    if release and release.startswith("6."):
        return f"{PYTORCH_WHEELS}/rocm6.4"
    return f"{PYTORCH_WHEELS}/rocm7.1"


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

def _gpu_label(report: DeviceReport) -> str:
    name = report.gpu_name or (report.gpu_agents[0].marketing_name if report.gpu_agents else None)
    arch = report.gfx_arch or (report.gpu_agents[0].name if report.gpu_agents else None)
    if name and arch:
        return f"{name} ({arch})"
    return name or arch or "the AMD graphics card"


def _build_name(report: DeviceReport) -> str:
    return {"rocm": "a ROCm build", "cuda": "a CUDA build", "cpu": "a CPU-only build"}.get(report.torch_build, "")


def check_torch_build(report: DeviceReport, probes: DoctorProbes) -> Check:
    title = "PyTorch build"
    amd = report.has_amd_gpu
    index = rocm_wheel_index(report.rocm_version) if amd else None
    if report.torch_build == "missing":
        why = f" ({report.torch_error})" if report.torch_error and "No module named" not in report.torch_error else ""
        return Check("torch_build", title, Status.ERROR,
                     f"PyTorch is not installed or does not load{why}.", _reinstall_torch(probes, index))
    version = report.torch_version or "?"
    if amd and report.torch_build != "rocm":
        return Check(
            "torch_build", title, Status.ERROR,
            f"This computer has an AMD graphics card, but PyTorch {version} is {_build_name(report)}, "
            "so it cannot use it. PyTorch for ROCm comes from PyTorch's own ROCm wheel index.",
            _reinstall_torch(probes, index),
        )
    if amd:
        return Check("torch_build", title, Status.OK,
                     f"PyTorch {version} is a ROCm build (HIP {report.hip_version}), right for the AMD graphics card.")
    if report.torch_build == "rocm":
        return Check(
            "torch_build", title, Status.WARNING,
            f"PyTorch {version} is a ROCm build, but no AMD graphics card was found, so it runs on the CPU.",
            _reinstall_torch(probes, None),
        )
    if report.gpu_present:
        return Check("torch_build", title, Status.OK,
                     f"PyTorch {version} is {_build_name(report)} and sees {report.gpu_name or 'a GPU'}.")
    return Check("torch_build", title, Status.OK,
                 f"No GPU found; PyTorch {version} is {_build_name(report)} and runs on the CPU.")


def _access_problem(probes: DoctorProbes) -> str | None:
    """What keeps this user from the GPU's device files, or None."""
    kfd = probes.dev / "kfd"
    if not kfd.exists():
        return "missing"
    render_nodes = sorted((probes.dev / "dri").glob("renderD*"))
    blocked = [path for path in [kfd, *render_nodes] if not probes.can_read_write(path)]
    if blocked:
        return "cannot open " + ", ".join(str(path) for path in blocked)
    if not render_nodes:
        return f"no {probes.dev / 'dri' / 'renderD*'} device"
    return None


def _groups_phrase(names: set[str]) -> str:
    """"the render group" / "the render and video groups"."""
    ordered = sorted(names)
    return f"the {' and '.join(ordered)} group{'s' if len(ordered) > 1 else ''}"


def _group_fix(probes: DoctorProbes, missing: set[str]) -> str:
    existing = probes.existing_groups()
    groups = [name for name in ("render", "video") if name in missing and name in existing] or ["render", "video"]
    return f"sudo usermod -aG {','.join(groups)} $USER"


def check_device_access(report: DeviceReport, probes: DoctorProbes) -> Check:
    title = "GPU device access"
    if not report.has_amd_gpu:
        return Check("device_access", title, Status.OK, "Not applicable: no AMD graphics card found.")
    needed = {"render", "video"} & probes.existing_groups() or {"render", "video"}
    missing_now = needed - probes.process_groups()
    problem = _access_problem(probes)
    if problem == "missing":
        return Check("device_access", title, Status.ERROR,
                     f"{probes.dev / 'kfd'} does not exist: the amdgpu kernel driver with compute support "
                     "is not loaded.", "sudo modprobe amdgpu")
    if probes.is_root():
        if problem:
            return Check("device_access", title, Status.ERROR,
                         f"Even as root VoxDesk {problem}.", "sudo modprobe amdgpu")
        return Check("device_access", title, Status.OK, "The GPU's device files are accessible (running as root).")
    if missing_now and not (missing_now - probes.configured_groups()):
        # Already added to the groups, but this session started before that.
        return Check("device_access", title, Status.ERROR if problem else Status.WARNING,
                     f"You were added to {_groups_phrase(missing_now)}, but this login session started "
                     "before that.",
                     "Log out and back in (or restart the computer), then start VoxDesk again.")
    if problem:
        return Check("device_access", title, Status.ERROR,
                     f"VoxDesk {problem}: your user is not allowed to use the GPU"
                     + (f" (not in {_groups_phrase(missing_now)})." if missing_now else "."),
                     f"{_group_fix(probes, missing_now or needed)}   # {RELOGIN}")
    if missing_now:
        return Check("device_access", title, Status.WARNING,
                     f"The GPU's device files open now, but your user is not in {_groups_phrase(missing_now)}, "
                     "which ROCm expects.",
                     f"{_group_fix(probes, missing_now)}   # {RELOGIN}")
    return Check("device_access", title, Status.OK,
                 "/dev/kfd and the render node are accessible; you are in the render and video groups.")


def check_rocm_runtime(report: DeviceReport, probes: DoctorProbes) -> Check:
    title = "ROCm runtime"
    if not report.has_amd_gpu:
        return Check("rocm_runtime", title, Status.OK, "Not applicable: no AMD graphics card found.")
    release = f"ROCm {report.rocm_version}" if report.rocm_version else None
    if report.rocminfo_error:
        fix = f"{GROUP_FIX}   # {RELOGIN}" if "/dev/kfd" in report.rocminfo_error else "sudo modprobe amdgpu"
        return Check("rocm_runtime", title, Status.ERROR,
                     f"{release or 'ROCm'} is installed, but rocminfo cannot reach the GPU: "
                     f"{report.rocminfo_error}", fix)
    if report.rocm_agents is not None:
        agents = report.gpu_agents
        if not agents:
            return Check("rocm_runtime", title, Status.ERROR,
                         f"{release or 'ROCm'} is installed, but rocminfo lists no GPU agent.",
                         "sudo modprobe amdgpu   # then restart the computer if rocminfo still lists no GPU")
        names = ", ".join(f"{a.marketing_name or a.name} ({a.name})" for a in agents)
        return Check("rocm_runtime", title, Status.OK,
                     f"{release or 'ROCm'} is installed; rocminfo sees {names}.")
    if release:
        return Check("rocm_runtime", title, Status.OK, f"{release} is installed (rocminfo is not).")
    if report.torch_build == "rocm" and report.gpu_available:
        return Check("rocm_runtime", title, Status.OK,
                     f"ROCm is not installed system-wide; PyTorch's ROCm build brings its own runtime "
                     f"(HIP {report.hip_version}) and it works.")
    return Check(
        "rocm_runtime", title, Status.WARNING,
        "ROCm is not installed (no /opt/rocm, rocminfo or amd-smi). PyTorch's ROCm wheels bring their own "
        "runtime, but AMD's tools help find problems.",
        "sudo amdgpu-install --usecase=rocm   # after installing AMD's amdgpu-install package for your "
        "Linux release from https://rocm.docs.amd.com",
    )


def _gfx_fix(arch: str, probes: DoctorProbes) -> tuple[str, str, tuple[str, str] | None]:
    """(advice sentence, fix, setting) for a gfx target the wheel has no code for."""
    advice = advice_for(arch)
    if advice.override:
        return (f"Cards of this family run with {OVERRIDE_VARIABLE}={advice.override}. VoxDesk can set it at "
                "every start (the switch in Help → Doctor), or start it once from a terminal "
                "with the command.",
                f"{OVERRIDE_VARIABLE}={advice.override} voxdesk",
                ("gpu/hsa_override_gfx_version", advice.override))
    if advice.rocm_release:
        index = f"{PYTORCH_WHEELS}/rocm{advice.rocm_release}"
        return (f"Forcing an override is known to cause page faults on this GPU; ROCm {advice.rocm_release} "
                "and later support it natively. Install PyTorch built for it.",
                _reinstall_torch(probes, index), None)
    return ("No workaround is known for this GPU. VoxDesk works on the CPU, more slowly.",
            "Settings → Device → CPU", None)


def check_gfx_target(report: DeviceReport, probes: DoctorProbes) -> Check:
    title = "GPU target (gfx)"
    arch = report.gfx_arch or (report.gpu_agents[0].name if report.gpu_agents else None)
    if not report.has_amd_gpu and report.torch_build != "rocm":
        return Check("gfx_target", title, Status.OK, "Not applicable: no AMD graphics card found.")
    if report.torch_build != "rocm":
        return Check("gfx_target", title, Status.OK,
                     f"{arch or 'The GPU target'}: checked once PyTorch for ROCm is installed (see the first row).")
    if not arch:
        return Check("gfx_target", title, Status.OK, "Not checked: the GPU's gfx target is not known.")
    override = f" ({OVERRIDE_VARIABLE}={report.hsa_override} in effect)" if report.hsa_override else ""
    targets = sorted({a.split(":", 1)[0] for a in report.arch_list}, key=lambda a: (len(a), a))
    supported = report.arch_supported if report.gfx_arch == arch else (arch in targets if targets else None)
    if supported is None:
        return Check("gfx_target", title, Status.OK,
                     f"{arch}{override}: the installed PyTorch does not list its GPU targets.")
    if supported:
        return Check("gfx_target", title, Status.OK, f"{arch}{override}: the installed PyTorch has code for it.")
    advice, fix, setting = _gfx_fix(arch, probes)
    return Check(
        "gfx_target", title, Status.ERROR,
        f"{arch}{override} is not among the GPU targets of the installed PyTorch ({', '.join(targets)}). {advice}",
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
        return f"{GROUP_FIX}   # {RELOGIN}", None
    if "out of memory" in text:
        return "Close programs that use the GPU, then run this check again.", None
    return ("Update the graphics driver and ROCm (sudo apt update && sudo apt full-upgrade), restart, and "
            "run this check again; until then choose CPU in Settings → Device.", None)


def check_smoke_test(report: DeviceReport, probes: DoctorProbes) -> Check:
    title = "GPU test"
    smoke = report.smoke
    if not report.gpu_present:
        if report.has_amd_gpu and report.torch_build == "rocm":
            return Check("gpu_smoke_test", title, Status.WARNING,
                         "PyTorch (ROCm build) sees no GPU, so there is nothing to test.",
                         "Fix the rows marked ✗ above, then run this check again.")
        return Check("gpu_smoke_test", title, Status.OK, "Not applicable: PyTorch sees no GPU to test.")
    if smoke is None:
        return Check("gpu_smoke_test", title, Status.WARNING, "The GPU has not been tested.",
                     "Run this check again.")
    steps = " ".join(f"{op.op} {'✓' if op.ok else '✗'}" for op in smoke.ops)
    device = report.gpu_name or smoke.device_name or "the GPU"
    if smoke.passed:
        return Check("gpu_smoke_test", title, Status.OK, f"{steps} on {device}.")
    if smoke.crashed:
        where = f" during {smoke.failed_op}" if smoke.failed_op else " before the first step"
        finding = (f"The test process crashed ({smoke.signal}){where}. It ran as a separate process, so "
                   "VoxDesk kept running.")
    elif smoke.hung:
        where = f" in {smoke.failed_op}" if smoke.failed_op else " before the first step"
        finding = f"The test stopped answering{where} and was ended after {smoke.timeout:g} s."
    elif smoke.failed_op:
        finding = f"{smoke.failed_op} failed on {device}: {smoke.error}"
    else:
        finding = f"The test could not run: {smoke.error}"
    if steps:
        finding += ("" if finding.endswith(".") else ".") + f" Steps: {steps}."
    fix, setting = _smoke_fix(report, smoke, probes)
    return Check("gpu_smoke_test", title, Status.ERROR, finding, fix, setting)


def check_torchaudio(report: DeviceReport, probes: DoctorProbes) -> Check:
    title = "torchaudio"
    torch_version = probes.package_version("torch")
    version = probes.package_version("torchaudio")
    if torch_version is None:
        return Check("torchaudio", title, Status.OK, "Not applicable: PyTorch is not installed.")
    index = _wheel_index_of(report.torch_version)
    install = _pip(probes, "install", *(["--index-url", index] if index else []),
                   shlex.quote(_torchaudio_requirement(torch_version)))
    if version is None:
        return Check("torchaudio", title, Status.WARNING,
                     "torchaudio is not installed; speech synthesis and voice cloning need it.", install)
    matches = torchaudio_matches(torch_version, version)
    result = import_in_child("torchaudio", probes)
    if result.crashed_with or result.hung:
        what = f"crashed ({result.crashed_with})" if result.crashed_with else "hung"
        pairing = "It does not match" if not matches else "It should match"
        return Check("torchaudio", title, Status.ERROR,
                     f"Importing torchaudio {version} {what} in a test process; inside VoxDesk it would close "
                     f"the window. {pairing} PyTorch {torch_version}.", install)
    if not result.ok:
        return Check("torchaudio", title, Status.WARNING,
                     f"torchaudio {version} does not import: {result.error}", install)
    if not matches:
        return Check("torchaudio", title, Status.WARNING,
                     f"torchaudio {version} is not from the same release as PyTorch {torch_version}; a "
                     "mismatched pair can crash.", install)
    return Check("torchaudio", title, Status.OK,
                 f"torchaudio {version} matches PyTorch {torch_version} and imports cleanly.")


def check_torchcodec(report: DeviceReport, probes: DoctorProbes) -> Check:
    title = "TorchCodec"
    torch_version = probes.package_version("torch")
    version = probes.package_version("torchcodec")
    if torch_version is None:
        return Check("torchcodec", title, Status.OK, "Not applicable: PyTorch is not installed.")
    install = _pip(probes, "install", shlex.quote(_torchcodec_requirement(torch_version)))
    needed = (_version_tuple(torch_version) or (0, 0)) >= (2, 9)
    if version is None:
        if not needed:
            return Check("torchcodec", title, Status.OK,
                         f"Not needed with PyTorch {torch_version} (torchaudio loads audio itself).")
        return Check("torchcodec", title, Status.WARNING,
                     f"TorchCodec is not installed; with PyTorch {torch_version} speech synthesis (Coqui TTS) "
                     "does not start without it.", install)
    matches = torchcodec_matches(torch_version, version)
    result = import_in_child("torchcodec", probes)
    if result.crashed_with or result.hung:
        what = f"crashed ({result.crashed_with})" if result.crashed_with else "hung"
        return Check("torchcodec", title, Status.ERROR,
                     f"Importing TorchCodec {version} {what} in a test process; inside VoxDesk it would close "
                     "the window.", install)
    if not result.ok:
        ffmpeg = "ffmpeg" in (result.error or "").lower()
        return Check("torchcodec", title, Status.WARNING,
                     f"TorchCodec {version} does not import: {result.error}",
                     "sudo apt install ffmpeg" if ffmpeg else install)
    if matches is False:
        return Check("torchcodec", title, Status.WARNING,
                     f"TorchCodec {version} was not made for PyTorch {torch_version}.", install)
    if result.data.get("ffmpeg") is None:
        return Check("torchcodec", title, Status.WARNING,
                     f"TorchCodec {version} imports, but finds no FFmpeg libraries, so torchaudio cannot load "
                     "audio files; whatever reads recordings through torchaudio will fail.",
                     "sudo apt install ffmpeg")
    ffmpeg = result.data.get("ffmpeg")
    return Check("torchcodec", title, Status.OK,
                 f"TorchCodec {version} matches PyTorch {torch_version} and imports cleanly"
                 + (f" (FFmpeg {ffmpeg})." if ffmpeg not in (None, "unknown") else "."))


def check_ctranslate2(report: DeviceReport, probes: DoctorProbes) -> Check:
    title = "CTranslate2"
    if report.ct2_version is None:
        return Check("ctranslate2", title, Status.ERROR,
                     "CTranslate2 is not installed, so the fast CPU engine (faster-whisper) cannot run.",
                     _pip(probes, "install", "ctranslate2", "faster-whisper"))
    count = report.ct2_gpu_count
    if count:
        return Check("ctranslate2", title, Status.OK,
                     f"CTranslate2 {report.ct2_version} sees {count} GPU{'s' if count > 1 else ''}.")
    if report.gpu_available:
        return Check("ctranslate2", title, Status.OK,
                     f"CTranslate2 {report.ct2_version} is a build without support for this GPU, so "
                     "faster-whisper runs on the CPU; on the GPU VoxDesk uses openai-whisper through PyTorch.")
    return Check("ctranslate2", title, Status.OK, f"CTranslate2 {report.ct2_version}, running on the CPU.")


def check_audio_decode(report: DeviceReport, probes: DoctorProbes) -> Check:
    title = "Audio decoding"
    try:
        used = probes.decode_audio()
    except Exception as error:  # noqa: BLE001 - any failure here is the finding
        return Check("audio_decode", title, Status.ERROR,
                     f"PyAV cannot decode audio ({type(error).__name__}: {error}), so no file can be read.",
                     _pip(probes, "install", "--force-reinstall", "av"))
    return Check("audio_decode", title, Status.OK, f"{used} encodes and decodes audio.")


def check_audio_input(report: DeviceReport, probes: DoctorProbes) -> Check:
    title = "Microphone"
    try:
        found = probes.audio_inputs()
    except Exception as error:  # noqa: BLE001
        return Check("audio_input", title, Status.WARNING,
                     f"The list of microphones could not be read ({error}).",
                     "Check that no other program holds the sound card, then run this check again.")
    if not found.portaudio:
        return Check("audio_input", title, Status.WARNING,
                     "PortAudio is not installed, so recording from a microphone is not available "
                     "(transcribing files works).", "sudo apt install libportaudio2")
    if not found.inputs:
        return Check("audio_input", title, Status.WARNING,
                     "No microphone found; recording is not available (transcribing files works).",
                     "Plug in a microphone or headset, then run this check again.")
    default = f" Default: {found.default}." if found.default else " No default input is set."
    return Check("audio_input", title, Status.OK,
                 f"{len(found.inputs)} input device{'s' if len(found.inputs) > 1 else ''}: "
                 f"{', '.join(found.inputs)}.{default}")


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
    title = "Disk space for models"
    try:
        folder = probes.models_dir()
        free = probes.disk_free(folder)
    except Exception as error:  # noqa: BLE001
        return Check("disk_space", title, Status.WARNING, f"The model folder could not be checked ({error}).",
                     "Check that your home folder's drive is mounted, then run this check again.")
    needs = model_needs(model)
    download = needs[0] if needs else 0
    where = f"{_gb(free)} free for {folder}"
    if free < download + 200 * 2**20:
        return Check("disk_space", title, Status.ERROR,
                     f"Only {where}; the {model} model needs about {_gb(download)} to download.",
                     f"Free at least {_gb(download + 200 * 2**20 - free)} on the drive that holds {folder} "
                     "(for example, empty the Trash), then run this check again.")
    if free < SPARE_DISK:
        return Check("disk_space", title, Status.WARNING,
                     f"{where}: enough for {model}, but not for larger models.",
                     f"Free some space on the drive that holds {folder} before downloading larger models.")
    return Check("disk_space", title, Status.OK, f"{where}.")


def check_gpu_memory(report: DeviceReport, probes: DoctorProbes, model: str) -> Check:
    title = "GPU memory"
    if not report.gpu_present and report.memory_total is None:
        return Check("gpu_memory", title, Status.OK, "Not applicable: no GPU.")
    needs = model_needs(model)
    if report.memory_free is None:
        total = f" of {_gb(report.memory_total)}" if report.memory_total else ""
        return Check("gpu_memory", title, Status.OK, f"The free GPU memory{total} could not be read.")
    if needs is None:
        return Check("gpu_memory", title, Status.OK,
                     f"{_gb(report.memory_free)} free; the need of the imported model {model} is not known.")
    if report.memory_free < needs[1]:
        return Check("gpu_memory", title, Status.WARNING,
                     f"{_gb(report.memory_free)} of GPU memory is free; the {model} model needs about "
                     f"{_gb(needs[1])}, so it may fall back to the CPU.",
                     "Close programs that use the GPU (games, video), or choose a smaller model in Settings.")
    return Check("gpu_memory", title, Status.OK,
                 f"{_gb(report.memory_free)} free; the {model} model needs about {_gb(needs[1])}.")


def run_doctor(
    *,
    probes: DoctorProbes | None = None,
    model: str = "base",
    report: DeviceReport | None = None,
    progress: Callable[[str], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> DoctorResult:
    """Run every check in order. `report` skips detection (it must include the smoke test).

    `progress(title)` is called before each check; `cancelled()` is asked between checks and raises
    Cancelled when it says so.
    """
    probes = probes or DoctorProbes()

    def step(title: str) -> None:
        if cancelled is not None and cancelled():
            raise Cancelled()
        if progress is not None:
            progress(title)

    if report is None:
        step("Detecting the GPU")
        report = detect(run_smoke_test=True, probes=probes.machine)
    steps: list[tuple[str, Callable[[], Check]]] = [
        ("PyTorch build", lambda: check_torch_build(report, probes)),
        ("ROCm runtime", lambda: check_rocm_runtime(report, probes)),
        ("GPU device access", lambda: check_device_access(report, probes)),
        ("GPU target (gfx)", lambda: check_gfx_target(report, probes)),
        ("GPU test", lambda: check_smoke_test(report, probes)),
        ("torchaudio", lambda: check_torchaudio(report, probes)),
        ("TorchCodec", lambda: check_torchcodec(report, probes)),
        ("CTranslate2", lambda: check_ctranslate2(report, probes)),
        ("Audio decoding", lambda: check_audio_decode(report, probes)),
        ("Microphone", lambda: check_audio_input(report, probes)),
        ("Disk space for models", lambda: check_disk_space(report, probes, model)),
        ("GPU memory", lambda: check_gpu_memory(report, probes, model)),
    ]
    checks = []
    for title, run in steps:
        step(title)
        checks.append(run())
    return DoctorResult(report, checks)


def format_table(result: DoctorResult, width: int = 100) -> str:
    """The plain-text report the command line prints and the window copies."""
    title_width = max(len(check.title) for check in result.checks) + 2
    indent = " " * (2 + title_width)
    lines = [f"VoxDesk doctor: {result.report.summary()}", ""]
    for check in result.checks:
        wrapped = textwrap.wrap(check.finding, max(40, width - len(indent))) or [""]
        lines.append(f"{check.symbol} {check.title.ljust(title_width)}{wrapped[0]}")
        lines.extend(indent + line for line in wrapped[1:])
        if check.fix and check.status is not Status.OK:
            lines.append(f"{indent}Fix: {check.fix}")
    errors = sum(check.status is Status.ERROR for check in result.checks)
    warnings = sum(check.status is Status.WARNING for check in result.checks)
    lines += ["", f"{errors} problem{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''}."]
    return "\n".join(lines)
