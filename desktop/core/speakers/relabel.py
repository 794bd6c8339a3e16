"""Labelling the speakers of a finished transcript again, as one change the user can undo.

The speaker stage numbers the voices it finds afresh; the user may already have named some. A voice
found again keeps its number and its name: a new speaker is the same as an old one when more than
half of the new speaker's speaking time is time the old one had, pairs with the most time in common
first, each old speaker given to at most one new one. The new speakers no old one matches take the
numbers left free, in order of appearance, with the default name ("Speaker 3").
"""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import replace

from desktop.core.common.i18n import N_
from desktop.core.transcription import edits
from desktop.core.transcription.transcript import Segment, Transcript

SAME_SPEAKER_SHARE = 0.5  # of the new speaker's time, shared with the old one


def shared_time(before: list[Segment], after: list[Segment]) -> dict[tuple[int, int], float]:
    """Seconds that (old speaker, new speaker) speak at the same time, over lines with a speaker."""
    old = sorted((s.start, s.end, s.speaker) for s in before if s.speaker is not None and s.end > s.start)
    starts = [start for start, _, _ in old]
    longest = max((end - start for start, end, _ in old), default=0.0)
    shared: dict[tuple[int, int], float] = {}
    for segment in after:
        if segment.speaker is None or segment.end <= segment.start:
            continue
        # The old lines overlapping this one start before it ends and after it starts less the longest line.
        for index in range(bisect_left(starts, segment.start - longest), bisect_left(starts, segment.end)):
            start, end, speaker = old[index]
            overlap = min(end, segment.end) - max(start, segment.start)
            if overlap > 0:
                key = (speaker, segment.speaker)
                shared[key] = shared.get(key, 0.0) + overlap
    return shared


def same_speakers(before: list[Segment], after: list[Segment]) -> dict[int, int]:
    """{new speaker: the old speaker it is} for the voices found again (see the module)."""
    speaking: dict[int, float] = {}
    for segment in after:
        if segment.speaker is not None:
            speaking[segment.speaker] = speaking.get(segment.speaker, 0.0) + max(0.0, segment.end - segment.start)
    matched: dict[int, int] = {}
    for (old, new), seconds in sorted(shared_time(before, after).items(), key=lambda pair: (-pair[1], pair[0])):
        if new in matched or old in matched.values():
            continue
        if seconds > speaking[new] * SAME_SPEAKER_SHARE + 1e-6:  # more than half, not half give or take a rounding
            matched[new] = old
    return matched


def keeping_known_speakers(before: list[Segment], names: dict[int, str],
                           after: list[Segment]) -> tuple[list[Segment], dict[int, str]]:
    """The newly labelled lines renumbered so that each voice found again has its old number, and the
    names that go with them: the user's names of the voices found again."""
    matched = same_speakers(before, after)
    numbers = new_numbers(before, after)
    lines = [segment if segment.speaker is None else replace(segment, speaker=numbers[segment.speaker])
             for segment in after]
    return lines, {old: names[old] for old in matched.values() if old in names}


def new_numbers(before: list[Segment], after: list[Segment]) -> dict[int, int]:
    """{new speaker: the number it gets}: a voice found again its old number, the others the numbers left free."""
    matched = same_speakers(before, after)
    numbers = dict(matched)
    free = (number for number in range(1, len(after) + len(matched) + 2) if number not in matched.values())
    for segment in after:
        if segment.speaker is not None and segment.speaker not in numbers:
            numbers[segment.speaker] = next(free)
    return numbers


def relabelled(transcript: Transcript, lines: list[Segment], names: dict[int, str],
               voices: edits.KnownVoiceFacts | None = None) -> edits.Change | None:
    """The lines with their new speakers and the speakers' names (and what the known voices said of
    them) as one undoable change; None when they are as they were."""
    before = edits.KnownVoiceFacts.of(transcript)
    if lines == transcript.segments and names == transcript.speaker_names and (voices is None or voices == before):
        return None
    change = edits.replace_lines(transcript, lines, N_("Edits", "label speakers"), names)
    if voices is not None:
        change.voices_before, change.voices_after = before, voices
    return change
