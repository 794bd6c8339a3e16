"""Speaker labels for a finished transcript: who said each word, from the recording itself.

The stretches of speech come from voice activity detection (Silero, as for Whisper, but with short
pauses: a new speaker usually starts after one), or from the transcript's word timings where it hears
none; each is embedded in short windows (embeddings.py), the windows are grouped by voice
(clustering.py), and the words take the speaker of the windows around them
(desktop.core.speakers.turns). Speech Whisper left untranscribed still counts as someone's, so a
speaker is found even where the words are missing. Runs on the CPU, offline.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

import numpy as np

from desktop.core.common import audio
from desktop.core.common.errors import Cancelled
from desktop.core.speakers.turns import SpeakerSpan, label_segments, speech_stretches
from desktop.core.transcription.transcript import Transcript
from desktop.engines.speakers.clustering import cluster
from desktop.engines.speakers.embeddings import HOP_SECONDS, SAMPLE_RATE, WindowEncoder, Windows, one_thread


class SpeakerLabeller:
    """Labels transcripts; keeps the (small) encoder loaded between files."""

    def __init__(self, encoder: WindowEncoder | None = None, chunk_seconds: float = 300.0):
        self._encoder = encoder or WindowEncoder()
        self._chunk_seconds = chunk_seconds

    def label(self, transcript: Transcript, path: str | Path, count: int | None, *,
              on_progress: Callable[[float], None] | None = None,
              cancelled: Callable[[], bool] = lambda: False) -> Transcript:
        """The transcript with a speaker on every line, split where the speaker changes; count: how
        many speakers there are, None to decide."""
        return self.label_with_windows(transcript, path, count, on_progress=on_progress, cancelled=cancelled)[0]

    def label_with_windows(self, transcript: Transcript, path: str | Path, count: int | None, *,
                           on_progress: Callable[[float], None] | None = None,
                           cancelled: Callable[[], bool] = lambda: False) -> tuple[Transcript, Windows]:
        """label(), and the embedded windows of the recording's speech (to compare with known voices)."""
        with one_thread():
            return self._label(transcript, Path(path), count, on_progress, cancelled)

    def _label(self, transcript: Transcript, path: Path, count: int | None, on_progress,
               cancelled) -> tuple[Transcript, Windows]:
        stretches = speech_stretches(transcript.segments)
        if not stretches:
            return transcript, Windows.joined([])
        windows = self._windows(path, stretches, transcript.duration, on_progress, cancelled)
        if len(windows) == 0:
            return transcript, windows
        if cancelled():
            raise Cancelled()
        spans = speaker_spans(windows, cluster(windows, count))
        transcript.segments = label_segments(transcript.segments, spans)
        transcript.speaker_names = {}
        transcript.recognised, transcript.suggested = {}, {}
        return transcript, windows

    def _windows(self, path: Path, stretches: list[tuple[float, float]], duration: float, on_progress,
                 cancelled) -> Windows:
        """The embedded windows of the recording's speech, read and embedded chunk by chunk, so that
        memory holds one chunk of sound however long the meeting (a stretch across a cut comes in two)."""
        parts = []
        for offset, samples in audio.iter_chunks(path, chunk_seconds=self._chunk_seconds):
            if cancelled():
                raise Cancelled()
            chunk_end = offset + len(samples) / SAMPLE_RATE
            heard = [(offset + start, offset + end) for start, end in voice_activity(samples)]
            words = [(max(start, offset), min(end, chunk_end)) for start, end in stretches]
            pieces = [(start, audio.slice_seconds(samples, start - offset, end - offset))
                      for start, end in heard or words if end - start >= 0.05]
            if pieces:
                parts.append(self._encoder.embed(pieces, cancelled=cancelled))
            if on_progress and duration > 0:
                on_progress(min(1.0, chunk_end / duration))
        return Windows.joined(parts)


def voice_activity(samples: np.ndarray) -> list[tuple[float, float]]:
    """(start, end) seconds of speech in 16 kHz samples, split at pauses from 0.2 s."""
    if samples.size == 0 or not np.any(samples):
        return []
    from faster_whisper.vad import VadOptions, get_speech_timestamps

    options = VadOptions(min_silence_duration_ms=200, speech_pad_ms=30)
    speech = get_speech_timestamps(np.asarray(samples, dtype=np.float32), options, sampling_rate=SAMPLE_RATE)
    return [(s["start"] / SAMPLE_RATE, s["end"] / SAMPLE_RATE) for s in speech if s["end"] > s["start"]]


def speaker_spans(windows: Windows, labels: np.ndarray) -> list[SpeakerSpan]:
    """Each window speaks for the middle hop of its time; the first and last windows of a stretch also
    for the stretch's edges, so that every moment of speech has a speaker."""
    spans = []
    half = HOP_SECONDS / 2
    for index, (start, end, label) in enumerate(zip(windows.starts, windows.ends, labels)):
        middle = (start + end) / 2
        first = index == 0 or windows.pieces[index - 1] != windows.pieces[index]
        last = index + 1 == len(windows) or windows.pieces[index + 1] != windows.pieces[index]
        spans.append(SpeakerSpan(float(start if first else max(start, middle - half)),
                                 float(end if last else min(end, middle + half)), int(label)))
    return spans
