"""The editor in the real window: the reading-speed limits chosen in Settings decide which lines warn;
Find and replace highlights what it looks for in the table while it is open; edits made faster than
they can be saved are all kept, by a close as by the next start."""
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from desktop.core.transcription.autosave import AutosaveStore, default_path
from desktop.ui.common.settings_dialog import SettingsDialog
from desktop.ui.transcribe.editor.segments_model import SegmentsModel
from tests.ui.transcribe.editor.test_autosave_window import close, reopened, texts
from tests.ui.transcribe.editor.test_editor_window import shown, shown_texts, sources  # noqa: F401 - fixture

pytestmark = pytest.mark.slow


def warned_rows(tab) -> list[int]:
    model = tab.transcript_panel.segments_model
    return [row for row in range(model.rowCount())
            if model.index(row, SegmentsModel.TEXT).data(Qt.ItemDataRole.DecorationRole) is not None]


def open_settings(qtbot, window) -> SettingsDialog:
    window.open_settings()
    dialog = next(w for w in QApplication.topLevelWidgets() if isinstance(w, SettingsDialog) and w.isVisible())
    qtbot.waitExposed(dialog)
    return dialog


def test_the_reading_speed_chosen_in_settings_decides_which_lines_warn(qtbot, settings, sources):
    window, tab, view = shown(qtbot, settings)
    panel = tab.transcript_panel
    # Line 2: 41 characters in 2.3 s, 17.8 a second: over the 17 of the guidelines.
    assert warned_rows(tab) == [1]
    panel.warnings_only_box.click()
    assert shown_texts(view) == ["ask not what your country can do for you,"]

    dialog = open_settings(qtbot, window)
    dialog.pages.setCurrentWidget(dialog.transcription_page)
    assert dialog.latin_cps_spin.value() == 17 and dialog.min_seconds_spin.value() == 0.8
    dialog.latin_cps_spin.setValue(20)
    qtbot.mouseClick(dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok),
                     Qt.MouseButton.LeftButton)
    assert settings.get("subtitles/latin_cps") == 20
    assert warned_rows(tab) == [], "17.8 a second is within 20"
    assert shown_texts(view) == [], "the filter follows the new limits"

    dialog = open_settings(qtbot, window)
    dialog.max_seconds_spin.setValue(2.4)  # lines 1, 3 and 4 are on screen 2.5 s or longer
    dialog.accept()
    assert warned_rows(tab) == [0, 2, 3]
    assert "longer than 2.4 s" in view.model().index(0, SegmentsModel.TEXT).data(Qt.ItemDataRole.ToolTipRole)
    close(qtbot, window)


def found_spans(view, row: int) -> list[tuple[int, int]]:
    """The stretches of a line's text the table paints as found."""
    from desktop.ui.transcribe.editor.transcript_view import FOUND_BACKGROUND

    index = view.model().index(row, SegmentsModel.TEXT)
    return [(start, end) for start, end, colour in view.text_delegate.highlighted_spans(index)
            if colour == FOUND_BACKGROUND]


def test_find_highlights_its_matches_in_the_table_by_its_rules_until_it_closes(qtbot, settings, sources):
    window, tab, view = shown(qtbot, settings)
    panel = tab.transcript_panel
    model = view.model()
    assert model.setData(model.index(2, SegmentsModel.TEXT), "我们的国家，国家的人民")
    qtbot.keyClick(view, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)
    dialog = panel._find_dialog
    qtbot.waitExposed(dialog)
    assert all(found_spans(view, row) == [] for row in range(4)), "nothing looked for yet"
    qtbot.keyClicks(dialog.find_edit, "Country")
    assert found_spans(view, 1) == [(18, 25)] and found_spans(view, 3) == [(9, 16)]
    assert found_spans(view, 0) == []
    dialog.match_case_box.click()
    assert found_spans(view, 1) == [] and found_spans(view, 3) == [], "match case: “country” is not “Country”"
    dialog.match_case_box.click()
    dialog.find_edit.setText("count")
    assert found_spans(view, 1) == [(18, 23)]
    dialog.whole_words_box.click()
    assert found_spans(view, 1) == [], "whole words: “count” is not “country”"
    dialog.find_edit.setText("国家")
    assert found_spans(view, 2) == [(3, 5), (6, 8)], "Chinese is found by its characters, whole words or not"
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Close), Qt.MouseButton.LeftButton)
    assert not dialog.isVisible()
    assert found_spans(view, 2) == [], "closing the window clears the highlight"
    panel.find_and_replace()
    assert found_spans(view, 2) == [(3, 5), (6, 8)], "opened again, it highlights what it still looks for"
    close(qtbot, window)


def test_edits_faster_than_the_disk_are_all_kept_by_closing(qtbot, settings, sources):
    window, tab, view = shown(qtbot, settings)
    panel = tab.transcript_panel
    model = view.model()
    for count in range(1, 41):  # one edit after another, as fast as the window takes them
        last_line = 3 if count <= 20 else 4  # a line more after the split
        assert model.setData(model.index(last_line, SegmentsModel.TEXT), "for your country" + "!" * count)
        if count == 20:
            view.selectRow(0)
            panel.split_line()  # a change of the lines themselves among them
    expected = texts(tab)
    assert len(expected) == 5 and expected[4] == "for your country" + "!" * 40
    window = reopened(qtbot, window, settings)  # closing waits for the saving to finish
    tab = window.transcribe_tab
    tab.queue_view.selectRow(0)
    assert texts(tab) == expected
    store = AutosaveStore(default_path())
    try:
        saved = store.queue()[0]
        assert saved.revision == 41 and saved.unexported_edits, "every edit is counted, however they were saved"
    finally:
        store.close()
    close(qtbot, window)


def test_only_lines_with_warnings_right_after_opening_a_long_transcript_lists_them_all(qtbot, settings, tmp_path):
    from desktop.core.transcription.transcript import Segment, Transcript
    from tests.ui.transcribe.editor.test_autosave_window import copy_of, open_window
    from tests.ui.transcribe.editor.test_editor_window import saved

    source = copy_of("jfk.flac", tmp_path / "in")
    # 1,200 lines, every third far too fast to read: 45 characters in 1 s.
    lines = [Segment(row * 3.0, row * 3.0 + (1.0 if row % 3 == 0 else 2.9),
                     f" line {row} says what was said in the meeting") for row in range(1200)]
    store = AutosaveStore(default_path())
    saved(store, source, Transcript(segments=lines, language="en", duration=3600.0, source=str(source)))
    store.close()
    window = open_window(qtbot, settings)
    tab = window.transcribe_tab
    tab.queue_view.selectRow(0)
    panel = tab.transcript_panel
    panel.warnings_only_box.click()  # before the table has worked out the warnings of most lines
    qtbot.waitUntil(lambda: panel.search_model.rowCount() == 400, timeout=60_000)
    assert shown_texts(panel.view)[:2] == ["line 0 says what was said in the meeting",
                                           "line 3 says what was said in the meeting"]
    assert panel.search_count.text() == "400 of 1200"
    close(qtbot, window)
