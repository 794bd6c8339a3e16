"""Speaker embeddings of short overlapping windows of speech, with Resemblyzer's voice encoder.

Each stretch of speech is cut into windows of 1.6 s (the length the encoder was trained on) every
HOP_SECONDS; a stretch shorter than a window is repeated to fill one, which the encoder reads better
than padding with silence. The encoder's weights ship inside the resemblyzer wheel and are read as
tensors only (torch.load with weights_only=True). CPU only: the model is a small LSTM.
"""
from __future__ import annotations

import threading
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from desktop.core.common.audio import SAMPLE_RATE
from desktop.core.common.errors import Cancelled, ModelError
from desktop.core.common.i18n import N_

FRAME_SECONDS = 0.01  # the encoder's mel frames are 10 ms apart
WINDOW_FRAMES = 160  # 1.6 s
HOP_SECONDS = 0.8
_BATCH = 64

ENCODER_DAMAGED = N_("Engine", "The speaker model that comes with VoxDesk could not be read; reinstall VoxDesk.")


@dataclass
class Windows:
    """Windows of speech and their embeddings (one unit-length row each)."""

    starts: np.ndarray  # seconds
    ends: np.ndarray
    stretch_seconds: np.ndarray  # length of the stretch each window comes from
    embeddings: np.ndarray  # (windows, 256)
    pieces: np.ndarray  # which stretch each window comes from (0, 1, …), in order

    def __len__(self) -> int:
        return len(self.starts)

    @classmethod
    def joined(cls, parts: list["Windows"]) -> "Windows":
        """The windows of several parts of a recording, in order, their stretches numbered on."""
        pieces, first = [], 0
        for part in parts:
            pieces.append(part.pieces + first)
            first += int(part.pieces.max()) + 1 if len(part) else 0
        return cls(*(np.concatenate([getattr(part, name) for part in parts]) if parts else np.zeros(0)
                     for name in ("starts", "ends", "stretch_seconds")),
                   np.concatenate([part.embeddings for part in parts]) if parts else np.zeros((0, 256), np.float32),
                   np.concatenate(pieces).astype(int) if parts else np.zeros(0, dtype=int))


def _resemblyzer():
    import warnings

    with warnings.catch_warnings():
        # It imports binary_dilation from a SciPy namespace that SciPy has deprecated.
        warnings.simplefilter("ignore", DeprecationWarning)
        import resemblyzer
        import resemblyzer.audio
    return resemblyzer


def weights_path() -> Path:
    return Path(_resemblyzer().__file__).parent / "pretrained.pt"


def load_encoder() -> "Callable":
    """Resemblyzer's voice encoder on the CPU (its 3-layer LSTM and projection), built here so that
    its weights are read as plain tensors: a function from mel batches to unit-length embeddings."""
    import torch

    try:
        state = torch.load(weights_path(), map_location="cpu", weights_only=True)["model_state"]
        lstm = torch.nn.LSTM(40, 256, 3, batch_first=True)
        linear = torch.nn.Linear(256, 256)
        lstm.load_state_dict({k[len("lstm."):]: v for k, v in state.items() if k.startswith("lstm.")})
        linear.load_state_dict({k[len("linear."):]: v for k, v in state.items() if k.startswith("linear.")})
    except Exception as exc:  # noqa: BLE001 - whatever torch.load or the lookups raise, the file is unusable
        raise ModelError(ENCODER_DAMAGED, detail=f"{type(exc).__name__}: {exc}") from exc
    lstm.eval()
    linear.eval()

    def encode(mels):
        _, (hidden, _) = lstm(mels)
        raw = torch.relu(linear(hidden[-1]))
        return raw / torch.norm(raw, dim=1, keepdim=True).clamp_min(1e-8)

    return encode


@contextmanager
def one_thread():
    """Run torch and the BLAS libraries on one thread meanwhile. The windows are small: on two or
    more threads the LSTM spends its time waiting for them, up to ten times slower on a busy CPU."""
    import torch
    from threadpoolctl import threadpool_limits

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        with threadpool_limits(limits=1):
            yield
    finally:
        torch.set_num_threads(threads)


class WindowEncoder:
    """Embeds windows of speech; the encoder is loaded on first use and shared (thread-safe)."""

    def __init__(self) -> None:
        self._encoder = None
        self._lock = threading.Lock()

    def _model(self):
        if self._encoder is None:
            self._encoder = load_encoder()
        return self._encoder

    def embed(self, pieces: list[tuple[float, np.ndarray]], *,
              cancelled: Callable[[], bool] = lambda: False) -> Windows:
        """Windows of each (start seconds, 16 kHz samples) stretch of speech, with their embeddings."""
        import torch

        mels, starts, ends, lengths, owners = [], [], [], [], []
        audio = _resemblyzer().audio
        for piece, (start, samples) in enumerate(pieces):
            wav = audio.normalize_volume(np.asarray(samples, dtype=np.float32), -30, increase_only=True)
            for first, mel in _windows(audio.wav_to_mel_spectrogram(wav)):
                mels.append(mel)
                starts.append(start + first * FRAME_SECONDS)
                ends.append(min(start + (first + WINDOW_FRAMES) * FRAME_SECONDS, start + len(samples) / SAMPLE_RATE))
                lengths.append(len(samples) / SAMPLE_RATE)
                owners.append(piece)
        embeddings = np.zeros((len(mels), 256), dtype=np.float32)
        with self._lock, torch.inference_mode():
            model = self._model()
            for first in range(0, len(mels), _BATCH):
                if cancelled():
                    raise Cancelled()
                batch = torch.from_numpy(np.stack(mels[first:first + _BATCH]))
                embeddings[first:first + _BATCH] = model(batch).numpy()
        return Windows(np.array(starts), np.array(ends), np.array(lengths), embeddings, np.array(owners, dtype=int))


def _windows(mel: np.ndarray):
    """(first frame, mel window) pairs covering the stretch, the last one flush with its end."""
    frames = len(mel)
    if frames == 0:
        return
    if frames < WINDOW_FRAMES:
        yield 0, np.resize(mel, (WINDOW_FRAMES, mel.shape[1])).astype(np.float32)
        return
    hop = int(round(HOP_SECONDS / FRAME_SECONDS))
    firsts = list(range(0, frames - WINDOW_FRAMES + 1, hop))
    if frames - WINDOW_FRAMES - firsts[-1] > hop // 2:
        firsts.append(frames - WINDOW_FRAMES)
    for first in firsts:
        yield first, mel[first:first + WINDOW_FRAMES].astype(np.float32)
