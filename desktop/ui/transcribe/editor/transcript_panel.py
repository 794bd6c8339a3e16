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
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.common.i18n import translated
from desktop.ui.common.styles import WARNING_COLOR, WARNING_STYLE
from desktop.core.transcription import edits
from desktop.core.transcription.cue_checks import ReadingLimits
from desktop.core.transcription.subtitles import LineLimits
from desktop.ui.transcribe.editor.context import EditorContext
from desktop.ui.transcribe.editor.document import Applied, Selection, TranscriptDocument, TranscriptDocuments
from desktop.ui.transcribe.editor.playback import Playback
from desktop.ui.transcribe.editor.segments_model import SegmentSearchModel, SegmentsModel
from desktop.ui.transcribe.editor.speaker_delegate import SpeakerDelegate
from desktop.ui.transcribe.editor.remember_voice import VoiceRemembering
from desktop.ui.transcribe.editor.speaker_labelling import SpeakerLabelling
from desktop.ui.transcribe.editor.speakers_bar import SpeakersBar
from desktop.ui.transcribe.editor.spelling_marks import SpellingMarks
from desktop.ui.transcribe.editor.timing_by_ear import TimingByEar
from desktop.ui.transcribe.editor.transcript_view import TranscriptView
from desktop.ui.transcribe.editor.video_in_editor import VideoInEditor
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
        # The editor's one player: the bar, the waveform and a clicked line all play through it.
        self.player = Playback(runner, self)
        self.documents = documents if documents is not None else TranscriptDocuments(self)
        self.histories = self.documents.histories
        self.glossary_library = None  # a callable giving the user's GlossaryLibrary (set by the tab)
        self.spelling = SpellingMarks(runner, lambda: self.glossary_library() if self.glossary_library else None,
                                      self)
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
        # Why an edit was refused, right above the table where the edit was made (the status bar is
        # far from the line, and a word there is easily missed).
        self.layout().insertWidget(self.layout().indexOf(self.view), self.refusal)
        # The picture of a video beside the lines, in a splitter the panel places where the table was.
        self.video = VideoInEditor(self.context, self.timing, runner, self)
        self.layout().insertWidget(self.layout().indexOf(self.view), self.video.splitter, 1)
        self.video.splitter.insertWidget(0, self.view)
        self.video.splitter.setStretchFactor(0, 3)
        self.video.splitter.setStretchFactor(1, 2)
        self.timing.bar.add_button(self.video.toggle)
        self.add_line_action(self.timing.bar.set_start_action)
        self.add_line_action(self.timing.bar.set_end_action)
        self.speaker_labelling = SpeakerLabelling(self.context, runner, self)  # Label speakers on a finished transcript
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
        # What the transcription said about the whole recording (the wrong model for its language …).
        self.recording_warnings = QLabel()
        self.recording_warnings.setTextFormat(Qt.TextFormat.PlainText)
        self.recording_warnings.setWordWrap(True)
        self.recording_warnings.setStyleSheet(WARNING_STYLE)
        self.recording_warnings.setVisible(False)
        self.search_edit = QLineEdit()
        self.search_edit.setClearButtonEnabled(True)
        self.search_edit.setMinimumWidth(200)
        self.search_count = QLabel()
        self.warnings_only_box = QCheckBox()
        self.segments_model = SegmentsModel(self)
        self.segments_model.spelling = self.spelling
        self.search_model = SegmentSearchModel(self)
        self.search_model.setSourceModel(self.segments_model)
        self.view = self._build_view()
        self.view.text_delegate.set_spelling(self.spelling)
        self.speakers_bar = SpeakersBar(self.segments_model)
        self.refusal = QLabel()
        self.refusal.setObjectName("editRefusal")
        self.refusal.setWordWrap(True)
        self.refusal.setTextFormat(Qt.TextFormat.PlainText)
        self.refusal.setStyleSheet(f"QLabel#editRefusal {{ background: #fff3cd; color: #5c3c00; "
                                   f"border: 1px solid {WARNING_COLOR}; border-radius: 3px; padding: 4px 8px; }}")
        self.refusal.setVisible(False)

        title_row = QHBoxLayout()
        title_row.addWidget(self.title, 1)
        title_row.addWidget(self.search_edit)
        title_row.addWidget(self.search_count)
        title_row.addWidget(self.warnings_only_box)
        self._title_row = title_row
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(title_row)
        layout.addWidget(self.recording_warnings)
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

    def add_title_button(self, button: QWidget) -> None:
        """A control of the tab's own beside the transcript's title (the editor's room)."""
        self._title_row.addWidget(button)

    def add_line_action(self, action: QAction) -> None:
        """An edit of the selected lines made elsewhere (Transcribe again…), listed with the others in the
        Edit menu and the table's context menu; added before the window builds its menus."""
        self.line_actions.append(action)
        self.addAction(action)

    def edit_actions(self) -> list[QAction | None]:
        """What the Edit menu lists, None for a separator."""
        return [self.undo_action, self.redo_action, None, *self.line_actions, None, self.find_action,
                None, self.undo_corrections_action, None, self.speaker_labelling.action]

    def set_reading_limits(self, limits: ReadingLimits, line_limits: LineLimits) -> None:
        """Judge the lines by this reading speed, cut into cues by these line limits (as Settings says)."""
        self.segments_model.set_reading_limits(limits, line_limits)

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
        self.segments_model.edit_rejected.connect(self._show_refusal)
        self.segments_model.changed.connect(lambda _transcript: self.refusal.setVisible(False))
        self.segments_model.modelReset.connect(lambda: self.refusal.setVisible(False))
        self.spelling.changed.connect(self.segments_model.spelling_changed)
        self.spelling.unavailable.connect(self.status_message)
        self.spelling.unavailable.connect(self._show_refusal)
        self.segments_model.speakers_changed.connect(self.spelling.names_changed)
        self.segments_model.speakers_changed.connect(self._show_speaker_column)
        self.segments_model.modelReset.connect(self._show_speaker_column)
        self.player.error.connect(self.status_message)

    def retranslate(self) -> None:
        """Set every text; called at start and when the interface language changes."""
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
        self.spelling.show(self.segments_model.transcript)
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
        self._show_recording_warnings(item)
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

    def _show_recording_warnings(self, item: QueueItem | None) -> None:
        """The finished transcript's warnings about its recording, above its lines (also in the queue row)."""
        warnings = item.transcript.warnings if item is not None and item.transcript is not None else []
        self.recording_warnings.setText("\n".join(translated(warning) for warning in warnings))
        self.recording_warnings.setVisible(bool(warnings) and item.state is ItemState.DONE)

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

    @Slot(str)
    def _show_refusal(self, sentence: str) -> None:
        self.refusal.setText(sentence)
        self.refusal.setVisible(True)

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
        transcript = self.segments_model.transcript
        if transcript is None or rows != list(range(rows[0], rows[-1] + 1)):
            self._edit(lambda transcript: edits.shift(transcript, rows, 1.0))  # says why it cannot
            return
        earliest, latest = edits.shift_range(transcript, rows)
        # The same rule at both ends: the lines stay within the recording and between their neighbours.
        room = (self.tr("They can move up to {earlier} s earlier and any amount later.").format(
                    earlier=f"{abs(earliest):.3f}") if latest == float("inf") else
                self.tr("They can move up to {earlier} s earlier and {later} s later.").format(
                    earlier=f"{abs(earliest):.3f}", later=f"{latest:.3f}"))
        seconds, ok = QInputDialog.getDouble(
            self, self.tr("Shift times"),
            self.tr("Move the selected lines by this many seconds (negative: earlier):") + "\n" + room,
            0.0, -3600.0, 3600.0, 3)
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

    def _spelling_actions(self, index: QModelIndex, position: QPoint, parent: QMenu) -> list[QAction]:
        """For a word spelled wrong under the pointer: what to write instead, each replacing it (undoable)."""
        option = QStyleOptionViewItem()
        self.view.initViewItemOption(option)
        option.rect = self.view.visualRect(index)
        text = index.data(Qt.ItemDataRole.EditRole) or ""
        offset = self.view.text_delegate.text_offset_at(index, position, option)
        word = self.spelling.misspelling_at(text, offset) if offset >= 0 else None
        if word is None:
            return []
        row = self.search_model.mapToSource(index).row()
        actions = []
        for suggestion in self.spelling.suggestions(word.word):
            action = QAction(suggestion, parent)
            action.triggered.connect(lambda _checked=False, suggestion=suggestion: self._edit(
                lambda transcript: edits.edit_text(
                    transcript, row, text[:word.start] + suggestion + text[word.end:]), row))
            actions.append(action)
        if not actions:
            none = QAction(self.tr("No spelling suggestions for “{word}”").format(word=word.word), parent)
            none.setEnabled(False)
            actions.append(none)
        return actions

    @Slot(QPoint)
    def _show_context_menu(self, position: QPoint) -> None:
        menu = self.context_menu(position)
        if menu is not None:
            menu.exec(self.view.viewport().mapToGlobal(position))
            menu.deleteLater()

    def context_menu(self, position: QPoint) -> QMenu | None:
        """The table's context menu for a point of its viewport: spelling suggestions for the word
        there, the line edits, the glossary corrections of the line; None when nothing is editable."""
        if not self.segments_model.editable:
            return None
        menu = QMenu(self)
        index = self.view.indexAt(position)
        if index.isValid() and index.column() == SegmentsModel.TEXT:
            spelling = self._spelling_actions(index, position, menu)
            if spelling:
                menu.addActions(spelling)
                menu.addSeparator()
        for action in (self.undo_action, self.redo_action, None, *self.line_actions):
            menu.addSeparator() if action is None else menu.addAction(action)
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
        return menu

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
        self.timing.play_line(self.search_model.mapToSource(index).row())
