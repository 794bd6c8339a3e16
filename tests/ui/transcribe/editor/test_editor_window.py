"""Editing a transcript in the real window with the keyboard: a stray key keeps the line, every edit
undoes with Ctrl+Z and comes back with Ctrl+Shift+Z, split and merge keep the words' times, each
file keeps its own history, and what is undone is saved like any edit."""
import copy

import pytest
from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtWidgets import QAbstractItemView

from desktop.core.transcription.autosave import AutosaveStore, default_path
from desktop.core.transcription.transcript import Segment, Transcript, Word
from desktop.ui.transcribe.editor.segments_model import SegmentsModel
from tests.helpers.killed_app import kill_while_typing
from tests.ui.transcribe.editor.test_autosave_window import close, copy_of, open_window, reopened, texts

pytestmark = pytest.mark.slow

CTRL = Qt.KeyboardModifier.ControlModifier
CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


def timed_transcript(source) -> Transcript:
    words = [(0.0, 0.4, " And"), (0.5, 0.8, " so"), (0.9, 1.2, " my"), (1.3, 1.8, " fellow"), (1.9, 2.9, " Americans,")]
    return Transcript(segments=[
        Segment(0.0, 3.0, "".join(w[2] for w in words), words=[Word(*w) for w in words]),
        Segment(3.2, 5.5, " ask not what your country can do for you,"),
        Segment(5.5, 8.0, " ask what you can do"),
        Segment(8.5, 11.0, " for your country."),
    ], language="en", duration=11.0, source=str(source))


def saved(store: AutosaveStore, source, transcript: Transcript) -> int:
    item_id = store.add_item(source)
    store.save_transcript(item_id, transcript)
    store.set_status(item_id, "done")
    return item_id


@pytest.fixture
def sources(tmp_path):
    first = copy_of("jfk.flac", tmp_path / "in")
    second = copy_of("jfk.flac", tmp_path / "in", "second.flac")
    store = AutosaveStore(default_path())
    saved(store, first, timed_transcript(first))
    saved(store, second, timed_transcript(second))
    store.close()
    return first, second


def shown(qtbot, settings, row: int = 0):
    window = open_window(qtbot, settings)
    tab = window.transcribe_tab
    # Qt remembers the modifiers of the last key event, from the test before too: a plain key first, so
    # that selecting a row is not taken as Ctrl- or Shift-clicking it.
    qtbot.keyClick(tab.queue_view, Qt.Key.Key_Escape)
    tab.queue_view.selectRow(row)
    view = tab.transcript_panel.view
    view.setFocus()
    select_line(view, 0)
    return window, tab, view


def select_line(view, row: int) -> None:
    """Select one line, as a click on it does (without playing it)."""
    index = view.model().index(row, SegmentsModel.TEXT)
    view.selectionModel().setCurrentIndex(index, QItemSelectionModel.SelectionFlag.ClearAndSelect
                                          | QItemSelectionModel.SelectionFlag.Rows)


def press(qtbot, widget, key, modifiers=Qt.KeyboardModifier.NoModifier) -> None:
    """A key as the user types it on the transcript table (or in its open editor); an editor closed by
    it (Enter, Escape) is closed once this returns (Qt closes it from the event loop)."""
    editor = widget.text_delegate.open_editor
    qtbot.keyClick(editor or widget, key, modifiers)  # an open editor has the focus
    if key in (Qt.Key.Key_Return, Qt.Key.Key_Escape):
        qtbot.waitUntil(lambda: widget.state() != QAbstractItemView.State.EditingState)


def test_a_stray_key_on_a_selected_line_keeps_the_line(qtbot, settings, sources):
    window, tab, view = shown(qtbot, settings)
    press(qtbot, view, Qt.Key.Key_X)
    editor = tab.transcript_panel.view.text_delegate.open_editor
    assert editor is not None and editor.text() == "And so my fellow Americans,x"
    assert editor.cursorPosition() == len(editor.text()), "the caret is at the end"
    press(qtbot, view, Qt.Key.Key_Escape)
    assert texts(tab)[0] == "And so my fellow Americans,", "Escape cancels the edit"
    view.setFocus()
    press(qtbot, view, Qt.Key.Key_F2)
    press(qtbot, view, Qt.Key.Key_Exclam)
    press(qtbot, view, Qt.Key.Key_Return)
    assert texts(tab)[0] == "And so my fellow Americans,!"
    close(qtbot, window)


def test_ctrl_z_undoes_each_kind_of_edit_and_ctrl_shift_z_redoes_it(qtbot, settings, sources):
    window, tab, view = shown(qtbot, settings)
    panel = tab.transcript_panel
    transcript = tab.queue.items[0].transcript
    model = view.model()

    def text_edit():
        assert model.setData(model.index(1, SegmentsModel.TEXT), "ask not what your country can do for you;")

    def times_edit():
        assert model.setData(model.index(2, SegmentsModel.END), "00:00:08.250")

    def split():
        select_line(view, 0)
        press(qtbot, view, Qt.Key.Key_S, CTRL_SHIFT)

    def merge():
        select_line(view, 0)
        press(qtbot, view, Qt.Key.Key_M, CTRL)

    def insert():
        select_line(view, 2)
        press(qtbot, view, Qt.Key.Key_N, CTRL_SHIFT)

    def delete():
        select_line(view, 1)
        press(qtbot, view, Qt.Key.Key_Delete, CTRL_SHIFT)

    for name, edit, undo_text in [("text", text_edit, "Undo edit line 2"), ("times", times_edit, "Undo change the times of line 3"),
                                  ("split", split, "Undo split line 1"), ("merge", merge, "Undo merge line 1 with the next"),
                                  ("insert", insert, "Undo insert line 4"), ("delete", delete, "Undo delete line 2")]:
        before = copy.deepcopy(transcript.segments)
        edit()
        after = copy.deepcopy(transcript.segments)
        assert after != before, name
        assert panel.undo_action.text().replace("&", "") == undo_text
        view.setFocus()
        press(qtbot, view, Qt.Key.Key_Z, CTRL)
        assert transcript.segments == before, f"Ctrl+Z undoes the {name} edit"
        assert model.rowCount() == len(before)
        press(qtbot, view, Qt.Key.Key_Z, CTRL_SHIFT)
        assert transcript.segments == after, f"Ctrl+Shift+Z redoes the {name} edit"
    close(qtbot, window)


def test_split_and_merge_keep_the_words_times(qtbot, settings, sources):
    window, tab, view = shown(qtbot, settings)
    transcript = tab.queue.items[0].transcript
    original = copy.deepcopy(transcript.segments[0])
    select_line(view, 0)
    view.setFocus()
    press(qtbot, view, Qt.Key.Key_F2)
    editor = tab.transcript_panel.view.text_delegate.open_editor
    assert editor is not None, (view.state(), view.currentIndex().row(), view.currentIndex().column(),
                                bool(view.currentIndex().flags() & Qt.ItemFlag.ItemIsEditable))
    editor.setCursorPosition(len("And so my fel"))  # inside "fellow": the split moves to a word's end
    press(qtbot, view, Qt.Key.Key_S, CTRL_SHIFT)
    head, tail = transcript.segments[:2]
    assert texts(tab)[:2] in (["And so my", "fellow Americans,"], ["And so my fellow", "Americans,"])
    assert head.words[-1].end <= head.end == tail.start <= tail.words[0].start
    assert [w.start for w in head.words + tail.words] == [w.start for w in original.words]
    select_line(view, 0)
    press(qtbot, view, Qt.Key.Key_M, CTRL)
    assert transcript.segments[0] == original
    close(qtbot, window)


def test_each_file_keeps_its_history_and_undone_changes_are_saved(qtbot, settings, sources):
    window, tab, view = shown(qtbot, settings)
    model = view.model()
    assert model.setData(model.index(0, SegmentsModel.TEXT), "First file, edited")
    tab.queue_view.selectRow(1)
    assert not tab.transcript_panel.undo_action.isEnabled(), "the second file has no history yet"
    assert model.setData(model.index(3, SegmentsModel.TEXT), "Second file, edited")
    tab.queue_view.selectRow(0)
    view.setFocus()
    press(qtbot, view, Qt.Key.Key_Z, CTRL)
    assert texts(tab)[0] == "And so my fellow Americans,"
    tab.queue_view.selectRow(1)
    assert texts(tab)[3] == "Second file, edited", "undo in the first file left the second alone"

    window = reopened(qtbot, window, settings)
    tab = window.transcribe_tab
    tab.queue_view.selectRow(0)
    assert texts(tab)[0] == "And so my fellow Americans,", "the undo was saved"
    tab.queue_view.selectRow(1)
    assert texts(tab)[3] == "Second file, edited"
    close(qtbot, window)


def shown_texts(view) -> list[str]:
    """The lines the table lists (after its filters)."""
    model = view.model()
    return [model.index(row, SegmentsModel.TEXT).data() for row in range(model.rowCount())]


def test_hard_to_read_lines_are_marked_with_the_reason_and_can_be_shown_alone(qtbot, settings, sources):
    window, tab, view = shown(qtbot, settings)
    panel = tab.transcript_panel
    model = view.model()
    # 41 characters in 2.3 s: faster than the 17 a second a reader manages.
    tip = model.index(1, SegmentsModel.TEXT).data(Qt.ItemDataRole.ToolTipRole)
    assert "characters a second: more than a reader manages (17)" in tip
    assert model.index(0, SegmentsModel.TEXT).data(Qt.ItemDataRole.DecorationRole) is None
    panel.warnings_only_box.click()
    assert shown_texts(view) == ["ask not what your country can do for you,"]
    assert model.setData(model.index(0, SegmentsModel.TEXT), "ask not what your country can do")
    assert shown_texts(view) == [], "a line read comfortably now leaves the list of warnings"
    view.setFocus()
    press(qtbot, view, Qt.Key.Key_Z, CTRL)
    assert shown_texts(view) == ["ask not what your country can do for you,"]
    panel.warnings_only_box.click()
    assert len(shown_texts(view)) == 4
    close(qtbot, window)


def test_a_split_survives_the_app_being_killed(qtbot, settings, tmp_path):
    source = copy_of("jfk.flac", tmp_path / "in")
    store = AutosaveStore(default_path())
    saved(store, source, timed_transcript(source))
    store.close()
    kill_while_typing(qtbot, tmp_path, """
        panel.view.selectRow(0)
        panel.split_line()
        assert panel.segments_model.rowCount() == 5
    """, typing_row=4)

    window = open_window(qtbot, settings)
    tab = window.transcribe_tab
    tab.queue_view.selectRow(0)
    shown = texts(tab)
    assert len(shown) == 5 and " ".join(shown[:2]) == "And so my fellow Americans,"
    assert shown[4].startswith("for your countryx")
    head, tail = tab.queue.items[0].transcript.segments[:2]
    assert head.words and tail.words, "the split kept the words' times through the crash"
    close(qtbot, window)
