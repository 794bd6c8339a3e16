"""The language of speech given to an English-only model, told by a multilingual model.

An English-only model (tiny.en …) cannot tell another language apart: asked, it answers English.
A multilingual one can. When one is on this computer (``plan.language_checker`` picks it) the engine
of an English-only model holds a ``LanguageChecker``: it loads that model the first time it is
needed, on the processor in int8 whatever device the engine uses, once per engine, in the engine's
own process. It listens to the speech voice activity detection kept in 30-second windows: all of
them, or CHECKED_WINDOWS spread over longer speech (its start, middle and end), so a meeting that
turns from English to Mandarin is heard doing so; each window's language and the model's
probability of it come back with the window's seconds of speech (``english_only.HeardLanguage``).

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

WINDOW_SECONDS = 30  # Whisper's window
CHECKED_WINDOWS = 3  # windows of speech listened to at most: about 1 s each on two cores
WINDOW_MARGIN_SECONDS = 5.0  # silence encoded after the speech of a window shorter than 30 s
LEAST_SECONDS = 1.0  # a window with less speech than this is not checked (a word or two)


class LanguageChecker:
    """A multilingual model, loaded when first asked, that tells the language of speech."""

    def __init__(self, model: LocalModel):
        self.model = model
        self._whisper: Any = None  # faster-whisper's WhisperModel, once loaded
        self._unusable = False  # it failed to load: not tried again by this engine

    def heard(self, speech: np.ndarray) -> tuple[HeardLanguage, ...]:
        """The language of each window of ``speech`` (16 kHz mono float32) listened to, with the model's
        probability of it; none when there is too little speech or the check failed (logged)."""
        windows = listened_windows(speech.size)
        if self._unusable or not windows:
            return ()
        try:
            whisper = self._loaded()
        except Exception:  # noqa: BLE001 - the English-only model's signs decide without it
            log.warning("The language checker %s could not be loaded; the English-only model's own signs decide",
                        self.model.path, exc_info=True)
            self._unusable = True
            return ()
        try:
            heard = tuple(_heard(whisper, speech[start:end]) for start, end in windows)
        except Exception:  # noqa: BLE001 - as above, for this decoding
            log.warning("The language check failed; the English-only model's own signs decide", exc_info=True)
            return ()
        log.info("The language checker %s heard %s", self.model.name,
                 ", ".join(f"{h.language} ({h.probability:.3f}, {h.seconds:.1f} s)" for h in heard))
        return heard

    def _loaded(self) -> Any:
        if self._whisper is None:
            from faster_whisper import WhisperModel

            from desktop.engines.transcription.model_files.ct2_folders import ct2_folder

            # A checkpoint is converted once, beside it, as the engine converts the one it runs.
            self._whisper = WhisperModel(str(ct2_folder(self.model)), device="cpu", compute_type="int8",
                                         cpu_threads=os.cpu_count() or 0, local_files_only=True)
        return self._whisper


def listened_windows(samples: int) -> list[tuple[int, int]]:
    """The (start, end) samples of the 30-second windows of speech this long that are listened to:
    every one, or CHECKED_WINDOWS spread from the first to the last; none of less than LEAST_SECONDS."""
    window = WINDOW_SECONDS * SAMPLE_RATE
    windows = [(start, min(samples, start + window)) for start in range(0, samples, window)]
    windows = [(start, end) for start, end in windows if end - start >= LEAST_SECONDS * SAMPLE_RATE]
    if len(windows) <= CHECKED_WINDOWS:
        return windows
    last = len(windows) - 1
    return [windows[i] for i in sorted({round(k * last / (CHECKED_WINDOWS - 1)) for k in range(CHECKED_WINDOWS)})]


def _heard(whisper: Any, piece: np.ndarray) -> HeardLanguage:
    """The language of one window of speech, padded with silence and encoded up to its margin."""
    extractor = whisper.feature_extractor
    padded = np.zeros(extractor.n_samples, dtype=np.float32)
    padded[:piece.size] = piece
    seconds = piece.size / SAMPLE_RATE
    frames = min(extractor.nb_max_frames,
                 math.ceil(seconds + WINDOW_MARGIN_SECONDS) * (SAMPLE_RATE // extractor.hop_length))
    features = extractor(padded)[..., :frames]
    token, probability = whisper.model.detect_language(whisper.encode(features))[0][0]
    return HeardLanguage(language=token[2:-2], probability=float(probability), seconds=seconds)  # "<|zh|>": zh
