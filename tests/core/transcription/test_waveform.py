"""A recording's outline: the lowest and highest sample of every 20 ms, read with the app's decoder."""
from pathlib import Path

import numpy as np
import pytest

from desktop.core.common import audio
from desktop.core.common.errors import AudioError
from desktop.core.transcription.waveform import DECODE_RATE, PeaksCancelled, compute_peaks

JFK = Path(__file__).resolve().parents[2] / "data" / "jfk.flac"


def test_the_outline_holds_each_stretchs_lowest_and_highest_sample():
    peaks = compute_peaks(JFK)
    samples = audio.decode(JFK, DECODE_RATE)
    per_bin = DECODE_RATE // peaks.bins_per_second
    assert len(peaks.high) == -(-len(samples) // per_bin)
    for index in (0, 100, len(peaks.high) // 2, len(peaks.high) - 1):
        stretch = samples[index * per_bin:(index + 1) * per_bin]
        assert (peaks.low[index], peaks.high[index]) == (stretch.min(), stretch.max())
    assert peaks.duration == pytest.approx(len(samples) / DECODE_RATE, abs=1 / peaks.bins_per_second)


def test_columns_take_the_range_of_the_bins_they_cover_and_nothing_past_the_end():
    peaks = compute_peaks(JFK)
    lows, highs = peaks.columns(1.0, 0.5, 40)  # 1 s to 21 s: the recording ends at 11 s
    bins = peaks.bins_per_second // 2
    first = peaks.bins_per_second
    assert highs[0] == peaks.high[first:first + bins].max() and lows[0] == peaks.low[first:first + bins].min()
    assert not highs[-10:].any() and not lows[-10:].any()


def test_it_stops_when_no_longer_wanted_and_says_why_a_file_cannot_be_read(tmp_path):
    with pytest.raises(PeaksCancelled):
        compute_peaks(JFK, cancelled=lambda: True)
    broken = tmp_path / "broken.flac"
    broken.write_bytes(b"not sound" * 100)
    with pytest.raises(AudioError):
        compute_peaks(broken)


def test_speed_keeps_the_pitch_and_changes_the_length():
    from desktop.core.common.tempo import change_tempo

    tone = np.sin(np.arange(48000) / 48000 * 2 * np.pi * 300).astype(np.float32)
    for speed in (0.5, 1.5):
        changed = change_tempo(tone, 48000, speed)
        assert len(changed) == pytest.approx(48000 / speed, rel=0.02)
        middle = changed[len(changed) // 4:len(changed) // 4 + 12000]
        frequencies = np.fft.rfftfreq(len(middle), 1 / 48000)
        assert frequencies[np.abs(np.fft.rfft(middle)).argmax()] == pytest.approx(300, abs=5)
