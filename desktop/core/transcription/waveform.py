"""A recording's outline for drawing: the lowest and highest sample in each short stretch ("peaks").

The sound is read with the same decoder as for transcribing (core.common.audio), a minute at a time,
so a two-hour meeting never sits in memory whole; the outline itself is small (50 pairs a second).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable

import numpy as np

from desktop.core.common import audio
from desktop.core.common.errors import Cancelled

BINS_PER_SECOND = 50  # a pair every 20 ms: finer than a pixel at any useful zoom
DECODE_RATE = 8000  # drawing needs no more; decoding at it is twice as quick as at Whisper's 16 kHz
_CHUNK_SECONDS = 60.0


class PeaksCancelled(Cancelled):
    """The outline was no longer wanted (another file was selected): a cancelling, never a failure to
    report (the window said "Something went wrong" when another file was picked while it was drawn)."""


@dataclass(frozen=True)
class Peaks:
    """low[i], high[i]: the sound's range in [-1, 1] from i / bins_per_second for one bin."""

    low: np.ndarray
    high: np.ndarray
    bins_per_second: int = BINS_PER_SECOND

    @property
    def duration(self) -> float:
        return len(self.high) / self.bins_per_second

    def columns(self, start: float, seconds_per_column: float, count: int) -> tuple[np.ndarray, np.ndarray]:
        """The range of each of count columns from start seconds, each seconds_per_column wide
        (zeros past the end), for drawing one line per pixel."""
        edges = np.floor((start + np.arange(count + 1) * seconds_per_column) * self.bins_per_second)
        edges = np.clip(edges.astype(np.int64), 0, len(self.high))
        lows, highs = np.zeros(count, np.float32), np.zeros(count, np.float32)
        filled = edges[1:] > edges[:-1]
        if filled.any():
            starts, last_end = edges[:-1][filled], int(edges[1:][filled][-1])
            # Empty columns take no bins, so each filled column runs to the next one's start and
            # reduceat's pieces are exactly the columns once the array is cut at the last one's end.
            lows[filled] = np.minimum.reduceat(self.low[:last_end], starts)
            highs[filled] = np.maximum.reduceat(self.high[:last_end], starts)
        return lows, highs


def compute_peaks(path: str | os.PathLike[str], *, bins_per_second: int = BINS_PER_SECOND,
                  cancelled: Callable[[], bool] = lambda: False,
                  progress: Callable[[float], None] | None = None) -> Peaks:
    """The outline of the recording at path; raises the decoder's AudioError (with its sentence) for a
    file that cannot be read, PeaksCancelled as soon as cancelled() says so."""
    per_bin = DECODE_RATE // bins_per_second
    try:
        total = audio.probe(path).duration or 0.0
    except audio.AudioError:
        total = 0.0
    lows: list[np.ndarray] = []
    highs: list[np.ndarray] = []
    rest = np.zeros(0, np.float32)
    for offset, samples in audio.iter_chunks(path, _CHUNK_SECONDS, DECODE_RATE, overlap_search_seconds=0):
        if cancelled():
            raise PeaksCancelled()
        samples = np.concatenate((rest, samples)) if len(rest) else samples
        whole = len(samples) // per_bin * per_bin
        blocks = samples[:whole].reshape(-1, per_bin)
        lows.append(blocks.min(axis=1))
        highs.append(blocks.max(axis=1))
        rest = samples[whole:]
        if progress is not None and total:
            progress(min(1.0, (offset + len(samples) / DECODE_RATE) / total))
    if len(rest):
        lows.append(rest.min(keepdims=True))
        highs.append(rest.max(keepdims=True))
    low = np.concatenate(lows).astype(np.float32) if lows else np.zeros(0, np.float32)
    high = np.concatenate(highs).astype(np.float32) if highs else np.zeros(0, np.float32)
    return Peaks(low, high, bins_per_second)
