"""The Transcribe tab's work, kept as the user goes: the queue, each transcript and each correction.

SavedWork mirrors the transcription queue into the autosave store (one small write per change) and
puts the saved queue back at the next start. Done files come back done with their transcripts and
corrections. Files that were waiting or running come back waiting and do not start on their own: a
transcription takes the computer's full attention (and may want a model downloaded), so it starts
when the user presses Start or adds files, not behind their back when the window opens.

Changes are written and the saved work is read by a thread of their own, one job after another in
the order they were asked for, so the window never waits on the disk, or on another VoxDesk window that
holds the saved work: a read sees every change made before it, and its answer comes back to the
window's thread (`_deliver`). Recent transcripts are read again whenever the writes pause, so the menu
lists them at once.

A change that cannot be saved is said in a sentence (`problem`); the work in the window goes on.
"""
from __future__ import annotations

import dataclasses
import logging
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Callable

from PySide6.QtCore import QObject, Qt, Signal, Slot

from desktop.core.common.i18n import N_
from desktop.core.transcription.autosave import AutosaveError, AutosaveStore, SavedItem
from desktop.core.transcription.source_fingerprint import SourceState
from desktop.core.transcription.transcript import Transcript
from desktop.workers.transcription_queue import ItemState, QueueItem, TranscriptionQueue

log = logging.getLogger(__name__)

_RESTORED_STATES = {ItemState.FAILED.value: ItemState.FAILED, ItemState.CANCELLED.value: ItemState.CANCELLED}


@dataclasses.dataclass
class _SavedRow:
    """What the saved work knows of one row of the queue, kept together so nothing gets out of step."""
    store_id: Future  # the row's id in the store, once its first write ran (None in it: adding failed)
    status: tuple[ItemState, str]  # the state last saved
    revision: int = 0  # edits asked to be saved, as the store counts them
    exporting: int | None = None  # the revision of the export being written now
    # The newest whole transcript waiting to be saved, and how many edits it holds (under the lock).
    pending: tuple[Transcript, int] | None = None


class SavedWork(QObject):
    problem = Signal(str)  # a sentence: a change could not be saved, or saved work could not be read
    restored = Signal(list)  # the saved queue is back; the QueueItems with corrections never exported
    _failed = Signal(str)  # the same as problem, from the saving thread
    _deliver = Signal(object)  # a callable to run on the window's thread: the answer of a read

    def __init__(self, store: AutosaveStore, queue: TranscriptionQueue, parent: QObject | None = None):
        super().__init__(parent)
        self._store = store
        self._queue = queue
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="autosave")
        self._rows: dict[QueueItem, _SavedRow] = {}  # the rows listed, once added or restored
        self._recent: list[SavedItem] = []  # Recent transcripts as last read
        self._jobs_asked = 0  # jobs given to the saving thread, to know when it has caught up
        self._pending_lock = threading.Lock()  # guards _SavedRow.pending, read on the saving thread
        self._stopped = False
        self.is_restored = False
        self._failed.connect(self.problem, Qt.ConnectionType.QueuedConnection)
        self._deliver.connect(lambda answer: answer(), Qt.ConnectionType.QueuedConnection)
        queue.item_added.connect(self._on_added)
        queue.item_changed.connect(self._on_changed)

    # -- bringing work back --------------------------------------------------------------------

    def restore(self) -> None:
        """Put the queue saved last time back, in its order; ``restored`` says when it is."""
        def read() -> tuple[list[tuple[SavedItem, Transcript | None]], set[int]]:
            queue = [(saved, self._read_transcript(saved)) for saved in self._try(self._store.queue, failed=[])]
            return queue, {saved.id for saved in self._try(self._store.unexported_edits, failed=[])}

        def put_back(answer: tuple[list[tuple[SavedItem, Transcript | None]], set[int]]) -> None:
            queue, unexported = answer
            if self._stopped:
                return
            items = [(saved.id, self._restore(saved, transcript)) for saved, transcript in queue]
            self.is_restored = True
            self.restored.emit([item for item_id, item in items if item_id in unexported])
        self._read(read, put_back)

    def recent(self) -> list[SavedItem]:
        """Saved transcripts, the most recently changed first, as read when the saving last caught up."""
        return list(self._recent)

    def reopen(self, saved: SavedItem, then: Callable[[QueueItem], None]) -> None:
        """A transcript from recent(): ``then`` gets its row when it is listed already, else once it is
        listed again (nothing when that fails, which is said)."""
        for item, row in self._rows.items():
            if row.store_id.done() and row.store_id.result() == saved.id:
                then(item)
                return

        def read() -> tuple[bool, Transcript | None]:
            if self._try(self._store.enqueue, saved.id, failed=False) is False:
                return False, None
            return True, self._read_transcript(saved)

        def put_back(answer: tuple[bool, Transcript | None]) -> None:
            listed, transcript = answer
            if listed and not self._stopped:
                then(self._restore(saved, transcript))
        self._read(read, put_back)

    def _read_transcript(self, saved: SavedItem) -> Transcript | None:
        return self._try(self._store.transcript, saved.id) if saved.has_transcript else None

    def _restore(self, saved: SavedItem, transcript: Transcript | None) -> QueueItem:
        item = QueueItem(path=saved.source)
        if transcript is not None:
            item.state, item.progress = ItemState.DONE, 1.0
            item.transcript, item.segments = transcript, transcript.segments
            item.source_problem = _source_problem(saved)
        elif saved.status in _RESTORED_STATES:
            item.state, item.status = _RESTORED_STATES[saved.status], saved.message
        self._rows[item] = _SavedRow(_known(saved.id), _status_of(item), saved.revision)
        self._queue.restore(item)
        return item

    # -- saving as the user goes ---------------------------------------------------------------

    @Slot(object)
    def _on_added(self, item: QueueItem) -> None:
        if self._stopped or item in self._rows:
            return
        path, state = item.path, item.state.value
        self._rows[item] = _SavedRow(self._write(lambda: self._try(self._store.add_item, path, state)),
                                     _status_of(item))

    @Slot(object)
    def _on_changed(self, item: QueueItem) -> None:
        status = _status_of(item)
        row = self._rows.get(item)
        if self._stopped or row is None or row.status == status:
            return
        row.status = status
        transcript = _snapshot(item.transcript) if item.state is ItemState.DONE else None

        def save(item_id: int) -> None:
            if transcript is not None:  # the transcript first: a file saved as done always has one
                self._try(self._store.save_transcript, item_id, transcript)
            self._try(self._store.set_status, item_id, status[0].value, status[1])
        if transcript is not None:
            row.revision = 0
        self._write_item(item, save)

    def save_opened_transcript(self, item: QueueItem, copy: Transcript | None = None) -> None:
        """item was listed done with a transcript it did not get from transcribing (subtitles opened);
        copy: one equal to it made off the window's thread (copying 150,000 lines here took a minute)."""
        if self._stopped or item not in self._rows or item.transcript is None:
            return
        transcript = copy if copy is not None else _snapshot(item.transcript)
        self._write_item(item, lambda item_id: self._try(self._store.save_transcript, item_id, transcript))

    def save_whole(self, item: QueueItem) -> None:
        """item's transcript changed as a whole (lines split, merged, inserted, deleted; an undo)."""
        row = self._rows.get(item)
        if self._stopped or row is None or item.transcript is None:
            return
        transcript = item.transcript.snapshot()
        row.revision += 1
        with self._pending_lock:
            waiting = row.pending
            # Edits made while the one before is still waiting to be saved are saved with it, as the
            # newest copy: typing fast writes the transcript as often as the disk keeps up, not per key.
            row.pending = (transcript, (waiting[1] if waiting else 0) + 1)
        if waiting is None:
            item_id = row.store_id

            def save_newest() -> None:  # on the saving thread, after item's earlier writes
                with self._pending_lock:
                    (newest, edits), row.pending = row.pending, None
                if item_id.result() is not None:
                    self._try(self._store.save_edited_transcript, item_id.result(), newest, edits)
            self._write(save_newest)

    def revision(self, item: QueueItem) -> int | None:
        """How many corrections of item were made: what an export made now contains (the store counts
        no further than the corrections it could save)."""
        row = self._rows.get(item)
        return None if row is None else row.revision

    def export_started(self, item: QueueItem) -> None:
        """An export of item's transcript as it is now begins: it holds the corrections made so far."""
        row = self._rows.get(item)
        if row is not None:
            row.exporting = row.revision

    def mark_exported(self, item: QueueItem) -> None:
        """The export begun last for item was written."""
        row = self._rows.get(item)
        if not self._stopped and row is not None:
            revision, row.exporting = row.exporting, None
            self._write_item(item, lambda item_id: self._try(self._store.mark_exported, item_id, revision))

    def forget(self, items: list[QueueItem], keep_transcripts: bool) -> None:
        """Items taken off the list: their saved transcripts are kept for Recent transcripts, or deleted."""
        for item in items:
            row = self._rows.pop(item, None)
            item_id = None if row is None else row.store_id
            if item_id is not None and not self._stopped:
                self._write(lambda item_id=item_id: item_id.result() is not None
                            and self._try(self._store.remove, item_id.result(), keep_transcripts))

    def stop(self) -> None:
        """The window is closing: the changes made so far reach the disk, later ones are not saved (a
        running file comes back waiting)."""
        self._stopped = True
        self._writer.shutdown(wait=True)

    # -- the saving thread ---------------------------------------------------------------------

    def _write(self, job: Callable[[], object]) -> Future:
        self._jobs_asked += 1
        asked = self._jobs_asked

        def guarded() -> object:
            try:
                return job()
            except Exception:  # noqa: BLE001 - a bug here must not stop the saves after it
                log.exception("autosave: a change could not be saved")
                return None
            finally:
                if asked == self._jobs_asked:  # caught up: what Recent transcripts lists may have changed
                    self._read_recent()
        return self._writer.submit(guarded)

    def _read(self, job: Callable[[], object], then: Callable[[object], None]) -> None:
        """``job`` on the saving thread after the writes asked before it; ``then`` gets its answer on the
        window's thread."""
        def read() -> None:
            answer = job()
            self._deliver.emit(lambda: then(answer))
        self._write(read)

    def _read_recent(self) -> None:
        recent = self._try(self._store.recent, 10, failed=None)
        if recent is not None:
            self._deliver.emit(lambda: setattr(self, "_recent", recent))

    def _write_item(self, item: QueueItem, job: Callable[[int], None]) -> None:
        """``job`` with item's id, after item's earlier writes (nothing when adding it failed)."""
        item_id = self._rows[item].store_id

        def run() -> None:
            known = item_id.result()  # already there: the writes run in the order they were asked for
            if known is not None:
                job(known)
        self._write(run)

    def _try(self, method, *args, failed=None):
        """The store's answer, or `failed` when it could not do it (said as a problem)."""
        try:
            return method(*args)
        except AutosaveError as error:
            log.warning("autosave: %s (%s)", error.message, error.detail)
            self._failed.emit(error.message)
        except KeyError as error:  # the item was removed from the saved work meanwhile (another window)
            log.warning("autosave: %s", error)
        return failed


def _snapshot(transcript: Transcript | None) -> Transcript | None:
    """A copy the writing thread can read while the user goes on editing the original."""
    return None if transcript is None else transcript.snapshot()


def _known(item_id: int) -> Future:
    done: Future = Future()
    done.set_result(item_id)
    return done


def _status_of(item: QueueItem) -> tuple[ItemState, str]:
    """What is saved of an item's state: the sentence only where it says why a file failed."""
    return item.state, item.status if item.state is ItemState.FAILED else ""


def _source_problem(saved: SavedItem) -> str:
    if saved.source_state is SourceState.MISSING:
        return N_("SavedWork", "The recording is no longer at {path}; its saved transcript is still here.").format(
            path=str(saved.source))
    if saved.source_state is SourceState.CHANGED:
        return N_("SavedWork", "The recording has changed since it was transcribed; the saved transcript is "
                               "of the earlier one.")
    return ""
