"""The language of speech given to an English-only model, told by a multilingual model.

An English-only model (tiny.en …) cannot tell another language apart: asked, it answers English.
A multilingual one can. When one is on this computer (``plan.language_checker`` picks it) the engine
of an English-only model holds a ``LanguageChecker``: it loads that model the first time it is
needed, on the processor in int8 whatever device the engine uses, once per engine, in the engine's
own process. It listens to the speech voice activity detection kept, one 30-second window after
another (at most CHECKED_WINDOWS), until it is sure of a language (``english_only.HeardLanguage``).

Each window is the speech padded with silence, as Whisper pads audio, but encoded only up to
WINDOW_MARGIN_SECONDS after the speech instead of over 30 s (live captions' short window does the
same for decoding; faster-whisper's own ``detect_language`` always encodes 30 s, after padding the
spectrogram rather than the audio). On the recordings of tests/data, with base checking, the
language and its probability stay those of the full window within 0.02, except where the speech
changes language (English then Mandarin: zh 0.79 instead of en 0.57, both unsure), and a check of
a few seconds of speech takes 0.1–0.4 s on two cores instead of 0.8–1.6 s, which live captions pay
for every utterance. What it heard decides as ``english_only`` says. A check that fails is logged
and leaves the decision to the English-only model's own signs; it never fails the transcription.
No Qt here.
"""
from __future__ import annotations

import logging
import math
import os
from typing import Any

import numpy as np

from desktop.core.common.audio import SAMPLE_RATE
from desktop.core.transcription.english_only import HeardLanguage
from desktop.core.transcription.whisper_models import LocalModel

log = logging.getLogger(__name__)

CHECKED_WINDOWS = 3  # 30-second windows of speech listened to at most, until one is sure
WINDOW_MARGIN_SECONDS = 5.0  # silence encoded after the speech of a window shorter than 30 s
LEAST_SECONDS = 1.0  # less speech than this is not checked (a word or two)


class LanguageChecker:
    """A multilingual model, loaded when first asked, that tells the language of speech."""

    def __init__(self, model: LocalModel):
        self.model = model
        self._whisper: Any = None  # faster-whisper's WhisperModel, once loaded
        self._unusable = False  # it failed to load: not tried again by this engine

    def heard(self, speech: np.ndarray) -> HeardLanguage | None:
        """The language of ``speech`` (16 kHz mono float32) and the model's probability of it; None
        when there is too little speech or the check failed (logged)."""
        if self._unusable or speech.size < LEAST_SECONDS * SAMPLE_RATE:
            return None
        try:
            whisper = self._loaded()
        except Exception:  # noqa: BLE001 - the English-only model's signs decide without it
            log.warning("The language checker %s could not be loaded; the English-only model's own signs decide",
                        self.model.path, exc_info=True)
            self._unusable = True
            return None
        try:
            heard = _heard(whisper, speech)
        except Exception:  # noqa: BLE001 - as above, for this decoding
            log.warning("The language check failed; the English-only model's own signs decide", exc_info=True)
            return None
        if heard is not None:
            log.info("The language checker %s heard %s (%.3f)", self.model.name, heard.language, heard.probability)
        return heard

    def close(self) -> None:
        whisper, self._whisper = self._whisper, None
        if whisper is not None:
            whisper.model.unload_model()

    def _loaded(self) -> Any:
        if self._whisper is None:
            from faster_whisper import WhisperModel

            self._whisper = WhisperModel(str(self.model.path), device="cpu", compute_type="int8",
                                         cpu_threads=os.cpu_count() or 0, local_files_only=True)
        return self._whisper


def _heard(whisper: Any, speech: np.ndarray) -> HeardLanguage | None:
    """The first window's language the model is sure of, or else the likeliest of the windows'."""
    extractor = whisper.feature_extractor
    window = extractor.n_samples  # 30 s
    frames_per_second = SAMPLE_RATE // extractor.hop_length
    likeliest: HeardLanguage | None = None
    for start in range(0, min(speech.size, CHECKED_WINDOWS * window), window):
        piece = speech[start:start + window]
        padded = np.zeros(window, dtype=np.float32)
        padded[:piece.size] = piece
        frames = min(extractor.nb_max_frames,
                     math.ceil(piece.size / SAMPLE_RATE + WINDOW_MARGIN_SECONDS) * frames_per_second)
        features = extractor(padded)[..., :frames]
        token, probability = whisper.model.detect_language(whisper.encode(features))[0][0]
        heard = HeardLanguage(language=token[2:-2], probability=float(probability))  # "<|zh|>" → "zh"
        if heard.confident:
            return heard
        if likeliest is None or heard.probability > likeliest.probability:
            likeliest = heard
    return likeliest
