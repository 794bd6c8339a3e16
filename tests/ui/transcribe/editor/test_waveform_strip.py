"""Timing by ear in the real window: Play/Pause and Replay line play the selected file through a real
(private PulseAudio) sound device, speed changes the tempo, the waveform strip seeks on a click and
retimes a line when its edge is dragged (undone by Ctrl+Z), and a two-hour recording's outline is
computed away from the window's thread."""
import threading
import wave

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication, QToolButton

from desktop.core.common.tempo import change_tempo
from desktop.core.transcription import waveform
from desktop.ui.common.stream_player import PLAYING
from desktop.ui.transcribe.editor.timing_by_ear import LEAD_IN_SECONDS
from tests.helpers.closing import close_window
from tests.helpers.pulseaudio import pulseaudio, pulseaudio_server  # noqa: F401 - fixtures
from tests.ui.transcribe.editor.test_editor_window import CTRL, saved, sources, timed_transcript  # noqa: F401
from tests.ui.transcribe.editor.test_editor_window import select_line as select
from tests.ui.transcribe.editor.test_autosave_window import open_window
from tests.ui.conftest import JOB_TIMEOUT_MS
from desktop.core.transcription.autosave import AutosaveStore, default_path

pytestmark = pytest.mark.slow


def shown(qtbot, settings):
    window = open_window(qtbot, settings)
    tab = window.transcribe_tab
    tab.queue_view.selectRow(0)
    panel = tab.transcript_panel
    return window, panel, panel.timing


def test_play_starts_the_selected_files_recording_and_pause_holds_it(qtbot, settings, sources, pulseaudio):
    window, panel, timing = shown(qtbot, settings)
    select(panel.view, 1)
    qtbot.mouseClick(timing.bar.play_button, Qt.MouseButton.LeftButton)
    playback = timing.playback
    assert playback.path == sources[0]
    qtbot.waitUntil(lambda: bool(pulseaudio.playing_streams()), timeout=10_000)
    qtbot.waitUntil(lambda: playback.position > 3.3, timeout=10_000)
    assert playback.state == PLAYING and timing.bar.play_button.text() == "Pause"
    assert timing.playing_row == 1, "the line being heard is the one marked in the table"
    assert panel.segments_model.index(1, 3).data(Qt.ItemDataRole.FontRole).bold()
    qtbot.mouseClick(timing.bar.play_button, Qt.MouseButton.LeftButton)
    assert playback.state == "paused" and timing.bar.play_button.text() == "Play"
    held = playback.position
    qtbot.wait(300)
    assert playback.position == held


def test_replay_line_plays_the_selected_line_from_its_start(qtbot, settings, sources, pulseaudio):
    window, panel, timing = shown(qtbot, settings)
    timing.play_from(9.0)
    qtbot.waitUntil(lambda: timing.playback.position > 9.0, timeout=10_000)
    select(panel.view, 2)
    qtbot.keyClick(panel.view, Qt.Key.Key_R, CTRL)
    assert timing.playback.position == pytest.approx(5.5 - LEAD_IN_SECONDS)  # a second before the line
    qtbot.waitUntil(lambda: timing.playback.position > 5.5, timeout=10_000)
    assert timing.playback.position < 8.5
    assert "Ctrl+R" in timing.bar.replay_button.toolTip()


def test_speed_changes_the_tempo_and_keeps_the_length_it_promises(qtbot, settings, sources):
    window, panel, timing = shown(qtbot, settings)
    timing.bar.speed_box.setCurrentIndex(timing.bar.speed_box.findData(2.0))
    assert timing.playback.speed == 2.0
    tone = np.sin(np.arange(48000) / 48000 * 2 * np.pi * 440).astype(np.float32)
    faster = change_tempo(tone, 48000, 2.0)
    assert len(faster) == pytest.approx(24000, rel=0.02)
    # The pitch stays: the strongest frequency is still 440 Hz.
    spectrum = np.abs(np.fft.rfft(faster[2000:22000]))
    assert np.fft.rfftfreq(20000, 1 / 48000)[spectrum.argmax()] == pytest.approx(440, abs=5)


def canvas_shown(qtbot, settings):
    window, panel, timing = shown(qtbot, settings)
    canvas = timing.strip.canvas
    qtbot.waitUntil(lambda: canvas.peaks is not None, timeout=10_000)
    return window, panel, timing, canvas


def test_a_click_on_the_strip_plays_from_there(qtbot, settings, sources, pulseaudio):
    window, panel, timing, canvas = canvas_shown(qtbot, settings)
    x = int(canvas.x_of(6.0))
    qtbot.mouseClick(canvas, Qt.MouseButton.LeftButton, pos=QPoint(x, canvas.height() // 2))
    assert timing.playback.position == pytest.approx(canvas.seconds_at(x))
    assert 5.9 < timing.playback.position < 6.1
    qtbot.waitUntil(lambda: timing.playback.position > 6.2, timeout=10_000)


def drag(qtbot, canvas, from_x: int, to_x: int) -> None:
    y = canvas.height() // 2
    qtbot.mousePress(canvas, Qt.MouseButton.LeftButton, pos=QPoint(from_x, y))
    qtbot.mouseMove(canvas, QPoint((from_x + to_x) // 2, y))
    qtbot.mouseMove(canvas, QPoint(to_x, y))
    qtbot.mouseRelease(canvas, Qt.MouseButton.LeftButton, pos=QPoint(to_x, y))


def test_dragging_a_lines_edge_retimes_it_and_ctrl_z_restores_it(qtbot, settings, sources):
    window, panel, timing, canvas = canvas_shown(qtbot, settings)
    transcript = panel.segments_model.transcript
    drag(qtbot, canvas, int(canvas.x_of(8.5)), int(canvas.x_of(9.0)))
    assert transcript.segments[3].start == pytest.approx(9.0, abs=1 / canvas.pixels_per_second * 2)
    assert transcript.segments[3].end == 11.0
    assert panel.segments_model.index(3, 0).data() == "00:00:0" + f"{transcript.segments[3].start:.3f}"
    qtbot.keyClick(panel.view, Qt.Key.Key_Z, CTRL)
    assert (transcript.segments[3].start, transcript.segments[3].end) == (8.5, 11.0)


def test_an_edge_dragged_over_its_neighbour_is_refused_with_a_sentence(qtbot, settings, sources):
    window, panel, timing, canvas = canvas_shown(qtbot, settings)
    transcript = panel.segments_model.transcript
    messages = []
    panel.status_message.connect(messages.append)
    drag(qtbot, canvas, int(canvas.x_of(8.5)), int(canvas.x_of(7.0)))
    assert transcript.segments[3].start == 8.5
    assert any(message.startswith("Line 4 would start before line 3 ends") for message in messages)


def test_a_two_hour_recordings_outline_is_computed_off_the_windows_thread(qtbot, settings, tmp_path, monkeypatch):
    long_file = tmp_path / "in" / "meeting.wav"
    long_file.parent.mkdir()
    with wave.open(str(long_file), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(8000)
        minute = (np.sin(np.arange(8000 * 60) / 8000 * 2 * np.pi * 200) * 8000).astype("<i2").tobytes()
        for _ in range(120):
            out.writeframes(minute)
    store = AutosaveStore(default_path())
    saved(store, long_file, timed_transcript(long_file))
    store.close()
    threads = []
    real = waveform.compute_peaks

    def watched(*args, **kwargs):
        threads.append(threading.current_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(waveform, "compute_peaks", watched)
    window, panel, timing = shown(qtbot, settings)
    qtbot.waitUntil(lambda: bool(threads), timeout=10_000)
    assert threads[0] is not threading.main_thread()
    assert QApplication.instance().thread() is window.thread()
    qtbot.waitUntil(lambda: timing.strip.canvas.peaks is not None, timeout=300_000)
    assert timing.strip.canvas.peaks.duration == pytest.approx(7200, abs=0.1)
    canvas = timing.strip.canvas
    assert canvas.seconds_shown() == pytest.approx(30, rel=0.01), "half a minute across, not two hours"
    assert timing.strip.scroll_bar.isVisible()
    canvas.set_playhead(3600.0)
    assert canvas.first_second <= 3600.0 < canvas.first_second + canvas.seconds_shown(), "the view follows"
    qtbot.mouseMove(canvas, QPoint(10, 10))
    wheel_out = QWheelEvent(QPointF(10, 10), canvas.mapToGlobal(QPointF(10, 10)), QPoint(0, 0), QPoint(0, -120 * 40),
                            Qt.MouseButton.NoButton, Qt.KeyboardModifier.ControlModifier, Qt.ScrollPhase.NoScrollPhase,
                            False)
    QApplication.sendEvent(canvas, wheel_out)
    assert canvas.seconds_shown() == pytest.approx(7200, rel=0.01), "Ctrl+wheel zooms out to the whole recording"


def test_one_labelled_stop_ends_the_recording_and_a_clicked_line(qtbot, settings, sources, pulseaudio):
    window, panel, timing = shown(qtbot, settings)
    stops = [button for button in panel.findChildren(QToolButton) if button.icon().cacheKey()
             and button.defaultAction() is None and not button.text()]
    assert not stops, "no unlabelled button beside the playback bar's"
    stop = timing.bar.stop_button
    assert stop.text() == "Stop" and not stop.isEnabled()
    select(panel.view, 1)
    qtbot.mouseClick(timing.bar.play_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: timing.playback.position > 3.3, timeout=10_000)
    assert stop.isEnabled()
    qtbot.mouseClick(stop, Qt.MouseButton.LeftButton)
    assert timing.playback.state == "stopped" and not stop.isEnabled()
    assert timing.bar.play_button.text() == "Play"
    rect = panel.view.visualRect(panel.search_model.index(2, 3))
    qtbot.mouseClick(panel.view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.waitUntil(lambda: timing.playback.state == PLAYING, timeout=10_000)
    assert stop.isEnabled()
    qtbot.mouseClick(stop, Qt.MouseButton.LeftButton)
    assert timing.playback.state == "stopped" and not stop.isEnabled()


def test_clicking_a_line_plays_it_and_the_clock_playhead_and_play_button_follow(qtbot, settings, sources, pulseaudio):
    window, panel, timing, canvas = canvas_shown(qtbot, settings)
    segment = panel.segments_model.segment(2)
    rect = panel.view.visualRect(panel.search_model.index(2, 3))
    qtbot.mouseClick(panel.view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.waitUntil(lambda: timing.playback.position > segment.start + 0.3, timeout=10_000)
    assert timing.bar.play_button.text() == "Pause"
    assert canvas.playhead is not None and canvas.playhead > segment.start
    assert timing.bar.position_label.text() != "00:00:00.000"
    qtbot.waitUntil(lambda: timing.playback.state == "stopped", timeout=15_000)
    assert timing.playback.position == pytest.approx(segment.end, abs=0.3)  # that line and no more


def test_a_line_clicked_while_the_recording_plays_takes_over_the_one_player(qtbot, settings, sources, pulseaudio):
    window, panel, timing, canvas = canvas_shown(qtbot, settings)
    select(panel.view, 0)
    qtbot.mouseClick(timing.bar.play_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: timing.playback.position > 1.0, timeout=10_000)
    segment = panel.segments_model.segment(2)
    rect = panel.view.visualRect(panel.search_model.index(2, 3))
    qtbot.mouseClick(panel.view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert timing.playback.position == pytest.approx(segment.start), "the bar's run gave way to the line"
    qtbot.waitUntil(lambda: timing.playback.position > segment.start + 0.3, timeout=10_000)
    assert timing.playback.state == PLAYING and timing.bar.play_button.text() == "Pause"
    assert segment.start < canvas.playhead < segment.end, "the playhead is in the clicked line"
    assert timing.playing_row == 2
    # One sound at a time. The server lists a stream a moment after it opens (a busy machine made that
    # moment longer than the 0.3 s waited above), so the listing is waited for, not read once.
    qtbot.waitUntil(lambda: len(pulseaudio.playing_streams()) == 1, timeout=10_000)
    qtbot.waitUntil(lambda: timing.playback.state == "stopped", timeout=15_000)
    assert timing.playback.position == pytest.approx(segment.end, abs=0.3), "the line's end, not the recording's"


def test_closing_the_window_silences_the_recording(qtbot, settings, sources, pulseaudio):
    window, panel, timing = shown(qtbot, settings)
    qtbot.mouseClick(timing.bar.play_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(pulseaudio.playing_streams()), timeout=10_000)
    close_window(qtbot, window, timeout=JOB_TIMEOUT_MS)
    assert timing.playback.state == "stopped"
    qtbot.waitUntil(lambda: not pulseaudio.playing_streams(), timeout=10_000)


def test_ctrl_3_and_ctrl_4_set_the_selected_lines_start_and_end_where_it_plays(qtbot, settings, sources, pulseaudio):
    window, panel, timing = shown(qtbot, settings)
    transcript = panel.segments_model.transcript
    select(panel.view, 2)
    qtbot.keyClick(panel.view, Qt.Key.Key_3, CTRL)
    assert panel.refusal.isVisible() and "Play the recording first" in panel.refusal.text()
    timing.play_from(5.8)
    qtbot.waitUntil(lambda: timing.playback.position > 6.0, timeout=10_000)
    timing.playback.pause()
    heard = round(timing.playback.position, 3)
    qtbot.keyClick(panel.view, Qt.Key.Key_3, CTRL)
    assert transcript.segments[2].start == pytest.approx(heard)
    assert not panel.refusal.isVisible()
    timing.play_from(7.9)
    qtbot.waitUntil(lambda: timing.playback.position > 8.0, timeout=10_000)
    timing.playback.pause()
    heard = round(timing.playback.position, 3)
    qtbot.keyClick(panel.view, Qt.Key.Key_F12)
    assert transcript.segments[2].end == pytest.approx(heard)
    qtbot.keyClick(panel.view, Qt.Key.Key_Z, CTRL)
    assert transcript.segments[2].end != pytest.approx(heard)
    assert panel.timing.bar.set_start_action in panel.line_actions
