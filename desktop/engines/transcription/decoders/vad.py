"""Voice activity detection shared by both engines, so both see exactly the same speech.

Silero VAD (shipped inside faster-whisper's wheel, run with onnxruntime) finds the stretches with
speech; they are joined into one shorter recording for Whisper, and ``TimeMap`` puts the times
Whisper reports on that shorter recording back onto the original timeline. Pure silence yields no
audio at all, so the engines can skip the model: Whisper tends to invent text ("Thank you.") over
silence.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field

import numpy as np

from desktop.core.common.audio import SAMPLE_RATE
from desktop.core.transcription.transcript import Segment, Word
from desktop.engines.transcription.engine import ProgressReporter, TranscribeOptions


@dataclass
class TimeMap:
    """Maps times on the joined speech audio back to the original recording.

    ``chunks`` are the kept (start, end) sample ranges of the original, in order. No chunks with
    ``identity`` set means the audio was passed through unchanged.
    """

    chunks: list[tuple[int, int]] = field(default_factory=list)
    identity: bool = False

    def __post_init__(self) -> None:
        # For each kept chunk: where it ends on the joined timeline and how much silence precedes it.
        self._joined_ends: list[int] = []
        self._silence_before: list[int] = []
        joined = silence = previous_end = 0
        for start, end in self.chunks:
            silence += start - previous_end
            joined += end - start
            previous_end = end
            self._joined_ends.append(joined)
            self._silence_before.append(silence)

    def speech_stretches(self, audio_seconds: float) -> list[tuple[float, float]]:
        """The (start, end) seconds of the original recording that were kept as speech."""
        if self.identity:
            return [(0.0, round(audio_seconds, 3))]
        return [(round(start / SAMPLE_RATE, 3), round(end / SAMPLE_RATE, 3)) for start, end in self.chunks]

    def chunk_index(self, time: float, is_end: bool = False) -> int:
        """The chunk a joined-timeline time falls in; an end exactly on a boundary stays in its chunk."""
        sample = round(time * SAMPLE_RATE)
        index = bisect.bisect_left(self._joined_ends, sample) if is_end else bisect.bisect_right(self._joined_ends, sample)
        return min(index, len(self._joined_ends) - 1)

    def original_time(self, time: float, chunk: int | None = None, is_end: bool = False) -> float:
        if self.identity or not self.chunks:
            return round(float(time), 3)
        if chunk is None:
            chunk = self.chunk_index(time, is_end)
        return round(float(time) + self._silence_before[chunk] / SAMPLE_RATE, 3)

    def restore(self, segment: Segment) -> Segment:
        """The segment with its times (and its words' times) on the original timeline.

        Each word is mapped with the chunk that holds its middle, so its start and end never land in
        different chunks; the segment then spans exactly its words.
        """
        if segment.words:
            words = []
            for word in segment.words:
                chunk = self.chunk_index((word.start + word.end) / 2)
                start = self.original_time(word.start, chunk)
                end = max(start, self.original_time(word.end, chunk))
                words.append(Word(start=start, end=end, text=word.text, probability=float(word.probability)))
            return Segment(start=words[0].start, end=words[-1].end, text=segment.text, words=words)
        start = self.original_time(segment.start)
        end = max(start, self.original_time(segment.end, is_end=True))
        return Segment(start=start, end=end, text=segment.text, words=[])


def prepare(audio: np.ndarray, enabled: bool = True) -> tuple[np.ndarray, TimeMap]:
    """Keep only the speech of 16 kHz mono float32 ``audio``.

    Returns the joined speech (empty when there is none) and the map back to the original timeline.
    With ``enabled`` false the audio passes through unchanged, except that an all-zero or empty
    recording still counts as no speech.
    """
    audio = np.asarray(audio, dtype=np.float32)
    if audio.ndim != 1:
        raise ValueError(f"expected mono audio as a 1-D array, got shape {audio.shape}")
    if audio.size == 0 or not np.any(audio):
        return np.zeros(0, dtype=np.float32), TimeMap()
    if not enabled:
        return audio, TimeMap(chunks=[(0, audio.size)], identity=True)

    from faster_whisper.vad import VadOptions, get_speech_timestamps

    # faster-whisper's defaults: speech above 0.5 probability, gaps under 2 s kept, 0.4 s padding.
    speech = get_speech_timestamps(audio, VadOptions(), sampling_rate=SAMPLE_RATE)
    chunks = [(int(s["start"]), int(s["end"])) for s in speech if s["end"] > s["start"]]
    if not chunks:
        return np.zeros(0, dtype=np.float32), TimeMap()
    joined = np.concatenate([audio[start:end] for start, end in chunks])
    return joined, TimeMap(chunks=chunks)


def speech_in(audio: np.ndarray) -> list[tuple[float, float]]:
    """The (start, end) seconds of speech in a short stretch of audio, found finely: pauses from
    0.3 s apart and 0.1 s of padding, where ``prepare`` joins speech across pauses under 2 s."""
    audio = np.asarray(audio, dtype=np.float32)
    if audio.size == 0 or not np.any(audio):
        return []
    from faster_whisper.vad import VadOptions, get_speech_timestamps

    options = VadOptions(min_silence_duration_ms=300, speech_pad_ms=100)
    speech = get_speech_timestamps(audio, options, sampling_rate=SAMPLE_RATE)
    return [(s["start"] / SAMPLE_RATE, s["end"] / SAMPLE_RATE) for s in speech if s["end"] > s["start"]]


def speech_to_decode(
    audio: np.ndarray, options: TranscribeOptions, progress: ProgressReporter
) -> tuple[np.ndarray, TimeMap] | None:
    """The speech of ``audio`` for the model and the map back to its timeline, the same for both engines.

    None when there is no speech at all: progress is then complete and the model need not run.
    A cancel is noticed before and after voice activity detection.
    """
    progress.check()
    speech, time_map = prepare(audio, options.vad)
    if speech.size == 0:
        progress.report(1.0)
        return None
    progress.check()
    return speech, time_map
