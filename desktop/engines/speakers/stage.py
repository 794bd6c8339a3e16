"""The speakers stage of a transcription job: after the words, who said them; also run on its own on a
finished transcript (label_again).

It has its own share of the job's progress bar and its own status line, and stops at a cancel.
"""
from __future__ import annotations

import copy
from pathlib import Path
from typing import Callable

from desktop.core.common.errors import Cancelled
from desktop.core.common.i18n import N_
from desktop.core.speakers import choice as speaker_choice
from desktop.core.speakers.relabel import keeping_known_speakers
from desktop.core.transcription.transcript import Segment, Transcript

# The share of the progress bar the speakers stage takes when it runs (a minute of speech takes
# Whisper far longer on the CPU than the speaker model does).
SPEAKERS_SHARE = 0.1
LABELLING = N_("Engine", "Labelling speakers…")

Progress = Callable[[float], None] | None


def split_progress(on_progress: Progress, choice: str) -> tuple[Progress, Progress]:
    """The progress callbacks of the transcription stage and of the speakers stage."""
    if on_progress is None or speaker_choice.parse(choice) == speaker_choice.OFF:
        return on_progress, None
    transcribing = 1.0 - SPEAKERS_SHARE
    return (lambda fraction: on_progress(fraction * transcribing),
            lambda fraction: on_progress(transcribing + fraction * SPEAKERS_SHARE))


class SpeakersStage:
    """Runs the speaker labeller on finished transcripts; the model is loaded on the first file."""

    def __init__(self) -> None:
        self._labeller = None

    def run(self, transcript: Transcript, path: Path, choice: str, *, on_progress: Progress = None,
            on_status: Callable[[str], None] | None = None,
            cancelled: Callable[[], bool] = lambda: False) -> Transcript:
        """The transcript with speakers, when choice asks for them and there is speech."""
        if speaker_choice.parse(choice) == speaker_choice.OFF or transcript.is_empty:
            return transcript
        if cancelled():
            raise Cancelled()
        if on_status:
            on_status(LABELLING)
        if self._labeller is None:
            from desktop.engines.speakers.labeller import SpeakerLabeller

            self._labeller = SpeakerLabeller()
        labelled = self._labeller.label(transcript, path, speaker_choice.speaker_count(choice),
                                        on_progress=on_progress, cancelled=cancelled)
        if on_progress:
            on_progress(1.0)
        return labelled


def label_again(stage: SpeakersStage, transcript: Transcript, path: Path, choice: str, *,
                on_progress: Progress = None,
                cancelled: Callable[[], bool] = lambda: False) -> tuple[list[Segment], dict[int, str]]:
    """A finished transcript's lines with their speakers found anew from the recording, and the names
    to keep (the user's names of the voices found again); the transcript itself is not changed."""
    trial = Transcript(segments=copy.deepcopy(transcript.segments), language=transcript.language,
                       duration=transcript.duration, source=transcript.source)
    labelled = stage.run(trial, path, choice, on_progress=on_progress, cancelled=cancelled)
    return keeping_known_speakers(transcript.segments, transcript.speaker_names, labelled.segments)
