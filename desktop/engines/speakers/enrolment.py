"""The clean speech of one person, as a known voice keeps it: window embeddings, from a sample or a transcript.

Only speech goes in (voice activity detection, as for labelling): silence, music and noise hold none.
The windows are grouped by voice (clustering.py): a sample file where a second voice speaks for a
while is refused (which of the two agreed?); from a labelled transcript, the speaker's lines that
overlap another speaker's are left out, and so are windows that sound like someone else (the
labeller's stray windows), keeping the speaker's own main voice. Under MIN_ENROL_SECONDS of clean
speech is refused with how much more is needed. A sample is read bounded: at most MAX_SAMPLE_SECONDS
of it are decoded, however long the file.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from desktop.core.common import audio
from desktop.core.common.errors import UserFacingError
from desktop.core.common.i18n import N_
from desktop.core.speakers.recognition import MIN_ENROL_SECONDS
from desktop.core.transcription.transcript import Transcript
from desktop.engines.speakers.clustering import cluster
from desktop.engines.speakers.embeddings import HOP_SECONDS, SAMPLE_RATE, WindowEncoder, Windows, one_thread
from desktop.engines.speakers.labeller import voice_activity

MAX_SAMPLE_SECONDS = 180.0  # of a sample file; also of a transcript speaker's speech
SECOND_VOICE_SHARE = 0.2  # a second group with this share of the windows (and two or more) is a second voice


class EnrolmentError(UserFacingError):
    """The sample cannot become a known voice."""


@dataclass(frozen=True)
class CleanSpeech:
    embeddings: np.ndarray
    seconds: float


def too_short(seconds: float) -> EnrolmentError:
    more = max(0.5, round(MIN_ENROL_SECONDS - seconds + 0.05, 1))
    if seconds < 0.5:
        return EnrolmentError(N_("KnownVoices", "No clear speech was heard in the sample (it may be silence, music "
                                                "or noise). Use a recording of at least {needed:g} seconds of the "
                                                "person speaking on their own.").format(needed=MIN_ENROL_SECONDS),
                              detail=f"{seconds:.2f} s of speech")
    return EnrolmentError(N_("KnownVoices", "The sample holds {seconds:.1f} seconds of clear speech by this person; "
                                            "VoxDesk needs at least {needed:g}. Add about {more:g} seconds more of "
                                            "them speaking on their own.").format(
        seconds=seconds, needed=MIN_ENROL_SECONDS, more=more), detail=f"{seconds:.2f} s of speech")


TWO_VOICES = N_("KnownVoices", "More than one voice speaks in the sample, so VoxDesk cannot tell which is this person. "
                               "Use a recording where only they speak.")


def _speech_seconds(windows: Windows, keep: np.ndarray) -> float:
    """Seconds of speech the kept windows cover (they overlap: each adds about a hop after the first)."""
    seconds = 0.0
    for piece in np.unique(windows.pieces[keep]):
        inside = keep & (windows.pieces == piece)
        spans = windows.ends[inside] - windows.starts[inside]
        seconds += float(min(spans.sum(), spans.max() + HOP_SECONDS * (len(spans) - 1)))
    return seconds


class Enroller:
    """Clean speech of one person from a sample file or a labelled transcript; keeps the encoder loaded."""

    def __init__(self, encoder: WindowEncoder | None = None, min_seconds: float = MIN_ENROL_SECONDS):
        """min_seconds: the clean speech a voice needs (lower only to measure, in benchmarks/)."""
        self._encoder = encoder or WindowEncoder()
        self._min_seconds = min_seconds

    def with_minimum(self, seconds: float) -> "Enroller":
        """An enroller sharing this one's encoder that asks for another amount of speech."""
        return Enroller(self._encoder, seconds)

    def from_sample(self, path: str | Path, *, cancelled: Callable[[], bool] = lambda: False) -> CleanSpeech:
        samples = audio.decode_stretch(path, 0.0, MAX_SAMPLE_SECONDS)
        pieces = [(start, audio.slice_seconds(samples, start, end)) for start, end in voice_activity(samples)
                  if end - start >= 0.05]
        with one_thread():
            windows = self._encoder.embed(pieces, cancelled=cancelled) if pieces else None
        if windows is None or len(windows) == 0:
            raise too_short(0.0)
        keep = _main_voice(windows)
        if keep is None:
            raise EnrolmentError(TWO_VOICES, detail="a second voice holds a share of the windows")
        return self._checked(windows, keep)

    def from_speaker(self, transcript: Transcript, path: str | Path, speaker: int, *,
                     cancelled: Callable[[], bool] = lambda: False) -> CleanSpeech:
        """The clean speech of one labelled speaker of a transcript: lines overlapping another speaker's and
        windows that sound like someone else left out."""
        own = [(s.start, s.end) for s in transcript.segments if s.speaker == speaker and s.end > s.start]
        others = [(s.start, s.end) for s in transcript.segments
                  if s.speaker is not None and s.speaker != speaker and s.end > s.start]
        clean = [(start, end) for start, end in own
                 if not any(min(end, o_end) - max(start, o_start) > 0 for o_start, o_end in others)]
        pieces, total = [], 0.0
        for start, end in clean:
            if total >= MAX_SAMPLE_SECONDS:
                break
            samples = audio.decode_stretch(path, start, min(end, start + MAX_SAMPLE_SECONDS - total))
            for v_start, v_end in voice_activity(samples):
                if v_end - v_start >= 0.05:
                    pieces.append((start + v_start, audio.slice_seconds(samples, v_start, v_end)))
            total += end - start
        with one_thread():
            windows = self._encoder.embed(pieces, cancelled=cancelled) if pieces else None
        if windows is None or len(windows) == 0:
            raise too_short(0.0)
        keep = _main_voice(windows, refuse_second=False)
        return self._checked(windows, keep)

    def _checked(self, windows: Windows, keep: np.ndarray) -> CleanSpeech:
        seconds = _speech_seconds(windows, keep)
        if seconds < self._min_seconds:
            raise too_short(seconds)
        return CleanSpeech(windows.embeddings[keep].astype(np.float32), round(seconds, 2))


def _main_voice(windows: Windows, refuse_second: bool = True) -> np.ndarray | None:
    """Which windows are the main voice's; None when a second voice speaks for a real share (refuse_second)."""
    if len(windows) < 2:
        return np.ones(len(windows), dtype=bool)
    with one_thread():
        labels = cluster(windows, None)
    counts = np.bincount(labels)
    main = int(np.argmax(counts))
    second = np.sort(counts)[-2] if len(counts) > 1 else 0
    if refuse_second and second >= 2 and second >= SECOND_VOICE_SHARE * len(labels):
        return None
    return labels == main
