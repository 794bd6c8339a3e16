"""Which labelled speakers of a recording are known voices: clear matches get the name, close ones a suggestion.

Each known voice is a centroid (the mean of its window embeddings, made unit length) and a spread (how
far its own windows stray from it, never less than MIN_SPREAD: a few windows understate it). A
speaker of a recording is the centroid of its windows; its score against a voice is how many of the
voice's spreads its cosine lies below the voice's own typical cosine:

    score = (cos(speaker, centroid) - typical) / spread        (0: sounds as the voice itself does)

A score of at least -NAME_SPREADS names the speaker; at least -SUGGEST_SPREADS suggests the name;
anything lower stays "Speaker N". Pairs are taken best first, each voice and each speaker at most once,
so two speakers never get one name in one recording. Both thresholds are measured by
benchmarks/known_voices_calibration.py (false names at most 1 % of speaking time); they live here only.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

import numpy as np

# Measured by benchmarks/known_voices_calibration.py (false names at most 1 % of speaking time).
NAME_SPREADS = 2.9
SUGGEST_SPREADS = 5.1
MIN_SPREAD = 0.04
MIN_ENROL_SECONDS = 6.0  # of clean speech from one person, to add a voice


@dataclass(frozen=True)
class VoicePrint:
    name: str
    centroid: np.ndarray
    typical: float  # mean cosine of the voice's own windows to its centroid
    spread: float

    @classmethod
    def of(cls, name: str, embeddings: np.ndarray) -> "VoicePrint":
        centroid = unit(np.asarray(embeddings, dtype=np.float64).mean(axis=0))
        own = np.asarray(embeddings, dtype=np.float64) @ centroid
        return cls(name, centroid, float(own.mean()), max(MIN_SPREAD, float(own.std())))

    def score(self, speaker_centroid: np.ndarray) -> float:
        return (float(unit(speaker_centroid) @ self.centroid) - self.typical) / self.spread


@dataclass(frozen=True)
class Recognition:
    speaker: int
    name: str
    confidence: float  # 1.0: sounds as the voice itself does; 0.5: at the naming threshold
    clear: bool  # named (True) or only suggested (False)


def unit(vector: np.ndarray) -> np.ndarray:
    vector = np.asarray(vector, dtype=np.float64)
    return vector / max(float(np.linalg.norm(vector)), 1e-8)


def confidence(score: float, name_spreads: float) -> float:
    return float(np.clip(1.0 + score / (2.0 * name_spreads), 0.0, 1.0))


def speaker_centroids(embeddings: np.ndarray, labels: np.ndarray) -> dict[int, np.ndarray]:
    """{speaker label: centroid of its windows}."""
    return {int(label): unit(embeddings[labels == label].mean(axis=0)) for label in np.unique(labels)}


def recognise(speakers: Mapping[int, np.ndarray], voices: Iterable[VoicePrint], *,
              refused: Mapping[int, Iterable[str]] | None = None,
              name_spreads: float | None = None, suggest_spreads: float | None = None) -> dict[int, Recognition]:
    """{speaker: its name or suggestion} for the speakers that sound like a known voice; refused: the
    names the user said a speaker is not ("Not Anna"), never offered again. The thresholds are the
    module's unless given (the calibration tries others)."""
    name_spreads = NAME_SPREADS if name_spreads is None else name_spreads
    suggest_spreads = max(name_spreads, SUGGEST_SPREADS if suggest_spreads is None else suggest_spreads)
    refused = {speaker: {name.casefold() for name in names} for speaker, names in (refused or {}).items()}
    pairs = []
    for voice in voices:
        for speaker, centroid in speakers.items():
            if voice.name.casefold() in refused.get(speaker, ()):
                continue
            score = voice.score(centroid)
            if score >= -suggest_spreads:
                pairs.append((score, speaker, voice.name))
    found: dict[int, Recognition] = {}
    taken: set[str] = set()
    for score, speaker, name in sorted(pairs, key=lambda pair: (-pair[0], pair[1], pair[2])):
        if speaker in found or name.casefold() in taken:
            continue
        found[speaker] = Recognition(speaker, name, round(confidence(score, name_spreads), 3),
                                     clear=score >= -name_spreads)
        taken.add(name.casefold())
    return found
