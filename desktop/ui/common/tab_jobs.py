"""One way for a tab (or a dialog) to run background jobs: start with callbacks, ask what runs, cancel all.

In the spirit of git-cola's RunTask. Each job has a key ("speak", "save", …); at most one job per key
is tracked at a time. Callbacks always run on the GUI thread: the signals are connected to bound
slots of this QObject, which lives there (a plain function connected to a job's signal would run on
the job's own thread). After `cancel_all()` (the window is closing) no callback runs any more.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from PySide6.QtCore import QObject, Signal, Slot

from desktop.workers.job import Job, JobReport, JobRunner

Callback = Callable[..., None] | None


@dataclass
class _Callbacks:
    key: str
    on_result: Callback
    on_failed: Callback
    on_cancelled: Callback
    on_progress: Callback
    on_message: Callback
    on_partial: Callback


class TabJobs(QObject):
    changed = Signal()  # a job started or ended: the owner updates its buttons

    def __init__(self, runner: JobRunner, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._runner = runner
        self._jobs: dict[str, Job] = {}
        self._callbacks: dict[Job, _Callbacks] = {}
        self._closing = False

    def start(self, key: str, work: Callable[[JobReport], Any], *, on_result: Callback = None,
              on_failed: Callback = None, on_cancelled: Callback = None, on_progress: Callback = None,
              on_message: Callback = None, on_partial: Callback = None) -> Job:
        """Run work(report) on its own thread under this key; the callbacks get the job's values."""
        job = Job(work, name=key)
        job.result.connect(self._on_result)
        job.failed.connect(self._on_failed)
        job.was_cancelled.connect(self._on_cancelled)
        job.progress.connect(self._on_progress)
        job.message.connect(self._on_message)
        job.partial.connect(self._on_partial)
        job.finished.connect(self._on_finished)
        self._jobs[key] = job
        self._callbacks[job] = _Callbacks(key, on_result, on_failed, on_cancelled, on_progress,
                                          on_message, on_partial)
        self._runner.start(job)
        self.changed.emit()
        return job

    def running(self, key: str | None = None) -> bool:
        """Whether the job under key (or any job, without a key) is still running."""
        return bool(self._jobs) if key is None else key in self._jobs

    def job(self, key: str) -> Job | None:
        return self._jobs.get(key)

    def cancel(self, key: str) -> None:
        job = self._jobs.get(key)
        if job is not None:
            job.cancel()

    def cancel_all(self) -> None:
        """The owner is closing: cancel every job; no callback runs after this."""
        self._closing = True
        for job in list(self._jobs.values()):
            job.cancel()

    def _call(self, name: str, *args) -> None:
        entry = self._callbacks.get(self.sender())
        callback = getattr(entry, name, None) if entry is not None else None
        if callback is not None and not self._closing:
            callback(*args)

    @Slot(object)
    def _on_result(self, value: Any) -> None:
        self._call("on_result", value)

    @Slot(object)
    def _on_failed(self, message: Any) -> None:
        self._call("on_failed", message)

    @Slot()
    def _on_cancelled(self) -> None:
        self._call("on_cancelled")

    @Slot(float)
    def _on_progress(self, fraction: float) -> None:
        self._call("on_progress", fraction)

    @Slot(object)
    def _on_message(self, text: Any) -> None:
        self._call("on_message", text)

    @Slot(object)
    def _on_partial(self, item: Any) -> None:
        self._call("on_partial", item)

    @Slot()
    def _on_finished(self) -> None:
        job = self.sender()
        entry = self._callbacks.pop(job, None)
        if entry is not None and self._jobs.get(entry.key) is job:
            del self._jobs[entry.key]
        if not self._closing:
            self.changed.emit()
