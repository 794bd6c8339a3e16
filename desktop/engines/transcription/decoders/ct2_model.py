"""faster-whisper's ``WhisperModel`` as VoxDesk loads it: the one place its decoding is changed.

A subclass, so no method of a loaded object is ever replaced:

- ``encode`` follows the engine's ``EncoderChoice``: torch's bfloat16 encoder once it took over
  (``bf16_encoder``), or a window cut to fewer mel frames while live captions decode a short
  utterance (``live.short_window``). Both of faster-whisper's pipelines encode through it.
- ``generate_with_fallback`` (one window of sequential decoding) watches for drift: with the text
  before a window as its prompt, Whisper may write the same audio differently as that text grows
  ("希望你以后" said again and again becoming "希老师以后", then "希老明以后"), each mistake fed into the
  next window's prompt. A window whose prompt holds text decoded before it is decoded again with only
  the prompt the first window had (the user's, the glossary's); when the two texts differ, the
  window keeps the text heard without the earlier ones, which then is what the next window sees.
"""
from __future__ import annotations

import functools
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

if TYPE_CHECKING:
    from desktop.engines.transcription.decoders.bf16_encoder import Bf16Encoder

log = logging.getLogger(__name__)

DRIFT_CHECK = True  # decode a window again without the text before it (benchmarks/accuracy_table.py)


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


@dataclass
class DriftCount:
    """Windows decoded again without the text before them, and those whose text that changed."""

    checked: int = 0
    changed: int = 0


def previous_text(prompt: list[int], sot: int, sot_prev: int, own_prompt: int, hotwords: int) -> list[int]:
    """The tokens of ``prompt`` that were decoded before this window: after the start-of-previous
    token, the hotwords (``hotwords`` tokens) and the window's own initial prompt (``own_prompt``),
    before the start of the transcript."""
    if not prompt or prompt[0] != sot_prev or sot not in prompt:
        return []
    before = prompt[1 + hotwords:prompt.index(sot)]
    return before[own_prompt:]


def _initial_prompt_tokens(tokenizer: Any, initial_prompt: Any) -> list[int]:
    """As faster-whisper puts the initial prompt first in the text before the first window."""
    if initial_prompt is None:
        return []
    if isinstance(initial_prompt, str):
        return tokenizer.encode(" " + initial_prompt.strip())
    return list(initial_prompt)


@functools.cache
def model_class() -> type:
    """The subclass of faster-whisper's ``WhisperModel`` VoxDesk loads (faster-whisper is imported
    only once a model is loaded)."""
    from faster_whisper import WhisperModel

    class VoxDeskWhisperModel(WhisperModel):
        def __init__(self, *args: Any, **kwargs: Any):
            super().__init__(*args, **kwargs)
            self.encoding = EncoderChoice()
            self.drift = DriftCount()

        def encode(self, features: np.ndarray) -> Any:
            return self.encoding.encode(features, super().encode)

        def generate_with_fallback(self, encoder_output: Any, prompt: list[int], tokenizer: Any,
                                   options: Any) -> Any:
            first = super().generate_with_fallback(encoder_output, prompt, tokenizer, options)
            if not DRIFT_CHECK:
                return first
            own = _initial_prompt_tokens(tokenizer, options.initial_prompt)
            hotwords = len(tokenizer.encode(" " + options.hotwords.strip())[: self.max_length // 2 - 1]) \
                if options.hotwords else 0
            before = previous_text(prompt, tokenizer.sot, tokenizer.sot_prev, len(own), hotwords)
            if not before:
                return first  # the first window, or one after faster-whisper reset the prompt
            alone_prompt = self.get_prompt(tokenizer, own, without_timestamps=options.without_timestamps,
                                           hotwords=options.hotwords)
            alone = super().generate_with_fallback(encoder_output, alone_prompt, tokenizer, options)
            self.drift.checked += 1
            said, heard = (tokenizer.decode(r[0].sequences_ids[0]).strip() for r in (first, alone))
            if said == heard:
                return first
            self.drift.changed += 1
            log.info("A window read %r after the text before it and %r without it; the second is kept",
                     said, heard)
            return alone

    return VoxDeskWhisperModel
