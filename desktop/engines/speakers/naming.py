"""Naming the labelled speakers of a transcript that are known voices (desktop.core.speakers.recognition).

Each speaker is the centroid of the windows whose middle falls in one of its lines, so it follows the
transcript as labelled (after short turns went to their neighbours), not the raw clusters. A clear
match becomes the speaker's name with how sure VoxDesk is; a close one a suggestion; a speaker the
user already named keeps the user's name.
"""
from __future__ import annotations

from bisect import bisect_right
from typing import Iterable, Mapping

import numpy as np

from desktop.core.speakers.recognition import Recognition, VoicePrint, recognise, unit
from desktop.core.transcription.transcript import Transcript
from desktop.engines.speakers.embeddings import Windows


def speaker_centroids(transcript: Transcript, windows: Windows) -> dict[int, np.ndarray]:
    """{speaker number: centroid of the windows inside its lines}."""
    lines = sorted((s.start, s.end, s.speaker) for s in transcript.segments if s.speaker is not None and s.end > s.start)
    starts = [start for start, _, _ in lines]
    owners: dict[int, list[int]] = {}
    for index, (start, end) in enumerate(zip(windows.starts, windows.ends)):
        middle = (start + end) / 2
        at = bisect_right(starts, middle) - 1
        if at >= 0 and lines[at][0] <= middle <= lines[at][1]:
            owners.setdefault(lines[at][2], []).append(index)
    return {speaker: unit(windows.embeddings[indexes].mean(axis=0)) for speaker, indexes in owners.items()}


def name_known_voices(transcript: Transcript, windows: Windows, voices: Iterable[VoicePrint], *,
                      refused: Mapping[int, Iterable[str]] | None = None) -> dict[int, Recognition]:
    """Give clearly recognised speakers their names (in place) and note the suggestions; returns both."""
    named_by_user = {number for number in transcript.speaker_names}
    speakers = {number: centroid for number, centroid in speaker_centroids(transcript, windows).items()
                if number not in named_by_user}
    taken = {name.casefold() for name in transcript.speaker_names.values()}
    found = recognise(speakers, [voice for voice in voices if voice.name.casefold() not in taken], refused=refused)
    for number, recognition in found.items():
        if recognition.clear:
            transcript.speaker_names[number] = recognition.name
            transcript.recognised[number] = (recognition.name, recognition.confidence)
        else:
            transcript.suggested[number] = (recognition.name, recognition.confidence)
    return found
