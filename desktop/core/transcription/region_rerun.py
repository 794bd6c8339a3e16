"""*Transcribe again…* on some lines: the stretch of the recording they cover, and the undoable change
that puts what a new decoding of it heard in their place.

The user selects consecutive lines; :func:`region_of` gives the stretch to decode, from the first
line's start to the last one's end with a small margin either side (so a word the first decoding cut
off is heard whole), the margin clipped where a neighbouring line begins or ends. The stretch is then
transcribed on its own timeline, starting at 0, and :func:`replacement` moves its lines onto the
recording's timeline, inside the stretch, and makes the :class:`~desktop.core.transcription.edits.Change`
that swaps them for the old ones — one change, so one undo brings every old line back as it was.

Decoding takes a while, so the change is made from the lines as they are when it ends: the old lines
are found again by identity (an edit never changes a line in place, it swaps in a new one), and if any
of them was changed or removed meanwhile, nothing is replaced.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from desktop.core.common.i18n import Message, N_
from desktop.core.transcription.edits import Change, EditRefused, replace_run
from desktop.core.transcription.transcript import Segment, Transcript, clock

MARGIN = 0.5  # seconds heard before the first line and after the last, where the neighbours leave room
SHORTEST = 0.2  # seconds: a stretch shorter than this holds no word to decode
_DIGITS = 3  # times are kept to the millisecond, as Whisper's are
LINES_CHANGED = N_("Edits", "The lines changed while they were being transcribed again, so nothing was replaced. "
                            "Try again.")


@dataclass(frozen=True)
class Region:
    """Consecutive lines of a transcript and the stretch of the recording to decode for them."""

    first: int  # row of the first line (from 0)
    lines: tuple[Segment, ...]  # the lines as they were when chosen, to find them again
    start: float  # seconds: where the decoded stretch starts, on the recording's timeline
    end: float

    @property
    def last(self) -> int:
        return self.first + len(self.lines) - 1

    @property
    def description(self) -> Message:
        """"transcribe again lines 12–14", as the undo action names it."""
        if len(self.lines) == 1:
            return N_("Edits", "transcribe again line {line}").format(line=self.first + 1)
        return N_("Edits", "transcribe again lines {first}–{last}").format(first=self.first + 1, last=self.last + 1)

    @property
    def lines_named(self) -> Message:
        """"line 12" or "lines 12–14", for the sentences about it."""
        if len(self.lines) == 1:
            return N_("Edits", "line {line}").format(line=self.first + 1)
        return N_("Edits", "lines {first}–{last}").format(first=self.first + 1, last=self.last + 1)

    @property
    def span(self) -> str:
        """The stretch as a person reads it: 0:42–0:51."""
        return f"{clock(self.start)}–{clock(self.end)}"


def region_of(transcript: Transcript, rows: list[int], margin: float = MARGIN) -> Region:
    """The stretch to decode again for these rows; EditRefused when they are not one run of lines
    or cover too little of the recording."""
    rows = sorted(set(rows))
    segments = transcript.segments
    if not rows or rows[0] < 0 or rows[-1] >= len(segments):
        raise EditRefused(N_("Edits", "Select the lines to transcribe again."))
    if rows != list(range(rows[0], rows[-1] + 1)):
        raise EditRefused(N_("Edits", "Select lines next to each other to transcribe them again together."))
    first, last = rows[0], rows[-1]
    lines = tuple(segments[first:last + 1])
    earliest = segments[first - 1].end if first > 0 else 0.0
    latest = segments[last + 1].start if last + 1 < len(segments) else None
    if transcript.duration:
        latest = transcript.duration if latest is None else min(latest, transcript.duration)
    start = max(earliest, min(line.start for line in lines) - margin, 0.0)
    end = max(line.end for line in lines) + margin
    if latest is not None:
        end = min(end, latest)
    region = Region(first, lines, round(start, _DIGITS), round(end, _DIGITS))
    if region.end - region.start < SHORTEST:
        raise EditRefused(N_("Edits", "There is too little of the recording under {lines} to transcribe it "
                                      "again.").format(lines=region.lines_named))
    return region


def placed(region: Region, heard: list[Segment]) -> list[Segment]:
    """The lines a decoding of the stretch heard (on its own timeline, from 0), moved onto the
    recording's timeline and kept inside the stretch; lines without words are left out (the stretch
    is decoded again because its words are wanted)."""
    lines = []
    for segment in heard:
        if not segment.text.strip():
            continue
        line = segment.shifted(region.start, within=(region.start, region.end), digits=_DIGITS)
        if line.end > line.start:
            lines.append(line)
    return lines


def replacement(transcript: Transcript, region: Region, heard: list[Segment]) -> Change:
    """The change that puts the lines heard in the stretch (on its own timeline) in place of the
    region's lines; EditRefused with a sentence when nothing was heard or those lines changed meanwhile."""
    at = _found_again(transcript, region)
    if at is None:
        raise EditRefused(LINES_CHANGED)
    new_lines = placed(region, heard)
    if not new_lines:
        raise EditRefused(N_("Edits", "No words were heard in {span} this time, so nothing was replaced. Try "
                                      "another model or language.").format(span=region.span))
    new_lines = _with_speakers(new_lines, region.lines)
    return replace_run(transcript, at, len(region.lines), new_lines, region.description)


def _found_again(transcript: Transcript, region: Region) -> int | None:
    """Where the region's lines stand now, the very same objects one after another; None if not."""
    segments = transcript.segments
    candidates = [region.first] + [row for row, segment in enumerate(segments)
                                   if segment is region.lines[0] and row != region.first]
    for at in candidates:
        run = segments[at:at + len(region.lines)]
        if len(run) == len(region.lines) and all(a is b for a, b in zip(run, region.lines)):
            return at
    return None


def _with_speakers(new_lines: list[Segment], old_lines: tuple[Segment, ...]) -> list[Segment]:
    """Each new line is said by whoever said the old line it overlaps most (the nearest one where it
    overlaps none); where no old line had a speaker, the new ones have none either."""
    if all(line.speaker is None for line in old_lines):
        return new_lines

    def closeness(old: Segment, new: Segment) -> tuple[float, float]:
        overlap = min(old.end, new.end) - max(old.start, new.start)
        distance = abs((old.start + old.end) / 2 - (new.start + new.end) / 2)
        return overlap, -distance

    labelled = []
    for line in new_lines:
        speaker = max(old_lines, key=lambda old: closeness(old, line)).speaker
        labelled.append(line if line.speaker == speaker else replace(line, speaker=speaker))
    return labelled
