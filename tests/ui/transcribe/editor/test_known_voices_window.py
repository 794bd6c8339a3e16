"""Known voices in the real window, on a meeting of real voices (tests/data/speakers) made here: a
suggestion in the speakers row accepted with one click and taken back by Ctrl+Z; "Not Anna"
remembered for the transcript, across a restart and a new Label speakers; a recognised line's
tooltip saying how sure; a labelled speaker remembered as a known voice with the confirmation of
their agreement, and one with too little speech refused with its sentence."""
import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QDialogButtonBox

from desktop.core.speakers import agreement
from desktop.core.speakers.known_voices import KnownVoiceStore
from desktop.core.transcription.autosave import AutosaveStore, default_path
from desktop.core.transcription.transcript import Segment, Transcript
from desktop.ui.transcribe.editor.segments_model import SegmentsModel
from tests.helpers.meetings import RATE, Meeting, clip, compose
from tests.ui.conftest import JOB_TIMEOUT_MS
from tests.ui.transcribe.editor.test_autosave_window import close, open_window, reopened
from tests.ui.transcribe.editor.test_editor_window import CTRL, CTRL_SHIFT, press, saved
from tests.ui.transcribe.editor.test_label_speakers_window import TURNS, label, speaker_cells

pytestmark = pytest.mark.slow

NUMBERS = {"A": 1, "B": 2, "LIBRI": 3}  # the speaker each voice is in the saved transcript


def write_meeting(tmp_path, *, speakers: bool, suggested=None) -> tuple:
    folder = tmp_path / "in"
    folder.mkdir(exist_ok=True)
    meeting = compose([(voice, [clip(voice, n) for n in numbers]) for voice, numbers, _ in TURNS], seed=3)
    path = meeting.write(folder / "meeting.wav")
    lines = [Segment(round(start, 2), round(end, 2), text, speaker=NUMBERS[voice] if speakers else None)
             for (start, end, _), (voice, _, text) in zip(meeting.turns, TURNS)]
    store = AutosaveStore(default_path())
    saved(store, path, Transcript(segments=lines, language="en", duration=len(meeting.samples) / RATE,
                                  source=str(path), suggested=dict(suggested or {})))
    store.close()
    return path


def enrol_anna(tmp_path) -> None:
    """Voice A as the known voice "Anna", agreed, in this test's own store (the one the window reads)."""
    from desktop.engines.speakers.enrolment import Enroller

    gap = np.zeros(int(0.4 * RATE), np.float32)
    samples = np.concatenate([piece for n in range(3) for piece in (clip("A", n), gap)])
    sample = Meeting(samples.astype(np.float32), [], []).write(tmp_path / "anna.wav")
    speech = Enroller().from_sample(sample)
    KnownVoiceStore().add("Anna", speech.embeddings, speech.seconds, agreement.confirmed("office manager"))


def shown(qtbot, settings, window=None):
    window = window or open_window(qtbot, settings)
    tab = window.transcribe_tab
    qtbot.keyClick(tab.queue_view, Qt.Key.Key_Escape)
    tab.queue_view.selectRow(0)
    panel = tab.transcript_panel
    qtbot.waitUntil(lambda: panel.segments_model.rowCount() == len(TURNS))
    return window, tab, panel


def rows_of(voice: str) -> list[int]:
    return [row for row, (who, _, _) in enumerate(TURNS) if who == voice]


def tooltip(panel, row: int) -> str:
    return panel.segments_model.index(row, SegmentsModel.SPEAKER).data(Qt.ItemDataRole.ToolTipRole)


def test_a_suggestion_is_accepted_with_one_click_and_ctrl_z_takes_it_back(qtbot, settings, tmp_path):
    write_meeting(tmp_path, speakers=True, suggested={1: ("Anna", 0.64)})
    window, tab, panel = shown(qtbot, settings)
    bar = panel.speakers_bar
    suggestion = bar.suggestions[1]
    assert set(bar.suggestions) == {1}, "only the speaker that sounds like a known voice"
    qtbot.waitUntil(suggestion.isVisible)  # the layout shows a new widget from the event loop
    assert suggestion.label.text() == "sounds like Anna —"
    assert suggestion.refuse_button.text() == "Not Anna"
    assert speaker_cells(panel)[rows_of("A")[0]] == "Speaker 1", "nothing is named without the click"

    qtbot.mouseClick(suggestion.accept_button, Qt.MouseButton.LeftButton)
    cells = speaker_cells(panel)
    assert [cells[row] for row in rows_of("A")] == ["Anna"] * 3
    assert "64% sure" in tooltip(panel, rows_of("A")[0])
    assert bar.suggestions == {} and bar.name_edits[1].text() == "Anna"
    assert window.edit_menu.actions()[0].text().startswith("&Undo accept Anna for Speaker 1")

    press(qtbot, panel.view, Qt.Key.Key_Z, CTRL)
    assert [speaker_cells(panel)[row] for row in rows_of("A")] == ["Speaker 1"] * 3
    assert "sure" not in tooltip(panel, rows_of("A")[0])
    assert set(bar.suggestions) == {1}, "the suggestion is back with the undo"
    press(qtbot, panel.view, Qt.Key.Key_Z, CTRL_SHIFT)
    assert speaker_cells(panel)[rows_of("A")[0]] == "Anna"
    close(qtbot, window)


def test_not_anna_is_remembered_for_the_transcript_across_a_restart_and_a_new_labelling(qtbot, settings, tmp_path):
    write_meeting(tmp_path, speakers=True, suggested={1: ("Anna", 0.64)})
    enrol_anna(tmp_path)
    window, tab, panel = shown(qtbot, settings)
    qtbot.mouseClick(panel.speakers_bar.suggestions[1].refuse_button, Qt.MouseButton.LeftButton)
    transcript = tab.queue.items[0].transcript
    assert panel.speakers_bar.suggestions == {} and transcript.refused == {1: ["Anna"]}
    assert speaker_cells(panel)[rows_of("A")[0]] == "Speaker 1"
    press(qtbot, panel.view, Qt.Key.Key_Z, CTRL)
    assert set(panel.speakers_bar.suggestions) == {1} and transcript.refused == {}
    press(qtbot, panel.view, Qt.Key.Key_Z, CTRL_SHIFT)
    assert transcript.refused == {1: ["Anna"]}

    window, tab, panel = shown(qtbot, settings, reopened(qtbot, window, settings))
    transcript = tab.queue.items[0].transcript
    assert transcript.refused == {1: ["Anna"]} and panel.speakers_bar.suggestions == {}, "kept by the autosave"

    # Labelled again from the recording, voice A (which Anna was enrolled from) is found again as
    # speaker 1: it is neither named nor suggested as Anna, since the user said it is not her.
    label(qtbot, panel, "3")
    assert [speaker_cells(panel)[row] for row in rows_of("A")] == ["Speaker 1"] * 3
    assert 1 not in transcript.suggested and 1 not in transcript.recognised
    assert transcript.refused == {1: ["Anna"]}
    close(qtbot, window)


def test_a_recognised_line_is_marked_and_says_how_sure_on_hover(qtbot, settings, tmp_path):
    write_meeting(tmp_path, speakers=False)
    enrol_anna(tmp_path)
    window, tab, panel = shown(qtbot, settings)
    label(qtbot, panel, "3")
    model = panel.segments_model
    transcript = tab.queue.items[0].transcript
    for row in rows_of("A"):
        assert speaker_cells(panel)[row] == "Anna"
        assert "Anna: recognised as a known voice" in tooltip(panel, row) and "% sure" in tooltip(panel, row)
        assert isinstance(model.index(row, SegmentsModel.SPEAKER).data(Qt.ItemDataRole.DecorationRole), QIcon)
    for row in rows_of("B") + rows_of("LIBRI"):
        assert speaker_cells(panel)[row] != "Anna" and "recognised" not in tooltip(panel, row)
        assert model.index(row, SegmentsModel.SPEAKER).data(Qt.ItemDataRole.DecorationRole) is None
    sure = transcript.recognised_confidence(transcript.segments[rows_of("A")[0]].speaker)
    assert sure is not None and 0.5 <= sure <= 1.0

    window, tab, panel = shown(qtbot, settings, reopened(qtbot, window, settings))
    assert f"{sure:.0%} sure" in tooltip(panel, rows_of("A")[0]), "the mark is kept across a restart"
    close(qtbot, window)


def test_a_labelled_speaker_is_remembered_with_who_confirmed_their_agreement(qtbot, settings, tmp_path):
    write_meeting(tmp_path, speakers=True)
    window, tab, panel = shown(qtbot, settings)
    remembering = panel.remembering

    qtbot.mouseClick(panel.speakers_bar.remember_buttons[NUMBERS["A"]], Qt.MouseButton.LeftButton)
    dialog = remembering.dialog
    assert dialog is not None and dialog.isVisible() and dialog.name_edit.text() == ""
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    dialog.name_edit.setText("Anna")
    dialog.confirmed_by_edit.setText("Office manager")
    assert not ok.isEnabled(), "not without the confirmation that she agreed"
    dialog.agreed_box.setChecked(True)
    assert ok.isEnabled()
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not remembering.running, timeout=JOB_TIMEOUT_MS)
    assert "Anna's voice is remembered" in window.statusBar().currentMessage()
    [voice] = KnownVoiceStore().list()
    assert voice.name == "Anna" and voice.speech_seconds >= 6.0
    assert voice.agreement.how == agreement.CONFIRMED and voice.agreement.confirmed_by == "Office manager"
    assert voice.agreement.agreed_at

    # Voice B speaks twice, under 6 s: refused with the sentence saying how much more is needed.
    qtbot.mouseClick(panel.speakers_bar.remember_buttons[NUMBERS["B"]], Qt.MouseButton.LeftButton)
    dialog = remembering.dialog
    dialog.name_edit.setText("Bea")
    dialog.agreed_box.setChecked(True)
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not remembering.running, timeout=JOB_TIMEOUT_MS)
    message = window.statusBar().currentMessage()
    assert message.startswith("The voice was not remembered:") and "6" in message and "Traceback" not in message
    assert [voice.name for voice in KnownVoiceStore().list()] == ["Anna"], "nothing kept of Bea"
    close(qtbot, window)
