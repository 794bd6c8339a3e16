"""Edit → Label speakers on a transcript that is already finished, in the real window: the speaker
stage runs alone on the recording of three real voices, off the window's thread with a progress
dialog; the speakers are one edit that Ctrl+Z takes back exactly and that is saved; a name the user
gave stays with the voice found again; Cancel and a missing recording leave the lines as they were."""
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton

from desktop.core.transcription.autosave import AutosaveStore, default_path
from desktop.core.transcription.transcript import Segment, Transcript
from desktop.ui.transcribe.editor.segments_model import SegmentsModel
from tests.helpers.meetings import clip, compose
from tests.ui.conftest import JOB_TIMEOUT_MS
from tests.ui.transcribe.editor.test_autosave_window import close, open_window
from tests.ui.transcribe.editor.test_editor_window import CTRL, CTRL_SHIFT, press, saved, select_line

pytestmark = pytest.mark.slow

# What the voices say (tests/data/speakers/README.md), one line per turn of the meeting.
TURNS = [("A", [0], " A thin stripe runs down the middle."), ("B", [0], " Mend the coat before you go out."),
         ("LIBRI", [0], " (a LibriSpeech reader)"), ("A", [1], " Sunday is the best part of the week."),
         ("B", [1], " Canned pears lack full flavor."), ("A", [2], " (another Harvard sentence)")]


@pytest.fixture
def meeting(tmp_path):
    """A recording of three people taking turns, saved as finished with a line per turn, no speakers."""
    folder = tmp_path / "in"
    folder.mkdir()
    meeting = compose([(voice, [clip(voice, n) for n in numbers]) for voice, numbers, _ in TURNS], seed=3)
    path = meeting.write(folder / "meeting.wav")
    lines = [Segment(round(start, 2), round(end, 2), text) for (start, end, _), (_, _, text) in zip(meeting.turns, TURNS)]
    store = AutosaveStore(default_path())
    saved(store, path, Transcript(segments=lines, language="en", duration=len(meeting.samples) / 16000,
                                  source=str(path)))
    store.close()
    return path, [voice for voice, _, _ in TURNS]


def shown(qtbot, settings):
    window = open_window(qtbot, settings)
    tab = window.transcribe_tab
    qtbot.keyClick(tab.queue_view, Qt.Key.Key_Escape)  # see test_editor_window.shown
    tab.queue_view.selectRow(0)
    panel = tab.transcript_panel
    qtbot.waitUntil(lambda: panel.segments_model.rowCount() == len(TURNS))
    return window, tab, panel


def label(qtbot, panel, choice: str) -> None:
    """Edit → Label speakers → choice, and wait until the labelling is over."""
    labelling = panel.speaker_labelling
    assert labelling.action.isEnabled()
    labelling.choice_actions[choice].trigger()
    assert labelling.progress_dialog is not None and labelling.progress_dialog.isVisible(), "progress is shown"
    qtbot.waitUntil(lambda: not labelling.running, timeout=JOB_TIMEOUT_MS)
    assert labelling.progress_dialog is None
    window = panel.window()
    window.activateWindow()  # back from the progress dialog
    qtbot.waitUntil(window.isActiveWindow)


def speaker_cells(panel) -> list[str | None]:
    model = panel.segments_model
    return [model.index(row, SegmentsModel.SPEAKER).data() for row in range(model.rowCount())]


def test_label_speakers_finds_the_voices_of_a_finished_transcript_and_ctrl_z_restores_the_old_ones(
        qtbot, settings, meeting):
    _path, voices = meeting
    window, tab, panel = shown(qtbot, settings)
    transcript = tab.queue.items[0].transcript
    before = list(transcript.segments)
    assert transcript.speakers == [] and panel.view.isColumnHidden(SegmentsModel.SPEAKER)
    assert panel.speaker_labelling.action in window.edit_menu.actions(), "in the Edit menu"

    label(qtbot, panel, "3")
    assert "3 speaker(s) found" in window.statusBar().currentMessage()
    assert transcript.speakers == [1, 2, 3] and not panel.view.isColumnHidden(SegmentsModel.SPEAKER)
    found = [segment.speaker for segment in transcript.segments]
    by_voice = {voice: {number for v, number in zip(voices, found) if v == voice} for voice in set(voices)}
    assert all(len(numbers) == 1 for numbers in by_voice.values()), f"one speaker per voice: {by_voice}"
    assert len({numbers.pop() for numbers in by_voice.values()}) == 3, "a different speaker for each voice"
    assert [s.text for s in transcript.segments] == [s.text for s in before], "the words are not touched"
    assert panel.undo_action.text() == "&Undo label speakers"

    view = panel.view
    view.setFocus()
    press(qtbot, view, Qt.Key.Key_Z, CTRL)
    assert all(now is then for now, then in zip(transcript.segments, before)) and len(transcript.segments) == len(before)
    assert transcript.speakers == [] and panel.view.isColumnHidden(SegmentsModel.SPEAKER)
    press(qtbot, view, Qt.Key.Key_Z, CTRL_SHIFT)
    assert [segment.speaker for segment in transcript.segments] == found

    # A name given to a voice stays with it when the speakers are found again: give the LibriSpeech
    # reader's line to Anna by mistake, and label again.
    anna = found[0]
    edit = panel.speakers_bar.name_edits[anna]
    edit.setFocus()
    edit.selectAll()
    qtbot.keyClicks(edit, "Anna")
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    libri = voices.index("LIBRI")
    model = view.model()
    assert model.setData(model.index(libri, SegmentsModel.SPEAKER), anna)
    mistaken = speaker_cells(panel)
    assert mistaken[libri] == "Anna"

    view.setFocus()
    select_line(view, 0)
    label(qtbot, panel, "3")
    cells = speaker_cells(panel)
    assert [cell == "Anna" for cell in cells] == [voice == "A" for voice in voices], cells
    assert cells[libri] not in ("Anna", cells[voices.index("B")])
    press(qtbot, view, Qt.Key.Key_Z, CTRL)
    assert speaker_cells(panel) == mistaken, "undo brings back the speakers as they were, names too"
    press(qtbot, view, Qt.Key.Key_Z, CTRL_SHIFT)

    close(qtbot, window)
    window, tab, panel = shown(qtbot, settings)  # the next day
    assert speaker_cells(panel) == cells, "the labelled speakers were saved"
    close(qtbot, window)


def test_cancel_leaves_the_lines_as_they_were(qtbot, settings, meeting):
    window, tab, panel = shown(qtbot, settings)
    transcript = tab.queue.items[0].transcript
    before = list(transcript.segments)
    labelling = panel.speaker_labelling
    labelling.choice_actions["auto"].trigger()
    cancel = labelling.progress_dialog.findChild(QPushButton)
    assert cancel.text() == "Cancel"
    qtbot.mouseClick(cancel, Qt.MouseButton.LeftButton)
    assert labelling.progress_dialog is None
    assert "stopped" in window.statusBar().currentMessage()
    qtbot.waitUntil(lambda: not labelling.running, timeout=JOB_TIMEOUT_MS)
    assert all(now is then for now, then in zip(transcript.segments, before)) and transcript.speakers == []
    assert not panel.undo_action.isEnabled(), "nothing to undo: nothing was changed"
    assert labelling.action.isEnabled(), "and it can be asked again"
    close(qtbot, window)


def test_a_recording_that_is_gone_is_said_and_the_lines_stay(qtbot, settings, meeting):
    path, _voices = meeting
    window, tab, panel = shown(qtbot, settings)
    # The waveform read the recording first: reading it after it is gone says so in the status bar too,
    # and that sentence could come after the labelling's.
    qtbot.waitUntil(lambda: not panel.timing.computing_peaks(), timeout=30_000)
    transcript = tab.queue.items[0].transcript
    before = list(transcript.segments)
    path.unlink()
    label(qtbot, panel, "auto")
    message = window.statusBar().currentMessage()
    assert "Speakers could not be labelled" in message and "cannot find the file “meeting.wav”" in message
    assert all(now is then for now, then in zip(transcript.segments, before)) and transcript.speakers == []
    assert not panel.undo_action.isEnabled()
    close(qtbot, window)
