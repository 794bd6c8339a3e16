"""What accelerator this computer has, and whether it actually works.

`detect()` gathers the facts (PyTorch build, GPU name, gfx target, memory, ROCm release, CTranslate2,
CPU) and runs the GPU smoke test (`desktop.core.gpu.smoke_test`) in a child process with a timeout, so a
segfault or a hang in the driver can never take the window down. The GPU's own properties come from
that child too: reading them starts the HIP/CUDA runtime, where a broken driver fails. PyTorch's build
and GPU count come from another child (`desktop.core.gpu.torch_facts`), so this process never imports
torch. detect() waits for those children: it runs on a worker thread or in the command line, never on
the GUI thread.

Everything detection reads from the machine goes through `Probes`, which tests replace with fake
sysfs trees, captured rocminfo output and torch facades.
"""
from __future__ import annotations

import json
import logging
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable, Mapping, Sequence

from desktop.core.common.errors import Cancelled
from desktop.core.common.i18n import N_, Message

log = logging.getLogger(__name__)

AMD_PCI_VENDOR = "0x1002"
DEFAULT_ROCM_PATH = "/opt/rocm"
SMOKE_TEST_TIMEOUT = 90.0  # seconds; the first kernel launch on ROCm can take a while (code loading)
TOOL_TIMEOUT = 20.0
TORCH_FACTS_TIMEOUT = 60.0  # seconds; importing torch from a cold disk can take a while
CANCEL_CHECK_S = 0.1  # how often a cancellable child process is asked whether to stop


# -- child processes ----------------------------------------------------------------------------

@dataclass(frozen=True)
class CommandOutput:
    """What a child process left behind."""

    returncode: int | None  # None when it was stopped for running past its timeout
    stdout: str
    stderr: str
    timed_out: bool = False

    @property
    def signal_name(self) -> str | None:
        """"SIGSEGV" and the like when the process was killed by a signal (and did not time out)."""
        if self.timed_out or self.returncode is None or self.returncode >= 0:
            return None
        try:
            return signal.Signals(-self.returncode).name
        except ValueError:
            return f"signal {-self.returncode}"


def run_child(argv: Sequence[str], timeout: float, *, env: Mapping[str, str] | None = None,
              cancelled: Callable[[], bool] | None = None) -> CommandOutput | None:
    """Run a program with a timeout; None when the program does not exist.

    It gets its own process group, so a timeout kills whatever it started too. A process stuck in the
    kernel may not even die from SIGKILL; then what it printed so far is returned without waiting.
    cancelled: asked a few times a second; when it says True the program is killed the same way and
    Cancelled is raised (closing the window must not wait a minute for a probe's answer).
    """
    try:
        process = subprocess.Popen(
            list(argv), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=dict(env) if env is not None else None, start_new_session=True,
        )
    except (FileNotFoundError, PermissionError, NotADirectoryError):
        return None
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        try:
            # Retrying communicate() after its timeout loses none of the output.
            out, err = process.communicate(timeout=max(0.0, min(left, CANCEL_CHECK_S)) if cancelled else timeout)
            return CommandOutput(process.returncode, _decode(out), _decode(err))
        except subprocess.TimeoutExpired:
            stop = cancelled is not None and cancelled()
            if stop or left <= CANCEL_CHECK_S or cancelled is None:
                break
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        process.kill()
    try:
        out, err = process.communicate(timeout=5)
    except subprocess.TimeoutExpired as stuck:
        out, err = stuck.stdout or b"", stuck.stderr or b""
    if stop:
        raise Cancelled()
    return CommandOutput(None, _decode(out), _decode(err), timed_out=True)


def _decode(data: bytes | str | None) -> str:
    if data is None:
        return ""
    return data if isinstance(data, str) else data.decode("utf-8", errors="replace")


def find_program(name: str, environ: Mapping[str, str]) -> str | None:
    """A ROCm tool on PATH or in $ROCM_PATH/bin."""
    found = shutil.which(name, path=environ.get("PATH"))
    if found:
        return found
    candidate = Path(environ.get("ROCM_PATH") or DEFAULT_ROCM_PATH) / "bin" / name
    return str(candidate) if candidate.is_file() and os.access(candidate, os.X_OK) else None


def _run_tool(argv: Sequence[str], timeout: float, cancelled: Callable[[], bool] | None = None) -> CommandOutput | None:
    program = find_program(argv[0], os.environ)
    if program is None:
        return None
    return run_child([program, *argv[1:]], timeout, cancelled=cancelled)


def smoke_test_command() -> list[str]:
    return [sys.executable, "-m", "desktop.core.gpu.smoke_test", "--json"]


def child_environment(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for Python child processes: this one's, with this package importable."""
    env = dict(os.environ if environ is None else environ)
    package_root = str(Path(__file__).resolve().parents[3])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH", "")) if p)
    env.setdefault("PYTHONUNBUFFERED", "1")
    return env


# -- the probes ---------------------------------------------------------------------------------

class TorchUnavailable(ImportError):
    """torch could not be imported in the child; the message already names the error's kind."""


def torch_facts_command(*extra: str) -> list[str]:
    return [sys.executable, "-m", "desktop.core.gpu.torch_facts", *extra]


def _torch_events(extra: Sequence[str] = (), cancelled: Callable[[], bool] | None = None,
                  ) -> tuple[dict[str, dict], CommandOutput | None]:
    output = run_child(torch_facts_command(*extra), TORCH_FACTS_TIMEOUT, env=child_environment(), cancelled=cancelled)
    events: dict[str, dict] = {}
    for line in (output.stdout if output is not None else "").splitlines():
        try:
            event = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(event, dict) and isinstance(event.get("event"), str):
            events[event["event"]] = event
    return events, output


def _what_happened(output: CommandOutput | None) -> str:
    if output is None:
        return "the process could not be started"
    if output.timed_out:
        return f"no answer within {TORCH_FACTS_TIMEOUT:g} s"
    if output.signal_name:
        return f"it crashed with {output.signal_name}"
    lines = [line for line in output.stderr.strip().splitlines() if line.strip()]
    return lines[-1].strip() if lines else f"it exited with status {output.returncode}"


def torch_in_child(cancelled: Callable[[], bool] | None = None) -> Any:
    """PyTorch's answers about itself and the GPU, asked in a child process (``torch_facts``), shaped
    like the parts of the torch module detection reads. The window's process neither imports torch
    nor starts the HIP/CUDA runtime, so a driver that crashes there cannot take it down.

    Raises TorchUnavailable (an ImportError) when torch cannot be imported; a GPU question the child died on raises
    RuntimeError when it is asked here. Cancelled when ``cancelled()`` says so while the child runs.
    """
    events, output = _torch_events(cancelled=cancelled)
    build = events.get("build")
    if build is None:
        raise TorchUnavailable(events.get("error", {}).get("error") or f"PyTorch did not start: {_what_happened(output)}")
    gpus = events.get("gpus")

    def device_count() -> int:
        if gpus is None:
            raise RuntimeError(f"PyTorch stopped while looking for a GPU: {_what_happened(output)}")
        if gpus.get("error"):
            raise RuntimeError(gpus["error"])
        return int(gpus.get("count") or 0)

    properties: dict[str, Any] = {}

    def read_properties() -> dict[str, Any]:
        if not properties:
            found, later = _torch_events(("--properties",))
            if "properties" not in found:
                raise RuntimeError(f"PyTorch stopped while reading the GPU: {_what_happened(later)}")
            properties.update(found["properties"])
        return properties

    def mem_get_info(index: int = 0) -> tuple[int, int]:
        facts = read_properties()
        if facts.get("free_memory") is None:
            raise RuntimeError("the GPU's free memory could not be read")
        return int(facts["free_memory"]), int(facts["total_memory"])

    cuda = SimpleNamespace(
        is_available=lambda: device_count() > 0,
        device_count=device_count,
        get_arch_list=lambda: list(build.get("arch_list") or []),
        get_device_properties=lambda index=0: SimpleNamespace(**read_properties()),
        mem_get_info=mem_get_info,
    )
    return SimpleNamespace(__version__=build.get("torch") or "", cuda=cuda,
                           version=SimpleNamespace(hip=build.get("hip"), cuda=build.get("cuda")))


def _import_ctranslate2() -> Any:
    import ctranslate2

    return ctranslate2


@dataclass
class Probes:
    """Where detection reads the machine. Every field can be replaced, which is how tests fake a GPU."""

    import_torch: Callable[[], Any] = torch_in_child
    import_ctranslate2: Callable[[], Any] = _import_ctranslate2
    environ: Mapping[str, str] = field(default_factory=lambda: os.environ)
    sysfs_drm: Path = Path("/sys/class/drm")
    proc_cpuinfo: Path = Path("/proc/cpuinfo")
    cpu_count: Callable[[], int | None] = os.cpu_count
    # run_tool(["rocminfo"], timeout): a ROCm tool's output, None when it is not installed.
    run_tool: Callable[[Sequence[str], float], CommandOutput | None] = _run_tool
    smoke_command: Sequence[str] = field(default_factory=smoke_test_command)
    smoke_timeout: float = SMOKE_TEST_TIMEOUT

    @property
    def rocm_path(self) -> Path:
        return Path(self.environ.get("ROCM_PATH") or DEFAULT_ROCM_PATH)


# -- facts found on the way ---------------------------------------------------------------------

@dataclass(frozen=True)
class PciGpu:
    """A display device under /sys/class/drm."""

    card: str  # "card0"
    vendor: str  # "0x1002"
    device_id: str  # "0x73df"


@dataclass(frozen=True)
class RocmAgent:
    """One agent block of rocminfo's output."""

    name: str  # "gfx1031" for a GPU, the processor's name for a CPU
    marketing_name: str
    device_type: str  # "GPU" or "CPU"


@dataclass
class OpResult:
    op: str
    ok: bool
    error: str | None = None
    seconds: float | None = None


@dataclass
class SmokeResult:
    """What the GPU smoke test found, op by op."""

    ops: list[OpResult] = field(default_factory=list)
    failed_op: str | None = None  # the op that failed, crashed or hung (None: before the first op)
    crashed: bool = False
    signal: str | None = None  # "SIGSEGV" when it crashed
    hung: bool = False
    no_gpu: bool = False  # the test process saw no GPU at all
    error: str | None = None  # one line, when it did not pass
    timeout: float | None = None
    device: dict[str, Any] = field(default_factory=dict)  # what the test process read about the GPU

    @property
    def device_name(self) -> str | None:
        return self.device.get("name")

    @property
    def passed(self) -> bool:
        from desktop.core.gpu.smoke_test import OPS

        return (self.error is None and not self.crashed and not self.hung and not self.no_gpu
                and [op.op for op in self.ops] == list(OPS) and all(op.ok for op in self.ops))

    def describe(self) -> str:
        """One sentence: passed, or what failed where."""
        if self.passed:
            return N_("Device", "passed: {steps}").format(steps=", ".join(op.op for op in self.ops))
        if self.hung and self.failed_op:
            return N_("Device", "did not finish within {seconds:g} s (stuck during {step})").format(
                seconds=self.timeout, step=self.failed_op)
        if self.hung:
            return N_("Device", "did not finish within {seconds:g} s (stuck before the first step)").format(
                seconds=self.timeout)
        if self.crashed and self.failed_op:
            return N_("Device", "crashed with {signal} during {step}").format(signal=self.signal, step=self.failed_op)
        if self.crashed:
            return N_("Device", "crashed with {signal} before the first step").format(signal=self.signal)
        if self.no_gpu:
            return N_("Device", "found no GPU ({error})").format(error=self.error)
        if self.failed_op:
            return N_("Device", "{step} failed: {error}").format(step=self.failed_op, error=self.error)
        return N_("Device", "could not run: {error}").format(error=self.error)


def run_smoke_test(probes: Probes | None = None, cancelled: Callable[[], bool] | None = None) -> SmokeResult:
    """Run the smoke test in a child process and read its answer, whatever happened to it (Cancelled
    when ``cancelled()`` says so while it runs)."""
    probes = probes or Probes()
    output = run_child(probes.smoke_command, probes.smoke_timeout, env=child_environment(probes.environ),
                       cancelled=cancelled)
    result = SmokeResult(timeout=probes.smoke_timeout)
    if output is None:
        result.error = "the test process could not be started"
        return result
    started: str | None = None
    finished = False
    for line in output.stdout.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            event = json.loads(line)
        except json.JSONDecodeError:
            continue
        kind = event.get("event")
        if kind == "device":
            result.device = {k: v for k, v in event.items() if k != "event"}
        elif kind == "start":
            started = event.get("op")
        elif kind == "done":
            started = None
            result.ops.append(OpResult(event.get("op", "?"), bool(event.get("ok")), event.get("error"),
                                       event.get("seconds")))
        elif kind == "unavailable":
            result.no_gpu = True
            result.error = event.get("reason") or "no GPU"
        elif kind == "end":
            finished = True
    failed = next((op for op in result.ops if not op.ok), None)
    if output.timed_out:
        result.hung = True
        result.failed_op = started
        result.error = f"no answer within {probes.smoke_timeout:g} s"
    elif output.signal_name:
        result.crashed = True
        result.signal = output.signal_name
        result.failed_op = started
        result.error = f"the test process crashed with {output.signal_name}"
    elif failed is not None:
        result.failed_op = failed.op
        result.error = failed.error
    elif result.no_gpu:
        pass
    elif output.returncode != 0 or not finished:
        lines = [line for line in output.stderr.strip().splitlines() if line.strip()]
        result.error = lines[-1].strip() if lines else f"the test process exited with status {output.returncode}"
    return result


_smoke_test = run_smoke_test  # detect() has a parameter of the same name


def find_amd_gpus(sysfs_drm: Path) -> list[PciGpu]:
    """AMD display devices (PCI vendor 0x1002) under /sys/class/drm."""
    gpus = []
    try:
        cards = sorted(p for p in sysfs_drm.iterdir() if re.fullmatch(r"card\d+", p.name))
    except OSError:
        return []
    for card in cards:
        vendor = _read_text(card / "device" / "vendor")
        if vendor and vendor.strip().lower() == AMD_PCI_VENDOR:
            device_id = (_read_text(card / "device" / "device") or "").strip().lower()
            gpus.append(PciGpu(card.name, AMD_PCI_VENDOR, device_id))
    return gpus


def parse_rocminfo(text: str) -> list[RocmAgent]:
    """The agents in rocminfo's output (CPU agents too); nested ISA names are skipped."""
    agents: list[RocmAgent] = []
    current: dict[str, str] | None = None

    def close() -> None:
        if current and "Name" in current:
            agents.append(RocmAgent(current["Name"], current.get("Marketing Name", ""),
                                    current.get("Device Type", "")))

    for raw in text.splitlines():
        if re.fullmatch(r"\s*Agent \d+\s*", raw):
            close()
            current = {}
            continue
        if current is None:
            continue
        match = re.match(r"^ {2}(Name|Marketing Name|Device Type):\s*(.*?)\s*$", raw)
        if match and match.group(1) not in current:  # the first one at the agent's own level
            current[match.group(1)] = match.group(2)
    close()
    return agents


def parse_rocm_smi_vram(text: str) -> tuple[int | None, int | None]:
    """(total, used) bytes of GPU 0 from `rocm-smi --showmeminfo vram`."""
    total = re.search(r"VRAM Total Memory \(B\):\s*(\d+)", text)
    used = re.search(r"VRAM Total Used Memory \(B\):\s*(\d+)", text)
    return (int(total.group(1)) if total else None, int(used.group(1)) if used else None)


def _read_text(path: Path) -> str | None:
    try:
        return path.read_text(errors="replace")
    except OSError:
        return None


def rocm_release(probes: Probes) -> str | None:
    """The installed ROCm release ("6.2.4"), or None when ROCm is not installed system-wide.

    $ROCM_PATH/.info/version first; then amd-smi, which prints the release; then hipconfig, whose
    HIP version starts with the release's major.minor. (rocm-smi --version prints the SMI library's
    own version, which does not follow ROCm releases, so it is not used for this.)
    """
    text = _read_text(probes.rocm_path / ".info" / "version")
    if text and text.strip():
        return text.strip().splitlines()[0].split("-", 1)[0]
    output = probes.run_tool(["amd-smi", "version"], TOOL_TIMEOUT)
    if output and output.returncode == 0:
        match = re.search(r"ROCm version:\s*([\d.]+)", output.stdout)
        if match:
            return match.group(1)
    output = probes.run_tool(["hipconfig", "--version"], TOOL_TIMEOUT)
    if output and output.returncode == 0:
        match = re.match(r"\s*(\d+\.\d+)", output.stdout)
        if match:
            return match.group(1)
    return None


def cpu_name(proc_cpuinfo: Path) -> str:
    text = _read_text(proc_cpuinfo) or ""
    match = re.search(r"^model name\s*:\s*(.+)$", text, re.MULTILINE)
    if match:
        return re.sub(r"\s+", " ", match.group(1)).strip()
    import platform

    return platform.processor() or "Unknown processor"


def cpu_flags(proc_cpuinfo: Path) -> frozenset[str]:
    """The features the processor reports ("avx2", "amx_bf16", ...); empty when it cannot be read."""
    match = re.search(r"^flags\s*:(.*)$", _read_text(proc_cpuinfo) or "", re.MULTILINE)
    return frozenset(match.group(1).split()) if match else frozenset()


def major_minor(version: str | None) -> str | None:
    match = re.match(r"\s*(\d+)\.(\d+)", version or "")
    return f"{match.group(1)}.{match.group(2)}" if match else None


# -- the report ---------------------------------------------------------------------------------

@dataclass
class DeviceReport:
    torch_build: str  # "rocm" | "cuda" | "cpu" | "missing"
    gpu_available: bool  # a GPU passed the smoke test (False when not tested or failed)
    gpu_name: str | None
    gfx_arch: str | None  # "gfx1100" (the part of gcnArchName before the first ':')
    memory_total: int | None  # bytes
    memory_free: int | None  # bytes
    rocm_version: str | None  # the installed ROCm release, "6.2.4"
    hip_version: str | None  # the HIP version PyTorch was built with
    cuda_version: str | None
    arch_supported: bool | None  # the wheel has code for this GPU's target (None: not known)
    ct2_gpu_count: int
    cpu_name: str
    cpu_cores: int
    smoke: SmokeResult | None = None
    torch_version: str | None = None
    torch_error: str | None = None  # why torch could not be imported
    torch_gpu_count: int = 0  # GPUs torch.cuda sees (before any test)
    arch_list: list[str] = field(default_factory=list)  # targets the wheel has code for
    amd_gpus: list[PciGpu] = field(default_factory=list)  # AMD display devices in sysfs
    rocm_agents: list[RocmAgent] | None = None  # None: rocminfo not run or not installed
    rocminfo_error: str | None = None  # e.g. "Unable to open /dev/kfd read-write: Permission denied"
    hsa_override: str | None = None  # HSA_OVERRIDE_GFX_VERSION in effect
    ct2_version: str | None = None
    ct2_compute_types: list[str] = field(default_factory=list)  # CTranslate2's on its GPU ("float16", ...)
    ct2_error: str | None = None  # why CTranslate2 could not be imported ("undefined symbol ...")

    @property
    def gpu_agents(self) -> list[RocmAgent]:
        return [agent for agent in self.rocm_agents or [] if agent.device_type.upper() == "GPU"]

    @property
    def has_amd_gpu(self) -> bool:
        return bool(self.amd_gpus) or bool(self.gpu_agents)

    @property
    def gpu_present(self) -> bool:
        """PyTorch sees a GPU (whether or not it works)."""
        return self.torch_gpu_count > 0

    def _release(self) -> str | None:
        if self.torch_build == "rocm":
            release = major_minor(self.rocm_version) or major_minor(self.hip_version)
            return f"ROCm {release}" if release else None
        if self.torch_build == "cuda" and self.cuda_version:
            return f"CUDA {self.cuda_version}"
        return None

    def summary(self) -> str:
        """One line for the status bar."""
        cpu = N_("Device", "running on CPU ({cores} cores)").format(cores=self.cpu_cores)
        if self.gpu_present and (self.gpu_available or self.smoke is None):
            parts = [self.gpu_name or N_("Device", "unknown")]
            if self.gfx_arch:
                parts.append(self.gfx_arch)
            if self.memory_total:
                parts.append(f"{round(self.memory_total / 2**30)} GB")
            release = self._release()
            if release:
                parts.append(release)
            line = N_("Device", "GPU: {name}").format(name=parts[0])
            if len(parts) > 1:
                line = N_("Device", "GPU: {name} · {facts}").format(name=parts[0], facts=" · ".join(parts[1:]))
            return line if self.gpu_available else N_("Device", "{line} (not tested yet)").format(line=line)
        if self.gpu_present and self.gpu_name:
            return N_("Device", "GPU {name} failed its test — {cpu}").format(name=self.gpu_name, cpu=cpu)
        if self.gpu_present:
            return N_("Device", "The GPU failed its test — {cpu}").format(cpu=cpu)
        if self.has_amd_gpu and self.torch_build != "rocm":
            return N_("Device", "AMD GPU not used: PyTorch has no ROCm support — {cpu}").format(cpu=cpu)
        if self.has_amd_gpu:
            return N_("Device", "AMD GPU not usable — {cpu}").format(cpu=cpu)
        return N_("Device", "No GPU — {cpu}").format(cpu=cpu)

    def details(self) -> str:
        """Several lines for the tooltip (a Message: the window shows it in the interface language)."""
        lines = []
        build = {
            "rocm": N_("Device", "ROCm build"),
            "cuda": N_("Device", "CUDA build"),
            "cpu": N_("Device", "CPU-only build"),
        }.get(self.torch_build)
        if self.torch_build == "missing" and self.torch_error:
            lines.append(N_("Device", "PyTorch: not installed ({error})").format(error=self.torch_error))
        elif self.torch_build == "missing":
            lines.append(N_("Device", "PyTorch: not installed"))
        else:
            extra = f", HIP {self.hip_version}" if self.hip_version else (
                f", CUDA {self.cuda_version}" if self.cuda_version else "")
            version = f" {self.torch_version}" if self.torch_version else ""
            lines.append(N_("Device", "PyTorch{version} ({build}{extra})").format(
                version=version, build=build or "", extra=extra))
        if self.gpu_present:
            gpu = self.gpu_name or N_("Device", "unknown")
            if self.gfx_arch:
                gpu = f"{gpu} ({self.gfx_arch})"
            if self.memory_total and self.memory_free is not None:
                gpu = N_("Device", "{gpu}, {total:.1f} GB ({free:.1f} GB free)").format(
                    gpu=gpu, total=self.memory_total / 2**30, free=self.memory_free / 2**30)
            elif self.memory_total:
                gpu = N_("Device", "{gpu}, {total:.1f} GB").format(gpu=gpu, total=self.memory_total / 2**30)
            lines.append(N_("Device", "GPU: {name}").format(name=gpu))
            if self.arch_supported is not None:
                target = self.gfx_arch or N_("Device", "this GPU")
                if self.arch_supported:
                    lines.append(N_("Device", "PyTorch has code for {target}: yes").format(target=target))
                else:
                    lines.append(N_("Device", "PyTorch has code for {target}: no").format(target=target))
        elif self.amd_gpus:
            lines.append(N_("Device", "AMD GPU found ({count}), not usable by this PyTorch").format(
                count=len(self.amd_gpus)))
        else:
            lines.append(N_("Device", "GPU: none found"))
        if self.gpu_agents:
            names = ", ".join(f"{a.marketing_name or a.name} ({a.name})" for a in self.gpu_agents)
            lines.append(f"rocminfo: {names}")
        if self.rocm_version:
            lines.append(N_("Device", "ROCm release: {release}").format(release=self.rocm_version))
        if self.hsa_override:
            lines.append(f"HSA_OVERRIDE_GFX_VERSION={self.hsa_override}")
        if self.smoke is not None:
            lines.append(N_("Device", "GPU test: {result}").format(result=self.smoke.describe()))
        ct2 = f"CTranslate2 {self.ct2_version}" if self.ct2_version else "CTranslate2"
        if self.ct2_gpu_count == 1:
            lines.append(N_("Device", "{ct2}: 1 GPU").format(ct2=ct2))
        else:
            lines.append(N_("Device", "{ct2}: {count} GPUs").format(ct2=ct2, count=self.ct2_gpu_count))
        if self.ct2_compute_types:
            lines.append(N_("Device", "{ct2} on the GPU: {types}").format(
                ct2=ct2, types=", ".join(self.ct2_compute_types)))
        lines.append(N_("Device", "CPU: {name} ({cores} cores)").format(name=self.cpu_name, cores=self.cpu_cores))
        # One Message for all lines, so the tooltip is translated line by line.
        fields = {f"line{number}": line for number, line in enumerate(lines)}
        return Message("Device", "\n".join("{" + key + "}" for key in fields), fields)


def _set_properties(report: DeviceReport, name: str | None, gfx_arch: str | None, sm: str | None,
                    total: int | None, free: int | None) -> None:
    """Fill in what is known about GPU 0 and whether the wheel has code for it."""
    report.gpu_name = name or report.gpu_name
    report.gfx_arch = (gfx_arch or "").split(":", 1)[0] or report.gfx_arch
    report.memory_total = total or report.memory_total
    report.memory_free = free if free is not None else report.memory_free
    targets = {arch.split(":", 1)[0] for arch in report.arch_list}
    if report.torch_build == "rocm" and report.gfx_arch and targets:
        report.arch_supported = report.gfx_arch in targets
    elif report.torch_build == "cuda" and sm and targets:
        report.arch_supported = sm in targets


def _torch_facts(probes: Probes, report: DeviceReport, *, read_properties: bool) -> None:
    """Build, versions and GPU count. The GPU's properties are read here only when asked to: the first
    such query initialises the HIP/CUDA runtime, which the smoke test's child process does instead."""
    try:
        torch = probes.import_torch()
    except Exception as error:  # noqa: BLE001 - ImportError, or OSError from a broken library
        report.torch_build = "missing"
        described = str(error) if isinstance(error, TorchUnavailable) else f"{type(error).__name__}: {error}"
        report.torch_error = described.splitlines()[0]
        return
    version = getattr(torch, "version", None)
    report.torch_version = str(getattr(torch, "__version__", "")) or None
    report.hip_version = getattr(version, "hip", None) or None
    report.cuda_version = getattr(version, "cuda", None) or None
    report.torch_build = "rocm" if report.hip_version else "cuda" if report.cuda_version else "cpu"
    if report.torch_build == "cpu":
        return
    cuda = torch.cuda
    try:
        report.torch_gpu_count = int(cuda.device_count()) if cuda.is_available() else 0
    except Exception:  # noqa: BLE001 - a broken driver may raise here instead of answering False
        log.warning("torch.cuda could not count GPUs", exc_info=True)
        report.torch_gpu_count = 0
    try:
        report.arch_list = [str(arch) for arch in cuda.get_arch_list()]  # compiled-in, no runtime start
    except Exception:  # noqa: BLE001
        log.debug("get_arch_list failed", exc_info=True)
    if not report.torch_gpu_count or not read_properties:
        return
    try:
        properties = cuda.get_device_properties(0)
        free = None
        try:
            free = int(cuda.mem_get_info(0)[0])
        except Exception:  # noqa: BLE001 - a GPU that cannot even do this fails the smoke test too
            log.info("Could not read the GPU's free memory", exc_info=True)
        _set_properties(report, str(properties.name), str(getattr(properties, "gcnArchName", "") or ""),
                        f"sm_{properties.major}{properties.minor}", int(properties.total_memory), free)
    except Exception:  # noqa: BLE001
        log.warning("Could not read the GPU's properties", exc_info=True)


def _rocm_facts(probes: Probes, report: DeviceReport) -> None:
    report.amd_gpus = find_amd_gpus(probes.sysfs_drm)
    if not report.amd_gpus and report.torch_build != "rocm":
        return  # no AMD hardware and no ROCm PyTorch: nothing to ask the ROCm tools
    report.rocm_version = rocm_release(probes)
    output = probes.run_tool(["rocminfo"], TOOL_TIMEOUT)
    if output is not None:
        report.rocm_agents = parse_rocminfo(output.stdout)
        problem = re.search(r"^Unable to open /dev/kfd.*$", output.stdout + "\n" + output.stderr, re.MULTILINE)
        if problem:
            report.rocminfo_error = problem.group(0).strip()
        elif output.timed_out:
            report.rocminfo_error = "rocminfo did not answer"
        elif output.returncode != 0 and not report.rocm_agents:
            lines = (output.stderr or output.stdout).strip().splitlines()
            report.rocminfo_error = lines[-1].strip() if lines else f"rocminfo exited with {output.returncode}"
    if report.gpu_agents and (report.gpu_name is None or report.gfx_arch is None):
        agent = report.gpu_agents[0]
        _set_properties(report, report.gpu_name or agent.marketing_name or None, report.gfx_arch or agent.name,
                        None, None, None)
    if report.memory_total is None:
        output = probes.run_tool(["rocm-smi", "--showmeminfo", "vram"], TOOL_TIMEOUT)
        if output is not None and output.returncode == 0:
            total, used = parse_rocm_smi_vram(output.stdout)
            report.memory_total = total
            if total is not None and used is not None:
                report.memory_free = max(0, total - used)


def _ct2_facts(probes: Probes, report: DeviceReport) -> None:
    """CTranslate2's own view of the GPU: on ROCm torch may see one where CTranslate2 (a build from the
    package index, without ROCm) sees none, and then it must not be handed "cuda"."""
    try:
        ctranslate2 = probes.import_ctranslate2()
    except Exception as error:  # noqa: BLE001 - not installed, or a ROCm build that does not match ROCm
        report.ct2_error = f"{type(error).__name__}: {error}".splitlines()[0]
        if "No module named" in report.ct2_error:
            report.ct2_error = None
        log.info("CTranslate2 could not be imported", exc_info=True)
        return
    report.ct2_version = str(getattr(ctranslate2, "__version__", "")) or None
    try:
        report.ct2_gpu_count = int(ctranslate2.get_cuda_device_count())
    except Exception:  # noqa: BLE001 - a build without GPU support that raises
        log.info("CTranslate2 sees no GPU", exc_info=True)
        report.ct2_gpu_count = 0
    if report.ct2_gpu_count > 0:
        try:
            report.ct2_compute_types = sorted(str(kind) for kind in ctranslate2.get_supported_compute_types("cuda"))
        except Exception:  # noqa: BLE001 - the GPU is counted but does not answer
            log.info("CTranslate2 could not list its GPU compute types", exc_info=True)


def detect(*, run_smoke_test: bool = True, probes: Probes | None = None,
           cancelled: Callable[[], bool] | None = None) -> DeviceReport:
    """Everything about this computer's accelerator. Imports torch: call it off the GUI thread.

    cancelled: asked between the probes and while a child process runs; when it says True the child is
    killed and Cancelled raised, so a window that closes mid-detection is not kept waiting for it.
    """
    probes = probes or Probes()
    if cancelled is not None:  # the real child processes stop when asked; a test's fakes are left as they are
        if probes.import_torch is torch_in_child:
            probes = replace(probes, import_torch=lambda: torch_in_child(cancelled))
        if probes.run_tool is _run_tool:
            probes = replace(probes, run_tool=lambda argv, timeout: _run_tool(argv, timeout, cancelled))
    stop_if_cancelled = (lambda: None) if cancelled is None else (lambda: _stop_if(cancelled))
    report = DeviceReport(
        torch_build="missing", gpu_available=False, gpu_name=None, gfx_arch=None, memory_total=None,
        memory_free=None, rocm_version=None, hip_version=None, cuda_version=None, arch_supported=None,
        ct2_gpu_count=0, cpu_name=cpu_name(probes.proc_cpuinfo), cpu_cores=int(probes.cpu_count() or 1),
    )
    report.hsa_override = probes.environ.get("HSA_OVERRIDE_GFX_VERSION") or None
    _torch_facts(probes, report, read_properties=not run_smoke_test)
    stop_if_cancelled()  # _torch_facts takes any failure of the child, a cancel included, for a missing torch
    if run_smoke_test and report.gpu_present:
        report.smoke = _smoke_test(probes, cancelled)
        report.gpu_available = report.smoke.passed
        facts = report.smoke.device
        _set_properties(report, facts.get("name"), facts.get("gfx_arch"), facts.get("sm"),
                        facts.get("memory_total"), facts.get("memory_free"))
    _rocm_facts(probes, report)
    stop_if_cancelled()
    _ct2_facts(probes, report)
    return report


def _stop_if(cancelled: Callable[[], bool]) -> None:
    if cancelled():
        raise Cancelled()
