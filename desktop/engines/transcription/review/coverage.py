"""Where speech was heard but nothing was written: the stretches a second decoding should look at."""
from __future__ import annotations

from desktop.core.transcription.transcript import Segment

MIN_UNCOVERED = 1.0  # seconds of speech without a segment before the stretch is decoded again
MIN_SPEECH = 0.5  # seconds of speech heard in such a stretch that make it worth decoding, or a gap


def uncovered(
    speech: list[tuple[float, float]], segments: list[Segment], min_length: float = MIN_UNCOVERED
) -> list[tuple[float, float]]:
    """The parts of the ``speech`` stretches (start, end) that no segment covers, each at least
    ``min_length`` seconds long, in time order."""
    covered = sorted((segment.start, segment.end) for segment in segments)
    found: list[tuple[float, float]] = []
    for start, end in sorted(speech):
        cursor = start
        for begin, finish in covered:
            if finish <= cursor:
                continue
            if begin >= end:
                break
            if begin - cursor >= min_length:
                found.append((cursor, begin))
            cursor = max(cursor, finish)
        if end - cursor >= min_length:
            found.append((cursor, end))
    return found


def clipped(stretches: list[tuple[float, float]], start: float, end: float) -> list[tuple[float, float]]:
    """The parts of ``stretches`` inside [start, end]."""
    inside = ((max(a, start), min(b, end)) for a, b in stretches)
    return [(a, b) for a, b in inside if b > a]


def total(stretches: list[tuple[float, float]]) -> float:
    return sum(end - start for start, end in stretches)

