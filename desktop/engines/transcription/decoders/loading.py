"""Load a Whisper model into the engine that runs it: the one place that maps (engine, device) to code.

Used by the Transcriber, and by anything else that runs an engine (a separate process, live captions),
so every caller gets the same engines with the same failure sentences.
"""
from __future__ import annotations

from desktop.core.common.errors import ModelError, UserFacingError
from desktop.core.transcription.whisper_models import LocalModel
from desktop.engines.transcription.decoders.language_check import LanguageChecker
from desktop.engines.transcription.decoders.local_engine import LocalEngine
from desktop.engines.transcription.engine import DAMAGED_MODEL, WhisperEngine, device_failures_as_user_errors


def load_engine(model: LocalModel, engine: str, device: str, *, checker: LocalModel | None = None,
                expect_seconds: float | None = None) -> WhisperEngine:
    """``engine`` is "torch" or "ct2", ``device`` "cuda" or "cpu"; ``checker``: the multilingual model
    (a CTranslate2 folder) that tells the language of speech an English-only ``model`` is given
    (``language_check``), loaded only when first needed; ``expect_seconds``: the length of the first
    recording, when known (``WhisperEngine.expect``), told before the model loads.

    A library error while loading on the CPU means a damaged model (ModelError); on the GPU it passes
    through, for the fallback to the CPU to judge.
    """
    loaded = _load(model, engine, device, expect_seconds)
    if checker is not None:
        loaded.check_languages_with(LanguageChecker(checker))
    return loaded


def _load(model: LocalModel, engine: str, device: str, expect_seconds: float | None) -> LocalEngine:
    if engine == "torch":
        from desktop.engines.transcription.decoders.whisper_batched import load_batched_torch_engine

        def load(model: LocalModel, device: str) -> LocalEngine:
            return load_batched_torch_engine(model, device)
    elif engine == "ct2":
        from desktop.engines.transcription.decoders.whisper_ct2 import load_ct2_engine

        def load(model: LocalModel, device: str) -> LocalEngine:
            return load_ct2_engine(model, device, expect_seconds=expect_seconds)
    else:
        raise ValueError(f"unknown engine {engine!r}")
    with device_failures_as_user_errors(device):
        try:
            return load(model, device)
        except (UserFacingError, MemoryError):
            raise
        except Exception as exc:  # noqa: BLE001 - whatever a damaged model makes the libraries raise
            if device == "cuda":
                raise  # for the fallback to the CPU to judge
            raise ModelError(DAMAGED_MODEL, detail=f"{type(exc).__name__}: {exc}") from exc
