"""Whisper through openai-whisper on torch: the engine for the GPU (ROCm/HIP or CUDA, fp16 weights and
compute) and a reference on the CPU (fp32). It decodes one 30-second window after another;
``whisper_batched`` decodes many at once around the same loaded model.

It loads openai-whisper checkpoints (``.pt``, read with ``weights_only=True``) and CTranslate2 folders,
whose weights ``weight_mapping`` maps onto openai-whisper's layout. The audio goes to the model's device as
a tensor, so the log-mel spectrogram is computed there too (openai-whisper would otherwise do it on the
CPU, and its file loader needs an ffmpeg binary, which VoxDesk never uses).
"""
from __future__ import annotations

import dataclasses
import gc
import importlib
import threading
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from desktop.core.common.errors import ModelError
from desktop.core.common.i18n import N_
from desktop.core.glossary.prompting import HeardTerms
from desktop.core.transcription.transcript import Segment, Word
from desktop.engines.transcription.decoders.local_engine import Decoded, FoundSegment, LocalEngine
from desktop.engines.transcription.decoders.vad import TimeMap
from desktop.engines.transcription.engine import (
    DAMAGED_MODEL,
    ProgressReporter,
    TranscribeOptions,
    device_failure,
)
from desktop.engines.transcription.model_files import ct2_format, weight_mapping
from desktop.engines.transcription.model_files.checkpoint import read_checkpoint

if TYPE_CHECKING:
    from desktop.core.transcription.whisper_models import LocalModel


class TorchWhisperEngine(LocalEngine):
    """A loaded openai-whisper model; see ``local_engine.LocalEngine``."""

    name = "torch"

    def __init__(self, model: Any, *, device: str, model_name: str):
        # fp16 weights and compute on the GPU, fp32 on the CPU (load_torch_engine, decode's "fp16").
        super().__init__(model, device=device, model_name=model_name,
                         compute_type="float16" if device == "cuda" else "float32")

    def languages(self, model: Any) -> tuple[bool, list[str]]:
        from whisper.tokenizer import LANGUAGES

        return model.is_multilingual, list(LANGUAGES)[: model.num_languages]

    def decode(self, model: Any, speech: np.ndarray, time_map: TimeMap, options: TranscribeOptions,
               language: str | None, progress: ProgressReporter, found: FoundSegment) -> Decoded:
        """One 30-second window after another, through ``whisper.transcribe``."""
        import torch
        import whisper

        decode_options: dict[str, Any] = {
            "language": language,
            "task": options.task,
            # The same search as faster-whisper's defaults, so both engines decode alike.
            "beam_size": options.beam_size if options.beam_size > 1 else None,
            "best_of": 5,
            "fp16": self.device == "cuda",  # said explicitly: no "FP16 is not supported on CPU" warning
            "condition_on_previous_text": options.condition_on_previous_text,
        }
        if options.temperature is not None:
            decode_options["temperature"] = options.temperature
        _install_progress_hooks()
        _current.reporter = progress
        _current.glossary = _WindowPrompts(model, options) if options.glossary_terms else None
        try:
            samples = torch.from_numpy(speech).to(model.device)
            result = whisper.transcribe(
                model,
                samples,
                verbose=None,
                initial_prompt=options.prompt_with_glossary(),
                # The glossary steers every window, not only the first (Whisper otherwise follows its own text).
                **({"carry_initial_prompt": True} if options.glossary_terms else {}),
                word_timestamps=options.word_timestamps,
                **decode_options,
            )
        finally:
            _current.reporter = None
            _current.glossary = None

        for piece in result["segments"]:
            words = [
                Word(start=w["start"], end=w["end"], text=w["word"], probability=w["probability"])
                for w in piece.get("words", [])
            ]
            found(Segment(start=piece["start"], end=piece["end"], text=piece["text"], words=words),
                  float(piece["avg_logprob"]))
        return Decoded(language=result["language"])

    def close(self) -> None:
        if self._model is None:
            return
        self._model = None
        gc.collect()
        if self.device == "cuda":
            import torch

            torch.cuda.empty_cache()


def load_torch_engine(model: "LocalModel", device: str) -> TorchWhisperEngine:
    """Load ``model`` ("pt" checkpoint or "ct2" folder) with openai-whisper on "cuda" or "cpu"."""
    import torch
    from whisper.model import ModelDimensions, Whisper

    from desktop.core.common.model_files import check_model
    from desktop.engines.transcription.model_files.ct2_folders import alignment_heads

    if device not in ("cpu", "cuda"):
        raise ValueError(f"unknown device {device!r}")
    if device == "cuda" and not torch.cuda.is_available():
        raise ModelError(
            N_("Engine", "No usable graphics card was found for transcription; choose the processor (CPU) in "
                         "Settings."),
            detail="torch.cuda.is_available() is False",
        )
    path = Path(model.path)
    if model.format == "pt":
        dims, state = read_checkpoint(path)
        heads = alignment_heads(dims, model.name)
    elif model.format == "ct2":
        check_model(path, "ct2")
        dims, arrays = weight_mapping.to_whisper_state_dict(ct2_format.read_model_bin(path / "model.bin"))
        state = {key: torch.from_numpy(value) for key, value in arrays.items()}
        heads = ct2_format.read_config(path).get("alignment_heads") or alignment_heads(dims, None)
    else:
        raise ValueError(f"unknown model format {model.format!r}")

    try:
        whisper_model = Whisper(ModelDimensions(**dims))
        whisper_model.load_state_dict(state, strict=True)
    except (RuntimeError, TypeError, ValueError) as exc:
        raise ModelError(DAMAGED_MODEL, detail=f"{type(exc).__name__}: {exc}") from exc
    del state

    mask = torch.zeros(dims["n_text_layer"], dims["n_text_head"], dtype=torch.bool)
    for layer, head in heads:
        mask[layer, head] = True
    whisper_model.register_buffer("alignment_heads", mask.to_sparse(), persistent=False)

    if device == "cuda":
        half_weights(whisper_model)
    try:
        whisper_model = whisper_model.to(device).eval()
    except RuntimeError as exc:
        failure = device_failure(exc, device)
        raise (failure or ModelError(DAMAGED_MODEL, detail=str(exc))) from exc
    _hook_decode(whisper_model)
    return TorchWhisperEngine(whisper_model, device=device, model_name=model.name)


def half_weights(model: Any, dtype: Any = None) -> None:
    """16-bit weights (fp16 unless ``dtype`` says otherwise, as torch.bfloat16), half the memory; layer
    norms stay fp32, since openai-whisper computes them in fp32."""
    import torch
    from whisper.model import LayerNorm

    model.to(dtype or torch.float16)
    for module in model.modules():
        if isinstance(module, LayerNorm):
            module.float()


# --- progress and cancellation inside openai-whisper ----------------------------------------------
#
# whisper.transcribe() has no callbacks; it advances a tqdm bar over mel frames after each 30-second
# window. Its module's ``tqdm`` name is replaced once by a stand-in whose bar reports to the reporter
# of the calling thread (and behaves as the real tqdm for anyone else), so several threads can
# transcribe at once. Each model's decode() is wrapped as well, to notice a cancel before every
# decoding attempt, including temperature fallbacks within a window.

_current = threading.local()
_install_lock = threading.Lock()


def _reporter() -> ProgressReporter | None:
    return getattr(_current, "reporter", None)


class _ProgressBar:
    """Stands in for ``tqdm.tqdm`` inside ``whisper.transcribe``."""

    def __init__(self, *args: Any, total: int | None = None, **kwargs: Any):
        self._reporter = _reporter()
        self._real = None
        if self._reporter is None:
            import tqdm

            self._real = tqdm.tqdm(*args, total=total, **kwargs)
        self.total = total or 0
        self.n = 0

    def __enter__(self) -> "_ProgressBar":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        if self._real is not None:
            self._real.close()

    def update(self, n: int = 1) -> None:
        if self._real is not None:
            self._real.update(n)
            return
        self.n += n
        self._reporter.report(self.n / self.total if self.total else 1.0)
        self._reporter.check()


class _TqdmModule:
    """What ``whisper.transcribe`` sees as its ``tqdm`` module."""

    tqdm = _ProgressBar


def _install_progress_hooks() -> None:
    with _install_lock:
        module = importlib.import_module("whisper.transcribe")  # the module, not the function
        if module.tqdm is not _TqdmModule:
            module.tqdm = _TqdmModule
            # Running on the CPU on purpose (the user's choice or a fallback) is not worth a warning.
            warnings.filterwarnings("ignore", message="Performing inference on CPU when CUDA is available")


def _hook_decode(model: Any) -> None:
    from whisper.decoding import decode

    def checked_decode(mel: Any, options: Any = None, **kwargs: Any) -> Any:
        reporter = _reporter()
        if reporter is not None:
            reporter.check()
        if options is None:
            return decode(model, mel, **kwargs)
        prompts = getattr(_current, "glossary", None)
        if prompts is None:
            return decode(model, mel, options, **kwargs)
        result = decode(model, mel, prompts.reordered(options), **kwargs)
        prompts.hear(result)
        return result

    model.decode = checked_decode


class _WindowPrompts:
    """The glossary's terms in each window's prompt, in the order of the windows decoded so far.

    whisper.transcribe puts the prompt it was given (the terms, then the initial prompt) in front of
    every window's (``carry_initial_prompt``); before each decoding that part is swapped for the same
    prompt with the terms heard in the windows before first, and the window's own earlier text kept
    after it as far as Whisper's prompt length allows."""

    def __init__(self, model: Any, options: TranscribeOptions):
        from whisper.tokenizer import get_tokenizer

        self._tokenizer = get_tokenizer(model.is_multilingual, num_languages=model.num_languages)
        self._options = options
        self._heard = HeardTerms(options.glossary_terms, options.glossary_heard)
        self._given = self._tokens(options.prompt_with_glossary())
        self._limit = model.dims.n_text_ctx // 2 - 1

    def _tokens(self, prompt: str | None) -> list[int]:
        return self._tokenizer.encode(" " + (prompt or "").strip())  # as whisper.transcribe encodes it

    def reordered(self, options: Any) -> Any:
        prompt = options.prompt
        if not isinstance(prompt, list) or prompt[:len(self._given)] != self._given:
            return options
        now = self._tokens(dataclasses.replace(self._options, glossary_terms=self._heard.ordered())
                           .prompt_with_glossary())
        room = self._limit - len(now)
        earlier = prompt[len(self._given):][-room:] if room > 0 else []
        return dataclasses.replace(options, prompt=now + earlier)

    def hear(self, result: Any) -> None:
        for one in result if isinstance(result, list) else [result]:
            self._heard.hear(one.text)
