"""Who is speaking? Speaker embeddings with Resemblyzer's voice encoder, and how alike two voices are.

Resemblyzer ships its encoder weights (a 3-layer LSTM, 256-dimensional embeddings) inside its wheel,
so nothing is downloaded. It runs on the CPU: an embedding of a 30-second sample takes well under a
second, and the encoder is far too small to gain from a GPU.

The threshold was calibrated on the real recordings in tests/data (cosine similarity of utterance
embeddings):

    same speaker    AISHELL-1 S0764, W0121 vs W0122 (Mandarin)        0.84
                    jfk.flac, first half vs second half                0.82
                    lj050-0131.wav, first half vs second half          0.92
    different       jfk.flac vs lj050-0131.wav                         0.52
                    jfk.flac vs AISHELL W0121 / W0122                  0.48 / 0.52
                    lj050-0131.wav vs AISHELL W0121 / W0122            0.39 / 0.47
                    espeak-ng's English voice vs jfk / lj050-0131      0.51 / 0.56

The lowest same-speaker value (0.82) and the highest different-speaker value (0.56) leave a wide gap;
SAME_SPEAKER_THRESHOLD sits a little above its middle (0.69), because letting someone else's voice
through is worse than asking a person to record their consent again.
"""
from __future__ import annotations

import threading
from pathlib import Path

import numpy as np

from desktop.core.common.errors import UserFacingError
from desktop.core.common.i18n import N_

SAME_SPEAKER_THRESHOLD = 0.70
ENCODER_RATE = 16000
MIN_SPEECH_SECONDS = 1.0  # Resemblyzer averages 1.6 s windows; less than this says little about a voice


class SpeakerError(UserFacingError):
    """Two recordings could not be compared."""


def cosine_similarity(a: np.ndarray, b: np.ndarray) -> float:
    """Cosine of the angle between two embeddings: 1.0 for the same direction."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    norm = float(np.linalg.norm(a) * np.linalg.norm(b))
    return float(np.dot(a, b) / norm) if norm > 0 else 0.0


def resample(samples: np.ndarray, sample_rate: int, target: int = ENCODER_RATE) -> np.ndarray:
    """Mono float32 samples at target Hz (polyphase filter, no extra library)."""
    from math import gcd

    from scipy.signal import resample_poly

    samples = np.asarray(samples, dtype=np.float32)
    if samples.ndim == 2:
        samples = samples.mean(axis=1)
    if sample_rate == target:
        return samples
    factor = gcd(int(sample_rate), int(target))
    return resample_poly(samples, target // factor, int(sample_rate) // factor).astype(np.float32)


def _resemblyzer():
    """The resemblyzer package, imported on first use (it pulls in torch and librosa)."""
    import warnings

    with warnings.catch_warnings():
        # It imports binary_dilation from a SciPy namespace that SciPy has deprecated.
        warnings.simplefilter("ignore", DeprecationWarning)
        import resemblyzer
    return resemblyzer


class SpeakerEncoder:
    """Resemblyzer's encoder, loaded on first use and shared by every caller (thread-safe)."""

    def __init__(self, device: str = "cpu"):
        self._device = device
        self._encoder = None
        self._lock = threading.Lock()

    def _model(self):
        if self._encoder is None:
            self._encoder = _resemblyzer().VoiceEncoder(self._device, verbose=False)
        return self._encoder

    def embed(self, samples: np.ndarray, sample_rate: int) -> np.ndarray:
        """The speaker embedding (unit length, 256 values) of a recording of one person."""
        wav = resample(samples, sample_rate)
        # Resemblyzer's own preparation: volume normalised, long silences removed by WebRTC's VAD.
        # (Its volume normalisation divides by the level, so silence is sorted out before.)
        loud_enough = wav.size and float(np.max(np.abs(wav))) > 1e-3
        speech = _resemblyzer().preprocess_wav(wav) if loud_enough else wav[:0]
        if len(speech) < MIN_SPEECH_SECONDS * ENCODER_RATE:
            raise SpeakerError(
                N_("Engine", "There is too little speech in the recording to recognise the voice. Use a recording in "
                             "which the person speaks for several seconds."),
                detail=f"{len(speech) / ENCODER_RATE:.2f} s of speech after voice detection",
            )
        with self._lock:
            return self._model().embed_utterance(speech)

    def embed_file(self, path: str | Path) -> np.ndarray:
        """The speaker embedding of an audio file (any format PyAV reads)."""
        from desktop.core.common.audio import decode

        return self.embed(decode(path, sample_rate=ENCODER_RATE), ENCODER_RATE)

    def similarity(self, a: np.ndarray, a_rate: int, b: np.ndarray, b_rate: int) -> float:
        """How alike the voices in two recordings are (cosine similarity of their embeddings)."""
        return cosine_similarity(self.embed(a, a_rate), self.embed(b, b_rate))
