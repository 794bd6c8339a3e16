"""The speakers stage of a transcription job: after the words, who said them; also run on its own on a
finished transcript (label_again).

It has its own share of the job's progress bar and its own status line, and stops at a cancel.
"""
from __future__ import annotations

import copy
import logging
from pathlib import Path
from typing import Callable

from desktop.core.common.errors import Cancelled, UserFacingError
from desktop.core.common.i18n import N_
from desktop.core.speakers import choice as speaker_choice
from desktop.core.speakers.relabel import keeping_known_speakers, new_numbers, same_speakers
from desktop.core.transcription.edits import KnownVoiceFacts
from desktop.core.transcription.transcript import Segment, Transcript

log = logging.getLogger(__name__)

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

    def __init__(self, known_voices=None, *, recognise: bool = True) -> None:
        """known_voices: the KnownVoiceStore to name speakers from (this computer's by default);
        recognise=False labels without naming anyone."""
        self._labeller = None
        self._known = known_voices
        self._recognise = recognise

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
        labelled, windows = self._labeller.label_with_windows(transcript, path, speaker_choice.speaker_count(choice),
                                                              on_progress=on_progress, cancelled=cancelled)
        if self._recognise and len(windows):
            self._name_known_voices(labelled, windows)
        if on_progress:
            on_progress(1.0)
        return labelled

    def _name_known_voices(self, transcript: Transcript, windows) -> None:
        """Name the speakers that are known voices; a store that cannot be read names nobody (the labels stand)."""
        from desktop.core.speakers.known_voices import KnownVoiceStore
        from desktop.core.speakers.recognition import VoicePrint
        from desktop.engines.speakers.naming import name_known_voices

        store = self._known if self._known is not None else KnownVoiceStore()
        try:
            voices = store.list()
        except UserFacingError as error:
            log.warning("Known voices not read: %s", error.detail or error.message)
            return
        if not voices:
            return
        found = name_known_voices(transcript, windows, [VoicePrint.of(voice.name, voice.embeddings) for voice in voices])
        by_name = {voice.name: voice for voice in voices}
        for recognition in found.values():
            if recognition.clear:
                try:
                    store.heard_again(by_name[recognition.name])
                except UserFacingError as error:  # the count is a nicety; the names stand
                    log.warning("Known voice count not saved: %s", error.detail or error.message)


def label_again(stage: SpeakersStage, transcript: Transcript, path: Path, choice: str, *,
                on_progress: Progress = None,
                cancelled: Callable[[], bool] = lambda: False) -> tuple[list[Segment], dict[int, str]]:
    """A finished transcript's lines with their speakers found anew from the recording, and the names
    to keep (the user's names of the voices found again); the transcript itself is not changed."""
    lines, names, _voices = label_again_with_voices(stage, transcript, path, choice, on_progress=on_progress,
                                                    cancelled=cancelled)
    return lines, names


def label_again_with_voices(stage: SpeakersStage, transcript: Transcript, path: Path, choice: str, *,
                            on_progress: Progress = None, cancelled: Callable[[], bool] = lambda: False
                            ) -> tuple[list[Segment], dict[int, str], KnownVoiceFacts]:
    """label_again, and what the known voices say of the new speakers (by their new numbers): the
    names the user refused for a voice found again are neither given nor suggested to it."""
    trial = Transcript(segments=copy.deepcopy(transcript.segments), language=transcript.language,
                       duration=transcript.duration, source=transcript.source)
    labelled = stage.run(trial, path, choice, on_progress=on_progress, cancelled=cancelled)
    lines, names = keeping_known_speakers(transcript.segments, transcript.speaker_names, labelled.segments)
    numbers = new_numbers(transcript.segments, labelled.segments)
    found_again = set(same_speakers(transcript.segments, labelled.segments).values())
    refused = {number: list(refused) for number, refused in transcript.refused.items() if number in found_again}

    def allowed(number: int | None, name: str) -> bool:
        return number is not None and name.casefold() not in {n.casefold() for n in refused.get(number, [])}

    # Speakers named as known voices keep those names, unless the user's name for a voice found again
    # stands there or the name is taken by another speaker (never one name twice).
    recognised: dict[int, tuple[str, float]] = {}
    for new, (name, sure) in labelled.recognised.items():
        number = numbers.get(new)
        if allowed(number, name) and number not in names and name not in names.values():
            names[number] = name
            recognised[number] = (name, sure)
    suggested: dict[int, tuple[str, float]] = {}
    for new, (name, sure) in labelled.suggested.items():
        number = numbers.get(new)
        if allowed(number, name) and number not in names and name not in names.values():
            suggested[number] = (name, sure)
    return lines, names, KnownVoiceFacts(recognised, suggested, refused)
