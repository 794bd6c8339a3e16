"""Device detection: facts from torch, sysfs and the ROCm tools, and the smoke test in a child process."""
import os
import subprocess
import sys
from dataclasses import replace

import pytest

from desktop.core.common.errors import Cancelled
from desktop.core.gpu import device
from desktop.core.gpu.device import (
    child_environment,
    detect,
    find_amd_gpus,
    parse_rocm_smi_vram,
    parse_rocminfo,
    run_smoke_test,
)
from desktop.core.gpu.smoke_test import OPS
from desktop.engines.transcription import plan
from tests.fixtures.rocm.fakes import (
    FIXTURES,
    RADEON_780M,
    RX7900XTX,
    SYSFS,
    fake_torch,
    machine,
    smoke_fails_in_conv1d,
    smoke_hangs_in_stft,
    smoke_passes,
    smoke_segfaults_in_matmul,
)

# -- the machine as it is -------------------------------------------------------------------------

def test_a_machine_without_a_gpu_is_detected_as_running_on_the_cpu(cpu_only_machine):
    report = detect()
    assert report.gpu_available is False
    assert report.smoke is None  # nothing to test
    assert report.summary() == f"No GPU — running on CPU ({os.cpu_count()} cores)"
    assert "CPU:" in report.details()


def test_the_real_smoke_test_runs_every_op_on_the_cpu_in_a_child_process():
    probes = machine(smoke=[sys.executable, "-m", "desktop.core.gpu.smoke_test", "--json", "--device", "cpu"])
    result = run_smoke_test(probes)
    assert [op.op for op in result.ops] == list(OPS)
    assert all(op.ok for op in result.ops)
    assert result.passed


def test_the_real_smoke_test_says_when_there_is_no_gpu_at_all():
    probes = machine(smoke=[sys.executable, "-m", "desktop.core.gpu.smoke_test", "--json"])
    result = run_smoke_test(probes)
    assert result.no_gpu and not result.passed
    assert "no GPU" in result.describe()


# -- an AMD card PyTorch has no code for ----------------------------------------------------------

def test_a_rocm_build_with_a_gfx1031_card_and_no_kernel_for_it_is_described_fully():
    report = detect(run_smoke_test=False, probes=machine())
    assert report.torch_build == "rocm"
    assert report.gpu_name == "AMD Radeon RX 6700 XT"
    assert report.gfx_arch == "gfx1031"  # the features after ':' are dropped
    assert report.arch_supported is False
    assert report.rocm_version == "6.2.4"
    assert report.hip_version.startswith("6.2")
    assert report.memory_total == 12868124672 and report.memory_free == 12565000000
    assert report.cpu_name == "AMD Ryzen 7 5800X 8-Core Processor" and report.cpu_cores == 16
    assert [gpu.device_id for gpu in report.amd_gpus] == ["0x73df"]
    assert [agent.name for agent in report.gpu_agents] == ["gfx1031"]
    assert report.gpu_available is False  # not tested is not working


def test_a_failing_op_makes_the_gpu_unavailable_and_names_the_op():
    report = detect(probes=machine(smoke=smoke_fails_in_conv1d()))
    assert report.gpu_available is False
    assert report.smoke.failed_op == "conv1d"
    assert "invalid device function" in report.smoke.error
    assert [op.ok for op in report.smoke.ops] == [True, True, False, True, True]
    assert report.summary() == "GPU AMD Radeon RX 6700 XT failed its test — running on CPU (16 cores)"
    assert "conv1d failed" in report.details()


def test_a_smoke_test_that_segfaults_is_reported_as_a_crash_and_this_process_lives_on():
    report = detect(probes=machine(smoke=smoke_segfaults_in_matmul()))
    assert report.smoke.crashed and report.smoke.signal == "SIGSEGV"
    assert report.smoke.failed_op == "matmul"
    assert [op.op for op in report.smoke.ops] == ["allocate"]
    assert "crashed with SIGSEGV during matmul" in report.details()


def test_a_smoke_test_that_hangs_is_stopped_at_its_timeout():
    report = detect(probes=machine(smoke=smoke_hangs_in_stft(), smoke_timeout=3))
    assert report.smoke.hung and not report.smoke.crashed
    assert report.smoke.failed_op == "stft"
    assert report.gpu_available is False
    assert "did not finish within 3 s" in report.smoke.describe()


def test_a_working_rx_7900_xtx_shows_name_target_memory_and_rocm_release_in_one_line():
    probes = machine(torch=fake_torch(gpu=RX7900XTX), sysfs="rx7900xtx",
                     tools={"rocminfo": "rocminfo_rx7900xtx.txt"}, smoke=smoke_passes())
    report = detect(probes=probes)
    assert report.gpu_available is True
    assert report.arch_supported is True
    assert report.summary() == "GPU: Radeon RX 7900 XTX · gfx1100 · 24 GB · ROCm 6.2"
    assert "passed" in report.details()


def test_with_the_smoke_test_the_gpu_is_only_touched_in_the_child_process():
    """Reading the GPU's properties starts the HIP runtime, where a broken driver crashes: not here."""
    torch = fake_torch(gpu=RX7900XTX)

    def must_not_be_called(*args):
        raise AssertionError("the GPU runtime was started in the window's process")

    torch.cuda.get_device_properties = must_not_be_called
    torch.cuda.mem_get_info = must_not_be_called
    probes = machine(torch=torch, sysfs="rx7900xtx", tools={}, smoke=smoke_passes())
    report = detect(probes=probes)
    assert (report.gpu_name, report.gfx_arch, report.memory_total) == ("Radeon RX 7900 XTX", "gfx1100", 25753026560)
    assert report.memory_free == 25100000000 and report.arch_supported is True


def test_a_crash_before_the_first_step_still_names_the_card_from_rocminfo():
    crash = [sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)"]
    report = detect(probes=machine(smoke=crash))
    assert report.smoke.crashed and report.smoke.failed_op is None
    assert report.smoke.describe() == "crashed with SIGSEGV before the first step"
    assert report.summary() == "GPU AMD Radeon RX 6700 XT failed its test — running on CPU (16 cores)"


def test_the_status_line_says_not_tested_when_the_smoke_test_was_skipped():
    probes = machine(torch=fake_torch(gpu=RX7900XTX), sysfs="rx7900xtx")
    report = detect(run_smoke_test=False, probes=probes)
    assert report.summary().endswith("(not tested yet)")


def test_an_amd_card_with_a_cuda_build_of_torch_is_named_as_unused():
    probes = machine(torch=fake_torch(build="cuda", gpus=0), tools={"rocminfo": "rocminfo_rx6700xt.txt"})
    report = detect(probes=probes)
    assert report.torch_build == "cuda"
    assert report.has_amd_gpu
    assert report.gpu_name == "AMD Radeon RX 6700 XT" and report.gfx_arch == "gfx1031"  # from rocminfo
    assert report.summary() == "AMD GPU not used: PyTorch has no ROCm support — running on CPU (16 cores)"


def test_missing_torch_is_reported_not_raised():
    report = detect(probes=machine(torch=ImportError("No module named 'torch'"), sysfs="intel"))
    assert report.torch_build == "missing"
    assert "No module named" in report.torch_error
    assert report.summary() == "No GPU — running on CPU (16 cores)"


def test_ctranslate2_gpus_are_counted_on_their_own():
    report = detect(run_smoke_test=False, probes=machine(ct2_gpus=0))
    assert report.ct2_gpu_count == 0 and report.ct2_version == "4.8.5"
    report = detect(run_smoke_test=False, probes=machine(ct2_gpus=2))
    assert report.ct2_gpu_count == 2


def test_the_override_in_the_environment_is_part_of_the_report():
    probes = machine(environ={"HSA_OVERRIDE_GFX_VERSION": "10.3.0"})
    report = detect(run_smoke_test=False, probes=probes)
    assert report.hsa_override == "10.3.0"
    assert "HSA_OVERRIDE_GFX_VERSION=10.3.0" in report.details()


# -- the ROCm release and the tools' output -------------------------------------------------------

def test_the_rocm_release_comes_from_the_info_file_first():
    report = detect(run_smoke_test=False, probes=machine(rocm="opt_rocm_7.0"))
    assert report.rocm_version == "7.0.2"


def test_without_the_info_file_amd_smi_gives_the_release():
    probes = machine(rocm=None, tools={"rocminfo": "rocminfo_rx6700xt.txt", "amd_smi": "amd_smi_version.txt"})
    assert detect(run_smoke_test=False, probes=probes).rocm_version == "6.2.4"


def test_without_info_file_or_amd_smi_hipconfig_gives_major_and_minor():
    probes = machine(rocm=None, tools={"hipconfig": "hipconfig_version.txt"})
    assert detect(run_smoke_test=False, probes=probes).rocm_version == "6.2"


def test_with_no_system_rocm_the_status_line_uses_the_wheels_own_hip_release():
    probes = machine(torch=fake_torch(gpu=RX7900XTX), sysfs="rx7900xtx", rocm=None, tools={},
                     smoke=smoke_passes())
    report = detect(probes=probes)
    assert report.rocm_version is None
    assert report.summary().endswith("· ROCm 6.2")


def test_rocminfo_lists_cpu_and_gpu_agents_and_skips_the_nested_isa_names():
    agents = parse_rocminfo((FIXTURES / "rocminfo_rx6700xt.txt").read_text())
    assert [(a.name, a.device_type) for a in agents] == [
        ("AMD Ryzen 7 5800X 8-Core Processor", "CPU"), ("gfx1031", "GPU")]
    assert agents[1].marketing_name == "AMD Radeon RX 6700 XT"


def test_rocminfo_that_cannot_open_kfd_is_reported_with_its_own_words():
    probes = machine(tools={"rocminfo": "rocminfo_kfd_permission_denied.txt"})
    report = detect(run_smoke_test=False, probes=probes)
    assert report.rocminfo_error == "Unable to open /dev/kfd read-write: Permission denied"
    assert report.gpu_agents == []


def test_rocm_smi_gives_memory_when_torch_cannot():
    probes = machine(torch=fake_torch(build="cpu", gpus=0),
                     tools={"rocminfo": "rocminfo_rx6700xt.txt", "rocm_smi": "rocm_smi_meminfo_vram_rx6700xt.txt"})
    report = detect(run_smoke_test=False, probes=probes)
    assert report.memory_total == 12868124672
    assert report.memory_free == 12868124672 - 1036496896
    assert parse_rocm_smi_vram("nothing") == (None, None)


def test_only_amd_cards_count_and_connector_entries_are_skipped():
    assert [g.card for g in find_amd_gpus(SYSFS / "rx6700xt")] == ["card0"]
    assert find_amd_gpus(SYSFS / "intel") == []
    assert [g.card for g in find_amd_gpus(SYSFS / "amd_and_intel")] == ["card1"]
    assert find_amd_gpus(SYSFS / "does-not-exist") == []


def test_the_780m_is_found_through_rocminfo():
    probes = machine(torch=fake_torch(gpu=RADEON_780M), tools={"rocminfo": "rocminfo_780m.txt"})
    report = detect(run_smoke_test=False, probes=probes)
    assert report.gfx_arch == "gfx1103" and report.arch_supported is False



# -- PyTorch asked in a child process -------------------------------------------------------------

def test_detection_reads_torch_in_a_child_so_the_window_never_imports_it(cpu_only_machine):
    script = ("import sys; from desktop.core.gpu.device import detect; report = detect(); "
              "print('torch' in sys.modules, report.torch_build, report.torch_version, report.torch_gpu_count)")
    output = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=180,
                            env=child_environment(), check=True)
    import torch

    build = "rocm" if torch.version.hip else "cuda" if torch.version.cuda else "cpu"
    assert output.stdout.split() == ["False", build, torch.__version__, "0"]


def _torch_child_that(monkeypatch, code: str) -> None:
    build = {"event": "build", "torch": "2.5.1+rocm6.2", "hip": "6.2.41133", "cuda": None, "arch_list": ["gfx1100"]}
    monkeypatch.setattr(device, "torch_facts_command", lambda *extra: [
        sys.executable, "-c", f"import json, os, signal; print(json.dumps({build!r}), flush=True); {code}"])


def test_a_cancelled_detection_kills_the_torch_child_it_waits_for_and_stops(monkeypatch, tmp_path):
    """Closing the window cancels detection: the child that would answer in a minute is killed, not waited for."""
    started = tmp_path / "child.pid"
    monkeypatch.setattr(device, "torch_facts_command", lambda *extra: [
        sys.executable, "-c", f"import os, time; open({str(started)!r} + '.new', 'w').write(str(os.getpid())); "
                          f"os.replace({str(started)!r} + '.new', {str(started)!r}); time.sleep(600)"])
    asked = []

    def cancelled() -> bool:
        asked.append(started.exists())
        return started.exists()  # the user closes the window once the child is running

    with pytest.raises(Cancelled):
        detect(probes=replace(machine(), import_torch=device.torch_in_child), cancelled=cancelled)
    assert asked and asked[-1] is True
    with pytest.raises(ProcessLookupError):
        os.kill(int(started.read_text()), 0)  # killed and reaped: no process is left behind

def test_a_driver_that_crashes_when_asked_for_the_gpu_leaves_the_cpu_and_this_process_running(monkeypatch):
    _torch_child_that(monkeypatch, "os.kill(os.getpid(), signal.SIGSEGV)")
    report = detect(probes=replace(machine(), import_torch=device.torch_in_child))
    assert (report.torch_build, report.torch_version, report.torch_gpu_count) == ("rocm", "2.5.1+rocm6.2", 0)
    assert report.gpu_available is False and report.smoke is None

    monkeypatch.setattr(plan, "_GPU_DRIVER_NODES", (os.devnull,))  # a driver node exists
    plan.torch_gpu_works.cache_clear()
    try:
        assert plan.torch_gpu_works() is False
    finally:
        plan.torch_gpu_works.cache_clear()


def test_a_gpu_seen_by_the_child_is_described_from_its_answers(monkeypatch):
    properties = {"event": "properties", "name": "AMD Radeon RX 7900 XTX", "gcnArchName": "gfx1100:sramecc-:xnack-",
                  "major": 11, "minor": 0, "total_memory": 24 * 2**30, "free_memory": 23 * 2**30}
    _torch_child_that(monkeypatch, "print(json.dumps({'event': 'gpus', 'count': 1}), flush=True); "
                                   f"print(json.dumps({properties!r}), flush=True)")
    report = detect(run_smoke_test=False, probes=replace(machine(), import_torch=device.torch_in_child))
    assert report.torch_gpu_count == 1
    assert (report.gpu_name, report.gfx_arch, report.memory_free) == ("AMD Radeon RX 7900 XTX", "gfx1100", 23 * 2**30)
    assert report.arch_supported is True


def test_torch_that_cannot_be_imported_is_reported_with_the_reason(monkeypatch):
    monkeypatch.setattr(device, "torch_facts_command", lambda *extra: [
        sys.executable, "-c", "import json; print(json.dumps({'event': 'error', 'error': "
                              "'OSError: libamdhip64.so: cannot open shared object file'}))"])
    report = detect(probes=replace(machine(), import_torch=device.torch_in_child))
    assert report.torch_build == "missing"
    assert report.torch_error == "OSError: libamdhip64.so: cannot open shared object file"


def test_ctranslate2s_own_compute_types_on_the_gpu_are_read_and_shown():
    report = detect(run_smoke_test=False, probes=machine(ct2_gpus=1))
    assert {"float16", "int8_float16"} <= set(report.ct2_compute_types)
    assert "CTranslate2 4.8.5 on the GPU: " in str(report.details())
    assert detect(run_smoke_test=False, probes=machine(ct2_gpus=0)).ct2_compute_types == []
