"""Edit → Find and replace…: a small window beside the transcript that finds text in its lines (and
speakers' names), selects each match's line in turn, and replaces one match or all of them, each an
undoable edit. The finding and replacing themselves are core's (desktop.core.transcription.edits)."""
from __future__ import annotations

from PySide6.QtCore import QEvent, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop.core.transcription import edits
from desktop.core.transcription.edits import Search
from desktop.ui.transcribe.editor.context import EditorContext


class FindReplaceDialog(QDialog):
    """Non-modal: the user can go on editing the table while it is open."""

    def __init__(self, context: EditorContext, parent: QWidget | None = None):
        super().__init__(parent)
        self._context = context
        self._model = context.table
        self._current: tuple[int, int] | None = None  # (row, start) of the match Find next selected
        self.setModal(False)
        self._build()
        self._connect()
        self.retranslate()
        self.update_count()

    def _build(self) -> None:
        self.find_edit = QLineEdit()
        self.find_edit.setClearButtonEnabled(True)
        self.replace_edit = QLineEdit()
        self.find_label = QLabel()
        self.find_label.setBuddy(self.find_edit)
        self.replace_label = QLabel()
        self.replace_label.setBuddy(self.replace_edit)
        self.match_case_box = QCheckBox()
        self.whole_words_box = QCheckBox()
        self.speakers_box = QCheckBox()
        self.count_label = QLabel()
        self.find_next_button = QPushButton()
        self.find_next_button.setDefault(True)
        self.replace_button = QPushButton()
        self.replace_all_button = QPushButton()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        for button in (self.find_next_button, self.replace_button, self.replace_all_button):
            self.buttons.addButton(button, QDialogButtonBox.ButtonRole.ActionRole)

        form = QFormLayout()
        form.addRow(self.find_label, self.find_edit)
        form.addRow(self.replace_label, self.replace_edit)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        for box in (self.match_case_box, self.whole_words_box, self.speakers_box):
            layout.addWidget(box)
        layout.addWidget(self.count_label)
        layout.addWidget(self.buttons)

    def _connect(self) -> None:
        self.find_edit.textChanged.connect(self._on_search_changed)
        for box in (self.match_case_box, self.whole_words_box, self.speakers_box):
            box.toggled.connect(self._on_search_changed)
        self.find_next_button.clicked.connect(self.find_next)
        self.replace_button.clicked.connect(self.replace_one)
        self.replace_all_button.clicked.connect(self.replace_all)
        self.buttons.rejected.connect(self.close)
        # Another file shown, or the transcript edited: the count follows.
        self._model.modelReset.connect(self.update_count)
        self._model.changed.connect(self.update_count)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Find and replace"))
        self.find_label.setText(self.tr("&Find:"))
        self.replace_label.setText(self.tr("Replace &with:"))
        self.match_case_box.setText(self.tr("Match &case"))
        self.whole_words_box.setText(self.tr("&Whole words"))
        self.whole_words_box.setToolTip(self.tr("For Latin text, such as English: “cat” does not find "
                                                "“category”. Chinese is always found by its characters."))
        self.speakers_box.setText(self.tr("Also in &speaker names"))
        self.find_next_button.setText(self.tr("Find &next"))
        self.replace_button.setText(self.tr("&Replace"))
        self.replace_all_button.setText(self.tr("Replace &all"))
        self.update_count()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    # -- what is found -------------------------------------------------------------------------

    def search(self) -> Search:
        return Search(self.find_edit.text(), match_case=self.match_case_box.isChecked(),
                      whole_words=self.whole_words_box.isChecked())

    def _matches(self) -> list[tuple[int, int, int]]:
        transcript = self._model.transcript
        return [] if transcript is None else edits.find(transcript, self.search())

    def _speaker_matches(self) -> int:
        transcript = self._model.transcript
        if transcript is None or not self.speakers_box.isChecked():
            return 0
        search = self.search()
        return sum(len(search.spans(transcript.speaker_name(number))) for number in transcript.speakers)

    @Slot()
    def _on_search_changed(self) -> None:
        self._current = None
        self.update_count()
        if self.isVisible():
            self._highlight()

    def _highlight(self) -> None:
        """The table highlights what is looked for while this window is open."""
        self._model.set_found(self.search() if self.find_edit.text() else None)

    def showEvent(self, event) -> None:  # noqa: N802 - Qt naming
        super().showEvent(event)
        self._highlight()

    def hideEvent(self, event) -> None:  # noqa: N802 - Qt naming
        self._model.set_found(None)
        super().hideEvent(event)

    @Slot()
    def update_count(self) -> None:
        editable = self._model.editable
        count = len(self._matches()) + self._speaker_matches() if self.find_edit.text() else 0
        if not self.find_edit.text():
            self.count_label.setText("")
        elif not editable:
            self.count_label.setText(self.tr("Select a transcribed file in the list to search its transcript."))
        else:
            self.count_label.setText(self.tr("{count} match(es)").format(count=count))
        self.find_next_button.setEnabled(editable and count > 0)
        self.replace_button.setEnabled(editable and count > 0)
        self.replace_all_button.setEnabled(editable and count > 0)

    # -- the buttons ---------------------------------------------------------------------------

    @Slot()
    def find_next(self) -> bool:
        """Select the line of the next match after the last one found (or after the selected line),
        from the top again after the last; False when there is none."""
        matches = self._matches()
        if not matches:
            self._current = None
            return False
        if self._current is not None:
            after = self._current
        else:
            row = self._context.current_row()
            after = (row - 1, 1 << 30) if row is not None else (-1, 0)
        following = [m for m in matches if (m[0], m[1]) > after]
        row, start, _end = (following or matches)[0]
        self._current = (row, start)
        self._context.select_row(row)
        return True

    @Slot()
    def replace_one(self) -> None:
        """Replace the match Find next selected (finding the next one first when none is), then move on."""
        transcript = self._model.transcript
        if transcript is None:
            return
        if self._current is None and not self.find_next():
            return
        row, start = self._current
        change = edits.replace_at(transcript, self.search(), self.replace_edit.text(), row, start)
        if change is not None:
            self._model.commit(change)
            # The next match is after the replacement in the same line.
            self._current = (row, start + len(self.replace_edit.text()) - 1)
        self.find_next()

    @Slot()
    def replace_all(self) -> None:
        transcript = self._model.transcript
        if transcript is None:
            return
        change, count = edits.replace_all(transcript, self.search(), self.replace_edit.text(),
                                          in_speaker_names=self.speakers_box.isChecked())
        self._current = None
        if self._model.commit(change):
            self._context.say(self.tr("{count} match(es) replaced.").format(count=count))
