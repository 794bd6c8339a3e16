"""The doctor: each check on pretend machines (fake sysfs, captured tool output, torch facades, real
child processes that crash or hang), the real doctor on this machine, and `voxdesk doctor`."""
import argparse
import json
import sys

import pytest

from desktop.core.common.system_packages import sound_unavailable

from desktop.cli import doctor as doctor_cli
from desktop.core.gpu.device import detect
from desktop.core.gpu.doctor import (
    CHECK_IDS,
    AudioInputs,
    DoctorProbes,
    DoctorResult,
    Status,
    check_audio_decode,
    check_audio_input,
    check_ctranslate2,
    check_device_access,
    check_disk_space,
    check_gfx_target,
    check_gpu_memory,
    check_rocm_runtime,
    check_smoke_test,
    check_torch_build,
    check_torchaudio,
    check_torchcodec,
    format_table,
    run_doctor,
    torchaudio_matches,
    torchcodec_matches,
)
from desktop.core.common.errors import Cancelled
from tests.fixtures.rocm.fakes import (
    GIB,
    RADEON_780M,
    RX7900XTX,
    doctor_probes,
    fake_torch,
    machine,
    printing,
    segfaulting_import,
    smoke_fails_in_conv1d,
    smoke_hangs_in_stft,
    smoke_passes,
    smoke_segfaults_in_matmul,
)

ROCM_INDEX = "https://download.pytorch.org/whl/rocm"


def report_for(probes: DoctorProbes, smoke: bool = True):
    return detect(run_smoke_test=smoke, probes=probes.machine)


# -- this machine ---------------------------------------------------------------------------------

def test_the_real_doctor_on_a_machine_without_a_gpu_says_so_without_a_single_error(capsys, cpu_only_machine):
    parser = argparse.ArgumentParser()
    doctor_cli.add_parser(parser.add_subparsers())
    args = parser.parse_args(["doctor", "--json", "--model", "base"])

    assert args.run(args) == 0

    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is True
    assert data["summary"].startswith("No GPU — running on CPU")
    assert [check["id"] for check in data["checks"]] == list(CHECK_IDS)
    assert [c for c in data["checks"] if c["status"] == "error"] == []
    by_id = {check["id"]: check for check in data["checks"]}
    assert by_id["torch_build"]["finding"].startswith("No GPU found; PyTorch")
    for check_id in ("rocm_runtime", "device_access", "gfx_target"):
        assert by_id[check_id]["finding"] == "Not applicable: no AMD graphics card found."
    assert by_id["audio_decode"]["status"] == "ok"
    assert by_id["torchaudio"]["status"] == "ok"  # a real import in a child process


# -- 1. the torch build against the hardware ------------------------------------------------------

def test_an_amd_card_with_a_cuda_torch_gets_the_rocm_install_command(tmp_path):
    probes = doctor_probes(tmp_path, machine(torch=fake_torch(build="cuda", gpus=0)))
    check = check_torch_build(report_for(probes), probes)
    assert check.status is Status.ERROR
    assert "AMD graphics card" in check.finding and "CUDA build" in check.finding
    assert check.fix == ("/venv/bin/python -m pip uninstall -y torch torchaudio && /venv/bin/python -m pip "
                         f"install --index-url {ROCM_INDEX}6.4 torch torchaudio")


def test_a_cpu_only_torch_on_an_amd_machine_without_system_rocm_gets_a_current_rocm_index(tmp_path):
    probes = doctor_probes(tmp_path, machine(torch=fake_torch(build="cpu", gpus=0), rocm=None))
    check = check_torch_build(report_for(probes), probes)
    assert check.status is Status.ERROR
    assert "--index-url " + ROCM_INDEX + "7.1 torch torchaudio" in check.fix


def test_a_rocm_torch_on_an_amd_card_is_right(tmp_path):
    probes = doctor_probes(tmp_path, machine(torch=fake_torch(gpu=RX7900XTX), sysfs="rx7900xtx"))
    check = check_torch_build(report_for(probes, smoke=False), probes)
    assert check.status is Status.OK and "ROCm build" in check.finding


def test_missing_torch_gets_the_install_command(tmp_path):
    probes = doctor_probes(tmp_path, machine(torch=ImportError("No module named 'torch'"), sysfs="intel"))
    check = check_torch_build(report_for(probes), probes)
    assert check.status is Status.ERROR
    assert check.fix.endswith("-m pip install torch torchaudio")


# -- 2. ROCm runtime and rocminfo -----------------------------------------------------------------

def test_the_rocm_release_and_the_gpu_agents_are_listed(tmp_path):
    probes = doctor_probes(tmp_path)
    check = check_rocm_runtime(report_for(probes, smoke=False), probes)
    assert check.status is Status.OK
    assert check.finding == "ROCm 6.2.4 is installed; rocminfo sees AMD Radeon RX 6700 XT (gfx1031)."


def test_rocminfo_denied_access_to_kfd_is_an_error_with_the_group_fix(tmp_path):
    probes = doctor_probes(tmp_path, machine(tools={"rocminfo": "rocminfo_kfd_permission_denied.txt"}))
    check = check_rocm_runtime(report_for(probes, smoke=False), probes)
    assert check.status is Status.ERROR
    assert "Permission denied" in check.finding
    assert check.fix.startswith("sudo usermod -aG render,video $USER")


def test_rocminfo_without_a_gpu_agent_is_an_error(tmp_path):
    probes = doctor_probes(tmp_path, machine(tools={"rocminfo": "rocminfo_no_gpu_agent.txt"}))
    check = check_rocm_runtime(report_for(probes, smoke=False), probes)
    assert check.status is Status.ERROR and "no GPU agent" in check.finding


def test_no_system_rocm_is_fine_when_the_wheels_runtime_works(tmp_path):
    probes = doctor_probes(tmp_path, machine(torch=fake_torch(gpu=RX7900XTX), sysfs="rx7900xtx", rocm=None,
                                             tools={}, smoke=smoke_passes()))
    check = check_rocm_runtime(report_for(probes), probes)
    assert check.status is Status.OK and "brings its own runtime" in check.finding


def test_no_rocm_at_all_on_an_amd_machine_is_a_warning_with_the_install_step(tmp_path):
    probes = doctor_probes(tmp_path, machine(torch=fake_torch(build="cuda", gpus=0), rocm=None, tools={}))
    check = check_rocm_runtime(report_for(probes), probes)
    assert check.status is Status.WARNING
    assert "amdgpu-install --usecase=rocm" in check.fix


# -- 3. device files and groups -------------------------------------------------------------------

def test_kfd_the_user_may_not_open_gets_the_usermod_fix(tmp_path):
    probes = doctor_probes(tmp_path, blocked=("kfd",), groups={"alice"})
    check = check_device_access(report_for(probes, smoke=False), probes)
    assert check.status is Status.ERROR
    assert "not in the render and video groups" in check.finding
    assert check.fix.startswith("sudo usermod -aG render,video $USER")


def test_groups_added_but_not_yet_in_this_login_say_to_log_in_again(tmp_path):
    probes = doctor_probes(tmp_path, blocked=("kfd",), groups={"alice"}, configured={"alice", "render", "video"})
    check = check_device_access(report_for(probes, smoke=False), probes)
    assert check.status is Status.ERROR
    assert check.fix.startswith("Log out and back in")


def test_a_missing_kfd_means_the_driver_is_not_loaded(tmp_path):
    probes = doctor_probes(tmp_path, kfd=False)
    check = check_device_access(report_for(probes, smoke=False), probes)
    assert check.status is Status.ERROR and check.fix == "sudo modprobe amdgpu"


def test_files_that_open_but_missing_groups_are_a_warning(tmp_path):
    probes = doctor_probes(tmp_path, groups={"alice", "video"})
    check = check_device_access(report_for(probes, smoke=False), probes)
    assert check.status is Status.WARNING
    assert check.fix.startswith("sudo usermod -aG render $USER")


def test_access_and_groups_in_order_pass(tmp_path):
    probes = doctor_probes(tmp_path)
    assert check_device_access(report_for(probes, smoke=False), probes).status is Status.OK


# -- 4. the gfx target ----------------------------------------------------------------------------

def test_gfx1031_without_code_in_the_wheel_gets_the_10_3_0_override_and_its_switch(tmp_path):
    probes = doctor_probes(tmp_path)
    check = check_gfx_target(report_for(probes, smoke=False), probes)
    assert check.status is Status.ERROR
    assert "gfx1031 is not among the GPU targets" in check.finding
    assert check.fix == "HSA_OVERRIDE_GFX_VERSION=10.3.0 voxdesk"
    assert check.setting == ("gpu/hsa_override_gfx_version", "10.3.0")


def test_gfx1101_gets_the_11_0_0_override(tmp_path):
    gpu = dict(RX7900XTX, name="AMD Radeon RX 7800 XT", arch="gfx1101")
    torch = fake_torch(gpu=gpu, arch_list=["gfx1030", "gfx1100"])
    probes = doctor_probes(tmp_path, machine(torch=torch, sysfs="rx7900xtx"))
    check = check_gfx_target(report_for(probes, smoke=False), probes)
    assert check.setting == ("gpu/hsa_override_gfx_version", "11.0.0")


def test_gfx1103_is_sent_to_rocm_7_2_instead_of_an_override(tmp_path):
    probes = doctor_probes(tmp_path, machine(torch=fake_torch(gpu=RADEON_780M),
                                             tools={"rocminfo": "rocminfo_780m.txt"}))
    check = check_gfx_target(report_for(probes, smoke=False), probes)
    assert check.status is Status.ERROR
    assert check.setting is None
    assert "page faults" in check.finding
    assert f"--index-url {ROCM_INDEX}7.2 torch torchaudio" in check.fix


def test_a_target_the_wheel_has_code_for_passes(tmp_path):
    probes = doctor_probes(tmp_path, machine(torch=fake_torch(gpu=RX7900XTX), sysfs="rx7900xtx"))
    check = check_gfx_target(report_for(probes, smoke=False), probes)
    assert check.status is Status.OK and check.finding == "gfx1100: the installed PyTorch has code for it."


# -- 5. the smoke test ----------------------------------------------------------------------------

def test_a_failing_op_is_named_and_the_fix_is_the_override(tmp_path):
    probes = doctor_probes(tmp_path, machine(smoke=smoke_fails_in_conv1d()))
    check = check_smoke_test(report_for(probes), probes)
    assert check.status is Status.ERROR
    assert "conv1d failed" in check.finding and "invalid device function" in check.finding
    assert "allocate ✓ matmul ✓ conv1d ✗" in check.finding
    assert check.fix == "HSA_OVERRIDE_GFX_VERSION=10.3.0 voxdesk"


def test_a_segfaulting_smoke_test_is_reported_as_a_crash(tmp_path):
    probes = doctor_probes(tmp_path, machine(smoke=smoke_segfaults_in_matmul()))
    check = check_smoke_test(report_for(probes), probes)
    assert check.status is Status.ERROR
    assert "crashed (SIGSEGV) during matmul" in check.finding


def test_a_hanging_smoke_test_is_reported_as_stuck(tmp_path):
    probes = doctor_probes(tmp_path, machine(smoke=smoke_hangs_in_stft(), smoke_timeout=3))
    check = check_smoke_test(report_for(probes), probes)
    assert check.status is Status.ERROR
    assert "stopped answering in stft" in check.finding


def test_a_passing_smoke_test_lists_every_op(tmp_path):
    probes = doctor_probes(tmp_path, machine(torch=fake_torch(gpu=RX7900XTX), sysfs="rx7900xtx",
                                             smoke=smoke_passes()))
    check = check_smoke_test(report_for(probes), probes)
    assert check.status is Status.OK
    assert check.finding == "allocate ✓ matmul ✓ conv1d ✓ stft ✓ attention ✓ on Radeon RX 7900 XTX."


# -- 6. torchaudio and torchcodec -----------------------------------------------------------------

def test_version_pairs_follow_the_release_and_stable_abi_rules():
    assert torchaudio_matches("2.5.1+rocm6.2", "2.5.1+rocm6.2")
    assert not torchaudio_matches("2.5.1", "2.4.1")
    assert torchaudio_matches("2.14.1", "2.11.1")  # stable ABI from 2.11 on
    assert not torchaudio_matches("2.10.0", "2.11.0")
    assert torchcodec_matches("2.9.0", "0.8.1") and torchcodec_matches("2.14.1", "0.17.0")
    assert torchcodec_matches("2.9.0", "0.7.0") is False


def test_a_torchaudio_that_segfaults_on_import_is_an_error_with_the_matching_install(tmp_path):
    probes = doctor_probes(tmp_path, packages={"torchaudio": "2.4.0"},
                           imports={"torchaudio": segfaulting_import("torchaudio")})
    check = check_torchaudio(report_for(probes, smoke=False), probes)
    assert check.status is Status.ERROR
    assert "crashed (SIGSEGV)" in check.finding and "would close the window" in check.finding
    assert check.fix == f"/venv/bin/python -m pip install --index-url {ROCM_INDEX}6.2 torchaudio==2.5.1"


def test_a_mismatched_torchaudio_that_imports_is_a_warning(tmp_path):
    probes = doctor_probes(tmp_path, packages={"torchaudio": "2.4.0"})
    check = check_torchaudio(report_for(probes, smoke=False), probes)
    assert check.status is Status.WARNING and "not from the same release" in check.finding


def test_torchcodec_without_ffmpeg_is_information_because_voxdesk_reads_audio_through_pyav(tmp_path):
    probes = doctor_probes(tmp_path, packages={"torch": "2.14.1", "torchcodec": "0.17.0"},
                           imports={"torchcodec": printing({"version": "0.17.0", "ffmpeg": None})})
    check = check_torchcodec(report_for(probes, smoke=False), probes)
    assert check.status is Status.INFO and check.symbol == "ℹ" and check.fix == ""
    assert "finds no FFmpeg libraries" in check.finding and "through PyAV" in check.finding
    failing = doctor_probes(tmp_path, packages={"torch": "2.14.1", "torchcodec": "0.17.0"}, imports={
        "torchcodec": [sys.executable, "-c", "raise OSError('Could not load libtorchcodec: libavutil.so.58 "
                                             "(FFmpeg) not found')"]})
    check = check_torchcodec(report_for(failing, smoke=False), failing)
    assert check.status is Status.INFO and "apt" not in check.fix


def test_a_missing_torchcodec_matters_only_from_torch_2_9(tmp_path):
    old = doctor_probes(tmp_path, packages={"torch": "2.5.1", "torchcodec": None})
    assert check_torchcodec(report_for(old, smoke=False), old).status is Status.OK
    new = doctor_probes(tmp_path, packages={"torch": "2.9.0", "torchcodec": None})
    check = check_torchcodec(report_for(new, smoke=False), new)
    assert check.status is Status.WARNING and check.fix.endswith("install 'torchcodec==0.9.*'")


def test_a_torchcodec_that_crashes_on_import_is_an_error(tmp_path):
    probes = doctor_probes(tmp_path, imports={"torchcodec": segfaulting_import("torchcodec")})
    assert check_torchcodec(report_for(probes, smoke=False), probes).status is Status.ERROR


# -- 7-9. CTranslate2, audio, disk, GPU memory ----------------------------------------------------

def test_ctranslate2_without_a_gpu_next_to_a_working_rocm_gpu_it_has_no_build_for_is_explained_not_flagged(tmp_path):
    probes = doctor_probes(tmp_path, machine(torch=fake_torch(gpu=RX7900XTX), sysfs="rx7900xtx",
                                             smoke=smoke_passes(), ct2_gpus=0))  # ROCm 6.2: no CTranslate2 build
    check = check_ctranslate2(report_for(probes), probes)
    assert check.status is Status.INFO and "openai-whisper through PyTorch" in check.finding
    assert "needs ROCm 7.2" in check.finding


def test_ctranslate2_seeing_no_gpu_where_torch_sees_one_and_a_rocm_build_fits_says_so_with_the_fix(tmp_path):
    probes = doctor_probes(tmp_path, machine(torch=fake_torch(gpu=RX7900XTX), sysfs="rx7900xtx", rocm="opt_rocm_7.2",
                                             tools={"rocminfo": "rocminfo_rx7900xtx.txt"},
                                             smoke=smoke_passes(), ct2_gpus=0))
    check = check_ctranslate2(report_for(probes), probes)
    assert check.status is Status.WARNING and "CTranslate2 4.8.5 sees none" in check.finding
    assert "desktop.core.gpu.ct2_rocm_wheel" in check.fix and "--force-reinstall" in check.fix


def test_ctranslate2s_own_view_of_the_gpu_lists_its_compute_types(tmp_path):
    probes = doctor_probes(tmp_path, machine(torch=fake_torch(gpu=RX7900XTX), sysfs="rx7900xtx", rocm="opt_rocm_7.2",
                                             smoke=smoke_passes(), ct2_gpus=1))
    check = check_ctranslate2(report_for(probes), probes)
    assert check.status is Status.OK and "sees 1 GPU" in check.finding
    assert "float16" in check.finding and "int8_float16" in check.finding


def test_a_rocm_ctranslate2_that_does_not_match_the_installed_rocm_is_an_error_with_the_way_back(tmp_path):
    probes = doctor_probes(tmp_path, machine(torch=fake_torch(gpu=RX7900XTX), sysfs="rx7900xtx",
                                             smoke=smoke_passes()))
    probes.machine.import_ctranslate2 = lambda: (_ for _ in ()).throw(ImportError(
        "/usr/lib/libctranslate2.so.4: undefined symbol: hipGetDevicePropertiesR0600, version libamdhip64.so.7"))
    check = check_ctranslate2(report_for(probes), probes)
    assert check.status is Status.ERROR and "ROCm 7.2" in check.finding and "pip install" in check.fix


def test_missing_ctranslate2_is_an_error(tmp_path):
    probes = doctor_probes(tmp_path)
    probes.machine.import_ctranslate2 = lambda: (_ for _ in ()).throw(ImportError("No module named 'ctranslate2'"))
    check = check_ctranslate2(report_for(probes, smoke=False), probes)
    assert check.status is Status.ERROR and "pip install ctranslate2" in check.fix


def test_pyav_really_decodes_here_and_a_broken_one_is_an_error(tmp_path):
    probes = doctor_probes(tmp_path)
    report = report_for(probes, smoke=False)
    assert check_audio_decode(report, probes).status is Status.OK  # the real PyAV round trip
    probes.decode_audio = lambda: (_ for _ in ()).throw(OSError("libavcodec.so.61: cannot open shared object"))
    check = check_audio_decode(report, probes)
    assert check.status is Status.ERROR and "--force-reinstall av" in check.fix


def test_missing_portaudio_is_a_warning_with_the_apt_fix(tmp_path):
    probes = doctor_probes(tmp_path, audio=AudioInputs(portaudio=False))
    check = check_audio_input(report_for(probes, smoke=False), probes)
    assert check.status is Status.WARNING
    assert check.finding == sound_unavailable()  # the same sentence the recorder and the player say
    assert check.fix == "sudo apt-get install libportaudio2"


def test_microphones_and_the_default_one_are_listed(tmp_path):
    probes = doctor_probes(tmp_path, audio=AudioInputs(True, ["USB Headset", "Built-in"], "USB Headset"))
    check = check_audio_input(report_for(probes, smoke=False), probes)
    assert check.status is Status.OK
    assert check.finding == "2 input devices: USB Headset, Built-in. Default: USB Headset."
    none = doctor_probes(tmp_path, audio=AudioInputs(True, [], None))
    assert check_audio_input(report_for(none, smoke=False), none).status is Status.WARNING


def test_disk_space_is_weighed_against_the_chosen_model(tmp_path):
    report = report_for(doctor_probes(tmp_path), smoke=False)
    assert check_disk_space(report, doctor_probes(tmp_path, free=100 * GIB), "large-v3").status is Status.OK
    assert check_disk_space(report, doctor_probes(tmp_path, free=4 * GIB), "base").status is Status.WARNING
    low = check_disk_space(report, doctor_probes(tmp_path, free=1 * GIB), "large-v3")
    assert low.status is Status.ERROR and "Free at least" in low.fix


def test_free_gpu_memory_is_weighed_against_the_chosen_model(tmp_path):
    gpu = dict(RX7900XTX, free=3 * GIB)
    probes = doctor_probes(tmp_path, machine(torch=fake_torch(gpu=gpu), sysfs="rx7900xtx"))
    report = report_for(probes, smoke=False)
    assert check_gpu_memory(report, probes, "small").status is Status.OK
    check = check_gpu_memory(report, probes, "medium")
    assert check.status is Status.WARNING and "needs about 5.0 GB" in check.finding


# -- the whole run, the table, the command --------------------------------------------------------

def test_a_full_run_on_a_gfx1031_machine_has_errors_and_the_command_exits_1(tmp_path, capsys):
    probes = doctor_probes(tmp_path, machine(smoke=smoke_fails_in_conv1d()))
    steps = []
    result = run_doctor(probes=probes, model="base", progress=steps.append)
    assert [check.id for check in result.checks] == list(CHECK_IDS)
    assert not result.ok
    assert {c.id for c in result.checks if c.status is Status.ERROR} == {"gfx_target", "gpu_smoke_test"}
    assert steps[0] == "Detecting the GPU" and len(steps) == 1 + len(CHECK_IDS)

    args = argparse.Namespace(json=False, model="base")
    assert doctor_cli.run(args, doctor=lambda **kw: result) == 1
    table = capsys.readouterr().out
    # The sentence for the person comes first, then the rows for IT.
    assert table.startswith("Transcription works, but slowly: the graphics card is not used, because the installed "
                            "software has no support for this graphics card model.\n\nVoxDesk doctor: ")
    assert "✗ GPU target (gfx)" in table
    assert "Fix: HSA_OVERRIDE_GFX_VERSION=10.3.0 voxdesk" in table
    assert table.rstrip().endswith("2 problems, 0 warnings.")


def test_the_json_output_carries_status_fix_and_switch_per_check(tmp_path, capsys):
    probes = doctor_probes(tmp_path, machine(smoke=smoke_fails_in_conv1d()))
    result = run_doctor(probes=probes, report=report_for(probes))
    assert doctor_cli.run(argparse.Namespace(json=True, model=None), doctor=lambda **kw: result) == 1
    data = json.loads(capsys.readouterr().out)
    gfx = next(check for check in data["checks"] if check["id"] == "gfx_target")
    assert gfx["status"] == "error" and gfx["symbol"] == "✗"
    assert gfx["setting"] == {"key": "gpu/hsa_override_gfx_version", "value": "10.3.0"}
    assert data["device"]["gfx_arch"] == "gfx1031"


def test_warnings_alone_let_the_command_exit_0(tmp_path, capsys):
    probes = doctor_probes(tmp_path, machine(torch=fake_torch(gpu=RX7900XTX), sysfs="rx7900xtx",
                                             tools={"rocminfo": "rocminfo_rx7900xtx.txt"}, smoke=smoke_passes()),
                           audio=AudioInputs(portaudio=False))
    result = run_doctor(probes=probes)
    assert result.ok
    assert [c.id for c in result.checks if c.status in (Status.WARNING, Status.ERROR)] == ["audio_input"]
    assert doctor_cli.run(argparse.Namespace(json=False, model="base"), doctor=lambda **kw: result) == 0
    assert "Fix: sudo apt-get install libportaudio2" in capsys.readouterr().out


def test_a_cancelled_run_stops_between_checks(tmp_path):
    probes = doctor_probes(tmp_path)
    with pytest.raises(Cancelled):
        run_doctor(probes=probes, report=report_for(probes, smoke=False), cancelled=lambda: True)


def test_the_table_shows_fixes_only_for_warnings_and_errors(tmp_path):
    probes = doctor_probes(tmp_path, machine(smoke=smoke_fails_in_conv1d()))
    result = run_doctor(probes=probes, report=report_for(probes))
    table = format_table(DoctorResult(result.report, result.checks))
    assert table.count("Fix:") == sum(check.status in (Status.WARNING, Status.ERROR) for check in result.checks)


# -- new cards, and a GPU that proves its answers ---------------------------------------------------

RX9070XT = dict(name="AMD Radeon RX 9070 XT", arch="gfx1201", total=17163091968, free=16900000000)


def test_rdna4_under_a_rocm_6_2_pytorch_is_told_to_take_the_rocm_7_build_not_an_override(tmp_path):
    probes = doctor_probes(tmp_path, machine(torch=fake_torch(gpu=RX9070XT), sysfs="rx7900xtx", smoke=smoke_passes()))
    check = check_gfx_target(report_for(probes, smoke=False), probes)
    assert check.status is Status.ERROR and "RDNA4" in check.finding and "6.4.1" in check.finding
    assert f"--index-url {ROCM_INDEX}7.1 torch torchaudio" in check.fix and check.setting is None


def test_a_missing_rocm_pytorch_for_strix_halo_names_the_rocm_7_2_index_and_why(tmp_path):
    strix_halo = dict(name="AMD Radeon 8060S", arch="gfx1151", total=64 * GIB, free=60 * GIB)
    probes = doctor_probes(tmp_path, machine(torch=fake_torch(build="cuda", gpu=strix_halo), sysfs="rx7900xtx",
                                             tools={"rocminfo": None}, rocm="opt_rocm_7.0"))
    report = report_for(probes, smoke=False)
    report.gfx_arch = "gfx1151"
    check = check_torch_build(report, probes)
    assert check.status is Status.ERROR and f"--index-url {ROCM_INDEX}7.2 torch" in check.fix
    assert "Strix Halo" in check.finding and "ROCm 7.2 or later; ROCm 7.0.2 is installed" in check.finding


def answers(**gpu):
    from desktop.core.gpu.known_answer import verdict

    return verdict("torch", "base", "key", gpu_text=gpu.get("text", "ask not what your country can do"),
                   cpu_text="ask not what your country can do", gpu_seconds=gpu.get("seconds", 1.0), cpu_seconds=4.0)


def working_gpu(tmp_path, gpu_answers):
    probes = doctor_probes(tmp_path, machine(torch=fake_torch(gpu=RX7900XTX), sysfs="rx7900xtx", smoke=smoke_passes()))
    probes.gpu_answers = gpu_answers
    return probes


def test_the_doctor_marks_a_gpu_that_gives_other_words_as_an_error_with_the_fix(tmp_path):
    from desktop.core.gpu.doctor import check_gpu_answers

    probes = working_gpu(tmp_path, lambda: [answers(text="thank you for watching")])
    check = check_gpu_answers(report_for(probes), probes)
    assert check.status is Status.ERROR and check.finding.startswith("The graphics card gave wrong results")
    assert "sudo apt full-upgrade" in check.fix


def test_the_doctor_says_a_gpu_slower_than_the_processor_is_left_to_the_processor_by_automatic(tmp_path):
    from desktop.core.gpu.doctor import check_gpu_answers

    probes = working_gpu(tmp_path, lambda: [answers(seconds=9.0)])
    check = check_gpu_answers(report_for(probes), probes)
    assert check.status is Status.WARNING and "slower than the processor" in check.finding


def test_the_doctor_passes_a_gpu_with_the_processors_words_and_survives_a_check_that_cannot_run(tmp_path):
    from desktop.core.gpu.doctor import check_gpu_answers

    probes = working_gpu(tmp_path, lambda: [answers()])
    assert check_gpu_answers(report_for(probes), probes).status is Status.OK

    def broken():
        raise RuntimeError("HIP error: invalid device function")

    probes = working_gpu(tmp_path, broken)
    check = check_gpu_answers(report_for(probes), probes)
    assert check.status is Status.WARNING and "invalid device function" in check.finding
