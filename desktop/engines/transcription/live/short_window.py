"""A shorter Whisper window for short audio on the CPU: live captions decode one utterance at a time.

Whisper reads audio in 30-second windows, padding anything shorter with silence, and on a CPU the
encoder's pass over those 30 s is most of the cost of decoding a three-second utterance.
CTranslate2's encoder also takes fewer frames, so while ``window_for`` is active the faster-whisper
model's encoder sees only the audio plus WINDOW_MARGIN_SECONDS of its padding (the margin keeps
Whisper's sense of where speech ends: with less, it tends to repeat itself). On the recordings of
tests/data this gives the same text as the full window, several times faster; the live tests and
benchmarks/live_benchmark.py check it. Other engines (openai-whisper on the GPU) are left as they are.

Only for an engine used by one thread at a time (a live session's own engine): the engine cuts its
encoder's window for the duration of the block (``Ct2WhisperEngine.encoding_frames``).
"""
from __future__ import annotations

import math
from contextlib import contextmanager
from typing import Iterator

from desktop.engines.transcription.decoders.whisper_ct2 import Ct2WhisperEngine

WINDOW_MARGIN_SECONDS = 5.0
WHISPER_WINDOW_FRAMES = 3000  # 30 s of 10 ms mel frames
FRAMES_PER_SECOND = 100


def window_frames(audio_seconds: float) -> int:
    """Mel frames for audio this long: the audio and its margin, in whole seconds, at most 30 s."""
    seconds = math.ceil(audio_seconds + WINDOW_MARGIN_SECONDS)
    return min(WHISPER_WINDOW_FRAMES, seconds * FRAMES_PER_SECOND)


@contextmanager
def window_for(engine, audio_seconds: float) -> Iterator[None]:
    """While the block runs, ``engine`` encodes a window sized for ``audio_seconds`` of audio."""
    frames = window_frames(audio_seconds)
    if not isinstance(engine, Ct2WhisperEngine) or frames >= WHISPER_WINDOW_FRAMES:
        yield
        return
    with engine.encoding_frames(frames):
        yield
