"""Help → Doctor: rows with ✓/⚠/✗, fixes to copy, Run again, and the override switch."""
import threading

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from desktop.core.gpu.doctor import AudioInputs, Status, run_doctor
from desktop.ui.gpu.doctor_dialog import DoctorDialog
from desktop.workers.job import JobRunner
from tests.fixtures.rocm.fakes import RX7900XTX, doctor_probes, fake_torch, machine, smoke_fails_in_conv1d, smoke_passes

WAIT_MS = 120_000
OVERRIDE_KEY = "gpu/hsa_override_gfx_version"


@pytest.fixture
def runner():
    runner = JobRunner()
    yield runner
    assert runner.shutdown(30_000)


@pytest.fixture(scope="module")
def gfx1031_result(tmp_path_factory):
    """The doctor's answer on an RX 6700 XT with a ROCm torch that has no gfx1031 code."""
    tmp_path = tmp_path_factory.mktemp("gfx1031")
    return run_doctor(probes=doctor_probes(tmp_path, machine(smoke=smoke_fails_in_conv1d())))


@pytest.fixture(scope="module")
def healthy_result(tmp_path_factory):
    """A working RX 7900 XTX, no microphone."""
    tmp_path = tmp_path_factory.mktemp("healthy")
    probes = machine(torch=fake_torch(gpu=RX7900XTX), sysfs="rx7900xtx", tools={"rocminfo": "rocminfo_rx7900xtx.txt"},
                     smoke=smoke_passes())
    return run_doctor(probes=doctor_probes(tmp_path, probes, audio=AudioInputs(True, [], None)))


def open_dialog(qtbot, settings, runner, doctor):
    dialog = DoctorDialog(settings=settings, runner=runner, doctor=doctor)
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def wait_for_rows(qtbot, dialog):
    """Until the run started last has finished (starting one marks the dialog running at once)."""
    qtbot.waitUntil(lambda: not dialog.is_running(), timeout=WAIT_MS)
    assert dialog.doctor_result() is not None


def test_the_checks_run_off_the_gui_thread_and_show_one_row_each(qtbot, settings, runner, gfx1031_result):
    threads = []

    def doctor(progress, cancelled):
        threads.append(threading.get_ident())
        progress("GPU test")
        return gfx1031_result

    dialog = open_dialog(qtbot, settings, runner, doctor)
    shown = []
    dialog.checks_finished.connect(shown.append)  # the answer arrives through the event loop, later
    assert not dialog.run_again_button.isEnabled()  # running
    wait_for_rows(qtbot, dialog)
    assert shown == [gfx1031_result]

    assert threads and threads[0] != threading.get_ident()
    assert list(dialog.rows) == [check.id for check in gfx1031_result.checks]
    assert dialog.rows["gfx_target"].symbol.text() == "✗"
    assert dialog.rows["torch_build"].symbol.text() == "✓"
    assert dialog.summary_label.text() == gfx1031_result.report.summary()
    assert dialog.state_label.text() == "Problems to fix: 2. Warnings: 0."
    assert dialog.run_again_button.isEnabled()


def test_each_fix_is_shown_as_copyable_text_with_a_copy_button(qtbot, settings, runner, gfx1031_result):
    dialog = open_dialog(qtbot, settings, runner, lambda **kw: gfx1031_result)
    wait_for_rows(qtbot, dialog)
    row = dialog.rows["gpu_smoke_test"]
    assert row.fix.text() == "HSA_OVERRIDE_GFX_VERSION=10.3.0 voxdesk"
    assert row.fix.wordWrap()  # the whole text, on as many lines as it needs
    QGuiApplication.clipboard().clear()
    qtbot.mouseClick(row.copy, Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text() == "HSA_OVERRIDE_GFX_VERSION=10.3.0 voxdesk"
    assert dialog.rows["torch_build"].fix is None  # ✓ rows have nothing to fix


def test_one_sentence_for_the_person_leads_above_the_rows(qtbot, settings, runner, gfx1031_result, healthy_result):
    dialog = open_dialog(qtbot, settings, runner, lambda **kw: gfx1031_result)
    wait_for_rows(qtbot, dialog)
    assert dialog.verdict_label.text().startswith("Transcription works, but slowly: the graphics card is not used")
    layout = dialog.layout()
    assert layout.indexOf(dialog.verdict_label) < layout.indexOf(dialog.summary_label)

    dialog = open_dialog(qtbot, settings, runner, lambda **kw: healthy_result)
    wait_for_rows(qtbot, dialog)
    assert dialog.verdict_label.text().startswith("Transcription works and uses the graphics card.")


def test_a_long_fix_is_shown_whole_on_several_lines(qtbot, settings, runner, tmp_path):
    result = run_doctor(probes=doctor_probes(tmp_path, machine(torch=fake_torch(build="cuda", gpus=0))))
    dialog = open_dialog(qtbot, settings, runner, lambda **kw: result)
    dialog.resize(700, 600)
    wait_for_rows(qtbot, dialog)
    fix = dialog.rows["torch_build"].fix
    assert fix.text() == result.check("torch_build").fix
    qtbot.waitUntil(lambda: fix.width() < fix.fontMetrics().horizontalAdvance(fix.text()))
    assert fix.height() >= 2 * fix.fontMetrics().lineSpacing()  # wrapped, not clipped


def test_the_override_switch_is_bound_to_the_setting(qtbot, settings, runner, gfx1031_result):
    dialog = open_dialog(qtbot, settings, runner, lambda **kw: gfx1031_result)
    wait_for_rows(qtbot, dialog)
    box = dialog.rows["gfx_target"].override
    assert box.text() == "Apply HSA_OVERRIDE_GFX_VERSION=10.3.0 at next start"
    assert not box.isChecked() and settings.get(OVERRIDE_KEY) == ""

    box.click()
    assert settings.get(OVERRIDE_KEY) == "10.3.0"
    assert "Restart VoxDesk" in dialog.state_label.text()
    box.click()
    assert settings.get(OVERRIDE_KEY) == ""


def test_an_override_already_set_can_be_turned_off_even_when_the_gpu_now_works(qtbot, settings, runner,
                                                                               healthy_result):
    settings.set(OVERRIDE_KEY, "11.0.0")
    dialog = open_dialog(qtbot, settings, runner, lambda **kw: healthy_result)
    wait_for_rows(qtbot, dialog)
    box = dialog.rows["gfx_target"].override
    assert box.isChecked() and "11.0.0" in box.text()
    box.click()
    assert settings.get(OVERRIDE_KEY) == ""


def test_no_switch_when_nothing_needs_an_override(qtbot, settings, runner, healthy_result):
    dialog = open_dialog(qtbot, settings, runner, lambda **kw: healthy_result)
    wait_for_rows(qtbot, dialog)
    assert dialog.rows["gfx_target"].override is None
    assert dialog.rows["audio_input"].symbol.text() == "⚠"
    assert dialog.state_label.text() == "Nothing is broken. Warnings: 1."


def test_run_again_runs_the_checks_again_and_replaces_the_rows(qtbot, settings, runner, gfx1031_result,
                                                               healthy_result):
    answers = [gfx1031_result, healthy_result]
    dialog = open_dialog(qtbot, settings, runner, lambda **kw: answers.pop(0))
    wait_for_rows(qtbot, dialog)
    assert dialog.rows["gfx_target"].check.status is Status.ERROR

    qtbot.mouseClick(dialog.run_again_button, Qt.MouseButton.LeftButton)
    wait_for_rows(qtbot, dialog)
    assert dialog.rows["gfx_target"].check.status is Status.OK
    assert dialog.doctor_result() is healthy_result
    assert answers == []


def test_a_doctor_that_breaks_is_said_so_and_can_be_run_again(qtbot, settings, runner, healthy_result):
    calls = []

    def doctor(**kw):
        calls.append(1)
        if len(calls) == 1:
            raise OSError("disk on fire")
        return healthy_result

    dialog = open_dialog(qtbot, settings, runner, doctor)
    qtbot.waitUntil(lambda: not dialog.is_running(), timeout=WAIT_MS)
    assert dialog.state_label.text().startswith("The checks could not finish:")
    dialog.run_checks()
    wait_for_rows(qtbot, dialog)
    assert len(calls) == 2


def test_the_whole_report_can_be_copied(qtbot, settings, runner, gfx1031_result):
    dialog = open_dialog(qtbot, settings, runner, lambda **kw: gfx1031_result)
    wait_for_rows(qtbot, dialog)
    dialog.copy_report_button.click()
    text = QGuiApplication.clipboard().text()
    assert text.startswith("VoxDesk doctor: GPU AMD Radeon RX 6700 XT failed its test")
    assert "Fix: HSA_OVERRIDE_GFX_VERSION=10.3.0 voxdesk" in text


def test_closing_the_dialog_stops_the_checks_at_the_next_step(qtbot, settings, runner):
    from desktop.core.common.errors import Cancelled

    started = threading.Event()

    def slow_doctor(progress, cancelled):
        started.set()
        while not cancelled():
            threading.Event().wait(0.05)
        raise Cancelled()

    dialog = open_dialog(qtbot, settings, runner, slow_doctor)
    assert started.wait(30)
    dialog.close()
    qtbot.waitUntil(lambda: not runner.busy, timeout=WAIT_MS)
    assert dialog.doctor_result() is None


def test_with_nothing_handed_in_it_uses_the_users_settings_and_an_application_wide_runner(qtbot, healthy_result):
    dialog = DoctorDialog(doctor=lambda **kw: healthy_result)
    qtbot.addWidget(dialog)
    wait_for_rows(qtbot, dialog)
    assert dialog.rows["torch_build"].symbol.text() == "✓"


def test_model_downloads_tries_the_source_chosen_in_settings_off_the_gui_thread(qtbot, settings, runner, tmp_path,
                                                                                  monkeypatch):
    import dataclasses

    import desktop.ui.gpu.doctor_dialog as doctor_dialog
    from desktop.core.common.download_sources import probe_all
    from tests.fixtures.rocm.fakes import printing
    from tests.helpers.http_server import FileServer, closed_port_url

    threads = []

    def doctor_on_a_pretend_gpu(*, downloads, **kw):
        threads.append(threading.get_ident())
        dead = closed_port_url().rstrip("/")
        probes = doctor_probes(tmp_path, imports={"torchcodec": printing({"version": "0.1.1", "ffmpeg": None})})
        probes.probe_downloads = probe_all  # the real probe; the public hosts stand in as closed ports
        return run_doctor(probes=probes, downloads=dataclasses.replace(downloads, official=dead, mirror=dead), **kw)

    monkeypatch.setattr(doctor_dialog, "run_doctor", doctor_on_a_pretend_gpu)
    with FileServer() as company:
        settings.set("downloads/source", "custom")
        settings.set("downloads/custom_url", company.base_url)
        dialog = open_dialog(qtbot, settings, runner, None)
        wait_for_rows(qtbot, dialog)
    assert threads and threads[0] != threading.get_ident()
    row = dialog.rows["model_downloads"]
    assert row.symbol.text() == "✓" and row.title.text() == "Model downloads"
    assert row.finding.text().startswith("Downloads work from Company mirror; Hugging Face, hf-mirror.com")
    codec = dialog.rows["torchcodec"]
    assert codec.symbol.text() == "ℹ" and codec.fix is None and "through PyAV" in codec.finding.text()
