"""The speech sent to a transcription server, in pieces: stretches of speech grouped into pieces of at
most ``PIECE_SECONDS``, cut in the pauses (a stretch longer than that at its quietest moment), each
sent as FLAC.
"""
from __future__ import annotations

import io
from dataclasses import dataclass

import numpy as np

from desktop.core.common.audio import SAMPLE_RATE

PIECE_SECONDS = 30.0  # Whisper's own window: every server takes it in one request
_SPLIT_FROM = 0.5  # a stretch longer than a piece is cut at its quietest moment after this share of a piece
_FRAME = SAMPLE_RATE // 10  # 0.1 s frames when looking for the quietest moment


@dataclass(frozen=True)
class Piece:
    ranges: list[tuple[int, int]]  # sample ranges of the audio given, joined for the server

    @property
    def samples(self) -> int:
        return sum(end - start for start, end in self.ranges)


def cut_into_pieces(audio: np.ndarray, stretches: list[tuple[int, int]],
                    seconds: float = PIECE_SECONDS) -> list[Piece]:
    """The speech stretches grouped into pieces of at most ``seconds`` of speech, cut in the pauses
    between stretches; a stretch longer than a piece is cut at its quietest moment."""
    limit = int(seconds * SAMPLE_RATE)
    pieces: list[Piece] = []
    current: list[tuple[int, int]] = []
    size = 0
    for stretch in _short_stretches(audio, stretches, limit):
        length = stretch[1] - stretch[0]
        if current and size + length > limit:
            pieces.append(Piece(current))
            current, size = [], 0
        current.append(stretch)
        size += length
    if current:
        pieces.append(Piece(current))
    return pieces


def _short_stretches(audio: np.ndarray, stretches: list[tuple[int, int]], limit: int) -> list[tuple[int, int]]:
    result = []
    for start, end in stretches:
        while end - start > limit:
            cut = _quietest(audio, start + int(limit * _SPLIT_FROM), start + limit)
            result.append((start, cut))
            start = cut
        result.append((start, end))
    return result


def _quietest(audio: np.ndarray, first: int, last: int) -> int:
    """The start of the quietest 0.1 s frame in [first, last)."""
    frames = (last - first) // _FRAME
    if frames < 2:
        return last
    energy = (audio[first:first + frames * _FRAME].reshape(frames, _FRAME) ** 2).mean(axis=1)
    return first + int(np.argmin(energy[1:]) + 1) * _FRAME


def encode_flac(samples: np.ndarray) -> bytes:
    """16-bit FLAC of 16 kHz mono audio: lossless for Whisper, about half the size of WAV."""
    import soundfile

    buffer = io.BytesIO()
    soundfile.write(buffer, np.clip(samples, -1.0, 1.0), SAMPLE_RATE, format="FLAC", subtype="PCM_16")
    return buffer.getvalue()
