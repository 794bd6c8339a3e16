"""In the real window: a transcript changed since its export is marked “•” in the queue row and the
window's title, the export bar says where it was exported, Undo back to the exported text takes the
mark away, removing the row names it, File → Revert to the transcription brings back what Whisper
wrote (undoably), and Undo puts the cursor back on the line that was edited."""
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from desktop import APP_NAME
from desktop.core.transcription.autosave import AutosaveStore, default_path
from desktop.ui.transcribe import remove_prompt
from desktop.ui.transcribe.editor.segments_model import SegmentsModel
from desktop.ui.transcribe.queue_model import QueueModel
from desktop.workers.transcription_queue import ItemState
from tests.ui.transcribe.test_transcribe_tab import wait_until_settled
from tests.ui.transcribe.editor.test_autosave_window import close, copy_of, open_window, texts
from tests.ui.transcribe.editor.test_editor_window import saved, select_line, shown, timed_transcript

pytestmark = pytest.mark.slow


@pytest.fixture
def recording(tmp_path):
    source = copy_of("jfk.flac", tmp_path / "in")
    store = AutosaveStore(default_path())
    saved(store, source, timed_transcript(source))
    store.close()
    return source


def row_name(tab) -> str:
    return tab.queue_model.index(0, QueueModel.FILE).data()


def edit_line(tab, row: int, text: str) -> None:
    model = tab.transcript_panel.segments_model
    assert model.setData(model.index(row, SegmentsModel.TEXT), text)


def export(qtbot, tab, folder) -> None:
    bar = tab.export_bar
    for fmt, box in bar.format_boxes.items():
        box.setChecked(fmt == "srt")
    tab.set_export_folder(folder)
    qtbot.mouseClick(bar.export_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bar.done_message is not None and bar.done_message.isVisible(), timeout=30_000)
    bar.done_message.close()


def test_a_transcript_changed_since_its_export_is_marked_in_the_row_the_title_and_the_export_bar(
        qtbot, settings, recording, tmp_path):
    window, tab, view = shown(qtbot, settings)
    bar = tab.export_bar
    assert row_name(tab) == "jfk.flac" and window.windowTitle() == APP_NAME
    edit_line(tab, 1, " ask not what your office can do for you,")
    assert row_name(tab) == "• jfk.flac", "edited and never exported"
    assert window.windowTitle() == f"• jfk.flac — {APP_NAME}"
    out = tmp_path / "out"
    out.mkdir()
    export(qtbot, tab, out)
    assert row_name(tab) == "jfk.flac" and window.windowTitle() == APP_NAME and bar.changed_note.isHidden()

    edit_line(tab, 2, " ask what you can do today")
    assert row_name(tab) == "• jfk.flac" and window.windowTitle() == f"• jfk.flac — {APP_NAME}"
    assert not bar.changed_note.isHidden()
    assert "changed since you exported it" in bar.changed_note.text() and str(out) in bar.changed_note.text()
    tab.transcript_panel.undo_action.trigger()  # Edit → Undo
    assert row_name(tab) == "jfk.flac", "back to the exported text"
    assert bar.changed_note.isHidden() and window.windowTitle() == APP_NAME
    close(qtbot, window)


def test_removing_a_row_changed_since_its_export_names_it_in_the_question(qtbot, settings, recording,
                                                                           monkeypatch):
    window, tab, view = shown(qtbot, settings)
    edit_line(tab, 0, " And so, my fellow Americans,")
    asked = []
    monkeypatch.setattr(remove_prompt, "ask_keep_transcripts",
                        lambda parent, names, changed=(): asked.append((names, changed)) or True)
    tab.queue_view.selectRow(0)
    tab.queue_panel.remove_selected()
    assert asked == [(["jfk.flac"], ["jfk.flac"])]
    assert tab.changed_since_export() == []
    close(qtbot, window)


def test_undo_puts_the_selection_back_on_the_line_that_was_edited(qtbot, settings, recording):
    window, tab, view = shown(qtbot, settings)
    panel = tab.transcript_panel
    select_line(view, 2)
    edit_line(tab, 2, " ask what you can do now")
    select_line(view, 0)  # the user moves on
    panel.undo_action.trigger()  # Edit → Undo
    assert panel.selected_rows() == [2]
    close(qtbot, window)


def test_revert_to_the_transcription_brings_back_what_whisper_wrote_and_undo_the_corrections(
        qtbot, window, tab, jfk):
    tab.add_paths([jfk])
    wait_until_settled(qtbot, tab, 1)
    assert tab.queue.items[0].state is ItemState.DONE
    tab.queue_view.selectRow(0)
    panel = tab.transcript_panel
    transcript = tab.queue.items[0].transcript
    whisper = [segment.text for segment in transcript.segments]
    assert whisper and not panel.revert_action.isEnabled(), "nothing to revert yet"
    edit_line(tab, 0, " Corrected by hand.")
    assert panel.revert_action.isEnabled() and panel.revert_action in window.file_menu.actions()
    panel.revert_action.trigger()
    assert [segment.text for segment in transcript.segments] == whisper
    panel.undo_action.trigger()
    assert transcript.segments[0].text == " Corrected by hand."


def test_closing_names_the_transcripts_changed_since_their_export_and_cancel_keeps_the_window(
        qtbot, settings, recording, tmp_path):
    window, tab, _view = shown(qtbot, settings)
    edit_line(tab, 1, " ask not what your office can do for you,")
    out = tmp_path / "out"
    out.mkdir()
    export(qtbot, tab, out)
    edit_line(tab, 1, " ask not what your team can do for you,")
    window.close()
    question = window.close_question
    assert question is not None and question.isVisible(), "changed since its export: the window asks"
    assert "jfk.flac" in question.informativeText()
    assert "changed since you exported them" in question.text()
    qtbot.mouseClick(question.button(QMessageBox.StandardButton.Cancel), Qt.MouseButton.LeftButton)
    assert window.isVisible() and window.close_question is None, "Cancel keeps the window open"
    close(qtbot, window)  # asked again, answered "Close anyway"
    assert not window.isVisible()
    again = open_window(qtbot, settings)
    again.transcribe_tab.queue_view.selectRow(0)
    qtbot.waitUntil(lambda: len(texts(again.transcribe_tab)) > 1)
    assert "your team can do" in texts(again.transcribe_tab)[1], "it stays saved in VoxDesk"
    close(qtbot, again)


def test_closing_with_nothing_changed_since_export_asks_nothing(qtbot, settings, recording, tmp_path):
    window, tab, _view = shown(qtbot, settings)
    edit_line(tab, 1, " ask not what your office can do for you,")
    out = tmp_path / "out"
    out.mkdir()
    export(qtbot, tab, out)
    window.close()
    assert window.close_question is None and not window.isVisible(), "exported as it is: no question"
    qtbot.waitUntil(lambda: not window.runner.busy)
