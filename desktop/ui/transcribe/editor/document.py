"""One open transcript and everything that belongs to it: its undo history, a commit counter, its
place in the saved work and the export it was last written to.

A TranscriptDocument is the only way to change a transcript: every edit is a command it applies on
its own QUndoStack, so undo, redo, autosave and "changed since you exported it" all follow from one
place. Like Aegisub's controller of an open file, it counts commits: each edit gets a new number, an
undo brings back the number of the state before it, and the transcript has changed since its export
when the number differs from the one exported. The selection and caret at each edit are kept with it,
so Undo and Redo put the cursor back where the change was.

Nothing here needs a window: TranscriptDocuments holds one per finished transcript of the queue and
the undo group whose active stack the Edit menu acts on.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, NamedTuple

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoGroup, QUndoStack

from desktop.core.common.i18n import N_
from desktop.core.transcription import edits
from desktop.core.transcription.edits import Change
from desktop.core.transcription.transcript import Segment, Transcript
from desktop.ui.common.i18n import translated
from desktop.workers.transcription_queue import ItemState, QueueItem

NEVER_EXPORTED_STATE = -1  # a transcript brought back with edits it was never exported with


@dataclass(frozen=True)
class Selection:
    """Where the user was: the selected lines (rows of the transcript) and the caret in the line being
    typed in (None when no line was open for typing)."""
    rows: tuple[int, ...] = ()
    caret: int | None = None


class Applied(NamedTuple):
    """What the document tells its views after an edit, an undo or a redo (a tuple: made per edit)."""
    document: TranscriptDocument
    change: Change
    undone: bool
    hint: int  # the column the edit was made in, for the table (opaque here)
    selection: Selection | None  # where the cursor goes now: before the edit on undo, after it on redo


class _EditCommand(QUndoCommand):
    """A core Change on the document's stack: redo applies it, undo reverts it; each side remembers the
    commit number and the selection of its state."""

    def __init__(self, document: TranscriptDocument, change: Change, hint: int,
                 before: Selection | None, after: Selection | None):
        super().__init__(translated(change.description))
        self._document = document
        self._change = change
        self._hint = hint
        self._before, self._after = before, after
        self._commit_before = document.commit_id
        self._commit_after = document._new_commit_id()
        self._done_once = False  # the first redo is the edit itself: whoever made it places the cursor

    def redo(self) -> None:
        self._change.apply(self._document.transcript)
        after = self._after if self._done_once else None
        self._done_once = True
        self._document._applied(self._commit_after, Applied(self._document, self._change, False, self._hint, after))

    def undo(self) -> None:
        self._change.revert(self._document.transcript)
        self._document._applied(self._commit_before,
                                Applied(self._document, self._change, True, self._hint, self._before))


class TranscriptDocument(QObject):
    def __init__(self, item: QueueItem, parent: QObject | None = None):
        super().__init__(parent)
        if item.transcript is None:
            raise ValueError("a document needs a finished transcript")
        self.item = item
        self.transcript: Transcript = item.transcript
        self.undo_stack = QUndoStack(self)
        # Told of every edit, undo and redo (an Applied), in the order they listened: plain calls, as a
        # Qt signal per edit doubled the cost of an undo in a 2,400-line transcript.
        self._listeners: list[Callable[[Applied], None]] = []
        # Told (with this document) when it becomes changed since its export, or is exported.
        self.on_export_state_changed: Callable[[TranscriptDocument], None] | None = None
        self._commits = itertools.count(1)
        self.commit_id = 0  # the state of the transcript: 0 as it was opened, a new number per edit
        self.exported_commit_id = 0  # the state last exported; opened as Whisper wrote it counts as such
        self.exported_to: Path | None = None  # the folder of the last export, once exported in this session
        self._exporting: int | None = None  # the state being exported now
        # The lines as Whisper wrote them, when this session transcribed the file (see keep_as_transcribed).
        self._as_transcribed: list[Segment] | None = None
        # Where the view showing the document has the cursor, asked at each edit (None: not shown).
        self.where_the_cursor_is: Callable[[], Selection] | None = None

    # -- what the document is --------------------------------------------------------------------

    @property
    def name(self) -> str:
        return self.item.path.name

    @property
    def changed_since_export(self) -> bool:
        return self.commit_id != self.exported_commit_id

    def is_current(self) -> bool:
        """Whether the item still holds this transcript (a new transcription replaces it)."""
        return self.item.transcript is self.transcript and self.item.state is ItemState.DONE

    # -- changing it -----------------------------------------------------------------------------

    def listen(self, listener: Callable[[Applied], None]) -> None:
        self._listeners.append(listener)

    def stop_listening(self, listener: Callable[[Applied], None]) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def apply(self, change: Change, *, hint: int = 0, before: Selection | None = None,
              after: Selection | None = None) -> None:
        """Make the change, on the undo stack: before and after are where the cursor was and goes (by
        default: where the view says it is now, and the first line the change made)."""
        if before is None and self.where_the_cursor_is is not None:
            before = self.where_the_cursor_is()
        if after is None:
            after = Selection((change.first_row,))
        self.undo_stack.push(_EditCommand(self, change, hint, before, after))

    def _new_commit_id(self) -> int:
        return next(self._commits)

    def _applied(self, commit_id: int, applied: Applied) -> None:
        exported = self.exported_commit_id
        flipped = (self.commit_id == exported) != (commit_id == exported)
        self.commit_id = commit_id
        for listener in self._listeners:  # none listens or stops listening while told
            listener(applied)
        if flipped:
            self._export_state_changed()

    def _export_state_changed(self) -> None:
        if self.on_export_state_changed is not None:
            self.on_export_state_changed(self)

    def keep_as_transcribed(self) -> None:
        """The transcript just came from Whisper: keep its lines to revert to. The editor swaps whole
        Segment objects and never changes one in place, so a copy of the list keeps them."""
        if self.commit_id == 0:
            self._as_transcribed = list(self.transcript.segments)

    @property
    def can_revert(self) -> bool:
        # Back at commit 0 is the transcribed state itself (an undo brings its number back).
        return self._as_transcribed is not None and self.commit_id != 0

    def revert_to_transcription(self) -> bool:
        """Every line back to what Whisper wrote, as one edit Undo takes back; False when there is
        nothing to revert to."""
        if not self.can_revert:
            return False
        self.apply(edits.replace_lines(self.transcript, self._as_transcribed,
                                       N_("Edits", "revert to the transcription")))
        return True

    # -- the saved work and exports ----------------------------------------------------------------

    def restored_with_unexported_edits(self) -> None:
        """The saved work brought the transcript back with edits no export holds."""
        self.exported_commit_id = NEVER_EXPORTED_STATE
        self._export_state_changed()

    def export_started(self) -> None:
        """An export of the transcript as it is now begins (written on another thread)."""
        self._exporting = self.commit_id

    def export_written(self, folder: Path | None) -> None:
        """The export begun last was written (into folder): that state is the one exported."""
        self.exported_commit_id = self.commit_id if self._exporting is None else self._exporting
        self._exporting = None
        self.exported_to = folder
        self._export_state_changed()


class TranscriptDocuments(QObject):
    """The open transcripts of the window, one document each, and the undo group whose active stack
    is the shown document's (what Edit → Undo acts on)."""
    created = Signal(object)  # a TranscriptDocument, just opened
    export_state_changed = Signal(object)  # a TranscriptDocument

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.histories = QUndoGroup(self)
        self._documents: dict[QueueItem, TranscriptDocument] = {}
        # Told of every edit, undo and redo of any document (an Applied): the saved work keeps it.
        self.on_edited: Callable[[Applied], None] | None = None

    def for_item(self, item: QueueItem | None) -> TranscriptDocument | None:
        """The document of item's finished transcript (opened now if it was not); None without one."""
        if item is None or item.state is not ItemState.DONE or item.transcript is None:
            return None
        document = self._documents.get(item)
        if document is not None and document.transcript is not item.transcript:  # transcribed anew
            self.forget(item)
            document = None
        if document is None:
            document = self._documents[item] = TranscriptDocument(item, self)
            self.histories.addStack(document.undo_stack)
            document.on_export_state_changed = self.export_state_changed.emit
            document.listen(self._edited)
            self.created.emit(document)
        return document

    def _edited(self, applied: Applied) -> None:
        if self.on_edited is not None:
            self.on_edited(applied)

    def existing(self, item: QueueItem) -> TranscriptDocument | None:
        """item's document if it is open and still its transcript's, without opening one."""
        document = self._documents.get(item)
        return document if document is not None and document.is_current() else None

    def show(self, document: TranscriptDocument | None) -> None:
        """Undo and Redo now act on this document's history (nothing when None)."""
        self.histories.setActiveStack(None if document is None else document.undo_stack)

    def forget(self, item: QueueItem) -> None:
        """The item left the list, or its transcript was replaced: its history goes with it."""
        document = self._documents.pop(item, None)
        if document is not None:
            self.histories.removeStack(document.undo_stack)
            document.deleteLater()

    def changed_since_export(self) -> list[TranscriptDocument]:
        return [document for document in self._documents.values()
                if document.is_current() and document.changed_since_export]
