"""One contract for every background job, and one place that starts and stops their threads.

A job is a plain callable `run(report: JobReport) -> result` written without Qt. `Job` wraps it in a
QObject living on its own QThread: progress, messages and the result travel back to the GUI thread as
signals; every exception becomes `failed(sentence)` with a sentence the user can act on. Cancelling
sets a flag the callable checks at its next boundary (segment, sentence, chunk); threads are never
terminated. Sentences (`message`, `failed`) travel as Python objects, not Qt strings, so a core Message
reaches the window whole and is shown in the interface language there.
"""
from __future__ import annotations

import logging
import threading
import traceback
from typing import Any, Callable

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject, QThread, Signal, Slot

from desktop.core.common.errors import Cancelled, UserFacingError
from desktop.core.common.i18n import N_

log = logging.getLogger(__name__)

UNEXPECTED_ERROR = N_("Job", "Something went wrong that VoxDesk did not expect. The details are in the log file.")


class JobReport:
    """What a running job can tell the window, from any thread."""

    def __init__(self, job: "Job"):
        self._job = job

    def progress(self, fraction: float) -> None:
        self._job.progress.emit(max(0.0, min(1.0, float(fraction))))

    def message(self, text: str) -> None:
        self._job.message.emit(text)

    def partial(self, item: Any) -> None:
        """Something made along the way (a segment, a sentence of audio)."""
        self._job.partial.emit(item)

    def cancelled(self) -> bool:
        return self._job.is_cancelled()


def wait_cancellably(work: Callable[[], Any], cancelled: Callable[[], bool], poll_s: float = 0.05) -> Any:
    """work() run on a helper thread while the job waits for it: its value, or its exception raised here;
    Cancelled as soon as cancelled() says so, even while work() goes on. For pure-Python work without Qt
    that may not look at the cancel flag often (a file parsed by a library): the job's QThread ends when
    the window closes instead of holding it up, and the helper, a daemon thread, ends by itself or with
    the process, its value dropped."""
    done = threading.Event()
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = work()
        except BaseException as error:  # noqa: BLE001 - handed to the waiting job, which judges it
            outcome["error"] = error
        finally:
            done.set()

    threading.Thread(target=run, name="job helper", daemon=True).start()
    while not done.wait(poll_s):
        if cancelled():
            raise Cancelled()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


class Job(QObject):
    progress = Signal(float)
    message = Signal(object)  # a sentence (str, or a core Message) about the step being done
    partial = Signal(object)
    result = Signal(object)
    failed = Signal(object)  # the sentence (str, or a core Message) saying what went wrong
    was_cancelled = Signal()
    finished = Signal()  # always last, whatever the outcome

    def __init__(self, work: Callable[[JobReport], Any], name: str = "job"):
        super().__init__()
        self._work = work
        self._cancel = threading.Event()
        self.name = name

    def cancel(self) -> None:
        self._cancel.set()

    def is_cancelled(self) -> bool:
        return self._cancel.is_set()

    @Slot()
    def run(self) -> None:
        try:
            value = self._work(JobReport(self))
        except Cancelled:
            self.was_cancelled.emit()
        except UserFacingError as error:
            log.warning("%s failed: %s (%s)", self.name, error.message, error.detail or "")
            self.failed.emit(error.message)
        except Exception:  # noqa: BLE001 - the worker boundary: nothing may escape into Qt
            log.error("%s crashed:\n%s", self.name, traceback.format_exc())
            self.failed.emit(UNEXPECTED_ERROR)
        else:
            if self.is_cancelled():
                self.was_cancelled.emit()
            else:
                self.result.emit(value)
        finally:
            self.finished.emit()


class JobRunner(QObject):
    """Starts jobs on their own threads and shuts them all down cleanly.

    Keeps a reference to each running job and thread until it finishes, so neither is collected
    while it runs.
    """

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._running: dict[Job, QThread] = {}

    def start(self, job: Job) -> Job:
        thread = QThread()
        thread.setObjectName(job.name)
        job.moveToThread(thread)
        thread.started.connect(job.run)
        job.finished.connect(thread.quit)
        # A bound slot of this GUI-thread object: Qt queues the call back to the GUI thread.
        thread.finished.connect(self._on_thread_finished)
        self._running[job] = thread
        thread.start()
        return job

    @Slot()
    def _on_thread_finished(self) -> None:
        thread = self.sender()
        for job, running in list(self._running.items()):
            if running is thread:
                del self._running[job]
                thread.wait()
                thread.deleteLater()
                job.deleteLater()

    @property
    def busy(self) -> bool:
        return bool(self._running)

    def shutdown(self, timeout_ms: int = 10000) -> bool:
        """Cancel every job and wait for its thread; True when all stopped in time."""
        for job in list(self._running):
            job.cancel()
        stopped = True
        for job, thread in list(self._running.items()):
            thread.quit()
            stopped = thread.wait(timeout_ms) and stopped
        return stopped


_application_runner: JobRunner | None = None


def application_runner() -> JobRunner:
    """A runner that lives as long as the application and stops its jobs when it quits.

    For a dialog that is not handed the composition root's runner: a runner owned by the dialog would
    be destroyed with it while a job (a check, a connection test) may still be running.
    """
    global _application_runner
    if _application_runner is None or not shiboken6.isValid(_application_runner):
        app = QCoreApplication.instance()
        _application_runner = JobRunner(app)
        if app is not None:
            app.aboutToQuit.connect(_application_runner.shutdown)
    return _application_runner
