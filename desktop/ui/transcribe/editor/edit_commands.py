"""The transcript's edits on Qt's undo stack: one stack per transcript, so each file keeps its history
while the user switches between files in the queue."""
from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QObject
from PySide6.QtGui import QUndoCommand, QUndoGroup, QUndoStack

from desktop.core.transcription.edits import Change
from desktop.core.transcription.transcript import Transcript
from desktop.ui.common.i18n import translated


class EditCommand(QUndoCommand):
    """A core Change: redo applies it, undo reverts it, and either way `changed` is told, so the
    table shows it and the autosave keeps it."""

    def __init__(self, transcript: Transcript, change: Change,
                 changed: Callable[[Transcript, Change, bool], None]):
        super().__init__(translated(change.description))
        self._transcript = transcript
        self._change = change
        self._changed = changed

    def redo(self) -> None:
        self._change.apply(self._transcript)
        self._changed(self._transcript, self._change, False)

    def undo(self) -> None:
        self._change.revert(self._transcript)
        self._changed(self._transcript, self._change, True)


class TranscriptHistories(QUndoGroup):
    """The undo stacks of the transcripts edited in this window; the active one is the shown one's."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._stacks: dict[int, tuple[Transcript, QUndoStack]] = {}  # by id(transcript)

    def stack_for(self, transcript: Transcript) -> QUndoStack:
        entry = self._stacks.get(id(transcript))
        if entry is None or entry[0] is not transcript:
            stack = QUndoStack(self)
            entry = self._stacks[id(transcript)] = (transcript, stack)
        return entry[1]

    def show(self, transcript: Transcript | None) -> None:
        """Undo and Redo now act on this transcript's history (nothing when None)."""
        self.setActiveStack(None if transcript is None else self.stack_for(transcript))

    def forget(self, transcript: Transcript) -> None:
        entry = self._stacks.pop(id(transcript), None)
        if entry is not None:
            self.removeStack(entry[1])
            entry[1].deleteLater()
