"""The editor's room in the real window at 1280×720: Larger editor folds the options and the file list
away so that many more lines are in sight, and the window remembers it."""
import pytest
from PySide6.QtCore import Qt

from desktop.core.transcription.autosave import AutosaveStore, default_path
from desktop.core.transcription.transcript import Segment, Transcript
from tests.ui.transcribe.editor.test_autosave_window import close, copy_of, open_window
from tests.ui.transcribe.editor.test_editor_window import saved

pytestmark = pytest.mark.slow


@pytest.fixture
def long_transcript(tmp_path):
    source = copy_of("jfk.flac", tmp_path / "in")
    store = AutosaveStore(default_path())
    saved(store, source, Transcript(segments=[Segment(i * 0.25, i * 0.25 + 0.2, f" Line number {i}.")
                                              for i in range(44)], language="en", duration=11.0, source=str(source)))
    store.close()
    return source


def lines_in_sight(panel) -> int:
    view = panel.view
    view.fit_rows_in_sight()
    height = view.viewport().height()
    return sum(1 for row in range(view.model().rowCount())
               if 0 <= view.rowViewportPosition(row) and view.rowViewportPosition(row) + view.rowHeight(row) <= height)


def test_the_larger_editor_shows_many_more_lines_at_1280_by_720_and_is_remembered(qtbot, settings, long_transcript):
    window = open_window(qtbot, settings)
    window.resize(1280, 720)
    tab = window.transcribe_tab
    qtbot.keyClick(tab.queue_view, Qt.Key.Key_Escape)
    tab.queue_view.selectRow(0)
    panel = tab.transcript_panel
    qtbot.waitUntil(lambda: panel.view.model().rowCount() == 44)
    qtbot.wait(50)
    before = lines_in_sight(panel)
    assert tab.editor_room_action in window.edit_menu.actions()
    qtbot.keyClick(panel.view, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert tab.editor_room_action.isChecked()
    assert not tab.queue_panel.isVisible() and not tab.options.isVisible()
    qtbot.wait(50)
    after = lines_in_sight(panel)
    assert after >= before + 6 and after >= 12, (before, after)
    assert tab.editor_room_action.text() == "Show the file list"
    close(qtbot, window)

    again = open_window(qtbot, settings)
    assert again.transcribe_tab.editor_room_action.isChecked()
    assert not again.transcribe_tab.queue_panel.isVisible()
    again.transcribe_tab.editor_room_action.trigger()
    assert again.transcribe_tab.queue_panel.isVisible()
    close(qtbot, again)
