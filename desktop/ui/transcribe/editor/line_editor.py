"""The box a line of the transcript is typed in (the table's item editor).

Qt selects all of an item editor's text when it opens, so the first key typed would replace the line;
this editor puts the caret at the end instead when it gets the focus. Given the editor's SpellingMarks
(the text column), it underlines the words spelled wrong as the line is typed, as the table does:
the same checker and the same words (glossary terms and speakers' names count, Chinese is never
checked, nothing while the dictionary is still opening or where there is none). The word being typed
is left alone until the caret leaves it, as word processors do.

A QLineEdit formats part of its text only for an input method, which underlines what it is
composing: the underlines are handed to the box as an input method's formats, in an event without
text. None is sent while an input method is composing, and they are put back after each of its events.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QColor, QInputMethodEvent, QTextCharFormat
from PySide6.QtWidgets import QLineEdit, QWidget

if TYPE_CHECKING:
    from desktop.ui.transcribe.editor.spelling_marks import SpellingMarks

MISSPELLED_UNDERLINE = QColor("#d0021b")  # the red wave under a word spelled wrong, as word processors draw it


def misspelled_format() -> QTextCharFormat:
    """How a word spelled wrong is drawn: a red spell-check wave under it."""
    underlined = QTextCharFormat()
    underlined.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SpellCheckUnderline)
    underlined.setUnderlineColor(MISSPELLED_UNDERLINE)
    return underlined


class LineEditor(QLineEdit):
    def __init__(self, parent: QWidget | None = None, spelling: SpellingMarks | None = None) -> None:
        super().__init__(parent)
        self._spelling = spelling
        self._composing = False  # an input method is composing text in the box
        self._typing_at: int | None = None  # the caret just after the user changed the text, until it moves
        self.underlined: list[tuple[int, int]] | None = []  # (start, end) of each word underlined; None: unknown
        self.given_text: str | None = None  # the line's text as the model gave it (LineTextDelegate)
        if spelling is not None:
            self.textEdited.connect(self._typed)
            self.textChanged.connect(self.underline_misspellings)
            self.cursorPositionChanged.connect(self._caret_moved)

    def focusInEvent(self, event) -> None:  # noqa: N802 - Qt naming
        super().focusInEvent(event)
        if self.hasSelectedText() and self.selectedText() == self.text():
            self.deselect()
            self.end(False)

    def underline_misspellings(self) -> None:
        """Underline the words of the text spelled wrong now (after an edit, or when the checker is
        ready or knows other words)."""
        if self._spelling is None or self._composing:
            return
        typing = self._typing_at
        spans = [(m.start, m.end) for m in self._spelling.misspellings(self.text())
                 if typing is None or not m.start <= typing <= m.end]
        if spans == self.underlined:
            return  # formats keep their places in the text: nothing to draw again
        underlined = misspelled_format()
        caret = self.cursorPosition()  # an input method's formats are placed from the caret
        super().inputMethodEvent(QInputMethodEvent("", [
            QInputMethodEvent.Attribute(QInputMethodEvent.AttributeType.TextFormat, start - caret, end - start,
                                        underlined)
            for start, end in spans]))
        self.underlined = spans

    def inputMethodEvent(self, event: QInputMethodEvent) -> None:  # noqa: N802 - Qt naming
        self._composing = bool(event.preeditString())
        super().inputMethodEvent(event)
        self.underlined = None  # the input method's event put its own formats in place of the underlines
        self.underline_misspellings()

    def _typed(self, _text: str) -> None:
        self._typing_at = self.cursorPosition()
        self.underline_misspellings()

    def _caret_moved(self, _old: int, new: int) -> None:
        if self._typing_at is not None and new != self._typing_at:
            self._typing_at = None
            self.underline_misspellings()
