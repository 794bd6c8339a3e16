"""The transcript of the file selected in the queue: its segments to search, hear and correct."""
from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, QPoint, Qt, Signal, Slot
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMenu,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.common.audio_player import AudioPlayer
from desktop.ui.common.i18n import translated
from desktop.core.transcription import edits
from desktop.ui.transcribe.editor.context import EditorContext
from desktop.ui.transcribe.editor.document import Applied, Selection, TranscriptDocument, TranscriptDocuments
from desktop.ui.transcribe.editor.segments_model import SegmentSearchModel, SegmentsModel
from desktop.ui.transcribe.editor.speaker_delegate import SpeakerDelegate
from desktop.ui.transcribe.editor.remember_voice import VoiceRemembering
from desktop.ui.transcribe.editor.speaker_labelling import SpeakerLabelling
from desktop.ui.transcribe.editor.speakers_bar import SpeakersBar
from desktop.ui.transcribe.editor.timing_by_ear import TimingByEar
from desktop.ui.transcribe.editor.video_in_editor import VideoInEditor
from desktop.ui.transcribe.editor.transcript_view import TranscriptView
from desktop.workers.job import JobRunner
from desktop.workers.transcription_queue import ItemState, QueueItem


class TranscriptPanel(QWidget):
    status_message = Signal(str)  # a sentence for the window's status bar

    def __init__(self, runner: JobRunner, documents: TranscriptDocuments | None = None,
                 parent: QWidget | None = None):
        """documents: the window's open transcripts (a set of the panel's own when None)."""
        super().__init__(parent)
        self._shown: QueueItem | None = None
        self.document: TranscriptDocument | None = None  # the shown transcript's, when it is finished
        self.player = AudioPlayer(runner, self)
        self.documents = documents if documents is not None else TranscriptDocuments(self)
        self.histories = self.documents.histories
        self._build()
        # What the helpers below may use of the editor, instead of the panel's widgets.
        self.context = EditorContext(self.segments_model, self.search_model, self.view, self.player, self)
        self.context.said.connect(self.status_message)
        self._build_actions()
        self._connect()
        self.timing = TimingByEar(self.context, runner, self)  # the playback bar and the waveform strip
        at = self.layout().indexOf(self.view)  # over the table
        self.layout().insertWidget(at, self.timing.bar)
        self.layout().insertWidget(at, self.timing.strip)
        self.speaker_labelling = SpeakerLabelling(self.context, runner, self)  # Label speakers on a finished transcript
        self.video = VideoInEditor(self, runner)  # the picture of a video beside the lines
        self.speaker_labelling.status_message.connect(self.status_message)
        self.remembering = VoiceRemembering(self.context, runner, self)  # Remember this voice as…
        self.speakers_bar.remember_requested.connect(self.remembering.ask)
        self.retranslate()

    def _build(self) -> None:
        self.title = QLabel()
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.title.setWordWrap(True)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.search_edit = QLineEdit()
        self.search_edit.setClearButtonEnabled(True)
        self.search_edit.setMinimumWidth(200)
        self.search_count = QLabel()
        self.warnings_only_box = QCheckBox()
        self.segments_model = SegmentsModel(self)
        self.search_model = SegmentSearchModel(self)
        self.search_model.setSourceModel(self.segments_model)
        self.view = self._build_view()
        self.speakers_bar = SpeakersBar(self.segments_model)

        title_row = QHBoxLayout()
        title_row.addWidget(self.title, 1)
        title_row.addWidget(self.search_edit)
        title_row.addWidget(self.search_count)
        title_row.addWidget(self.warnings_only_box)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(title_row)
        layout.addWidget(self.speakers_bar)
        layout.addWidget(self.view, 1)

    def _build_view(self) -> TranscriptView:
        view = TranscriptView()
        view.setModel(self.search_model)
        view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        view.setWordWrap(True)
        view.setMinimumHeight(160)
        header = view.horizontalHeader()
        header.setSectionResizeMode(SegmentsModel.START, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(SegmentsModel.END, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(SegmentsModel.SPEAKER, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(SegmentsModel.TEXT, QHeaderView.ResizeMode.Stretch)
        view.setItemDelegateForColumn(SegmentsModel.SPEAKER, SpeakerDelegate(self.segments_model, view))
        view.setColumnHidden(SegmentsModel.SPEAKER, True)
        return view

    def _build_actions(self) -> None:
        """Undo, Redo and the line edits, for the Edit menu, the table's context menu and shortcuts."""
        self.undo_action = QAction(self)
        self.undo_action.setShortcuts(QKeySequence.keyBindings(QKeySequence.StandardKey.Undo))
        self.undo_action.triggered.connect(self.histories.undo)
        self.redo_action = QAction(self)
        redo_keys = QKeySequence.keyBindings(QKeySequence.StandardKey.Redo)
        self.redo_action.setShortcuts(redo_keys + [key for key in (QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y"))
                                                   if key not in redo_keys])
        self.redo_action.triggered.connect(self.histories.redo)
        self.histories.canUndoChanged.connect(self.undo_action.setEnabled)
        self.histories.canRedoChanged.connect(self.redo_action.setEnabled)
        self.histories.undoTextChanged.connect(self._name_undo_redo)
        self.histories.redoTextChanged.connect(self._name_undo_redo)
        self.undo_action.setEnabled(False)
        self.redo_action.setEnabled(False)
        self.split_action = self._line_action(self.split_line, QKeySequence("Ctrl+Shift+S"))
        self.merge_action = self._line_action(self.merge_with_next, QKeySequence("Ctrl+M"))
        self.insert_action = self._line_action(self.insert_line, QKeySequence("Ctrl+Shift+N"))
        self.delete_action = self._line_action(self.delete_lines, QKeySequence("Ctrl+Shift+Delete"))
        self.shift_action = self._line_action(self.shift_times, QKeySequence("Ctrl+Shift+T"))
        self.find_action = self._line_action(self.find_and_replace, QKeySequence("Ctrl+H"))
        self.find_action.setShortcuts([QKeySequence("Ctrl+H"), QKeySequence("Ctrl+F")])
        self._find_dialog = None
        for action in (self.undo_action, self.redo_action):
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.revert_action = QAction(self)  # File → Revert to the transcription
        self.revert_action.triggered.connect(self.revert_to_transcription)
        self.revert_action.setEnabled(False)
        self.undo_corrections_action = QAction(self)
        self.undo_corrections_action.triggered.connect(self.undo_all_corrections)
        self.undo_corrections_action.setEnabled(False)
        self.line_actions = [self.split_action, self.merge_action, self.insert_action, self.delete_action,
                             self.shift_action]
        # The keys work in the panel on its own too, without the window and its menus.
        self.addActions([self.undo_action, self.redo_action, *self.line_actions, self.find_action])

    def _line_action(self, slot, shortcut: QKeySequence) -> QAction:
        action = QAction(self)
        action.setShortcut(shortcut)
        # Also while a line is being typed in, so the split takes the caret's place.
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.triggered.connect(slot)
        action.setEnabled(False)
        return action

    def add_line_action(self, action: QAction) -> None:
        """An edit of the selected lines made elsewhere (Transcribe again…), listed with the others in the
        Edit menu and the table's context menu; added before the window builds its menus."""
        self.line_actions.append(action)
        self.addAction(action)

    def edit_actions(self) -> list[QAction | None]:
        """What the Edit menu lists, None for a separator."""
        return [self.undo_action, self.redo_action, None, *self.line_actions, None, self.find_action,
                None, self.undo_corrections_action, None, self.speaker_labelling.action]

    def _connect(self) -> None:
        self.view.customContextMenuRequested.connect(self._show_context_menu)
        self.segments_model.changed.connect(self._on_transcript_changed)
        self.segments_model.modelReset.connect(self._update_line_actions)
        self.view.selectionModel().selectionChanged.connect(self._update_line_actions)
        self.search_edit.textChanged.connect(self._on_search)
        self.warnings_only_box.toggled.connect(self._on_warnings_only)
        self.search_model.rowsInserted.connect(self._update_search_count)  # lines found to warn while idle
        self.view.clicked.connect(self._on_segment_clicked)
        self.segments_model.edit_rejected.connect(self.status_message)
        self.segments_model.speakers_changed.connect(self._show_speaker_column)
        self.segments_model.modelReset.connect(self._show_speaker_column)
        self.player.error.connect(self.status_message)

    def retranslate(self) -> None:
        """Set every text; called at start and when the interface language changes."""
        self.video.retranslate()
        self.search_edit.setPlaceholderText(self.tr("Search the transcript"))
        self.view.setToolTip(self.tr("Click a line to hear it; type, or double-click, to correct it."))
        self._name_undo_redo()
        self.warnings_only_box.setText(self.tr("Only lines with warnings"))
        self.warnings_only_box.setToolTip(self.tr("Show only the lines whose subtitles will be hard to read: too "
                                                  "fast, too short, too long or overlapping. Hover over a ⚠ line "
                                                  "for the reason."))
        self.split_action.setText(self.tr("&Split line at the cursor"))
        self.merge_action.setText(self.tr("&Merge with next line"))
        self.insert_action.setText(self.tr("&Insert line"))
        self.delete_action.setText(self.tr("&Delete lines"))
        self.shift_action.setText(self.tr("S&hift times…"))
        self.undo_corrections_action.setText(self.tr("Undo all &glossary corrections"))
        self.revert_action.setText(self.tr("&Revert to the transcription"))
        self.revert_action.setToolTip(self.tr("Put every line back as Whisper wrote it; Edit → Undo takes it back."))
        self.find_action.setText(self.tr("&Find and replace…"))
        self.speaker_labelling.retranslate()
        self.segments_model.retranslate()
        self._update_title()
        self._update_search_count()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
            self.context.language_changed.emit()
        super().changeEvent(event)

    # -- the file shown ------------------------------------------------------------------------

    @property
    def shown_item(self) -> QueueItem | None:
        return self._shown

    def show_item(self, item: QueueItem | None, *, reload: bool = False) -> None:
        """Put an item's transcript (or its segments so far) in the table; reload: even if it is shown."""
        if item is self._shown and not reload:
            return
        self._shown = self.context.item = item
        document = self.documents.for_item(item)
        if document is not None:
            self.segments_model.show_transcript(document.transcript, document)
        elif item is not None and item.state is ItemState.RUNNING:
            self.segments_model.show_live(item.segments)
        else:
            self.segments_model.show_live([])
        # After the table: the table takes an undo in first, then the cursor goes back onto its lines.
        self._show_document(document)
        self.documents.show(document)
        self._update_title()
        self._update_search_count()

    def _show_document(self, document: TranscriptDocument | None) -> None:
        if self.document is not None:
            self.document.stop_listening(self._on_applied)
            self.document.where_the_cursor_is = None
        self.document = document
        if document is not None:
            document.listen(self._on_applied)
            document.where_the_cursor_is = self.cursor

    def forget_item(self, item: QueueItem) -> None:
        """The item left the list: its undo history goes with it."""
        if self.document is not None and self.document.item is item:
            self._show_document(None)
        self.documents.forget(item)

    @Slot(object)
    def on_item_changed(self, item: QueueItem) -> None:
        if item is self._shown:
            self._update_title()

    @Slot(object)
    def on_segment_added(self, item: QueueItem) -> None:
        if item is self._shown and not self.segments_model.editable:
            self.segments_model.segment_added()
            if not self.search_edit.text():
                self.view.scrollToBottom()
            self._update_search_count()

    @Slot(object)
    def on_item_finished(self, item: QueueItem) -> None:
        if item is self._shown:
            self.show_item(item, reload=True)

    def _update_title(self) -> None:
        item = self._shown
        if item is None:
            self.title.setText(self.tr("Select a file in the list to see its transcript."))
        elif item.state is ItemState.DONE and item.transcript is not None and item.transcript.is_empty:
            self.title.setText(
                self.tr("No speech was found in “{name}”, so there is nothing to show or export.").format(
                    name=item.path.name))
        elif item.state is ItemState.DONE:
            self.title.setText(self.tr("Transcript of “{name}”").format(name=item.path.name))
        elif item.state is ItemState.RUNNING:
            self.title.setText(self.tr("Transcribing “{name}”…").format(name=item.path.name))
        elif item.state is ItemState.FAILED:
            self.title.setText(translated(item.status))
        else:
            self.title.setText(self.tr("“{name}” has not been transcribed yet.").format(name=item.path.name))

    @Slot()
    def _show_speaker_column(self) -> None:
        self.view.setColumnHidden(SegmentsModel.SPEAKER, not self.segments_model.has_speakers)

    @Slot()
    def _name_undo_redo(self) -> None:
        """"Undo split line 12": the actions name the change they would take back or make again."""
        undo, redo = self.histories.undoText(), self.histories.redoText()
        self.undo_action.setText(self.tr("&Undo {change}").format(change=undo) if undo else self.tr("&Undo"))
        self.redo_action.setText(self.tr("&Redo {change}").format(change=redo) if redo else self.tr("&Redo"))

    @Slot(object)
    def _on_transcript_changed(self, transcript) -> None:
        if self.document is not None and self.document.transcript is transcript:
            self.status_message.emit(self.tr("Change saved in the transcript."))
        self._update_line_actions()

    def cursor(self) -> Selection:
        """Where the user is: the selected lines, and the caret in the line being typed in."""
        editor = self.view.text_delegate.open_editor
        return Selection(tuple(self.selected_rows()), editor.cursorPosition() if editor is not None else None)

    @Slot(object)
    def _on_applied(self, applied: Applied) -> None:
        """An undo or redo puts the cursor back where that edit was made."""
        if applied.selection is None or self.document is None:
            return
        last = len(self.document.transcript.segments) - 1
        rows = [row for row in applied.selection.rows if 0 <= row <= last] or ([min(applied.change.first_row, last)]
                                                                                if last >= 0 else [])
        if not rows:
            return
        self.select_row(rows[0])
        selection = self.view.selectionModel()
        for row in rows[1:]:
            index = self.search_model.mapFromSource(self.segments_model.index(row, 0))
            if index.isValid():
                selection.select(index, selection.SelectionFlag.Select | selection.SelectionFlag.Rows)
        editor = self.view.text_delegate.open_editor
        if editor is not None and applied.selection.caret is not None:
            editor.setCursorPosition(applied.selection.caret)

    # -- line edits ----------------------------------------------------------------------------

    def selected_rows(self) -> list[int]:
        """The selected lines, as rows of the transcript."""
        return self.context.selected_rows()

    def current_row(self) -> int | None:
        return self.context.current_row()

    def select_row(self, row: int) -> None:
        self.context.select_row(row)

    def _edit(self, make, select=None) -> None:
        """Commit the change make() builds; the row selected after it, when it was taken."""
        transcript = self.segments_model.transcript
        if transcript is None:
            return
        if self.segments_model.try_edit(lambda: make(transcript)) and select is not None:
            self.select_row(min(select, max(0, len(transcript.segments) - 1)))

    @Slot()
    def split_line(self) -> None:
        row = self.current_row()
        if row is None:
            return
        editor = self.view.text_delegate.open_editor
        if editor is not None:
            position = editor.cursorPosition()
            self.view.closePersistentEditor(self.view.currentIndex())
            self.view.setFocus()
        else:
            position = len(self.segments_model.segment(row).text.strip()) // 2
        self._edit(lambda transcript: edits.split(transcript, row, position), row + 1)

    @Slot()
    def merge_with_next(self) -> None:
        row = self.current_row()
        if row is not None:
            self._edit(lambda transcript: edits.merge_with_next(transcript, row), row)

    @Slot()
    def insert_line(self) -> None:
        row = self.current_row()
        self._edit(lambda transcript: edits.insert_after(transcript, row), 0 if row is None else row + 1)

    @Slot()
    def delete_lines(self) -> None:
        rows = self.selected_rows()
        if rows:
            self._edit(lambda transcript: edits.delete(transcript, rows), max(0, rows[0] - 1))

    @Slot()
    def shift_times(self) -> None:
        rows = self.selected_rows()
        if not rows:
            return
        seconds, ok = QInputDialog.getDouble(
            self, self.tr("Shift times"),
            self.tr("Move the selected lines by this many seconds (negative: earlier):"), 0.0, -3600.0, 3600.0, 3)
        if ok:
            self._edit(lambda transcript: edits.shift(transcript, rows, seconds), rows[0])

    @Slot()
    def find_and_replace(self) -> None:
        """Edit → Find and replace…: one dialog, kept beside the table and brought back to the front."""
        from desktop.ui.transcribe.editor.find_replace_dialog import FindReplaceDialog

        if self._find_dialog is None:
            self._find_dialog = FindReplaceDialog(self.context, self)
        self._find_dialog.show()
        self._find_dialog.raise_()
        self._find_dialog.activateWindow()
        self._find_dialog.find_edit.setFocus()
        self._find_dialog.find_edit.selectAll()

    @Slot()
    def _update_line_actions(self) -> None:
        editable = self.segments_model.editable
        rows = self.selected_rows() if editable else []
        for action in (self.split_action, self.merge_action, self.delete_action, self.shift_action):
            action.setEnabled(bool(rows))
        self.insert_action.setEnabled(editable)
        self.find_action.setEnabled(editable)
        self.undo_corrections_action.setEnabled(self.segments_model.has_glossary_corrections())
        self.revert_action.setEnabled(self.document is not None and self.document.can_revert)

    @Slot()
    def revert_to_transcription(self) -> None:
        if self.document is not None and self.segments_model.editable:
            self.segments_model.about_to_edit.emit()
            if self.document.revert_to_transcription():
                self.status_message.emit(self.tr("Every line is back as Whisper wrote it. Edit → Undo brings "
                                                 "back your corrections."))

    @Slot()
    def undo_all_corrections(self) -> None:
        self._edit(edits.undo_all_corrections)

    def _correction_actions(self, row: int, parent: QMenu) -> list[QAction]:
        """One action per glossary replacement in the line: it brings back what Whisper wrote."""
        actions = []
        for number, correction in edits.standing_corrections(self.segments_model.segment(row)):
            action = QAction(self.tr("Undo glossary correction “{term}” → back to “{original}”").format(
                term=correction.term, original=correction.original), parent)
            action.triggered.connect(lambda _checked=False, number=number: self._edit(
                lambda transcript: edits.undo_correction(transcript, row, number), row))
            actions.append(action)
        return actions

    @Slot(QPoint)
    def _show_context_menu(self, position: QPoint) -> None:
        if not self.segments_model.editable:
            return
        menu = QMenu(self)
        for action in (self.undo_action, self.redo_action, None, *self.line_actions):
            menu.addSeparator() if action is None else menu.addAction(action)
        index = self.view.indexAt(position)
        corrections = self._correction_actions(self.search_model.mapToSource(index).row(), menu) \
            if index.isValid() else []
        if corrections or self.undo_corrections_action.isEnabled():
            menu.addSeparator()
            menu.addActions([*corrections, self.undo_corrections_action])
        menu.addSeparator()
        menu.addAction(self.speaker_labelling.action)
        speaker = self.segments_model.segment(self.search_model.mapToSource(index).row()).speaker \
            if index.isValid() else None
        if speaker is not None:
            remember = menu.addAction(self.tr("Remember this voice as…"))
            remember.setEnabled(not self.remembering.running)
            remember.triggered.connect(lambda _checked=False, number=speaker: self.remembering.ask(number))
        menu.exec(self.view.viewport().mapToGlobal(position))
        menu.deleteLater()

    # -- searching and playing -----------------------------------------------------------------

    @Slot(str)
    def _on_search(self, text: str) -> None:
        self.search_model.search(text)
        self._update_search_count()

    @Slot(bool)
    def _on_warnings_only(self, only: bool) -> None:
        self.search_model.show_only_warnings(only)
        self._update_search_count()

    def _update_search_count(self) -> None:
        if self.search_edit.text().strip() or self.warnings_only_box.isChecked():
            self.search_count.setText(self.tr("{found} of {total}").format(
                found=self.search_model.rowCount(), total=self.segments_model.rowCount()))
        else:
            self.search_count.setText("")

    @Slot(QModelIndex)
    def _on_segment_clicked(self, index: QModelIndex) -> None:
        if self._shown is None or not index.isValid():
            return
        segment = self.segments_model.segment(self.search_model.mapToSource(index).row())
        self.player.play(self._shown.path, segment.start, segment.end)
