"""Edit → Find and replace… in the real window: the count follows what is typed, Find next selects the
line, Replace changes one match and Replace all every one, each taken back with Ctrl+Z."""
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QInputMethodEvent
from PySide6.QtWidgets import QApplication

from desktop.core.transcription.autosave import AutosaveStore, default_path
from desktop.core.transcription.transcript import Segment, Transcript
from tests.ui.transcribe.editor.test_autosave_window import close, copy_of, texts
from tests.ui.transcribe.editor.test_editor_window import CTRL, press, saved, shown

pytestmark = pytest.mark.slow


def chinese_transcript(source) -> Transcript:
    return Transcript(segments=[
        Segment(0.0, 2.0, "北京欢迎你", speaker=1),
        Segment(2.5, 4.0, "我住在北京，也爱北京", speaker=2),
        Segment(4.5, 6.0, "上海很大", speaker=1),
    ], speaker_names={1: "北京的王先生"}, language="zh", duration=6.0, source=str(source))


@pytest.fixture
def chinese_source(tmp_path):
    source = copy_of("jfk.flac", tmp_path / "in", "meeting.flac")
    store = AutosaveStore(default_path())
    saved(store, source, chinese_transcript(source))
    store.close()
    return source


def type_with_input_method(widget, text: str) -> None:
    """Chinese as it is typed: the input method commits the characters to the field."""
    event = QInputMethodEvent()
    event.setCommitString(text)
    QApplication.sendEvent(widget, event)


def tick(qtbot, box) -> None:
    qtbot.keyClick(box, Qt.Key.Key_Space)


def opened_dialog(qtbot, view, panel):
    press(qtbot, view, Qt.Key.Key_H, CTRL)
    dialog = panel._find_dialog
    qtbot.waitUntil(lambda: dialog is not None and dialog.isVisible())
    return dialog


def test_replace_all_in_a_chinese_transcript_and_ctrl_z_restores_it(qtbot, settings, chinese_source):
    window, tab, view = shown(qtbot, settings)
    panel = tab.transcript_panel
    before = texts(tab)
    transcript = tab.queue.items[0].transcript
    dialog = opened_dialog(qtbot, view, panel)
    assert not dialog.isModal(), "the table can still be edited with the dialog open"
    type_with_input_method(dialog.find_edit, "北京")
    assert dialog.count_label.text() == "3 match(es)"
    tick(qtbot, dialog.speakers_box)
    assert dialog.count_label.text() == "4 match(es)", "the speaker's name too"
    type_with_input_method(dialog.replace_edit, "南京")
    qtbot.mouseClick(dialog.replace_all_button, Qt.MouseButton.LeftButton)
    assert texts(tab) == ["南京欢迎你", "我住在南京，也爱南京", "上海很大"]
    assert transcript.speaker_name(1) == "南京的王先生"
    assert dialog.count_label.text() == "0 match(es)"
    assert "replace “北京” (4×)" in panel.undo_action.text(), "one command for all of them"

    window.activateWindow()
    view.setFocus()
    press(qtbot, view, Qt.Key.Key_Z, CTRL)
    assert texts(tab) == before, "one Ctrl+Z takes back every replacement"
    assert transcript.speaker_name(1) == "北京的王先生"
    assert dialog.count_label.text() == "4 match(es)"
    close(qtbot, window)


def test_find_next_selects_each_line_and_replace_changes_one_match(qtbot, settings, chinese_source):
    window, tab, view = shown(qtbot, settings)
    panel = tab.transcript_panel
    dialog = opened_dialog(qtbot, view, panel)
    type_with_input_method(dialog.find_edit, "北京")
    type_with_input_method(dialog.replace_edit, "南京")
    qtbot.mouseClick(dialog.find_next_button, Qt.MouseButton.LeftButton)
    assert panel.selected_rows() == [0], "the search starts on the selected line"
    qtbot.mouseClick(dialog.find_next_button, Qt.MouseButton.LeftButton)
    assert panel.selected_rows() == [1]
    qtbot.mouseClick(dialog.replace_button, Qt.MouseButton.LeftButton)
    assert texts(tab) == ["北京欢迎你", "我住在南京，也爱北京", "上海很大"], "one match replaced"
    assert panel.selected_rows() == [1], "the next match is further along the same line"
    qtbot.mouseClick(dialog.replace_button, Qt.MouseButton.LeftButton)
    assert texts(tab)[1] == "我住在南京，也爱南京"
    assert panel.selected_rows() == [0], "after the last line, from the top again"
    assert dialog.count_label.text() == "1 match(es)"

    view.setFocus()
    press(qtbot, view, Qt.Key.Key_Z, CTRL)
    assert texts(tab)[1] == "我住在南京，也爱北京", "each Replace is undone on its own"
    close(qtbot, window)


def test_whole_words_and_match_case_in_latin_text(qtbot, settings, tmp_path):
    source = copy_of("jfk.flac", tmp_path / "in")
    store = AutosaveStore(default_path())
    saved(store, source, Transcript(segments=[Segment(0.0, 2.0, " The cat sat"), Segment(2.5, 4.0, " Category Cat")],
                                    language="en", duration=4.0, source=str(source)))
    store.close()
    window, tab, view = shown(qtbot, settings)
    dialog = opened_dialog(qtbot, view, tab.transcript_panel)
    qtbot.keyClicks(dialog.find_edit, "cat")
    assert dialog.count_label.text() == "3 match(es)"
    tick(qtbot, dialog.whole_words_box)
    assert dialog.count_label.text() == "2 match(es)"
    tick(qtbot, dialog.match_case_box)
    assert dialog.count_label.text() == "1 match(es)"
    dialog.close()
    view.setFocus()
    press(qtbot, view, Qt.Key.Key_F, CTRL)
    qtbot.waitUntil(dialog.isVisible)
    assert dialog.find_edit.selectedText() == "cat", "Ctrl+F opens it too, what was sought ready to type over"
    close(qtbot, window)
