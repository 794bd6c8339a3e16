"""The engine live captions run on: chosen exactly as for a file (Transcriber.plan: faster-whisper on
the CPU, the GPU engine when one works), loaded with loading.load_engine, with the same language
checker for an English-only model as for a file, the CPU when the GPU fails.

Live captions have their own loaded model, so the Transcribe tab's queue keeps its own.
"""
from __future__ import annotations

from desktop.core.common.errors import ModelError
from desktop.core.common.i18n import N_
from desktop.core.gpu.fallback import FallbackLog, run_with_gpu_fallback
from desktop.core.transcription.whisper_models import LocalModel, ModelStore
from desktop.engines.transcription.engine import WhisperEngine
from desktop.engines.transcription.plan import TranscribeSettings, language_checker, local_model
from desktop.engines.transcription.transcriber import Transcriber

NOT_DOWNLOADED = N_("LiveEngine", "The model “{model}” is not on this computer yet. Start live captions again "
                                  "to download it, or choose a model you have.")


def missing_model(store: ModelStore, settings: TranscribeSettings, fallback_log: FallbackLog | None = None
                  ) -> tuple[str, str] | None:
    """The (name, format) to download first, as the Transcriber answers it; None when on disk."""
    return Transcriber(store, fallback_log or FallbackLog()).missing_model(settings)


def load_live_engine(store: ModelStore, settings: TranscribeSettings, fallback_log: FallbackLog) -> WhisperEngine:
    from desktop.engines.transcription.decoders.loading import load_engine

    transcriber = Transcriber(store, fallback_log)
    plan = transcriber.plan(settings)
    model = _local_model(store, settings.model, plan.engine)
    checker = language_checker(store, model.name)  # tells an English-only model's languages, as for a file
    if plan.device == "cpu":
        return load_engine(model, plan.engine, "cpu", checker=checker)

    def on_cpu() -> WhisperEngine:
        engine = "ct2" if settings.engine == "auto" else plan.engine
        return load_engine(_local_model(store, settings.model, engine), engine, "cpu", checker=checker)

    return run_with_gpu_fallback(N_("LiveEngine", "live captions"), N_("Engine", "load model"),
                                 lambda: load_engine(model, plan.engine, plan.device, checker=checker), on_cpu,
                                 fallback_log)


def _local_model(store: ModelStore, name: str, engine: str) -> LocalModel:
    model = local_model(store, name, engine)
    if model is None:
        raise ModelError(NOT_DOWNLOADED.format(model=name))
    return model
