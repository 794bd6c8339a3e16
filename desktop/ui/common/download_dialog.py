"""The one dialog that downloads a model: a sentence saying why, a progress bar and Cancel.

The Transcribe tab uses it for Whisper models and the Synthesize tab for voice models; each passes
its own sentences and the store call that does the downloading.
"""
from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QEvent, Signal, Slot
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QProgressBar, QVBoxLayout, QWidget

from desktop.ui.common.i18n import translated
from desktop.workers.job import Job, JobReport, JobRunner

ProgressCallback = Callable[[int, int | None], None]  # (bytes so far, total bytes or None)
Download = Callable[[ProgressCallback, Callable[[], bool]], None]  # download(progress, cancelled)

_STEPS = 200  # progress reports per download: the window hears of every half percent, not every chunk


class DownloadDialog(QDialog):
    """Downloads one model with a progress bar and a Cancel button; starts when opened.

    Exactly one of downloaded, failed or cancelled is emitted, after which the dialog closes.
    title and explanation are shown in the interface language (core Messages), also after a switch.
    """

    downloaded = Signal()
    failed = Signal(object)  # the sentence saying what went wrong (str, or a core Message)
    cancelled = Signal()

    def __init__(self, runner: JobRunner, download: Download, *, title: str, explanation: str,
                 job_name: str = "download", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._runner = runner
        self._download = download
        self._title = title
        self._explanation = explanation
        self._job_name = job_name
        self._job: Job | None = None
        self._outcome: str | None = None
        self._received: tuple[int, int | None] | None = None  # (bytes so far, total) once data comes
        self.setMinimumWidth(460)

        self.explanation = QLabel()
        self.explanation.setWordWrap(True)
        self.bar = QProgressBar()
        self.bar.setRange(0, 0)  # until the size is known
        self.bytes_label = QLabel()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        for widget in (self.explanation, self.bar, self.bytes_label, self.buttons):
            layout.addWidget(widget)
        self.retranslate()

    def retranslate(self) -> None:
        """Set every text; called at start and when the interface language changes."""
        self.setWindowTitle(translated(self._title))
        self.explanation.setText(translated(self._explanation))
        self._show_received()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def open(self) -> None:
        super().open()
        self._start()

    def exec(self) -> int:
        self._start()
        return super().exec()

    def _start(self) -> None:
        if self._job is not None or self._outcome is not None:
            return
        download = self._download

        def work(report: JobReport) -> None:
            last = [-1]

            def progress(done: int, total: int | None) -> None:
                step = int(done * _STEPS / total) if total else done // 1_000_000
                if step != last[0]:
                    last[0] = step
                    report.partial((done, total))

            download(progress, report.cancelled)

        # Bound slots of this dialog, so Qt delivers them on the GUI thread.
        job = Job(work, name=self._job_name)
        job.partial.connect(self._on_progress)
        job.result.connect(self._on_done)
        job.failed.connect(self._on_failed)
        job.was_cancelled.connect(self._on_cancelled)
        job.finished.connect(self._on_finished)
        self._job = job
        self._runner.start(job)

    @Slot(object)
    def _on_progress(self, value: tuple[int, int | None]) -> None:
        done, total = value
        self._received = value
        if total:
            self.bar.setRange(0, 1000)
            self.bar.setValue(int(done * 1000 / total))
        self._show_received()

    def _show_received(self) -> None:
        if self._outcome is None and self._job is not None and self._job.is_cancelled():
            self.bytes_label.setText(self.tr("Cancelling…"))
        elif self._received is None:
            self.bytes_label.setText(self.tr("Connecting…"))
        elif self._received[1]:
            done, total = self._received
            self.bytes_label.setText(self.tr("{done:.0f} of {total:.0f} MB").format(done=done / 1e6, total=total / 1e6))
        else:
            self.bytes_label.setText(self.tr("{done:.0f} MB").format(done=self._received[0] / 1e6))

    @Slot(object)
    def _on_done(self, _value: object) -> None:
        self._outcome = "done"
        self.downloaded.emit()

    @Slot(object)
    def _on_failed(self, message: str) -> None:
        self._outcome = "failed"
        self.failed.emit(message)

    @Slot()
    def _on_cancelled(self) -> None:
        self._outcome = "cancelled"
        self.cancelled.emit()

    @Slot()
    def _on_finished(self) -> None:
        self._job = None
        if self._outcome == "done":
            self.accept()
        else:
            super().reject()

    def reject(self) -> None:
        """Cancel (the button, Esc or closing the dialog): stop the download; what came is kept."""
        if self._job is None:
            super().reject()
            return
        self._job.cancel()
        self.buttons.setEnabled(False)
        self._show_received()
