"""The box a line is typed in keeps an input method's composing intact: the spelling underlines wait
until the input method is done, and come back after it."""
from PySide6.QtGui import QInputMethodEvent

from desktop.core.transcription.spelling import Misspelling
from desktop.ui.transcribe.editor.line_editor import LineEditor


class MarksOf:
    """SpellingMarks as the box uses them: the words of a text spelled wrong (here, "teh")."""

    def misspellings(self, text: str) -> list[Misspelling]:
        found, start = [], text.find("teh")
        while start >= 0:
            found.append(Misspelling(start, start + 3, "teh"))
            start = text.find("teh", start + 1)
        return found


def test_an_input_methods_composing_is_left_alone_and_the_underlines_come_back_after_it(qtbot):
    editor = LineEditor(spelling=MarksOf())
    qtbot.addWidget(editor)
    editor.setText("see teh plan")
    assert editor.underlined == [(4, 7)]
    editor.setCursorPosition(0)
    editor.inputMethodEvent(QInputMethodEvent("ni", []))  # composing: no underline is sent over it
    assert editor.underlined is None
    editor.inputMethodEvent(QInputMethodEvent("nih", []))
    assert editor.underlined is None and editor.text() == "see teh plan"
    done = QInputMethodEvent("", [])
    done.setCommitString("你")
    editor.inputMethodEvent(done)
    assert editor.text() == "你see teh plan"
    assert editor.underlined == [(5, 8)]


def test_the_times_box_underlines_nothing(qtbot):
    editor = LineEditor()
    qtbot.addWidget(editor)
    editor.setText("teh 00:01")
    assert editor.underlined == []
