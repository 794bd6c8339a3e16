"""Speaker labels in the window: a meeting dropped with "Automatic", a speaker renamed once and a
line given to another speaker, the SRT export carrying the names (real tiny.en, real recordings)."""
from __future__ import annotations

import srt
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox

from desktop.ui.transcribe.editor.segments_model import SegmentsModel
from desktop.workers.transcription_queue import ItemState
from tests.helpers.closing import close_window
from tests.helpers.meetings import two_speakers
from tests.ui.conftest import JOB_TIMEOUT_MS
from tests.ui.transcribe.test_transcribe_tab import drop, wait_until_settled

pytestmark = pytest.mark.slow


def choose(combo: QComboBox, data) -> None:
    """Pick an entry as a user does: it becomes current and `activated` fires."""
    index = combo.findData(data)
    assert index >= 0
    combo.setCurrentIndex(index)
    combo.activated.emit(index)


def speaker_cells(panel) -> list[str]:
    model = panel.segments_model
    return [model.index(row, SegmentsModel.SPEAKER).data() for row in range(model.rowCount())]


def test_a_meeting_gets_speakers_a_rename_reaches_every_line_and_the_srt(qtbot, tab, settings, tmp_path):
    meeting = two_speakers()
    recordings = tmp_path / "recordings"
    recordings.mkdir()
    path = meeting.write(recordings / "meeting.wav")
    panel = tab.transcript_panel
    assert panel.view.isColumnHidden(SegmentsModel.SPEAKER), "no Speaker column before there are speakers"

    choose(tab.options.speakers_combo, "auto")
    assert settings.get("transcribe/speakers") == "auto", "the choice is remembered"
    drop(tab, path)
    wait_until_settled(qtbot, tab, 1)
    item = tab.queue.items[0]
    assert item.state is ItemState.DONE
    transcript = item.transcript
    assert transcript.speakers == [1, 2]
    assert not panel.view.isColumnHidden(SegmentsModel.SPEAKER)
    assert panel.speakers_bar.isVisible() and set(panel.speakers_bar.name_edits) == {1, 2}
    lines_of_first = [row for row, s in enumerate(transcript.segments) if s.speaker == 1]
    assert len(lines_of_first) >= 2
    model = panel.segments_model
    colours = {model.index(row, SegmentsModel.SPEAKER).data(Qt.ItemDataRole.BackgroundRole).color().name()
               for row in range(model.rowCount())}
    assert len(colours) == 2, "a colour per speaker"

    # Rename the first speaker once, in the speakers bar: every one of its lines follows.
    edit = panel.speakers_bar.name_edits[1]
    edit.setFocus()
    edit.selectAll()
    qtbot.keyClicks(edit, "Anna")
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    cells = speaker_cells(panel)
    assert [cells[row] for row in lines_of_first] == ["Anna"] * len(lines_of_first)
    assert set(cells) == {"Anna", "Speaker 2"}

    # Give the last line to Anna through the Speaker cell's list.
    last = model.rowCount() - 1
    assert transcript.segments[last].speaker == 2
    index = panel.view.model().index(last, SegmentsModel.SPEAKER)
    panel.view.setCurrentIndex(index)
    panel.view.edit(index)
    editor = panel.view.findChild(QComboBox)
    assert editor is not None and [editor.itemText(i) for i in range(editor.count())][:2] == ["Anna", "Speaker 2"]
    choose(editor, 1)
    qtbot.waitUntil(lambda: transcript.segments[last].speaker == 1)
    assert speaker_cells(panel)[last] == "Anna"

    out = tmp_path / "subtitles"
    out.mkdir()
    tab.set_export_folder(out)
    for fmt, box in tab.format_boxes.items():
        box.setChecked(fmt == "srt")
    qtbot.mouseClick(tab.export_bar.export_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: (out / "meeting.srt").is_file() and tab.export_bar.export_button.isEnabled(),
                    timeout=30_000)
    cues = list(srt.parse((out / "meeting.srt").read_text(encoding="utf-8")))
    names = [cue.content.split(": ", 1)[0] for cue in cues]
    expected = ["Anna" if s.speaker == 1 else "Speaker 2" for s in transcript.segments if s.text.strip()]
    assert names == expected and names[-1] == "Anna" and "Speaker 2" in names


def test_speaker_names_and_a_changed_line_come_back_in_a_new_window(qtbot, window, settings, tmp_path):
    from desktop.core.transcription.autosave import AutosaveStore
    from desktop.core.transcription.transcript import Segment, Transcript
    from tests.ui.transcribe.editor.test_autosave_window import copy_of, reopened

    source = copy_of("jfk.flac", tmp_path / "in")
    window.close()
    qtbot.waitUntil(lambda: not window.runner.busy)
    store = AutosaveStore()
    item_id = store.add_item(source)
    store.save_transcript(item_id, Transcript(
        segments=[Segment(0.0, 3.0, " And so my fellow Americans,", speaker=1),
                  Segment(3.0, 5.5, " ask not what your country can do for you,", speaker=2),
                  Segment(5.5, 11.0, " ask what you can do for your country.", speaker=1)],
        language="en", duration=11.0, source=str(source)))
    store.set_status(item_id, "done")
    store.close()

    window = reopened(qtbot, window, settings)
    panel = window.transcribe_tab.transcript_panel
    window.transcribe_tab.queue_view.selectRow(0)
    qtbot.waitUntil(lambda: panel.segments_model.rowCount() == 3)
    edit = panel.speakers_bar.name_edits[1]
    edit.setText("张伟")
    edit.editingFinished.emit()
    model = panel.view.model()
    assert model.setData(model.index(1, SegmentsModel.SPEAKER), 1)

    window = reopened(qtbot, window, settings)
    panel = window.transcribe_tab.transcript_panel
    window.transcribe_tab.queue_view.selectRow(0)
    qtbot.waitUntil(lambda: panel.segments_model.rowCount() == 3)
    assert speaker_cells(panel) == ["张伟", "张伟", "张伟"]
    close_window(qtbot, window, timeout=JOB_TIMEOUT_MS)
