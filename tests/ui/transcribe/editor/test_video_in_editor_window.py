"""The video beside the editor in the real window: a video's picture follows the selected line with its
cue drawn on it, hides and comes back, and a sound recording shows no panel."""
import numpy as np
import pytest
from PySide6.QtCore import Qt

from desktop.core.transcription.autosave import AutosaveStore, default_path
from desktop.core.transcription.transcript import Segment, Transcript
from tests.helpers.videos import make_video
from tests.ui.transcribe.editor.test_autosave_window import open_window
from tests.ui.transcribe.editor.test_editor_window import copy_of, saved, select_line


def _transcript(source) -> Transcript:
    return Transcript(segments=[Segment(0.2, 1.2, "大家好"), Segment(1.6, 2.8, "欢迎参加培训")], language="zh",
                      duration=3.0, source=str(source))


@pytest.fixture
def recordings(tmp_path):
    video = make_video(tmp_path / "in" / "training.mp4") if (tmp_path / "in").mkdir() is None else None
    sound = copy_of("jfk.flac", tmp_path / "in")
    store = AutosaveStore(default_path())
    saved(store, video, _transcript(video))
    saved(store, sound, _transcript(sound))
    store.close()
    return video, sound


def _picture(panel) -> np.ndarray | None:
    image = panel.video.video._image
    if image is None:
        return None
    image = image.convertToFormat(image.Format.Format_RGB888)
    data = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine())
    return data[:, :image.width() * 3].reshape(image.height(), image.width(), 3).copy()


def test_a_videos_picture_follows_the_selected_line_with_its_cue_drawn(qtbot, settings, recordings):
    window = open_window(qtbot, settings)
    tab = window.transcribe_tab
    tab.queue_view.selectRow(0)
    panel = tab.transcript_panel
    video = panel.video.video
    qtbot.waitUntil(lambda: video.available and video.isVisible(), timeout=30_000)
    assert panel.video.toggle.isVisible()
    select_line(panel.view, 0)
    qtbot.waitUntil(lambda: video._shown_time == pytest.approx(0.7) and video._drawing is None, timeout=30_000)
    with_cue = _picture(panel)
    bottom = with_cue[with_cue.shape[0] * 3 // 4:]
    assert (bottom.max(axis=2) > 250).sum() > 200, "the cue's white text is drawn near the bottom"
    select_line(panel.view, 1)
    qtbot.waitUntil(lambda: video._shown_time == pytest.approx(2.2) and video._drawing is None, timeout=30_000)
    assert not np.array_equal(_picture(panel), with_cue), "another line shows another moment and cue"
    qtbot.mouseClick(panel.video.toggle, Qt.MouseButton.LeftButton)
    assert not video.isVisible()
    qtbot.mouseClick(panel.video.toggle, Qt.MouseButton.LeftButton)
    assert video.isVisible()


def test_a_sound_recording_shows_no_video_panel(qtbot, settings, recordings):
    window = open_window(qtbot, settings)
    tab = window.transcribe_tab
    tab.queue_view.selectRow(0)
    panel = tab.transcript_panel
    qtbot.waitUntil(lambda: panel.video.video.available, timeout=30_000)
    tab.queue_view.selectRow(1)
    qtbot.waitUntil(lambda: not panel.video.video.isVisible(), timeout=10_000)
    qtbot.wait(500)
    assert not panel.video.video.isVisible() and not panel.video.toggle.isVisible()


def test_a_video_that_cannot_be_played_says_so_and_the_lines_stay_editable(qtbot, settings, tmp_path):
    broken = tmp_path / "in" / "broken.mp4"
    broken.parent.mkdir()
    good = make_video(tmp_path / "good.mp4")
    data = bytearray(good.read_bytes())
    data[len(data) // 3:] = bytes(len(data) - len(data) // 3)  # the picture's data zeroed after its first third
    broken.write_bytes(b"\x00" * 64 + bytes(data))
    store = AutosaveStore(default_path())
    saved(store, broken, _transcript(broken))
    store.close()
    window = open_window(qtbot, settings)
    tab = window.transcribe_tab
    tab.queue_view.selectRow(0)
    panel = tab.transcript_panel
    qtbot.waitUntil(lambda: "cannot be shown" in panel.video.video.picture.text(), timeout=30_000)
    assert panel.segments_model.editable


def test_the_panels_size_and_hiding_are_remembered_for_the_next_window(qtbot, settings, recordings):
    window = open_window(qtbot, settings)
    tab = window.transcribe_tab
    tab.queue_view.selectRow(0)
    editor_video = tab.transcript_panel.video
    qtbot.waitUntil(lambda: editor_video.video.isVisible(), timeout=30_000)
    total = sum(editor_video.splitter.sizes())
    editor_video.splitter.setSizes([total - 300, 300])
    editor_video.splitter.splitterMoved.emit(total - 300, 1)
    qtbot.mouseClick(editor_video.toggle, Qt.MouseButton.LeftButton)
    window.close()
    again = open_window(qtbot, settings)
    again.transcribe_tab.queue_view.selectRow(0)
    restored = again.transcribe_tab.transcript_panel.video
    qtbot.waitUntil(lambda: restored.video.available, timeout=30_000)
    assert not restored.toggle.isChecked() and not restored.video.isVisible()
    qtbot.mouseClick(restored.toggle, Qt.MouseButton.LeftButton)  # shown again (for the tests after this one too)
    assert restored.video.isVisible()
    assert restored.splitter.sizes()[1] == pytest.approx(300, abs=30)


def test_file_export_video_opens_the_dialog_with_the_transcript_open_in_the_editor(qtbot, settings, recordings):
    window = open_window(qtbot, settings)
    window.transcribe_tab.queue_view.selectRow(0)
    assert window.export_video_action.isEnabled()
    window.export_video_action.trigger()
    dialog = window.video_export_dialog
    qtbot.waitUntil(lambda: dialog._overview is not None, timeout=30_000)
    assert dialog.isVisible() and dialog.video == recordings[0]
    assert [c.label for c in dialog.chosen()] == ["The transcript open in the editor"]
    assert [cue.text for cue in dialog.chosen()[0].cues] == ["大家好", "欢迎参加培训"]
    dialog.reject()
