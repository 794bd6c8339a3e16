"""A transcription server's answer for one piece, made safe: its segments and words on the piece's
timeline, in order, with safe text and no more than the piece's speech can hold (``answer_segments``).
"""
from __future__ import annotations

import math

from desktop.core.common.safe_text import clean_text
from desktop.core.transcription import speech_limits
from desktop.core.transcription.transcript import Segment, Word
from desktop.engines.transcription.server.client import Answer
from desktop.engines.transcription.server.pieces import PIECE_SECONDS

_TIME_SLACK = 0.5  # seconds a time may stray outside its piece, or back, before it counts as impossible


def answer_segments(answer: Answer, seconds: float) -> tuple[list[tuple[Segment, float]], set[str]]:
    """The answer's segments on the piece's timeline (``seconds`` long), each with its average
    log-probability and the words that fall in it, and the kinds of change that were needed
    (``speech_limits.TOO_MUCH``, ``speech_limits.TIMES_MOVED``).

    Text is made safe (``safe_text``). Times are put inside the piece and in order: a time that is
    not a number follows the segment before it, an end before its start is swapped with it. What goes
    beyond what the piece's speech can hold (``speech_limits.allowed``) is left out, in time order:
    segments past the limit, text past the limit of characters (cut between words), words past theirs.
    """
    limits = speech_limits.allowed(seconds)
    changes: set[str] = set()
    placed, moved = _placed(answer.segments, "text", seconds)
    words_placed, words_moved = _placed(answer.words, "word", seconds, unknown_dropped=True)
    if moved or words_moved:
        changes.add(speech_limits.TIMES_MOVED)
    if len(words_placed) > limits.words:
        words_placed = words_placed[:limits.words]
        changes.add(speech_limits.TOO_MUCH)
    words = [Word(start=start, end=end, text=clean_text(item["word"]), probability=_probability(item))
             for start, end, item in words_placed]
    if not placed:
        text = clean_text(answer.text) if isinstance(answer.text, str) else ""
        if not text.strip():
            return [], changes
        if len(text) > limits.characters:
            text = _cut_between_words(text, limits.characters)
            changes.add(speech_limits.TOO_MUCH)
        return [(Segment(start=0.0, end=seconds, text=text, words=words), 0.0)], changes
    result: list[tuple[Segment, float]] = []
    characters_left = limits.characters
    for start, end, item in placed:
        text = clean_text(item["text"])
        if not text.strip():
            continue
        if len(result) == limits.segments or characters_left <= 0:
            changes.add(speech_limits.TOO_MUCH)
            break
        own = [w for w in words if start <= (w.start + w.end) / 2 < end or (end == start == w.start)]
        if len(text) > characters_left:
            text, own = _cut_between_words(text, characters_left), []  # the words no longer spell the text
            changes.add(speech_limits.TOO_MUCH)
            characters_left = 0  # nothing after a cut: the text would not follow on
        else:
            characters_left -= len(text)
        result.append((Segment(start=start, end=end, text=text, words=own), _logprob(item)))
    return result, changes


def _placed(items: list[dict], text_key: str, seconds: float, *,
            unknown_dropped: bool = False) -> tuple[list[tuple[float, float, dict]], bool]:
    """(start, end, item) for items with text, inside [0, seconds] and in time order, and whether any
    time was impossible: outside Whisper's 30-second window (which it fills past a short piece's end,
    so such times are only clamped), not a number, an end before its start, or earlier than the start
    of the item before it. An item without a number for its start (NaN and infinity included) starts
    where the one before it ended, and one without a number for its end lasts until the next item that
    says when it starts (no earlier than its own start), or to the piece's end; with ``unknown_dropped`` such items are left out."""
    window = max(seconds, PIECE_SECONDS) + _TIME_SLACK
    placed: list[tuple[float, float, dict]] = []
    moved = False
    previous_start = previous_end = 0.0
    next_starts = _next_known_starts(items)
    for item, next_start in zip(items, next_starts):
        if not isinstance(item, dict) or not isinstance(item.get(text_key), str):
            continue
        start, end = _seconds(item.get("start")), _seconds(item.get("end"))
        if start is None or end is None:
            moved = True
            if unknown_dropped:
                continue
        start = previous_end if start is None else start
        if end is None:  # a guess that leaves the next item's own times alone
            end = seconds if next_start is None else max(start, next_start)
        if not -_TIME_SLACK <= start <= window or not -_TIME_SLACK <= end <= window:
            moved = True
        if end < start - _TIME_SLACK or start < previous_start - _TIME_SLACK:
            moved = True
        start, end = sorted((min(max(start, 0.0), seconds), min(max(end, 0.0), seconds)))
        placed.append((start, end, item))
        previous_start, previous_end = start, end
    placed.sort(key=lambda entry: entry[0])  # stable: items with the same start keep the server's order
    return placed, moved


def _next_known_starts(items: list) -> list[float | None]:
    """For each item, the start of the first item after it that has a number for one (or None)."""
    found: list[float | None] = []
    upcoming: float | None = None
    for item in reversed(items):
        found.append(upcoming)
        start = _seconds(item.get("start")) if isinstance(item, dict) else None
        upcoming = start if start is not None else upcoming
    return found[::-1]


def _seconds(value) -> float | None:
    """A time as a float, or None where it is not a number of seconds: not a number at all, or NaN or
    infinity (JSON's extensions, which say nothing about when). A finite number too large for a float
    (an integer with hundreds of digits) is infinity here, to be clamped like any absurd time."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def _cut_between_words(text: str, characters: int) -> str:
    """At most ``characters`` of text, cut after the last space within the last 40 (Chinese has none:
    then exactly there)."""
    kept = text[:characters]
    space = kept.rfind(" ", max(0, characters - 40))
    return (kept[:space] if space > 0 else kept).rstrip()


def _logprob(item: dict) -> float:
    value = item.get("avg_logprob")
    return float(value) if isinstance(value, (int, float)) and math.isfinite(value) else 0.0


def _probability(word: dict) -> float:
    value = word.get("probability")
    return float(value) if isinstance(value, (int, float)) and 0.0 <= value <= 1.0 else 1.0
