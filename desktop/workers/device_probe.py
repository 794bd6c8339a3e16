"""Device detection on a worker thread, so the window never waits for torch or the GPU smoke test."""
from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QObject, Signal, Slot

from desktop.core.common.i18n import N_
from desktop.core.gpu.device import DeviceReport, detect
from desktop.workers.job import Job, JobReport, JobRunner


class _GuiThreadRelay(QObject):
    """Lives on the GUI thread; a queued connection brings the report here before calling back."""

    deliver = Signal(object)

    def __init__(self, on_report: Callable[[DeviceReport], None]):
        super().__init__()
        self._on_report = on_report

    @Slot(object)
    def receive(self, report: object) -> None:
        self._on_report(report)  # type: ignore[arg-type]


def start_device_detection(
    runner: JobRunner,
    on_report: Callable[[DeviceReport], None],
    *,
    detect_fn: Callable[[], DeviceReport] | None = None,
) -> Job:
    """Start detection (with the smoke test) and call `on_report(report)` on the GUI thread.

    Call it from the GUI thread. The returned Job's `failed` signal says if detection itself broke;
    `detect_fn` replaces `detect()` in tests.
    """
    def run(report: JobReport) -> DeviceReport:
        report.message(N_("DeviceProbe", "Detecting the device…"))
        if detect_fn is not None:
            return detect_fn()
        # Cancelled with the window: its child processes are killed then, instead of being waited for.
        return detect(run_smoke_test=True, cancelled=report.cancelled)

    job = Job(run, name="device-detection")
    relay = _GuiThreadRelay(on_report)  # created here, so it belongs to the calling (GUI) thread
    job.result.connect(relay.receive)
    job.finished.connect(relay.deleteLater)  # queued after `result`, so the report is delivered first
    job._device_relay = relay  # keep it alive as long as the job
    return runner.start(job)
