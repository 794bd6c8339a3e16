"""Live captions as one background job: load the model, run the session until Stop, hand back the result.

The job's thread loads the model and then waits for Stop (or for the device to go away) while the
session's own threads capture and decode; lines reach the window as the job's partial values, on
the GUI thread. Stop is an event of its own rather than the job's cancel flag, because a stopped
session has a result: the recording and its lines.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, Signal, Slot

from desktop.core.common.i18n import N_
from desktop.core.transcription.live_lines import CommittedLine
from desktop.workers.job import Job, JobReport, JobRunner


@dataclass(frozen=True)
class _Tentative:
    text: str


@dataclass(frozen=True)
class _Problem:
    text: str


@dataclass(frozen=True)
class _Warning:
    text: str


@dataclass(frozen=True)
class _NeedsModel:
    name: str
    format: str


@dataclass(frozen=True)
class _Listening:
    recording: object  # the Path of the FLAC file being written


class LiveCaptions(QObject):
    """Start and stop one live session at a time; tell the window what happens through signals."""

    status = Signal(object)  # a sentence about the step being done (loading, listening)
    listening = Signal(object)  # the session runs; the Path of its recording
    committed = Signal(object)  # a CommittedLine
    tentative = Signal(str)  # the changing line ("" when none)
    problem = Signal(object)  # a sentence: the device went away, the model failed
    warning = Signal(object)  # a sentence about the captions, which go on (the model may not know the language)
    stopped = Signal(object)  # the LiveResult, once everything captured is written and captioned
    failed = Signal(object)  # a sentence: the session could not start (no device, no model)
    model_needed = Signal(str, str)  # (name, format): the model must be downloaded first; nothing started
    finished = Signal()  # the session is over, whatever happened

    def __init__(self, runner: JobRunner, store, fallback_log, parent: QObject | None = None):
        super().__init__(parent)
        self._runner = runner
        self._store = store
        self._fallback_log = fallback_log
        self._job: Job | None = None
        self._stop: threading.Event | None = None

    @property
    def running(self) -> bool:
        return self._job is not None

    def start(self, settings, device, options, *, folder: Path | None = None, title: str | None = None) -> None:
        """settings: TranscribeSettings (model, engine, device choice); options: LiveOptions; folder and
        title: where the recording goes and the words its name starts with (None: the session's own)."""
        if self._job is not None:
            return
        stop = threading.Event()
        store, fallback_log = self._store, self._fallback_log

        def work(report: JobReport):
            from desktop.engines.transcription.live.engine import load_live_engine, missing_model
            from desktop.engines.transcription.live.session import LiveSession

            missing = missing_model(store, settings, fallback_log)
            if missing:
                return _NeedsModel(*missing)
            report.message(N_("LiveCaptions", "Loading the {model} model…").format(model=settings.model))
            engine = load_live_engine(store, settings, fallback_log)
            try:
                named = {"folder": folder} if folder is not None else {}
                if title is not None:
                    named["title"] = title
                session = LiveSession(engine, options, device=device, **named,
                                      on_commit=report.partial,
                                      on_tentative=lambda text: report.partial(_Tentative(text)),
                                      on_warning=lambda text: report.partial(_Warning(text)),
                                      on_problem=lambda text: (report.partial(_Problem(text)), stop.set()))
                session.start()
                report.partial(_Listening(session.recording_path))
                # The window closing cancels the job: the session stops the same way as with Stop.
                while not stop.wait(0.25) and not session.ended and not report.cancelled():
                    pass
                return session.stop()
            finally:
                engine.close()

        job = Job(work, name="live captions")
        job.message.connect(self.status)
        job.partial.connect(self._on_partial)
        job.result.connect(self._on_result)
        job.failed.connect(self.failed)
        job.finished.connect(self._on_finished)
        self._job, self._stop = job, stop
        self._runner.start(job)

    def stop(self) -> None:
        """Stop listening; `stopped` follows once the last audio is written and captioned."""
        if self._stop is not None:
            self._stop.set()

    @Slot(object)
    def _on_result(self, value: object) -> None:
        if isinstance(value, _NeedsModel):
            self.model_needed.emit(value.name, value.format)
        else:
            self.stopped.emit(value)

    @Slot(object)
    def _on_partial(self, value: object) -> None:
        if isinstance(value, CommittedLine):
            self.committed.emit(value)
        elif isinstance(value, _Tentative):
            self.tentative.emit(value.text)
        elif isinstance(value, _Problem):
            self.problem.emit(value.text)
        elif isinstance(value, _Warning):
            self.warning.emit(value.text)
        elif isinstance(value, _Listening):
            self.listening.emit(value.recording)

    @Slot()
    def _on_finished(self) -> None:
        self._job, self._stop = None, None
        self.finished.emit()
