"""The live recording on disk: written as it comes, readable after a crash, never replacing a file."""
from __future__ import annotations

import datetime
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from desktop.core.common.audio import decode, probe
from desktop.core.common.errors import UserFacingError
from desktop.core.transcription.live_capture import CaptureFile, live_dir, session_path
from desktop.core.transcription.live_lines import LiveLines
from desktop.core.transcription.transcript import Segment

RATE = 48000


def tone(seconds: float, rate: int = RATE) -> np.ndarray:
    t = np.arange(int(seconds * rate)) / rate
    return (0.3 * np.sin(2 * np.pi * 440 * t)).astype(np.float32)


def test_the_recording_is_a_flac_file_of_everything_written(tmp_path):
    capture = CaptureFile(tmp_path / "live" / "session.flac", RATE)
    for _ in range(5):
        capture.write(tone(0.5))
    assert capture.seconds == pytest.approx(2.5)
    path = capture.close()

    info = probe(path)
    assert info.codec == "flac" and info.sample_rate == RATE
    assert info.duration == pytest.approx(2.5, abs=0.01)
    samples = decode(path, sample_rate=RATE)
    assert np.max(np.abs(samples - tone(2.5)[: len(samples)])) < 1e-3  # 16-bit: the same sound


def test_a_crash_loses_at_most_a_second_of_the_recording(tmp_path):
    path = tmp_path / "crashed.flac"
    # Another process writes 5.3 s in 100 ms blocks and dies without closing the file.
    script = textwrap.dedent(f"""
        import os, numpy as np
        from desktop.core.transcription.live_capture import CaptureFile
        capture = CaptureFile({str(path)!r}, {RATE})
        t = np.arange({RATE} // 10) / {RATE}
        for _ in range(53):
            capture.write((0.3 * np.sin(2 * np.pi * 440 * t)).astype(np.float32))
        os._exit(0)
    """)
    subprocess.run([sys.executable, "-c", script], check=True, cwd=os.getcwd(), timeout=120)

    kept = len(decode(path, sample_rate=RATE)) / RATE
    assert 5.3 - 1.0 <= kept <= 5.3 + 1e-6


def test_a_session_never_replaces_an_earlier_recording(tmp_path):
    started = datetime.datetime(2026, 11, 30, 14, 5, 9)
    first = session_path(tmp_path, started)
    assert first.name == "Live captions 2026-11-30 14-05-09.flac"
    capture = CaptureFile(first, RATE)
    capture.write(tone(1.0))
    capture.close()
    second = session_path(tmp_path, started)
    assert second.name == "Live captions 2026-11-30 14-05-09 (2).flac"
    with pytest.raises(UserFacingError):
        CaptureFile(first, RATE)  # the file exists: refused, not overwritten
    assert probe(first).duration == pytest.approx(1.0, abs=0.01)


def test_sessions_are_recorded_in_the_data_folder(isolated_user_folders):
    assert live_dir() == isolated_user_folders / "data" / "live"


def test_a_folder_that_cannot_be_written_gives_a_sentence(tmp_path):
    blocked = tmp_path / "not a folder"
    blocked.write_text("a file where the folder should be")
    with pytest.raises(UserFacingError) as error:
        CaptureFile(blocked / "session.flac", RATE)
    assert "recording" in error.value.message


def test_samples_beyond_full_scale_are_clipped_not_refused(tmp_path):
    capture = CaptureFile(tmp_path / "loud.flac", RATE)
    capture.write(np.full(RATE, 1.7, np.float32))
    samples = decode(capture.close(), sample_rate=RATE)
    assert 0.99 < samples.max() <= 1.0


def test_live_lines_keep_committed_lines_in_order_and_one_changing_line():
    lines = LiveLines()
    lines.set_tentative("and so my")
    assert lines.last_lines() == ["and so my"]
    lines.commit(Segment(0.5, 2.0, " And so my fellow Americans,"), latency=1.2)
    assert lines.tentative == ""
    lines.set_tentative("ask not")
    lines.commit(Segment(2.5, 4.0, " ask not what your country can do for you."), latency=0.9)
    lines.set_tentative("ask what")

    assert lines.last_lines(2) == ["ask not what your country can do for you.", "ask what"]
    transcript = lines.transcript(duration=6.0, source="live.flac")
    assert [s.start for s in transcript.segments] == [0.5, 2.5]
    assert transcript.text == "And so my fellow Americans, ask not what your country can do for you."
    assert [line.latency for line in lines.committed] == [1.2, 0.9]
