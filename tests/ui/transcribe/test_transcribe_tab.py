"""The Transcribe tab end to end: real drops, real tiny.en transcriptions, real exported files."""
import shutil
from pathlib import Path

import numpy as np
import pytest
import srt
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QLineEdit

from desktop.ui.transcribe import export_bar, remove_prompt
from desktop.ui.transcribe.editor.playback import PLAYBACK_RATE, decode_stretch
from desktop.ui.transcribe.queue_model import QueueModel
from desktop.ui.transcribe.editor.segments_model import SegmentsModel
from desktop.workers.transcription_queue import ItemState
from tests.helpers.weights import DATA_DIR
from tests.ui.conftest import JOB_TIMEOUT_MS

pytestmark = pytest.mark.slow


def drop(widget, *paths: Path) -> None:
    """Drag local files onto a widget and let go, as a file manager does."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    enter = QDragEnterEvent(QPoint(10, 10), Qt.DropAction.CopyAction, mime,  # a QPoint: Qt's own type here
                            Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(widget, enter)
    assert enter.isAccepted()
    event = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime,
                       Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(widget, event)
    assert event.isAccepted()


def wait_until_settled(qtbot, tab, count: int) -> None:
    """Until `count` files are listed and none is waiting or running."""
    def settled():
        items = tab.queue.items
        assert len(items) == count
        assert all(i.state not in (ItemState.WAITING, ItemState.RUNNING) for i in items)
    qtbot.waitUntil(settled, timeout=JOB_TIMEOUT_MS)


def cell(tab, row: int, column: int) -> str:
    return tab.queue_model.index(row, column).data()


def test_a_dropped_recording_is_transcribed_edited_and_exported_as_the_edited_srt(qtbot, tab, jfk, tmp_path):
    progress_seen = []
    tab.queue.item_changed.connect(lambda item: progress_seen.append(item.progress))

    drop(tab, jfk)
    wait_until_settled(qtbot, tab, 1)

    item = tab.queue.items[0]
    assert item.state is ItemState.DONE, cell(tab, 0, QueueModel.STATUS)
    assert cell(tab, 0, QueueModel.PROGRESS) == "100 %"
    assert cell(tab, 0, QueueModel.DURATION) == "0:11"
    assert progress_seen == sorted(progress_seen) and progress_seen[-1] == 1.0
    assert "ask not what your country can do for you" in item.transcript.text.lower()

    # The finished file is selected and its segments are in the table; correct the first one
    # through the table's own editor.
    view = tab.transcript_panel.view
    assert tab.transcript_panel.segments_model.rowCount() == len(item.transcript.segments) > 0
    index = view.model().index(0, SegmentsModel.TEXT)
    view.setCurrentIndex(index)
    view.edit(index)
    editor = view.findChild(QLineEdit)
    assert editor is not None, "double-clicking a segment's text opens an editor"
    editor.setText("Ask not, my fellow Americans.")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: item.transcript.segments[0].text.strip() == "Ask not, my fellow Americans.")

    out = tmp_path / "subtitles"
    out.mkdir()
    tab.set_export_folder(out)
    for fmt, box in tab.format_boxes.items():
        box.setChecked(fmt == "srt")
    assert tab.export_bar.export_button.isEnabled()
    qtbot.mouseClick(tab.export_bar.export_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: (out / "jfk.srt").is_file() and tab.export_bar.export_button.isEnabled(), timeout=30_000)

    cues = list(srt.parse((out / "jfk.srt").read_text(encoding="utf-8")))
    first = item.transcript.segments[0]
    assert cues[0].content == "Ask not, my fellow Americans."
    assert cues[0].start.total_seconds() == pytest.approx(first.start, abs=0.002)
    assert cues[0].end.total_seconds() == pytest.approx(first.end, abs=0.002)
    later = " ".join(c.content for c in cues[1:]).lower()
    assert "ask what you can do for your country" in later
    assert [p.name for p in out.iterdir()] == ["jfk.srt"], "no temporary file is left behind"
    assert "jfk.srt" in tab.export_bar.note.text()


def test_cancelling_a_file_part_way_stops_it_and_the_next_file_still_runs(qtbot, tab, settings, long_recording,
                                                                         jfk):
    settings.set("engine/batch_size", 1)  # one window after another: its first lines show part-way
    drop(tab, long_recording, jfk)
    qtbot.waitUntil(lambda: len(tab.queue.items) == 2)
    first = tab.queue.items[0]
    qtbot.waitUntil(lambda: len(first.segments) >= 1, timeout=JOB_TIMEOUT_MS)

    tab.queue_view.selectRow(0)
    assert tab.queue_panel.cancel_button.isEnabled()
    qtbot.mouseClick(tab.queue_panel.cancel_button, Qt.MouseButton.LeftButton)
    wait_until_settled(qtbot, tab, 2)

    assert first.state is ItemState.CANCELLED
    assert cell(tab, 0, QueueModel.STATUS) == "Cancelled"
    assert first.progress < 1.0 and first.transcript is None
    second = tab.queue.items[1]
    assert second.state is ItemState.DONE
    assert "my fellow americans" in second.transcript.text.lower()


def test_the_same_file_dropped_twice_is_queued_once(qtbot, tab, jfk):
    drop(tab, jfk)
    qtbot.waitUntil(lambda: len(tab.queue.items) == 1)
    messages = []
    tab.status_message.connect(messages.append)
    # The same file again, once as it is and once by a roundabout path.
    drop(tab, jfk, jfk.parent / ".." / jfk.parent.name / jfk.name)
    qtbot.waitUntil(lambda: bool(messages), timeout=10_000)
    assert messages == ["These files are already in the list."]
    assert tab.queue_model.rowCount() == 1


def test_a_dropped_folder_adds_only_its_audio_and_video_files(qtbot, tab, tmp_path):
    folder = tmp_path / "meeting 会议"
    (folder / "part two").mkdir(parents=True)
    shutil.copy(DATA_DIR / "jfk.flac", folder / "b first.flac")
    shutil.copy(DATA_DIR / "lj050-0131.wav", folder / "part two" / "second.WAV")
    shutil.copy(DATA_DIR / "jfk.flac", folder / ".hidden.flac")
    (folder / "notes.txt").write_text("agenda", encoding="utf-8")
    (folder / "cover.jpg").write_bytes(b"\xff\xd8\xff")

    drop(tab, folder)
    qtbot.waitUntil(lambda: len(tab.queue.items) == 2, timeout=10_000)
    names = [cell(tab, row, QueueModel.FILE) for row in range(tab.queue_model.rowCount())]
    assert names == ["b first.flac", "second.WAV"]


def test_a_bad_file_shows_its_sentence_in_its_row_while_the_next_file_completes(qtbot, tab, tmp_path, jfk):
    fake = tmp_path / "not really.mp3"
    fake.write_text("This is a text file with an audio file's name.\n" * 50, encoding="utf-8")
    drop(tab, fake, jfk)
    wait_until_settled(qtbot, tab, 2)

    bad, good = tab.queue.items
    assert bad.state is ItemState.FAILED
    status = cell(tab, 0, QueueModel.STATUS)
    assert "not really.mp3" in status and status.endswith(".")
    assert good.state is ItemState.DONE
    assert tab.queue_panel.retry_button.isEnabled()


def test_pure_silence_is_done_with_no_speech_and_nothing_to_export(qtbot, tab, silence):
    drop(tab, silence)
    wait_until_settled(qtbot, tab, 1)
    item = tab.queue.items[0]
    assert item.state is ItemState.DONE and item.transcript.is_empty
    assert "no speech" in cell(tab, 0, QueueModel.STATUS).lower()
    tab.queue_view.selectRow(0)
    assert "No speech was found" in tab.result_title.text()
    assert not tab.export_bar.export_button.isEnabled()


def test_export_asks_before_replacing_a_file_and_keeps_it_when_told_to(qtbot, tab, jfk, monkeypatch):
    existing = jfk.with_suffix(".srt")
    existing.write_text("my own subtitles\n", encoding="utf-8")
    answers = [False, True]
    asked = []

    def ask(parent, paths):
        asked.append(paths)
        return answers.pop(0)

    monkeypatch.setattr(export_bar, "ask_replace", ask)
    drop(tab, jfk)
    wait_until_settled(qtbot, tab, 1)
    tab.queue_view.selectRow(0)
    for fmt, box in tab.format_boxes.items():
        box.setChecked(fmt in ("srt", "txt"))
    tab.set_export_folder(None)  # next to the recording

    tab.export_selected()
    qtbot.waitUntil(lambda: len(asked) == 1 and tab.export_bar.export_button.isEnabled(), timeout=30_000)
    assert asked[0] == [existing]
    assert existing.read_text(encoding="utf-8") == "my own subtitles\n"
    assert jfk.with_suffix(".txt").is_file(), "the file that did not exist was written"

    jfk.with_suffix(".txt").unlink()
    tab.export_selected()
    qtbot.waitUntil(lambda: len(asked) == 2 and existing.read_text(encoding="utf-8").startswith("1\n"),
                    timeout=30_000)
    assert "ask what you can do for your country" in existing.read_text(encoding="utf-8").lower()


def test_an_export_into_a_folder_that_cannot_be_written_says_so_and_leaves_nothing(qtbot, tab, jfk, tmp_path):
    drop(tab, jfk)
    wait_until_settled(qtbot, tab, 1)
    tab.queue_view.selectRow(0)
    # A file where the folder should be: no user can write into it, not even root.
    blocked = tmp_path / "not a folder"
    blocked.write_text("", encoding="utf-8")
    tab.set_export_folder(blocked)
    tab.export_selected()
    export = tab.export_bar
    qtbot.waitUntil(lambda: export.export_button.isEnabled() and "Saving" not in export.note.text(), timeout=30_000)
    assert "Choose another folder" in export.note.text()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_search_shows_only_the_segments_with_the_words(qtbot, tab, jfk):
    drop(tab, jfk)
    wait_until_settled(qtbot, tab, 1)
    tab.queue_view.selectRow(0)
    panel = tab.transcript_panel
    total = panel.segments_model.rowCount()
    qtbot.keyClicks(panel.search_edit, "COUNTRY")
    shown = [panel.search_model.index(r, SegmentsModel.TEXT).data() for r in range(panel.search_model.rowCount())]
    assert shown and all("country" in text.lower() for text in shown)
    assert panel.search_count.text() == f"{len(shown)} of {total}"
    panel.search_edit.clear()
    assert panel.search_model.rowCount() == total


def test_clicking_a_segment_plays_that_stretch_of_the_recording(qtbot, tab, jfk):
    drop(tab, jfk)
    wait_until_settled(qtbot, tab, 1)
    tab.queue_view.selectRow(0)
    segment = tab.transcript_panel.segments_model.segment(0)
    played = []
    playback = tab.transcript_panel.timing.playback
    playback.state_changed.connect(played.append)
    view = tab.transcript_panel.view
    rect = view.visualRect(view.model().index(0, SegmentsModel.TEXT))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert played[:1] == ["playing"] and playback.position == pytest.approx(segment.start)
    # What is played is that stretch and nothing else.
    stretch = decode_stretch(jfk, segment.start, segment.end)
    assert len(stretch) == pytest.approx((segment.end - segment.start) * PLAYBACK_RATE, abs=2)
    assert np.abs(stretch).max() > 0.05
    qtbot.waitUntil(lambda: playback.state == "stopped", timeout=30_000)


def test_segment_times_can_be_corrected_but_never_made_to_overlap(qtbot, tab, jfk, tmp_path):
    rejected = []
    tab.transcript_panel.segments_model.edit_rejected.connect(rejected.append)
    drop(tab, jfk)
    wait_until_settled(qtbot, tab, 1)
    tab.queue_view.selectRow(0)
    segments = tab.queue.items[0].transcript.segments
    assert len(segments) >= 2
    model = tab.transcript_panel.view.model()

    # Ending the first segment after the second one starts would make subtitles overlap.
    too_late = segments[1].start + 1.0
    assert not model.setData(model.index(0, SegmentsModel.END), f"{too_late:.3f}")
    assert rejected and "would end after line 2 starts" in rejected[-1]
    assert not model.setData(model.index(0, SegmentsModel.START), "half past")
    assert rejected[-1] == "Type a time like 00:01:02.500."

    new_end = round(segments[1].start - 0.5, 3)
    assert model.setData(model.index(0, SegmentsModel.END), f"00:00:{new_end:06.3f}")
    assert segments[0].end == pytest.approx(new_end)
    assert model.index(0, SegmentsModel.END).data() == f"00:00:{new_end:06.3f}"

    tab.set_export_folder(tmp_path)
    tab.export_selected()
    qtbot.waitUntil(lambda: (tmp_path / "jfk.srt").is_file(), timeout=30_000)
    cues = list(srt.parse((tmp_path / "jfk.srt").read_text(encoding="utf-8")))
    assert max(c.end.total_seconds() for c in cues if c.start.total_seconds() < new_end) <= new_end + 0.001


def test_removing_the_shown_file_clears_its_transcript(qtbot, tab, jfk, monkeypatch):
    monkeypatch.setattr(remove_prompt, "ask_keep_transcripts", lambda parent, names, changed=(): True)
    drop(tab, jfk)
    wait_until_settled(qtbot, tab, 1)
    tab.queue_view.selectRow(0)
    assert tab.transcript_panel.segments_model.rowCount() > 0
    qtbot.mouseClick(tab.queue_panel.remove_button, Qt.MouseButton.LeftButton)
    assert tab.queue_model.rowCount() == 0
    assert tab.transcript_panel.segments_model.rowCount() == 0
    assert tab.result_title.text() == "Select a file in the list to see its transcript."
    assert tab.queue_panel.drop_hint.isVisibleTo(tab)
