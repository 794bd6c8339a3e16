"""Transcribe again… in the real window, with real Whisper weights: a transcribed recording, some of its
lines selected and decoded again with another model, the new lines in their place as one edit that
Ctrl+Z takes back exactly and Ctrl+Shift+Z makes again, kept by the autosave; a failure, a stretch
with nothing to hear and a cancel leave the lines as they were, with a sentence."""
import copy
import shutil
from pathlib import Path

import numpy as np
import pytest
import shiboken6
from PySide6.QtCore import QItemSelection, QItemSelectionModel, Qt
from PySide6.QtWidgets import QApplication

from desktop.core.common.audio import decode
from desktop.ui.transcribe.editor.segments_model import SegmentsModel, format_timestamp
from desktop.ui.transcribe.editor.transcribe_again_dialog import TranscribeAgainDialog
from tests.helpers.closing import close_window
from tests.helpers.weights import DATA_DIR, TINY_EN_MAX_WER, base_dir, reference, wer
from tests.ui.conftest import JOB_TIMEOUT_MS, write_wav
from tests.ui.transcribe.editor.test_autosave_window import reopened, texts
from tests.ui.transcribe.editor.test_editor_window import CTRL, CTRL_SHIFT, press
from tests.ui.transcribe.test_transcribe_tab import drop, wait_until_settled

pytestmark = pytest.mark.slow

BASE_MODEL = "base-test"
SILENCE = 4.0  # seconds of silence after each of the three utterances


@pytest.fixture
def base_model(tiny_model) -> str:
    """Whisper base imported beside tiny.en, as a second model to choose."""
    from desktop.core.common.paths import models_dir
    from desktop.core.transcription.whisper_models import ModelStore

    return ModelStore(models_dir()).import_model(base_dir(), name=BASE_MODEL).name


@pytest.fixture
def three_sentences(tmp_path):
    """The LJ sentence, JFK, the LJ sentence again, each followed by silence: JFK's lines sit in the
    middle, with a line on either side; and when JFK starts and ends."""
    lj, jfk = decode(DATA_DIR / "lj050-0131.wav"), decode(DATA_DIR / "jfk.flac")
    pause = np.zeros(round(16000 * SILENCE), dtype=np.float32)
    folder = tmp_path / "recordings"
    folder.mkdir()
    path = write_wav(folder / "three sentences.wav", np.concatenate([lj, pause, jfk, pause, lj, pause]))
    jfk_start = len(lj) / 16000 + SILENCE
    return path, (jfk_start, jfk_start + len(jfk) / 16000)


def transcribed(qtbot, tab, path: Path):
    drop(tab, path)
    wait_until_settled(qtbot, tab, 1)
    # Qt remembers the modifiers of the last key event, from the test before too: a plain key first, so
    # that selecting the row is not taken as Ctrl-clicking it.
    qtbot.keyClick(tab.queue_view, Qt.Key.Key_Escape)
    tab.queue_view.selectRow(0)
    return tab.queue.items[0].transcript


def rows_of_jfk(transcript, jfk: tuple[float, float]) -> list[int]:
    """The lines of the middle sentence; there is a line before and after them."""
    rows = [row for row, s in enumerate(transcript.segments)
            if s.text.strip() and jfk[0] - 1.0 <= s.start and s.end <= jfk[1] + 1.0]
    assert rows and rows[0] > 0 and rows[-1] + 1 < len(transcript.segments), [
        (s.start, s.end, s.text) for s in transcript.segments]
    return rows


def select_lines(view, rows: list[int]) -> None:
    """Select a run of lines, as a shift-click does (without playing them)."""
    model = view.model()
    top, bottom = model.index(rows[0], 0), model.index(rows[-1], model.columnCount() - 1)
    view.selectionModel().setCurrentIndex(top, QItemSelectionModel.SelectionFlag.NoUpdate)
    view.selectionModel().select(QItemSelection(top, bottom), QItemSelectionModel.SelectionFlag.ClearAndSelect
                                 | QItemSelectionModel.SelectionFlag.Rows)


def open_dialog(qtbot, window) -> TranscribeAgainDialog:
    """Edit → Transcribe again…, as the user chooses it from the menu."""
    action = next(a for a in window.edit_menu.actions() if a.text().replace("&", "") == "Transcribe again…")
    panel = window.transcribe_tab.transcript_panel
    assert action.isEnabled(), (panel.selected_rows(), panel.segments_model.editable, panel.shown_item)
    action.trigger()
    dialogs = [w for w in QApplication.topLevelWidgets() if isinstance(w, TranscribeAgainDialog) and w.isVisible()]
    assert len(dialogs) == 1
    return dialogs[0]


def closed(qtbot, dialog) -> None:
    """Until the dialog has closed (and perhaps been deleted since)."""
    qtbot.waitUntil(lambda: not shiboken6.isValid(dialog) or not dialog.isVisible(), timeout=JOB_TIMEOUT_MS)


def test_lines_transcribed_again_with_another_model_replace_the_old_ones_as_one_undoable_edit(
        qtbot, base_model, window, settings, three_sentences):
    path, jfk = three_sentences
    tab, panel = window.transcribe_tab, window.transcribe_tab.transcript_panel
    view = panel.view
    transcript = transcribed(qtbot, tab, path)
    rows = rows_of_jfk(transcript, jfk)
    # A line gone wrong: typed over by mistake.
    assert view.model().setData(view.model().index(rows[0], SegmentsModel.TEXT), "xyzzy plugh")
    before = list(transcript.segments)
    copies = copy.deepcopy(before)
    qtbot.waitUntil(lambda: tab.options.model_combo.findData(BASE_MODEL) >= 0, timeout=JOB_TIMEOUT_MS)

    select_lines(view, rows)
    dialog = open_dialog(qtbot, window)
    assert dialog.model() == settings.get("transcribe/model"), "the model the file was transcribed with"
    assert dialog.language() == "en"
    dialog.model_combo.setCurrentIndex(dialog.model_combo.findData(BASE_MODEL))
    qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    assert dialog.progress_bar.isVisible() and not dialog.start_button.isEnabled()
    closed(qtbot, dialog)

    assert window._transcriber.loaded.startswith(BASE_MODEL), "decoded by the model chosen (and kept loaded)"
    segments = transcript.segments
    first, last = rows[0], len(segments) - (len(before) - rows[-1])
    assert segments[:first] == copies[:first] and all(a is b for a, b in zip(segments, before[:first]))
    assert segments[last + 1:] == copies[rows[-1] + 1:], "the lines after them are as they were"
    new = segments[first:last + 1]
    assert new and all(s is not old for s in new for old in before)
    said = "".join(s.text for s in new)
    assert "xyzzy" not in said
    assert wer(reference("jfk.flac"), said) <= TINY_EN_MAX_WER, said
    assert before[first - 1].end <= new[0].start and new[-1].end <= before[rows[-1] + 1].start, "nothing overlaps"
    assert jfk[0] - 1.0 <= new[0].start and new[-1].end <= jfk[1] + 1.0, "on the recording's timeline"
    replaced = copy.deepcopy(segments)
    lines = f"{first + 1}–{rows[-1] + 1}" if len(rows) > 1 else f"{first + 1}"
    undo_text = f"Undo transcribe again line{'s' if len(rows) > 1 else ''} {lines}"
    assert panel.undo_action.text().replace("&", "") == undo_text
    assert panel.selected_rows() == list(range(first, last + 1)), "the new lines are selected"

    press(qtbot, view, Qt.Key.Key_Z, CTRL)
    assert transcript.segments == copies, "Ctrl+Z brings back exactly the old lines"
    assert all(a is b for a, b in zip(transcript.segments, before))
    assert texts(tab)[rows[0]] == "xyzzy plugh"
    press(qtbot, view, Qt.Key.Key_Z, CTRL_SHIFT)
    assert transcript.segments == replaced, "Ctrl+Shift+Z makes it again"

    window = reopened(qtbot, window, settings)
    tab = window.transcribe_tab
    tab.queue_view.selectRow(0)
    assert tab.queue.items[0].transcript.segments == replaced, "kept by the autosave like any edit"
    close_window(qtbot, window, timeout=JOB_TIMEOUT_MS)


def test_a_failure_leaves_the_lines_as_they_were_with_a_sentence(qtbot, window, three_sentences, tmp_path):
    path, jfk = three_sentences
    tab, panel = window.transcribe_tab, window.transcribe_tab.transcript_panel
    transcript = transcribed(qtbot, tab, path)
    before, copies = list(transcript.segments), copy.deepcopy(transcript.segments)
    shutil.move(path, tmp_path / "moved away.wav")  # the recording is gone from where it was transcribed

    tab.options.prompt_edit.setText("Kennedy")
    tab.options.language_combo.setCurrentIndex(tab.options.language_combo.findData("auto"))

    select_lines(panel.view, rows_of_jfk(transcript, jfk))
    dialog = open_dialog(qtbot, window)
    assert dialog.prompt() == "Kennedy", "the prompt chosen for the files"
    assert dialog.language() == "en", "a few seconds are too few to detect the language by: the transcript's"
    qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.start_button.isEnabled(), timeout=JOB_TIMEOUT_MS)
    assert dialog.isVisible(), "open, to choose again"
    sentence = dialog.status_label.text()
    assert "three sentences.wav" in sentence and sentence.endswith("The lines stay as they were."), sentence
    assert transcript.segments == copies and all(a is b for a, b in zip(transcript.segments, before))
    assert not panel.undo_action.isEnabled(), "nothing to undo: nothing was changed"
    qtbot.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)
    closed(qtbot, dialog)
    assert transcript.segments == copies


def test_a_stretch_with_nothing_to_hear_leaves_the_lines_with_a_sentence(qtbot, window, three_sentences):
    path, jfk = three_sentences
    tab, panel = window.transcribe_tab, window.transcribe_tab.transcript_panel
    view = panel.view
    transcript = transcribed(qtbot, tab, path)
    # A line put in the middle of the silence after JFK, with nothing said under it.
    row = rows_of_jfk(transcript, jfk)[-1]
    select_lines(view, [row])
    panel.insert_line()
    model = view.model()
    assert model.setData(model.index(row + 1, SegmentsModel.END), format_timestamp(jfk[1] + 2.5))
    assert model.setData(model.index(row + 1, SegmentsModel.START), format_timestamp(jfk[1] + 1.5))
    copies = copy.deepcopy(transcript.segments)

    select_lines(view, [row + 1])
    dialog = open_dialog(qtbot, window)
    qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.start_button.isEnabled(), timeout=JOB_TIMEOUT_MS)
    assert "No words were heard in" in dialog.status_label.text()
    assert transcript.segments == copies
    dialog.reject()
    closed(qtbot, dialog)


def test_cancel_leaves_the_lines_as_they_were(qtbot, window, three_sentences):
    path, jfk = three_sentences
    tab, panel = window.transcribe_tab, window.transcribe_tab.transcript_panel
    transcript = transcribed(qtbot, tab, path)
    before, copies = list(transcript.segments), copy.deepcopy(transcript.segments)

    select_lines(panel.view, rows_of_jfk(transcript, jfk))
    dialog = open_dialog(qtbot, window)
    qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)
    assert dialog.isVisible() and dialog.status_label.text() == "Cancelling…", "open until the decoding stopped"
    closed(qtbot, dialog)
    qtbot.waitUntil(lambda: not tab.transcribe_again.busy, timeout=JOB_TIMEOUT_MS)
    assert transcript.segments == copies and all(a is b for a, b in zip(transcript.segments, before))
    assert "cancelled" in window.statusBar().currentMessage()
    assert not panel.undo_action.isEnabled()
