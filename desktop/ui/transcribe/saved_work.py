"""The Transcribe tab's work, kept as the user goes: the queue, each transcript and each correction.

SavedWork mirrors the transcription queue into the autosave store (one small write per change) and
puts the saved queue back at the next start. Done files come back done with their transcripts and
corrections. Files that were waiting or running come back waiting and do not start on their own: a
transcription takes the computer's full attention (and may want a model downloaded), so it starts
when the user presses Start or adds files, not behind their back when the window opens.

A change that cannot be saved is said in a sentence (`problem`); the work in the window goes on.
"""
from __future__ import annotations

import logging

from PySide6.QtCore import QObject, Signal, Slot

from desktop.core.common.i18n import N_
from desktop.core.transcription.autosave import AutosaveError, AutosaveStore, SavedItem
from desktop.core.transcription.source_fingerprint import SourceState
from desktop.workers.transcription_queue import ItemState, QueueItem, TranscriptionQueue

log = logging.getLogger(__name__)

_RESTORED_STATES = {ItemState.FAILED.value: ItemState.FAILED, ItemState.CANCELLED.value: ItemState.CANCELLED}


class SavedWork(QObject):
    problem = Signal(str)  # a sentence: a change could not be saved, or saved work could not be read

    def __init__(self, store: AutosaveStore, queue: TranscriptionQueue, parent: QObject | None = None):
        super().__init__(parent)
        self._store = store
        self._queue = queue
        self._ids: dict[QueueItem, int] = {}
        self._saved_status: dict[QueueItem, tuple[ItemState, str]] = {}
        self._revisions: dict[QueueItem, int] = {}  # edits saved so far, as the store counts them
        self._stopped = False
        queue.item_added.connect(self._on_added)
        queue.item_changed.connect(self._on_changed)

    # -- bringing work back --------------------------------------------------------------------

    def restore(self) -> None:
        """Put the queue saved last time back, in its order."""
        for saved in self._try(self._store.queue, failed=[]):
            self._restore(saved)

    def recent(self, limit: int = 10) -> list[SavedItem]:
        return self._try(self._store.recent, limit, failed=[])

    def reopen(self, saved: SavedItem) -> QueueItem | None:
        """A transcript from recent(): its row when it is listed already, else it is listed again."""
        for item, item_id in self._ids.items():
            if item_id == saved.id:
                return item
        if self._try(self._store.enqueue, saved.id, failed=False) is False:
            return None
        return self._restore(saved)

    def kept_edits(self) -> list[QueueItem]:
        """The listed files whose corrections were saved but never exported."""
        unexported = {saved.id for saved in self._try(self._store.unexported_edits, failed=[])}
        return [item for item, item_id in self._ids.items() if item_id in unexported]

    def _restore(self, saved: SavedItem) -> QueueItem:
        item = QueueItem(path=saved.source)
        transcript = self._try(self._store.transcript, saved.id) if saved.has_transcript else None
        if transcript is not None:
            item.state, item.progress = ItemState.DONE, 1.0
            item.transcript, item.segments = transcript, transcript.segments
            item.source_problem = _source_problem(saved)
        elif saved.status in _RESTORED_STATES:
            item.state, item.status = _RESTORED_STATES[saved.status], saved.message
        self._ids[item] = saved.id
        self._saved_status[item] = _status_of(item)
        self._revisions[item] = saved.revision
        self._queue.restore(item)
        return item

    # -- saving as the user goes ---------------------------------------------------------------

    @Slot(object)
    def _on_added(self, item: QueueItem) -> None:
        if self._stopped or item in self._ids:
            return
        item_id = self._try(self._store.add_item, item.path, item.state.value)
        if item_id is not None:
            self._ids[item] = item_id
            self._saved_status[item] = _status_of(item)
            self._revisions[item] = 0

    @Slot(object)
    def _on_changed(self, item: QueueItem) -> None:
        item_id = self._ids.get(item)
        status = _status_of(item)
        if self._stopped or item_id is None or self._saved_status.get(item) == status:
            return
        self._saved_status[item] = status
        if item.state is ItemState.DONE and item.transcript is not None:
            # The transcript first: a file saved as done always has one.
            self._try(self._store.save_transcript, item_id, item.transcript)
            self._revisions[item] = 0
        self._try(self._store.set_status, item_id, item.state.value, status[1])

    def save_edit(self, item: QueueItem, row: int, text_changed: bool) -> None:
        """A segment of item's transcript was corrected: its text (text_changed) or its times."""
        item_id = self._ids.get(item)
        if self._stopped or item_id is None or item.transcript is None:
            return
        segment = item.transcript.segments[row]
        if text_changed:
            saved = self._try(self._store.save_edit, item_id, row, segment.text, failed=False)
        else:
            saved = self._try(self._store.save_times, item_id, row, segment.start, segment.end, failed=False)
        if saved is not False:
            self._revisions[item] += 1

    def save_speakers(self, item: QueueItem) -> None:
        """item's speakers were renamed, or a line was given another speaker."""
        item_id = self._ids.get(item)
        if self._stopped or item_id is None or item.transcript is None:
            return
        if self._try(self._store.save_speakers, item_id, item.transcript, failed=False) is not False:
            self._revisions[item] += 1

    def revision(self, item: QueueItem) -> int | None:
        """How many corrections of item are saved: what an export made now contains."""
        return self._revisions.get(item)

    def mark_exported(self, item: QueueItem, revision: int | None) -> None:
        item_id = self._ids.get(item)
        if not self._stopped and item_id is not None:
            self._try(self._store.mark_exported, item_id, revision)

    def forget(self, items: list[QueueItem], keep_transcripts: bool) -> None:
        """Items taken off the list: their saved transcripts are kept for Recent transcripts, or deleted."""
        for item in items:
            item_id = self._ids.pop(item, None)
            self._saved_status.pop(item, None)
            self._revisions.pop(item, None)
            if item_id is not None and not self._stopped:
                self._try(self._store.remove, item_id, keep_transcripts)

    def stop(self) -> None:
        """The window is closing: what is saved stays as it is (a running file comes back waiting)."""
        self._stopped = True

    def _try(self, method, *args, failed=None):
        """The store's answer, or `failed` when it could not do it (said as a problem)."""
        try:
            return method(*args)
        except AutosaveError as error:
            log.warning("autosave: %s (%s)", error.message, error.detail)
            self.problem.emit(error.message)
        except KeyError as error:  # the item was removed from the saved work meanwhile (another window)
            log.warning("autosave: %s", error)
        return failed


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
