"""faster-whisper's ``WhisperModel`` as VoxDesk loads it: the one place its decoding is changed.

A subclass, so no method of a loaded object is ever replaced:

- ``encode`` follows the engine's ``EncoderChoice``: torch's bfloat16 encoder once it took over
  (``bf16_encoder``), or a window cut to fewer mel frames while live captions decode a short
  utterance (``live.short_window``). Both of faster-whisper's pipelines encode through it.
- ``generate_with_fallback`` (sequential decoding) writes no more tokens than the speech it was given
  can hold (``new_tokens``, from ``token_limit``). Whisper's own limit is the whole 448-token context,
  at each of six temperatures of its fallback, each sampling five candidates: over a fraction of a
  second decoded on its own (the second look) it could write to that limit again and again, and 0.7 s
  of speech took 21 s.
"""
from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

if TYPE_CHECKING:
    from desktop.engines.transcription.decoders.bf16_encoder import Bf16Encoder


@dataclass
class EncoderChoice:
    """How a loaded model encodes: CTranslate2's own encoder, torch's bfloat16 one (``bf16``), or
    CTranslate2's on a window cut to ``frames`` mel frames (torch's takes whole 30-second windows)."""

    bf16: "Bf16Encoder | None" = None
    frames: int | None = None

    def encode(self, features: np.ndarray, own: Callable[[np.ndarray], Any]) -> Any:
        if self.frames is not None:
            return own(features[..., :self.frames])
        return own(features) if self.bf16 is None else self.bf16.encode(features)


TOKENS_PER_SECOND = 16  # of speech at the most; fast Mandarin needs about 12 (characters, punctuation, timestamps)
TOKENS_BESIDES = 24  # the end of text, a segment's timestamps, a short word over a very short stretch


def token_limit(seconds: float) -> int:
    """The most tokens a decoding of ``seconds`` of speech may write."""
    return TOKENS_BESIDES + math.ceil(TOKENS_PER_SECOND * max(0.0, seconds))


@functools.cache
def model_class() -> type:
    """The subclass of faster-whisper's ``WhisperModel`` VoxDesk loads (faster-whisper is imported
    only once a model is loaded)."""
    from faster_whisper import WhisperModel

    class VoxDeskWhisperModel(WhisperModel):
        def __init__(self, *args: Any, **kwargs: Any):
            super().__init__(*args, **kwargs)
            self.encoding = EncoderChoice()
            self.new_tokens: int | None = None  # the most a sequential decoding may write; None: Whisper's own

        def encode(self, features: np.ndarray) -> Any:
            return self.encoding.encode(features, super().encode)

        def generate_with_fallback(self, encoder_output: Any, prompt: list[int], tokenizer: Any, options: Any) -> Any:
            if self.new_tokens is not None:
                room = self.max_length - len(prompt)  # faster-whisper refuses a limit beyond the context
                limit = min(self.new_tokens, room, options.max_new_tokens or room)
                options = dataclasses.replace(options, max_new_tokens=max(1, limit))
            return super().generate_with_fallback(encoder_output, prompt, tokenizer, options)

    return VoxDeskWhisperModel
