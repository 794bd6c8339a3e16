"""The text to read aloud: the editor, its character count, "Open text file…" and the sentence being played."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal, Slot
from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QFileDialog, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QTextEdit, QVBoxLayout, QWidget

from desktop.core.common.errors import UserFacingError
from desktop.core.common.i18n import N_

_HIGHLIGHT = QColor(255, 236, 153)


def utf16_offset(text: str, index: int) -> int:
    """Qt counts positions in UTF-16 code units: an emoji is one Python character but two units."""
    return len(text[:index].encode("utf-16-le")) // 2


class EditorPanel(QWidget):
    text_changed = Signal()
    status = Signal(object)  # a sentence for the status line (a core Message)
    failed = Signal(object)  # the sentence saying why a text file could not be opened

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.text_label = QLabel()
        self.count_label = QLabel()
        self.open_button = QPushButton()
        self.editor = QPlainTextEdit()
        self._highlighted_in = ""  # the text the highlight was made for

        top = QHBoxLayout()
        top.addWidget(self.text_label)
        top.addStretch(1)
        top.addWidget(self.count_label)
        top.addWidget(self.open_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.editor, 1)

        self.editor.textChanged.connect(self._on_text_changed)
        self.open_button.clicked.connect(self.choose_text_file)

    def retranslate(self) -> None:
        self.text_label.setText(self.tr("Text:"))
        self.editor.setPlaceholderText(self.tr("Type or paste the text to read aloud: a notice, an "
                                               "announcement, a training script. Chinese, English or both."))
        self.open_button.setText(self.tr("Open text file…"))
        self._show_count()

    def text(self) -> str:
        return self.editor.toPlainText()

    @Slot()
    def choose_text_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open a text file"), "",
                                              self.tr("Text files (*.txt);;All files (*)"))
        if path:
            self.open_text_file(Path(path))

    def open_text_file(self, path: Path) -> bool:
        """Put the text of a .txt file in the editor; False (with the reason said) when it cannot be read."""
        from desktop.core.speech.sentences import read_text_file

        try:
            text = read_text_file(path)
        except UserFacingError as error:
            self.failed.emit(error.message)
            return False
        self.editor.setPlainText(text)
        self.status.emit(N_("SynthesizeTab", "Opened “{name}”.").format(name=path.name))
        return True

    @Slot()
    def _on_text_changed(self) -> None:
        self._show_count()
        if self.editor.extraSelections() and self.text() != self._highlighted_in:
            self.clear_highlight()  # the highlight no longer matches the text
        self.text_changed.emit()

    def _show_count(self) -> None:
        self.count_label.setText(self.tr("{count} characters").format(count=f"{len(self.text()):,}"))

    def highlight(self, text: str, start: int, end: int) -> None:
        """Mark text[start:end] (Python indices) as the sentence being played, if the editor still holds text."""
        if self.text() != text:
            self.clear_highlight()
            return
        cursor = QTextCursor(self.editor.document())
        cursor.setPosition(utf16_offset(text, start))
        cursor.setPosition(utf16_offset(text, end), QTextCursor.MoveMode.KeepAnchor)
        fmt = QTextCharFormat()
        fmt.setBackground(_HIGHLIGHT)
        selection = QTextEdit.ExtraSelection()
        selection.cursor = cursor
        selection.format = fmt
        self._highlighted_in = text
        self.editor.setExtraSelections([selection])
        self.editor.setTextCursor(QTextCursor(cursor.block()))
        self.editor.ensureCursorVisible()

    def clear_highlight(self) -> None:
        self.editor.setExtraSelections([])

    def highlighted_text(self) -> str:
        """The text highlighted in the editor (the sentence being played), or ""."""
        selections = self.editor.extraSelections()
        return selections[0].cursor.selectedText() if selections else ""
