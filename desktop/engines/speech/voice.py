"""A kind of voice and a loaded voice, as the speech engine (desktop.engines.speech.tts) uses them. No Qt here.

VoxDesk speaks with two kinds of voice, Coqui models (desktop.engines.speech.coqui) and Piper voices
(desktop.engines.speech.piper). The engine knows neither: it asks desktop.engines.speech.voice_kinds
which kind a model is, has that kind load it, and then only speaks through the Voice it got. Planning,
streaming, cancel, the watermark and the pause are the engine's, the same for every kind.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

if TYPE_CHECKING:
    from desktop.core.speech.tts_models import TtsModelStore


@dataclass(frozen=True)
class VoiceInfo:
    """What the loaded model offers the window."""

    model: str
    title: str
    speakers: tuple[str, ...]  # named voices; empty for a one-voice model
    languages: tuple[str, ...]  # language codes it speaks
    sample_rate: int
    can_change_speed: bool
    device: str  # "CPU" or "GPU"

    @property
    def multi_speaker(self) -> bool:
        return len(self.speakers) > 1


@dataclass(frozen=True)
class FoundModel:
    """A model the settings name, found on disk: what a kind of voice needs to load it."""

    model: str  # as the settings name it: a catalog or imported name, a folder, a Piper .onnx
    path: Path  # its folder (or a Piper voice's .onnx)
    title: str
    catalog_languages: tuple[str, ...]  # what the catalog (or the folder used in place) says it speaks
    kind: VoiceKind
    store: TtsModelStore | None  # the store it is in; None for a folder used in place


class Voice(Protocol):
    """One loaded voice of any kind."""

    @property
    def info(self) -> VoiceInfo:
        """What it offers: its speakers, languages, sample rate, whether it changes speed, its device."""

    def longest_sentence(self, language: str) -> int | None:
        """The most characters it takes at once in language; None: the engine's own limit."""

    def unknown_characters(self, text: str) -> list[str]:
        """The letters of text it cannot say (and skips), sorted; empty when it says them all."""

    def synthesize(self, text: str, *, speaker: str | None, language: str | None, speed: float) -> np.ndarray:
        """One sentence as float32 mono samples in -1..1 at info.sample_rate, without the pause after it.

        speaker: one of info.speakers or None; language: the one chosen, None to take the text's own;
        speed: 0.5 … 2.0, 1.0 the voice's natural pace.
        """


class VoiceKind(Protocol):
    """One kind of voice: how a model of that kind is described and loaded."""

    @property
    def cpu_only(self) -> bool:
        """True when its voices always run on the CPU, whatever the settings ask."""

    def describe(self, path: Path) -> tuple[str, tuple[str, ...]]:
        """The title and languages of a model of this kind used in place from path; ModelError when it
        is not a usable model."""

    def load(self, found: FoundModel, device: str, gpu: Any) -> Voice:
        """The model found, loaded on device ("cpu" or "cuda", moved there through gpu); ModelError with a
        plain sentence when it cannot be."""
