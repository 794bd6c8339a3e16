"""Measuring how fast each model runs on this computer, as a background job: when the user asks (Tools →
Measure this computer), and once, quietly, after the first file is transcribed.

The quiet run measures only what was never measured on this machine, waits until the queue has been
idle a few seconds, and gives way at once when a new file comes in.
"""
from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from desktop.core.transcription.speed_records import SpeedRecords
from desktop.ui.common.tab_jobs import TabJobs
from desktop.workers.job import JobReport, JobRunner
from desktop.workers.transcription_queue import ItemState, TranscriptionQueue

_JOB = "measure"


class ComputerMeasurement(QObject):
    started = Signal(bool)  # a run began; True for the quiet one
    progress = Signal(float)  # 0..1 over the run
    measured = Signal(object)  # a SpeedRecord, as soon as it is kept
    finished = Signal(object)  # None when the run ended normally, else the sentence of its failure
    quiet_delay_ms = 5000  # how long the queue stays idle before the quiet run starts

    def __init__(self, store, transcriber, runner: JobRunner, records: SpeedRecords | None = None,
                 parent: QObject | None = None) -> None:
        """transcriber: asked where each engine can run (its plan()), as a transcription would be."""
        super().__init__(parent)
        self._store = store
        self._transcriber = transcriber
        self.records = records if records is not None else SpeedRecords()
        self._jobs = TabJobs(runner, self)
        self._quiet = False  # the run going on is the quiet one
        self._quiet_due = False  # a file was transcribed and the quiet run has not started yet
        self._quiet_done = False  # once per start of the app
        self._full_wanted = False  # the user asked while the quiet run was going: run in full after it
        self._timer = QTimer(self, singleShot=True, interval=self.quiet_delay_ms)
        self._timer.timeout.connect(self._start_quiet)
        self._outcome: tuple | None = None  # (failure or None,) of the run that just ended
        self._jobs.changed.connect(self._on_jobs_changed)

    @property
    def running(self) -> bool:
        return self._jobs.running(_JOB)

    def watch(self, queue: TranscriptionQueue) -> None:
        """Start the quiet run after the queue's first finished file, once the queue is idle."""
        queue.item_finished.connect(self._on_item_finished)
        queue.idle.connect(self._on_queue_idle)
        queue.item_added.connect(self._on_work_added)

    def start(self) -> None:
        """Measure every model on this computer again (Tools → Measure this computer)."""
        self._timer.stop()
        if self.running:
            if self._quiet:
                self._full_wanted = True
                self._jobs.cancel(_JOB)
            return
        self._run(quiet=False)

    def shutdown(self) -> None:
        self._timer.stop()
        self._jobs.cancel_all()

    # -- the quiet run -------------------------------------------------------------------------

    @Slot(object)
    def _on_item_finished(self, item) -> None:
        if item.state is ItemState.DONE and not self._quiet_done:
            self._quiet_due = True

    @Slot()
    def _on_queue_idle(self) -> None:
        if self._quiet_due and not self.running:
            self._timer.start(self.quiet_delay_ms)

    @Slot(object)
    def _on_work_added(self, _item) -> None:
        self._timer.stop()
        if self.running and self._quiet:
            self._jobs.cancel(_JOB)  # the user's file comes first; the quiet run tries again when idle

    @Slot()
    def _start_quiet(self) -> None:
        if self._quiet_due and not self.running:
            self._run(quiet=True)

    # -- the job -------------------------------------------------------------------------------

    def _run(self, quiet: bool) -> None:
        from desktop.engines.transcription.computer_measurement import devices_of, measure_computer

        store, transcriber, records = self._store, self._transcriber, self.records

        def work(report: JobReport) -> None:
            measure_computer(store, records, devices_of(transcriber), only_missing=quiet,
                             on_progress=report.progress, on_record=report.partial, cancelled=report.cancelled)

        self._quiet = quiet
        self._jobs.start(_JOB, work, on_result=self._on_done, on_failed=self._on_failed,
                         on_cancelled=self._on_cancelled, on_progress=self.progress.emit,
                         on_partial=self.measured.emit)
        self.started.emit(quiet)

    def _on_done(self, _result) -> None:
        self._ended(None)

    def _on_failed(self, message) -> None:
        self._ended(message)

    def _on_cancelled(self) -> None:
        self._ended(None, cancelled=True)

    def _ended(self, failure, cancelled: bool = False) -> None:
        if self._quiet and not cancelled:
            self._quiet_due, self._quiet_done = False, True  # once; a failure is not retried in the background
        self._outcome = (failure,)

    @Slot()
    def _on_jobs_changed(self) -> None:
        """The job is off the list now: say it ended, or start the full run the user asked for meanwhile."""
        if self.running or self._outcome is None:
            return
        (failure,), self._outcome = self._outcome, None
        if self._full_wanted:
            self._full_wanted = False
            self._run(quiet=False)
        else:
            self.finished.emit(failure)
