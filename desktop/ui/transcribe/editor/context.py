"""What a helper of the editor (timing by ear, find and replace, transcribe again, label speakers) may
use of the editor, handed to it instead of the panel: the shown document and its table, the selection,
the editor's one player, and where to say things. Like git-cola's context, it names the few things a
command needs, so that a helper does not reach into the panel's widgets and layout."""
from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QItemSelection, QItemSelectionModel, QObject, Signal
from PySide6.QtWidgets import QAbstractItemView, QWidget

from desktop.core.transcription.transcript import Transcript
from desktop.ui.transcribe.editor.document import TranscriptDocument
from desktop.ui.transcribe.editor.playback import Playback
from desktop.ui.transcribe.editor.segments_model import SegmentSearchModel, SegmentsModel
from desktop.workers.transcription_queue import QueueItem

if TYPE_CHECKING:
    from desktop.ui.transcribe.editor.transcript_view import TranscriptView


class EditorContext(QObject):
    shown_changed = Signal()  # another transcript (or none, or a running file's lines) is shown
    selection_changed = Signal()  # other lines are selected
    said = Signal(str)  # a sentence for the window's status bar
    language_changed = Signal()  # the interface language changed: helpers set their texts again
    # The table took in the last line of a long transcript, an edit is about to go in, or another
    # transcript is about to be shown: work held back while the table filled (see filling) may go ahead.
    settled = Signal()

    def __init__(self, table: SegmentsModel, shown: SegmentSearchModel, view: TranscriptView, player: Playback,
                 parent: QWidget):
        """table: the transcript's lines; shown: the lines the search shows, in view; player: the one that
        plays the recording, from the bar, the waveform or a clicked line; parent: the panel."""
        super().__init__(parent)
        self.table = table
        self.player = player
        self._shown = shown
        self._view = view
        self._widget = parent
        self.item: QueueItem | None = None  # the file shown (set by the panel)
        table.modelReset.connect(self.shown_changed)
        for signal in (table.filled, table.about_to_edit, table.modelAboutToBeReset):
            signal.connect(self.settled)
        view.selectionModel().selectionChanged.connect(self.selection_changed)

    @property
    def document(self) -> TranscriptDocument | None:
        """The shown finished transcript's document; None while nothing editable is shown."""
        return self.table.document

    def filling(self, transcript: Transcript) -> bool:
        """Whether transcript is shown and the table is still taking in its lines (a long one comes in a
        slice at a time): work that would slow the window meanwhile can wait for settled."""
        return self.table.filling and self.table.transcript is transcript

    def say(self, text: str) -> None:
        self.said.emit(text)

    def window(self) -> QWidget:
        """The window, to be the parent of a helper's dialogs."""
        return self._widget.window()

    # -- the selection -----------------------------------------------------------------------------

    def selected_rows(self) -> list[int]:
        """The selected lines, as rows of the transcript."""
        return sorted(self._shown.mapToSource(self._shown.index(row, 0)).row() for row in self._view.selected_rows())

    def current_row(self) -> int | None:
        rows = self.selected_rows()
        return rows[0] if rows else None

    def select_rows(self, first: int, count: int = 1) -> None:
        """Select count lines from first (those the search shows), and bring them into view."""
        self.table.show_rows_up_to(first + max(0, count - 1))
        top = self._shown.mapFromSource(self.table.index(first, 0))
        bottom = self._shown.mapFromSource(self.table.index(first + max(0, count - 1), self._shown.columnCount() - 1))
        if not top.isValid() or not bottom.isValid():
            return
        selection = self._view.selectionModel()
        selection.setCurrentIndex(top, QItemSelectionModel.SelectionFlag.NoUpdate)
        selection.select(QItemSelection(top, bottom), QItemSelectionModel.SelectionFlag.ClearAndSelect
                         | QItemSelectionModel.SelectionFlag.Rows)
        self._view.scrollTo(top)

    def select_row(self, row: int) -> None:
        self.table.show_rows_up_to(row)
        index = self._shown.mapFromSource(self.table.index(row, 0))
        if index.isValid():
            self._view.selectRow(index.row())

    def keep_in_view(self, row: int) -> None:
        """Scroll so the line shows, unless one is being typed in (the caret stays where it is)."""
        if self._view.state() == QAbstractItemView.State.EditingState:
            return
        index = self._shown.mapFromSource(self.table.index(row, 0))
        if index.isValid():
            self._view.scrollTo(index, QAbstractItemView.ScrollHint.EnsureVisible)

    def focus_lines(self) -> None:
        """Back to the lines, so Ctrl+Z and the line edits act on them at once."""
        self.window().activateWindow()
        self._view.setFocus()
