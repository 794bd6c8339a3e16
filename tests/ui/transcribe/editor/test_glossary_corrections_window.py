"""The glossary's corrections in the real window: each is highlighted with what was heard on hover, is
undone from the line's context menu or all at once from the Edit menu, comes back with Ctrl+Z, and
what is undone is saved like any edit."""
import pytest
from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QApplication, QToolTip

from desktop.core.glossary.correction import correct
from desktop.core.glossary.glossary_file import Term
from desktop.core.transcription.autosave import AutosaveStore, default_path
from desktop.core.transcription.transcript import Segment, Transcript
from desktop.ui.transcribe.editor.segments_model import SegmentsModel
from desktop.ui.transcribe.editor.transcript_view import CORRECTED_BACKGROUND
from tests.ui.transcribe.editor.test_autosave_window import close, copy_of, reopened, texts
from tests.ui.transcribe.editor.test_editor_window import CTRL, press, select_line, shown

pytestmark = pytest.mark.slow

HEARD = ["And so my fellow vox desk users,", "ask not what your country can do for you,", "ask what you can do",
         "for your country, Marian."]
CORRECTED = ["And so my fellow VoxDesk users,", HEARD[1], HEARD[2], "for your country, Marion."]


@pytest.fixture
def corrected_file(tmp_path):
    """A recording whose transcript the glossary corrected in two lines, saved as a finished one."""
    source = copy_of("jfk.flac", tmp_path / "in")
    transcript = Transcript(segments=[Segment(0.0, 3.0, " " + HEARD[0]), Segment(3.2, 5.5, " " + HEARD[1]),
                                      Segment(5.5, 8.0, " " + HEARD[2]), Segment(8.5, 11.0, " " + HEARD[3])],
                            language="en", duration=11.0, source=str(source))
    correct(transcript, [Term("VoxDesk", ("vox desk",)), Term("Marion", ("Marian",))])
    assert [s.text.strip() for s in transcript.segments] == CORRECTED
    store = AutosaveStore(default_path())
    item_id = store.add_item(source)
    store.save_transcript(item_id, transcript)
    store.set_status(item_id, "done")
    store.close()
    return source


def highlighted(view, row: int) -> bool:
    """Whether the line's text cell, as painted on the screen, shows the corrected-term colour."""
    view.viewport().repaint()
    image = view.viewport().grab().toImage()
    ratio = image.devicePixelRatio()
    rect = view.visualRect(view.model().index(row, SegmentsModel.TEXT))
    wanted = CORRECTED_BACKGROUND.rgb()
    return any(image.pixel(int(x * ratio), int(y * ratio)) == wanted
               for x in range(rect.left(), rect.right()) for y in range(rect.top(), rect.bottom(), 2))


def hover_text(qtbot, view, row: int) -> str:
    """The tooltip shown when the pointer rests on the line's text."""
    centre = view.visualRect(view.model().index(row, SegmentsModel.TEXT)).center()
    QApplication.sendEvent(view.viewport(), QHelpEvent(QEvent.Type.ToolTip, centre, view.viewport().mapToGlobal(centre)))
    qtbot.waitUntil(QToolTip.isVisible)
    text = QToolTip.text()
    QToolTip.hideText()
    return text


def choose_in_context_menu(qtbot, view, row: int, wanted: str) -> list[str]:
    """Right-click the line, pick the item `wanted`; returns what the menu listed."""
    listed = []

    def pick():
        menu = QApplication.activePopupWidget()
        if menu is None:  # not open yet
            QTimer.singleShot(10, pick)
            return
        actions = {action.text(): action for action in menu.actions() if action.text()}
        listed.extend(actions)
        menu.close()
        if wanted in actions:
            actions[wanted].trigger()
    select_line(view, row)
    QTimer.singleShot(0, pick)
    view.customContextMenuRequested.emit(view.visualRect(view.model().index(row, SegmentsModel.TEXT)).center())
    qtbot.waitUntil(lambda: bool(listed))
    # A closed popup leaves the offscreen platform without an active window; a desktop gives it back.
    view.window().activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is view.window())
    return listed


def test_a_correction_is_highlighted_with_what_was_heard_on_hover(qtbot, settings, corrected_file):
    window, tab, view = shown(qtbot, settings)
    assert texts(tab) == CORRECTED
    assert highlighted(view, 0) and highlighted(view, 3)
    assert not highlighted(view, 1), "a line the glossary left alone is painted as before"
    assert "“VoxDesk”: heard as “vox desk”; corrected by the glossary" in hover_text(qtbot, view, 0)
    assert "glossary" not in hover_text(qtbot, view, 1)
    close(qtbot, window)


def test_one_correction_is_undone_from_the_context_menu_and_ctrl_z_brings_it_back(qtbot, settings,
                                                                                    corrected_file):
    window, tab, view = shown(qtbot, settings)
    panel = tab.transcript_panel
    undo_one = "Undo glossary correction “VoxDesk” → back to “vox desk”"
    assert undo_one in choose_in_context_menu(qtbot, view, 0, undo_one)
    assert texts(tab) == [HEARD[0], *CORRECTED[1:]], "only that correction was undone"
    assert not highlighted(view, 0) and highlighted(view, 3)
    assert panel.undo_action.text().replace("&", "") == "Undo restore “vox desk” in line 1"
    listed = choose_in_context_menu(qtbot, view, 0, "")
    assert not any(text.startswith("Undo glossary correction") for text in listed), "nothing left to undo there"

    view.setFocus()
    press(qtbot, view, Qt.Key.Key_Z, CTRL)
    assert texts(tab) == CORRECTED, "Ctrl+Z puts the correction back"
    assert highlighted(view, 0)
    assert "heard as “vox desk”" in hover_text(qtbot, view, 0)
    close(qtbot, window)


def test_all_corrections_are_undone_from_the_edit_menu_as_one_step_and_saved(qtbot, settings, corrected_file):
    window, tab, view = shown(qtbot, settings)
    undo_all = next(action for action in window.edit_menu.actions()
                    if action.text().replace("&", "") == "Undo all glossary corrections")
    assert undo_all.isEnabled()
    undo_all.trigger()
    assert texts(tab) == HEARD
    assert tab.transcript_panel.undo_action.text().replace("&", "") == "Undo remove all glossary corrections (2)"
    assert not undo_all.isEnabled(), "nothing left to undo"
    assert not highlighted(view, 0) and not highlighted(view, 3)
    view.setFocus()
    press(qtbot, view, Qt.Key.Key_Z, CTRL)
    assert texts(tab) == CORRECTED, "one Ctrl+Z brings every correction back"
    assert undo_all.isEnabled()
    undo_all.trigger()

    window = reopened(qtbot, window, settings)
    tab = window.transcribe_tab
    tab.queue_view.selectRow(0)
    assert texts(tab) == HEARD, "the undone corrections were saved"
    assert not tab.transcript_panel.undo_corrections_action.isEnabled()
    close(qtbot, window)
