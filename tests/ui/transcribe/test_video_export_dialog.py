"""File → Export video with subtitles…: the real dialog on a real video, its work on job threads."""
import os

import av
import pytest
from PySide6.QtCore import Qt

from desktop.core.transcription.subtitles import Cue
from desktop.ui.transcribe.video_export_dialog import VideoExportDialog
from desktop.workers.job import JobRunner
from desktop.workers.video_export import TranscriptChoice
from tests.helpers.videos import make_video, write_srt

OPEN = TranscriptChoice("open", "zh", cues=(Cue(0.5, 1.5, ["大家好"]), Cue(1.6, 2.4, ["欢迎"])))


@pytest.fixture(scope="module")
def video(tmp_path_factory):
    folder = tmp_path_factory.mktemp("video")
    path = make_video(folder / "talk.mp4")
    write_srt(folder / "talk.en.srt", [(0.4, 1.2, "Hello")])
    return path


@pytest.fixture
def dialog(qtbot, video):
    runner = JobRunner()
    shown = VideoExportDialog(video, OPEN, runner)
    qtbot.addWidget(shown)
    qtbot.waitUntil(lambda: shown._overview is not None, timeout=30_000)
    yield shown
    runner.shutdown()


def test_the_subtitle_files_beside_the_video_are_offered_with_their_language(dialog):
    labels = [dialog.transcripts.item(i).text() for i in range(dialog.transcripts.count())]
    assert labels == ["open (zh)", "talk.en.srt (en)"]
    assert [c.label for c in dialog.chosen()] == ["open"]


def test_webm_is_greyed_with_the_reason_for_an_h264_video(dialog):
    index = dialog.container.findData(".webm")
    item = dialog.container.model().item(index)
    assert not item.isEnabled() and "cannot hold this video's picture (H264)" in item.toolTip()
    assert dialog.container_note.isVisibleTo(dialog) and "WebM" in dialog.container_note.text()
    dialog.burn_button.setChecked(True)
    assert dialog.container.findData(".webm") == -1


def test_two_tracks_are_exported_off_the_window_thread_and_read_back(qtbot, dialog, tmp_path):
    dialog.transcripts.item(1).setCheckState(Qt.CheckState.Checked)
    out = tmp_path / "talk.mkv"
    dialog.start_export(out, overwrite=False)
    assert not dialog.export_button.isEnabled() and dialog.cancel_button.isVisible() is dialog.isVisible()
    qtbot.waitUntil(lambda: dialog._export_job is None, timeout=60_000)
    assert "Saved “talk.mkv”" in dialog.status.text()
    with av.open(str(out)) as f:
        assert [s.metadata.get("language") for s in f.streams.subtitles] == ["chi", "eng"]


def test_the_preview_shows_the_burned_cue_and_changes_with_the_style(qtbot, dialog):
    dialog.burn_button.setChecked(True)
    qtbot.waitUntil(lambda: dialog.preview.pixmap() is not None and not dialog.preview.pixmap().isNull(),
                    timeout=30_000)
    qtbot.waitUntil(lambda: dialog._preview_job is None, timeout=30_000)
    bottom = dialog.preview.pixmap().toImage()
    dialog.position.setCurrentIndex(dialog.position.findData("top"))
    qtbot.waitUntil(lambda: dialog.preview.pixmap().toImage() != bottom, timeout=30_000)


def test_cancelling_a_burn_leaves_no_file(qtbot, dialog, tmp_path):
    dialog.burn_button.setChecked(True)
    out = tmp_path / "burned.mp4"
    dialog.start_export(out, overwrite=False)
    dialog._cancel()
    qtbot.waitUntil(lambda: dialog._export_job is None, timeout=60_000)
    assert dialog.status.text() == "Stopped; nothing was saved."
    assert os.listdir(tmp_path) == []


def test_a_file_that_is_no_video_says_so_and_offers_no_export(qtbot, tmp_path):
    fake = tmp_path / "fake.mp4"
    fake.write_text("nothing " * 100)
    runner = JobRunner()
    shown = VideoExportDialog(fake, OPEN, runner)
    qtbot.addWidget(shown)
    qtbot.waitUntil(lambda: "cannot read “fake.mp4” as a video" in shown.status.text(), timeout=30_000)
    assert not shown.export_button.isEnabled()
    runner.shutdown()
