"""Meetings made of real recordings of different people, with the truth of who spoke when.

Turns are recordings (or parts of one) of one person, joined with pauses of 0.3–1 s between them, the
way benchmarks/speakers_benchmark.py and the speaker tests need them. Voices: A and B (SpeechBrain
Harvard sentences), JFK, LJ (a LibriVox reader), ZH (an AISHELL-1 Mandarin speaker), LIBRI (a
LibriSpeech reader); see tests/data/README.md and tests/data/speakers/README.md.
"""
from __future__ import annotations

import random
import wave
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tests.helpers.weights import DATA_DIR

RATE = 16000
SPEAKERS_DIR = DATA_DIR / "speakers"

# Each voice's clips: (file, start, end) in seconds, None for the whole file. JFK and LJ are cut in
# pauses between phrases.
CLIPS = {
    "A": [("speakers/spk1_snt4.wav", None, None), ("speakers/spk1_snt5.wav", None, None),
          ("speakers/spk1_snt6.wav", None, None)],
    "B": [("speakers/spk2_snt4.wav", None, None), ("speakers/spk2_snt5.wav", None, None),
          ("speakers/spk2_snt6.wav", None, None)],
    "JFK": [("jfk.flac", 0.0, 3.6), ("jfk.flac", 3.6, 11.0)],
    "LJ": [("lj050-0131.wav", 0.0, 4.6), ("lj050-0131.wav", 4.6, 7.7)],
    "ZH": [("BAC009S0764W0121.wav", None, None), ("BAC009S0764W0122.wav", None, None)],
    "LIBRI": [("speakers/libri_d.wav", None, None)],
}


@dataclass
class Meeting:
    samples: np.ndarray  # 16 kHz mono float32
    turns: list[tuple[float, float, str]]  # (start, end, speaker) of each turn, first sound to last
    speech: list[tuple[float, float, str]]  # the same without the pauses of 0.3 s or more inside turns

    @property
    def speakers(self) -> set[str]:
        return {speaker for _, _, speaker in self.turns}

    def write(self, path: Path) -> Path:
        pcm = (np.clip(self.samples, -1, 1) * 32767).astype("<i2")
        with wave.open(str(path), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(2)
            out.setframerate(RATE)
            out.writeframes(pcm.tobytes())
        return path


def clip(voice: str, number: int) -> np.ndarray:
    """One clip of a voice, trimmed of the silence around its speech."""
    from desktop.core.common.audio import decode

    name, start, end = CLIPS[voice][number]
    samples = decode(DATA_DIR / name)
    if start is not None:
        samples = samples[int(start * RATE):int(end * RATE)]
    return trimmed(samples)


def trimmed(samples: np.ndarray, threshold: float = 0.02) -> np.ndarray:
    loud = np.flatnonzero(np.abs(samples) > threshold * float(np.max(np.abs(samples))) * 4)
    if loud.size == 0:
        return samples
    margin = int(0.05 * RATE)
    return samples[max(0, loud[0] - margin):loud[-1] + margin]


def compose(turns: list[tuple[str, list[np.ndarray]]], seed: int = 0) -> Meeting:
    """Turns of (speaker, its clips) joined in order, with 0.3–1 s of silence between turns (0.15 s
    between the clips of one turn); the truth spans each turn from its first sound to its last."""
    rng = random.Random(seed)
    pieces, truth, speech, time = [], [], [], 0.0
    for index, (speaker, clips) in enumerate(turns):
        if index:
            pause = rng.uniform(0.3, 1.0)
            pieces.append(np.zeros(int(pause * RATE), dtype=np.float32))
            time += pause
        start = time
        for number, samples in enumerate(clips):
            if number:
                pieces.append(np.zeros(int(0.15 * RATE), dtype=np.float32))
                time += 0.15
            pieces.append(samples.astype(np.float32))
            speech += [(time + a, time + b, speaker) for a, b in sounding(samples)]
            time += len(samples) / RATE
        truth.append((start, time, speaker))
    return Meeting(np.concatenate(pieces), truth, speech)


def sounding(samples: np.ndarray, frame: float = 0.02, floor_db: float = -35.0,
             min_pause: float = 0.3) -> list[tuple[float, float]]:
    """(start, end) seconds where a clean recording of one person is louder than floor_db under its
    loudest 20 ms, joined across pauses shorter than min_pause."""
    size = int(frame * RATE)
    frames = samples[: len(samples) // size * size].reshape(-1, size)
    level = 20 * np.log10(np.sqrt((frames.astype(np.float64) ** 2).mean(axis=1)) + 1e-9)
    loud = np.flatnonzero(level > level.max() + floor_db)
    regions: list[list[float]] = []
    for index in loud:
        start, end = index * frame, (index + 1) * frame
        if regions and start - regions[-1][1] < min_pause:
            regions[-1][1] = end
        else:
            regions.append([start, end])
    return [(start, end) for start, end in regions]


def two_speakers() -> Meeting:
    """A and B, two turns each (2–5 s)."""
    return compose([("A", [clip("A", 0), clip("A", 1)]), ("B", [clip("B", 0)]),
                    ("A", [clip("A", 2)]), ("B", [clip("B", 1), clip("B", 2)])])
