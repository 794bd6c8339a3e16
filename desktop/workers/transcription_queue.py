"""Runs the queued files one at a time through the Transcriber, each on a JobRunner thread.

The Transcriber keeps its model loaded between files. Everything that could make the window wait —
reading file lengths, checking which model is on disk (that asks torch about the GPU), transcribing,
releasing the model — happens inside jobs; this object only reacts to their signals on the GUI thread.
"""
from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Callable

from PySide6.QtCore import QObject, Signal, Slot

from desktop.core.common.i18n import N_
from desktop.core.transcription.stages import Stage
from desktop.core.transcription.transcript import Segment, Transcript
from desktop.workers.job import Job, JobReport, JobRunner

log = logging.getLogger(__name__)


class ItemState(Enum):
    WAITING = "waiting"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    CANCELLED = "cancelled"


def same_file_key(path: Path | str) -> str:
    """Two paths name the same file when they resolve to the same place (links and '..' included)."""
    return os.path.normcase(os.path.realpath(os.fspath(path)))


@dataclass(eq=False)  # identity, not value: two rows are never the same item
class QueueItem:
    path: Path
    duration: float | None = None  # seconds; None until read
    state: ItemState = ItemState.WAITING
    progress: float = 0.0  # 0..1
    stage: Stage | None = None  # the stage of a running file; None until the transcriber names the first
    # The latest status line while running, or the sentence saying why it failed; a core Message
    # stays one, so the table shows it in the interface language (also after a switch).
    status: str = ""
    started: float | None = None  # time.monotonic() when the current run began
    finished: float | None = None
    segments: list[Segment] = field(default_factory=list)  # as they arrive while running
    transcript: Transcript | None = None
    cancelling: bool = False
    # Why the recording may no longer match a transcript saved earlier (moved, replaced); "" if it does.
    source_problem: str = ""
    # The model it failed for, not being on this computer; it starts again once the model is here.
    missing_model: str | None = None

    def __post_init__(self) -> None:
        self.key = same_file_key(self.path)

    @property
    def elapsed(self) -> float | None:
        if self.started is None:
            return None
        end = self.finished if self.finished is not None else time.monotonic()
        return max(0.0, end - self.started)

    @property
    def time_left(self) -> float | None:
        """Estimated from the pace so far; None until there is enough progress to judge."""
        if self.state is not ItemState.RUNNING or self.progress < 0.02:
            return None
        return (self.elapsed or 0.0) * (1.0 - self.progress) / self.progress


@dataclass(frozen=True)
class NeedsModel:
    """A job's answer when the chosen model must be downloaded before it can run."""

    name: str
    format: str


@dataclass(frozen=True)
class _Note:
    """Something worth telling the user that is not a segment (e.g. a slow path was taken)."""

    text: str


@dataclass(frozen=True)
class _StageEntered:
    """The running file entered a stage (desktop.core.transcription.stages)."""

    stage: Stage


@dataclass(frozen=True)
class _FileLength:
    """A file's length in seconds, or why it could not be read."""

    path: Path
    duration: float | None
    error: str | None


class TranscriptionQueue(QObject):
    """The queue of files and the worker side of it: starts, cancels and retries transcriptions.

    Owns no widgets; a table model mirrors the items through the signals below.
    """

    item_added = Signal(object)  # QueueItem appended at the end
    item_removed = Signal(object)  # QueueItem taken off the list
    item_changed = Signal(object)  # QueueItem whose state, progress, status or length changed
    segment_added = Signal(object)  # QueueItem whose live segment list just grew by one
    item_finished = Signal(object)  # QueueItem that is done, failed or cancelled
    model_needed = Signal(str, str)  # (name, format) to download; answer with model_ready()/model_unavailable()
    model_released = Signal()
    notice = Signal(object)  # a sentence for the status bar (str, or a core Message)
    idle = Signal()  # nothing running and nothing waiting

    def __init__(
        self,
        transcriber,
        runner: JobRunner,
        next_settings: Callable[[], object],
        parent: QObject | None = None,
    ):
        """transcriber: a desktop.engines.transcription.transcriber.Transcriber; next_settings returns
        the TranscribeSettings for the next file, read when that file starts."""
        super().__init__(parent)
        self._transcriber = transcriber
        self._runner = runner
        self._next_settings = next_settings
        self._items: list[QueueItem] = []
        self._current: tuple[Job, QueueItem] | None = None
        self._releasing: Job | None = None
        self._release_pending = False
        self._waiting_for_model = False
        self._model_waited_for: str | None = None  # the model whose download the waiting files need
        self._stopped = False
        self._held = False  # restored files wait for the user before they start
        self._length_jobs: set[Job] = set()

    @property
    def items(self) -> list[QueueItem]:
        return list(self._items)

    def with_state(self, *states: ItemState) -> list[QueueItem]:
        return [item for item in self._items if item.state in states]

    @property
    def busy(self) -> bool:
        """True while a file is being transcribed or the model is being released."""
        return self._current is not None or self._releasing is not None

    @property
    def held(self) -> bool:
        """True while files restored from an earlier session wait for resume() (or new files)."""
        return self._held and bool(self.with_state(ItemState.WAITING))

    @property
    def current(self) -> QueueItem | None:
        return self._current[1] if self._current else None

    # -- adding --------------------------------------------------------------------------------

    def add(self, paths: list[Path]) -> list[QueueItem]:
        """Queue files (a file already on the list is queued once), read their lengths, start."""
        seen = {item.key for item in self._items}
        added: list[QueueItem] = []
        for path in paths:
            item = QueueItem(path=Path(path))
            if item.key in seen:
                continue
            seen.add(item.key)
            self._items.append(item)
            added.append(item)
            self.item_added.emit(item)
        if added:
            self._read_lengths(added)
            self.resume()
        return added

    def restore(self, item: QueueItem) -> None:
        """Append an item as it was saved (done with its transcript, failed, waiting…) without starting
        anything: a waiting one runs once the user asks (resume) or adds files."""
        if item.state is ItemState.WAITING:
            self._held = True
        self._items.append(item)
        self.item_added.emit(item)
        if item.duration is None and item.path.exists():
            self._read_lengths([item])

    def resume(self) -> None:
        """Start the waiting files, restored ones included."""
        was_held, self._held = self.held, False
        if was_held:
            for item in self.with_state(ItemState.WAITING):
                self.item_changed.emit(item)  # no longer held: rows and buttons follow
        self._start_next()

    def _read_lengths(self, items: list[QueueItem]) -> None:
        paths = [item.path for item in items]

        def work(report: JobReport) -> None:
            from desktop.core.common import audio
            from desktop.core.common.errors import UserFacingError

            for path in paths:
                if report.cancelled():
                    return
                try:
                    report.partial(_FileLength(path, audio.probe(path).duration, None))
                except UserFacingError as error:
                    report.partial(_FileLength(path, None, error.message))
                except Exception:  # noqa: BLE001 - a length is a nicety; the transcription reports errors
                    log.exception("could not read the length of %s", path)

        job = Job(work, name="read file lengths")
        job.partial.connect(self._on_length_read)
        job.finished.connect(self._on_length_job_finished)
        self._length_jobs.add(job)
        self._runner.start(job)

    @Slot(object)
    def _on_length_read(self, length: _FileLength) -> None:
        for item in self._items:
            if item.path != length.path:
                continue
            if length.duration is not None:
                item.duration = length.duration
            elif length.error and item.state is ItemState.WAITING:
                # The transcription would stop with the same sentence: say it now and skip the file.
                item.state, item.status = ItemState.FAILED, length.error
                self.item_finished.emit(item)
            self.item_changed.emit(item)
        self._check_idle()

    @Slot()
    def _on_length_job_finished(self) -> None:
        self._length_jobs.discard(self.sender())

    # -- user actions --------------------------------------------------------------------------

    def cancel(self, items: list[QueueItem]) -> None:
        for item in items:
            if item.state is ItemState.WAITING:
                item.state = ItemState.CANCELLED
                self.item_changed.emit(item)
                self.item_finished.emit(item)
            elif item.state is ItemState.RUNNING and self._current and self._current[1] is item:
                item.cancelling = True
                self._current[0].cancel()
                self.item_changed.emit(item)
        self._check_idle()

    def cancel_all(self) -> None:
        # Waiting files first, so that the next one does not start once the running one stops.
        self.cancel(self.with_state(ItemState.WAITING) + self.with_state(ItemState.RUNNING))

    def retry(self, items: list[QueueItem]) -> None:
        """Queue failed or cancelled files again."""
        for item in items:
            if item.state in (ItemState.FAILED, ItemState.CANCELLED):
                self._reset(item)
        self.resume()

    def retry_failed(self) -> None:
        self.retry(self.with_state(ItemState.FAILED))

    def retry_missing_model(self, name: str) -> list[QueueItem]:
        """Start again the files that failed because the model ``name`` was not on this computer (it is
        now); the files started."""
        items = [item for item in self.with_state(ItemState.FAILED) if item.missing_model == name]
        self.retry(items)
        return items

    def remove(self, items: list[QueueItem]) -> None:
        """Take files off the list; one still running is cancelled first."""
        self.cancel([item for item in items if item.state is ItemState.RUNNING])
        for item in items:
            if item in self._items:
                self._items.remove(item)
                self.item_removed.emit(item)
        self._check_idle()

    def release_model(self) -> None:
        """Free the loaded model (after a change of model, engine or device), on a worker thread."""
        self._release_pending = True
        self._start_next()

    def model_ready(self) -> None:
        """The model asked for by model_needed is on disk now: carry on."""
        self._waiting_for_model = False
        self._start_next()

    @Slot(object)
    def model_unavailable(self, reason: str | None) -> None:
        """The download failed (reason) or was cancelled (None): the waiting files cannot run."""
        self._waiting_for_model = False
        for item in self.with_state(ItemState.WAITING):
            if reason:
                item.state, item.status = ItemState.FAILED, reason
                item.missing_model = self._model_waited_for
            else:
                item.state = ItemState.CANCELLED
            self.item_changed.emit(item)
            self.item_finished.emit(item)
        self._check_idle()

    def shutdown(self) -> None:
        """Stop for good (the window is closing): cancel everything, start nothing new."""
        self._stopped = True
        self.cancel_all()
        for job in list(self._length_jobs):
            job.cancel()

    # -- running -------------------------------------------------------------------------------

    def _reset(self, item: QueueItem) -> None:
        item.state, item.status, item.progress, item.stage = ItemState.WAITING, "", 0.0, None
        item.started = item.finished = None
        item.segments, item.transcript, item.cancelling = [], None, False
        item.missing_model = None
        self.item_changed.emit(item)

    def _start_next(self) -> None:
        """Start the next step if nothing runs: a pending model release first, then the next file."""
        if self._stopped or self.busy or self._waiting_for_model:
            return
        if self._release_pending:
            self._start_release()
            return
        if self.held:
            return
        item = next((item for item in self._items if item.state is ItemState.WAITING), None)
        if item is not None:
            self._start(item)

    def _start_release(self) -> None:
        self._release_pending = False
        transcriber = self._transcriber

        def work(report: JobReport) -> None:
            transcriber.release()

        job = Job(work, name="release the model")
        job.finished.connect(self._on_release_finished)
        self._releasing = job
        self._runner.start(job)

    @Slot()
    def _on_release_finished(self) -> None:
        self._releasing = None
        self.model_released.emit()
        self._start_next()
        self._check_idle()

    def _start(self, item: QueueItem) -> None:
        settings = self._next_settings()
        transcriber = self._transcriber
        path = item.path

        def work(report: JobReport) -> Transcript | NeedsModel:
            # Asking which model is on disk may import torch to look for a GPU: it belongs here.
            missing = transcriber.missing_model(settings)
            if missing:
                return NeedsModel(*missing)
            return transcriber.transcribe_file(
                path,
                settings,
                on_progress=report.progress,
                on_segment=report.partial,
                on_status=report.message,
                on_note=lambda text: report.partial(_Note(text)),
                on_stage=lambda stage: report.partial(_StageEntered(stage)),
                cancelled=report.cancelled,
            )

        item.state, item.status, item.progress = ItemState.RUNNING, N_("TranscriptionQueue", "Starting…"), 0.0
        item.stage = None
        item.started, item.finished = time.monotonic(), None
        item.segments, item.transcript, item.cancelling = [], None, False
        item.missing_model = None
        self.item_changed.emit(item)

        job = Job(work, name=f"transcribe {path.name}")
        # Bound slots of this GUI-thread object: Qt queues every call back to the GUI thread.
        job.progress.connect(self._on_progress)
        job.message.connect(self._on_message)
        job.partial.connect(self._on_partial)
        job.result.connect(self._on_result)
        job.failed.connect(self._on_failed)
        job.was_cancelled.connect(self._on_cancelled)
        job.finished.connect(self._on_finished)
        self._current = (job, item)
        self._runner.start(job)

    def _item_of_sender(self) -> QueueItem | None:
        """The item of the job whose signal is being handled."""
        if self._current and self._current[0] is self.sender():
            return self._current[1]
        return None

    @Slot(float)
    def _on_progress(self, fraction: float) -> None:
        item = self._item_of_sender()
        if item is not None:
            item.progress = fraction
            self.item_changed.emit(item)

    @Slot(object)
    def _on_message(self, text: str) -> None:
        item = self._item_of_sender()
        if item is not None:
            item.status = text
            self.item_changed.emit(item)

    @Slot(object)
    def _on_partial(self, value: object) -> None:
        item = self._item_of_sender()
        if item is None:
            return
        if isinstance(value, Segment):
            item.segments.append(value)
            self.segment_added.emit(item)
        elif isinstance(value, _Note):
            self.notice.emit(value.text)
        elif isinstance(value, _StageEntered):
            item.stage = value.stage
            self.item_changed.emit(item)

    @Slot(object)
    def _on_result(self, value: object) -> None:
        item = self._item_of_sender()
        if item is None:
            return
        if isinstance(value, NeedsModel):
            # Back in line until the model is on disk; the window offers the download.
            self._reset(item)
            self._waiting_for_model = True
            self._model_waited_for = value.name
            self.model_needed.emit(value.name, value.format)
            return
        transcript: Transcript = value
        if transcript.source is None:
            transcript.source = str(item.path)
        item.transcript = transcript
        item.segments = transcript.segments
        item.state, item.progress, item.status = ItemState.DONE, 1.0, ""
        self._finish(item)

    @Slot(object)
    def _on_failed(self, message: str) -> None:
        item = self._item_of_sender()
        if item is not None:
            item.state, item.status = ItemState.FAILED, message
            self._finish(item)

    @Slot()
    def _on_cancelled(self) -> None:
        item = self._item_of_sender()
        if item is not None:
            item.state, item.status = ItemState.CANCELLED, ""
            self._finish(item)

    def _finish(self, item: QueueItem) -> None:
        item.finished = time.monotonic()
        item.cancelling = False
        self.item_changed.emit(item)
        self.item_finished.emit(item)

    @Slot()
    def _on_finished(self) -> None:
        if self._current and self._current[0] is self.sender():
            self._current = None
        self._start_next()
        self._check_idle()

    def _check_idle(self) -> None:
        if not self.busy and not self._waiting_for_model and (self.held or not self.with_state(ItemState.WAITING)):
            self.idle.emit()
