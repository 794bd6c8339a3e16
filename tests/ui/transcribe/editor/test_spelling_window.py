"""Spell checking in the real window: English words spelled wrong are underlined in the text column,
the context menu offers what to write instead (undoable), speakers' names count as words, and a
Chinese transcript is not checked."""
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QMenu

from desktop.core.transcription.autosave import AutosaveStore, default_path
from desktop.core.transcription.transcript import Segment, Transcript
from desktop.ui.transcribe.editor.segments_model import SegmentsModel
from tests.ui.transcribe.editor.test_autosave_window import copy_of, open_window
from tests.ui.transcribe.editor.test_editor_window import CTRL, saved, select_line

pytestmark = pytest.mark.slow

ENGLISH_LINE = "Please recieve the minutes from Kowalczyk."


@pytest.fixture
def transcripts(tmp_path):
    english = copy_of("jfk.flac", tmp_path / "in")
    chinese = copy_of("jfk.flac", tmp_path / "in", "chinese.flac")
    store = AutosaveStore(default_path())
    saved(store, english, Transcript(segments=[
        Segment(0.0, 3.0, " " + ENGLISH_LINE, speaker=1), Segment(3.2, 5.5, " All is well.", speaker=2)],
        language="en", duration=11.0, source=str(english), speaker_names={1: "Anna Kowalczyk", 2: "Bob"}))
    saved(store, chinese, Transcript(segments=[Segment(0.0, 3.0, "我们今天开会 recieve")], language="zh",
                                     duration=11.0, source=str(chinese)))
    store.close()
    return english, chinese


def shown(qtbot, settings, row):
    window = open_window(qtbot, settings)
    tab = window.transcribe_tab
    qtbot.keyClick(tab.queue_view, Qt.Key.Key_Escape)
    tab.queue_view.selectRow(row)
    return window, tab.transcript_panel


def point_on(panel, row: int, offset: int) -> QPoint:
    """A point of the viewport over the given place of a line's text, found as the menu finds words."""
    from PySide6.QtWidgets import QStyleOptionViewItem

    index = panel.search_model.index(row, SegmentsModel.TEXT)
    rect = panel.view.visualRect(index)
    option = QStyleOptionViewItem()
    panel.view.initViewItemOption(option)
    option.rect = rect
    for x in range(rect.left(), rect.right()):
        point = QPoint(x, rect.center().y())
        if panel.view.text_delegate.text_offset_at(index, point, option) == offset:
            return point
    raise AssertionError(f"no point over offset {offset}")


def test_a_misspelled_word_is_underlined_and_its_suggestion_replaces_it_undoably(qtbot, settings, transcripts):
    window, panel = shown(qtbot, settings, 0)
    index = panel.search_model.index(0, SegmentsModel.TEXT)
    qtbot.waitUntil(lambda: bool(index.data(SegmentsModel.MisspelledSpansRole)), timeout=20_000)
    start = ENGLISH_LINE.index("recieve")
    # Only "recieve": the speaker's name Kowalczyk counts as a word.
    assert index.data(SegmentsModel.MisspelledSpansRole) == [(start, start + len("recieve"))]
    assert panel.search_model.index(1, SegmentsModel.TEXT).data(SegmentsModel.MisspelledSpansRole) == []
    menu = QMenu()
    actions = panel._spelling_actions(index, point_on(panel, 0, start + 3), menu)
    assert "receive" in [action.text() for action in actions]
    assert panel._spelling_actions(index, point_on(panel, 0, ENGLISH_LINE.index("minutes") + 2), menu) == []
    next(action for action in actions if action.text() == "receive").trigger()
    transcript = panel.segments_model.transcript
    assert transcript.segments[0].text.strip() == ENGLISH_LINE.replace("recieve", "receive")
    assert panel.search_model.index(0, SegmentsModel.TEXT).data(SegmentsModel.MisspelledSpansRole) == []
    select_line(panel.view, 0)
    qtbot.keyClick(panel.view, Qt.Key.Key_Z, CTRL)
    assert transcript.segments[0].text.strip() == ENGLISH_LINE


def test_a_chinese_transcript_is_not_spell_checked(qtbot, settings, transcripts):
    window, panel = shown(qtbot, settings, 0)
    qtbot.waitUntil(lambda: panel.spelling.ready, timeout=20_000)
    window.transcribe_tab.queue_view.selectRow(1)
    assert panel.segments_model.transcript.language == "zh"
    index = panel.search_model.index(0, SegmentsModel.TEXT)
    assert index.data(SegmentsModel.MisspelledSpansRole) == []


def open_editor(qtbot, panel, row: int):
    """The box of a line opened with F2, as the user opens it."""
    select_line(panel.view, row)
    panel.view.setFocus()
    qtbot.keyClick(panel.view, Qt.Key.Key_F2)
    editor = panel.view.text_delegate.open_editor
    assert editor is not None
    return editor


def red_columns(editor, start: int, end: int) -> int:
    """How many columns of pixels between the places start and end of the box's text have red in them
    (the spell-check wave)."""
    def x_of(position: int) -> int:
        editor.setCursorPosition(position)
        return int(editor.inputMethodQuery(Qt.InputMethodQuery.ImCursorRectangle).x())

    image = editor.grab().toImage()
    left, right = max(0, x_of(start)), x_of(end)
    assert left < right <= image.width()
    return sum(1 for x in range(left, right)
               if any(image.pixelColor(x, y).red() - max(image.pixelColor(x, y).green(), image.pixelColor(x, y).blue()) > 60
                      for y in range(image.height())))


def test_a_word_spelled_wrong_is_underlined_in_the_box_as_the_line_is_typed(qtbot, settings, transcripts):
    window, panel = shown(qtbot, settings, 0)
    qtbot.waitUntil(lambda: panel.spelling.ready, timeout=20_000)
    editor = open_editor(qtbot, panel, 0)
    assert editor.text() == ENGLISH_LINE
    start = ENGLISH_LINE.index("recieve")
    minutes = ENGLISH_LINE.index("minutes")
    assert red_columns(editor, start, start + len("recieve")) > 10
    assert red_columns(editor, minutes, minutes + len("minutes")) == 0
    # Only "recieve": the speaker's name Kowalczyk counts as a word.
    assert editor.underlined == [(start, start + len("recieve"))]
    # A word is underlined once typed, not while it is being typed.
    editor.end(False)
    qtbot.keyClicks(editor, " Thier")
    assert editor.underlined == [(start, start + len("recieve"))]
    qtbot.keyClicks(editor, " ")
    thier = len(ENGLISH_LINE) + 1
    assert editor.underlined == [(start, start + len("recieve")), (thier, thier + len("Thier"))]
    # Typing before a word moves its underline with it.
    editor.setCursorPosition(0)
    qtbot.keyClicks(editor, "Do ")
    assert editor.underlined == [(start + 3, start + 3 + len("recieve")), (thier + 3, thier + 3 + len("Thier"))]
    assert red_columns(editor, start + 3, start + 3 + len("recieve")) > 10
    assert red_columns(editor, 0, len("Do Please")) == 0


def test_the_box_of_a_chinese_line_underlines_nothing(qtbot, settings, transcripts):
    window, panel = shown(qtbot, settings, 0)
    qtbot.waitUntil(lambda: panel.spelling.ready, timeout=20_000)
    window.transcribe_tab.queue_view.selectRow(1)
    editor = open_editor(qtbot, panel, 0)
    qtbot.keyClicks(editor, " thier ")
    assert "recieve" in editor.text() and editor.underlined == []


def test_what_is_typed_in_a_one_line_transcript_survives_the_spell_checker_becoming_ready(qtbot, settings, tmp_path):
    # A transcript of one line: the checker's "paint the text column again" is then a change of that one
    # cell, which Qt answers by giving an open editor the line's text again, over what was typed.
    source = copy_of("jfk.flac", tmp_path / "in")
    store = AutosaveStore(default_path())
    saved(store, source, Transcript(segments=[Segment(0.0, 3.0, " And so, my fellow Americans")], language="en",
                                    duration=11.0, source=str(source)))
    store.close()
    window, panel = shown(qtbot, settings, 0)
    editor = open_editor(qtbot, panel, 0)
    qtbot.keyClicks(editor, ", ask not")
    panel.segments_model.spelling_changed()  # as when the dictionary opens while the line is typed
    assert editor.text() == "And so, my fellow Americans, ask not"
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: panel.segments_model.segment(0).text.strip() == "And so, my fellow Americans, ask not")
