"""faster-whisper's ``WhisperModel`` as VoxDesk loads it: the one place its decoding is changed.

A subclass, so no method of a loaded object is ever replaced:

- ``encode`` follows the engine's ``EncoderChoice``: torch's bfloat16 encoder once it took over
  (``bf16_encoder``), or a window cut to fewer mel frames while live captions decode a short
  utterance (``live.short_window``). Both of faster-whisper's pipelines encode through it.

The drift check measured for issue 38 (decoding a window again without the text before it) is not
here: on the repeated agenda it cost more than it saved (benchmarks/accuracy_table.py, BENCHMARKS.md).
"""
from __future__ import annotations

import functools
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


@functools.cache
def model_class() -> type:
    """The subclass of faster-whisper's ``WhisperModel`` VoxDesk loads (faster-whisper is imported
    only once a model is loaded)."""
    from faster_whisper import WhisperModel

    class VoxDeskWhisperModel(WhisperModel):
        def __init__(self, *args: Any, **kwargs: Any):
            super().__init__(*args, **kwargs)
            self.encoding = EncoderChoice()

        def encode(self, features: np.ndarray) -> Any:
            return self.encoding.encode(features, super().encode)

    return VoxDeskWhisperModel
