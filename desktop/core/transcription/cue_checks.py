"""Where a subtitle cue is hard to read: too many characters a second, too short, too long, overlapping,
or ending before it starts.

The checks look at cues as the SRT writer makes them (subtitles.build_cues), so a line of the
transcript is judged by the cues it will become. The defaults follow common subtitle guidelines
(Netflix's timed-text style guide, the BBC's subtitle guidelines): about 17 characters a second for
Latin text and 9 for Chinese, at least about 0.8 s and at most 7 s on screen.
"""
from __future__ import annotations

from dataclasses import dataclass

from desktop.core.common.i18n import Message, N_
from desktop.core.transcription.subtitles import Cue, LineLimits, build_cues, display_width
from desktop.core.transcription.transcript import Transcript

_TOLERANCE = 1e-6


@dataclass(frozen=True)
class ReadingLimits:
    latin_cps: float = 17.0  # characters a second a reader manages in Latin text
    chinese_cps: float = 9.0  # in Chinese
    min_seconds: float = 0.8
    max_seconds: float = 7.0


def characters_per_second(cue: Cue) -> float:
    """Characters a second the cue asks of its reader, line breaks and spaces at the ends left out."""
    seconds = max(cue.end - cue.start, 0.001)
    return len("".join(line.strip() for line in cue.lines)) / seconds


def is_chinese_text(text: str) -> bool:
    """Text read as Chinese: more wide characters than narrow ones."""
    letters = [ch for ch in text if not ch.isspace()]
    wide = sum(1 for ch in letters if display_width(ch) == 2)
    return bool(letters) and wide * 2 >= len(letters)


def cue_warnings(cue: Cue, next_cue: Cue | None = None, limits: ReadingLimits = ReadingLimits()) -> list[Message]:
    """Sentences saying why the cue is hard to read; empty when it is fine."""
    warnings: list[Message] = []
    seconds = cue.end - cue.start
    if seconds < -_TOLERANCE:
        # Its time on screen and its speed mean nothing; what to fix is its times.
        warnings.append(N_("Cue checks", "Ends before it starts."))
        return warnings + _overlap(cue, next_cue)
    chinese = is_chinese_text(cue.text)
    allowed = limits.chinese_cps if chinese else limits.latin_cps
    speed = characters_per_second(cue)
    if speed > allowed + _TOLERANCE:
        warnings.append(N_("Cue checks", "{speed} characters a second: more than a reader manages ({allowed}).").format(
            speed=f"{speed:.1f}", allowed=f"{allowed:g}"))
    if seconds < limits.min_seconds - _TOLERANCE:
        warnings.append(N_("Cue checks", "On screen {seconds} s: shorter than {minimum} s.").format(
            seconds=f"{seconds:.2f}", minimum=f"{limits.min_seconds:g}"))
    if seconds > limits.max_seconds + _TOLERANCE:
        warnings.append(N_("Cue checks", "On screen {seconds} s: longer than {maximum} s.").format(
            seconds=f"{seconds:.1f}", maximum=f"{limits.max_seconds:g}"))
    return warnings + _overlap(cue, next_cue)


def _overlap(cue: Cue, next_cue: Cue | None) -> list[Message]:
    if next_cue is not None and next_cue.start < cue.end - _TOLERANCE:
        return [N_("Cue checks", "Overlaps the next subtitle by {seconds} s.").format(
            seconds=f"{cue.end - next_cue.start:.2f}")]
    return []


def check_cues(cues: list[Cue], limits: ReadingLimits = ReadingLimits()) -> list[tuple[int, list[Message]]]:
    """(cue number from 1, its warnings) for every cue with a warning, in order."""
    found = []
    for number, cue in enumerate(cues, start=1):
        warnings = cue_warnings(cue, cues[number] if number < len(cues) else None, limits)
        if warnings:
            found.append((number, warnings))
    return found


def segment_warnings(transcript: Transcript, row: int, limits: ReadingLimits = ReadingLimits(),
                     line_limits: LineLimits = LineLimits()) -> list[Message]:
    """The warnings of the cues the SRT export makes of one line, by itself (its overlap with the next
    line is overlap_warning's)."""
    segment = transcript.segments[row]
    if not segment.text.strip():
        return []
    alone = Transcript(segments=[segment], language=transcript.language, speaker_names=transcript.speaker_names)
    warnings: list[Message] = []
    # Without word segmentation (the editor asks for the warnings on the window's thread), Chinese
    # lines break between characters, which changes no cue, and a Chinese line too long for one cue
    # is cut between characters, which may move a cut by a word or so from where the export makes it.
    for cue in build_cues(alone, line_limits, word_breaks=False):
        warnings += [w for w in cue_warnings(cue, None, limits) if w not in warnings]
    return warnings


def overlap_warning(transcript: Transcript, row: int) -> Message | None:
    """Said where a line ends after the next line with text starts, even where the export would move the
    cues apart."""
    segments = transcript.segments
    segment = segments[row]
    if not segment.text.strip():
        return None
    following = next((segments[i] for i in range(row + 1, len(segments)) if segments[i].text.strip()), None)
    if following is not None and following.start < segment.end - _TOLERANCE:
        return N_("Cue checks", "Overlaps the next subtitle by {seconds} s.").format(
            seconds=f"{segment.end - following.start:.2f}")
    return None


def line_warnings(transcript: Transcript, limits: ReadingLimits = ReadingLimits(),
                  line_limits: LineLimits = LineLimits()) -> dict[int, list[Message]]:
    """The warnings of each line of the transcript (by row) that has some."""
    found: dict[int, list[Message]] = {}
    for row in range(len(transcript.segments)):
        warnings = segment_warnings(transcript, row, limits, line_limits)
        overlap = overlap_warning(transcript, row)
        if overlap is not None:
            warnings.append(overlap)
        if warnings:
            found[row] = warnings
    return found
