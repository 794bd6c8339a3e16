"""The doctor's one sentence for the person, chosen from the rows of pretend machines."""
from desktop.core.gpu.doctor import AudioInputs, run_doctor
from desktop.core.gpu.verdict import plain_verdict
from tests.fixtures.rocm.fakes import (
    RX7900XTX,
    doctor_probes,
    fake_torch,
    machine,
    smoke_fails_in_conv1d,
    smoke_passes,
)


def verdict(tmp_path, machine_probes, **doctor_options) -> str:
    return str(plain_verdict(run_doctor(probes=doctor_probes(tmp_path, machine_probes, **doctor_options))))


def test_a_working_graphics_card_with_nothing_to_improve_is_everything_ready(tmp_path):
    said = verdict(tmp_path, machine(torch=fake_torch(gpu=RX7900XTX), sysfs="rx7900xtx",
                                     tools={"rocminfo": "rocminfo_rx7900xtx.txt"}, smoke=smoke_passes()))
    assert said == "Everything is ready: transcription uses the graphics card."


def test_a_working_graphics_card_with_warnings_says_it_is_used_and_counts_the_rest(tmp_path):
    said = verdict(tmp_path, machine(torch=fake_torch(gpu=RX7900XTX), sysfs="rx7900xtx",
                                     tools={"rocminfo": "rocminfo_rx7900xtx.txt"}, smoke=smoke_passes()),
                   audio=AudioInputs(True, [], None))
    assert said.startswith("Transcription works and uses the graphics card.")


def test_a_card_without_support_in_the_installed_software_is_working_but_slowly_with_the_reason(tmp_path):
    said = verdict(tmp_path, machine(smoke=smoke_fails_in_conv1d()))
    assert said == ("Transcription works, but slowly: the graphics card is not used, because the installed "
                    "software has no support for this graphics card model.")


def test_a_cuda_torch_on_an_amd_card_is_explained_before_anything_else(tmp_path):
    said = verdict(tmp_path, machine(torch=fake_torch(build="cuda", gpus=0)))
    assert said == ("Transcription works, but slowly: the graphics card is not used, because the program that "
                    "drives it is not installed.")


def test_a_user_not_yet_allowed_to_use_the_card_is_told_so(tmp_path):
    said = verdict(tmp_path, machine(torch=fake_torch(gpus=0)), groups={"alice"}, configured={"alice"})
    assert "not yet allowed" in said


def test_a_computer_without_a_graphics_card_is_ready_on_the_processor(tmp_path):
    said = verdict(tmp_path, machine(torch=fake_torch(build="cpu", gpus=0), sysfs=None, rocm=None, tools={}))
    assert said == ("Everything is ready. Transcription runs on the processor, because this computer has no "
                    "graphics card VoxDesk can use.")
