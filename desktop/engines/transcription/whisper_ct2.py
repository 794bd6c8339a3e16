"""Whisper through faster-whisper / CTranslate2: the fast engine on the CPU (int8).

CTranslate2 from the package index has no ROCm support, so this engine only runs on a GPU when
CTranslate2 itself reports one; torch seeing a GPU means nothing here.

It loads CTranslate2 folders directly and openai-whisper checkpoints (``.pt``) by converting them once
into a CTranslate2 folder next to the checkpoint (or in a given cache folder). Everything works
offline: the tokenizer faster-whisper needs ships in ``resources/whisper``.
"""
from __future__ import annotations

import functools
import json
import logging
import os
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from desktop.core.common.errors import ModelError
from desktop.core.common.fs_errors import write_error_message
from desktop.core.common.i18n import N_
from desktop.core.glossary.prompting import hotwords as glossary_hotwords
from desktop.core.transcription.transcript import Segment, Word
from desktop.engines.transcription import batching, bf16_encoder, ct2_format
from desktop.engines.transcription import vad
from desktop.engines.transcription.base import (
    CancelCheck,
    EngineResult,
    ProgressCallback,
    ProgressReporter,
    SegmentCallback,
    TranscribeOptions,
    check_task,
    device_failure,
    device_failures_as_user_errors,
    read_checkpoint,
    speech_to_decode,
)

if TYPE_CHECKING:
    from desktop.core.transcription.whisper_models import LocalModel

log = logging.getLogger(__name__)

ENGLISH_VOCAB = 51864  # English-only Whisper models; multilingual ones have 51865 + extra languages
CONVERTER_VERSION = 1  # bump when the converted folder's content changes, to redo old conversions
_SOURCE_RECORD = "voxdesk-source.json"
AUTOMATIC = "automatic"  # load_ct2_engine's bf16_from_windows: as this computer's measurement says


class Ct2WhisperEngine:
    """A loaded faster-whisper model; see ``desktop.engines.transcription.base.WhisperEngine``."""

    name = "ct2"

    def __init__(self, model: Any, *, device: str, model_name: str, compute_type: str,
                 load_bf16_encoder: Callable[[], bf16_encoder.Bf16Encoder] | None = None,
                 bf16_from_windows: Callable[[], int | None] = lambda: None):
        """load_bf16_encoder: torch's encoder for this model, where it may replace CTranslate2's;
        bf16_from_windows: asked before each recording, from how many windows that is worth it (None: not)."""
        self._model = model
        self.device = device
        self.model_name = model_name
        self.compute_type = compute_type
        self.encoder_precision = compute_type  # "bfloat16" once torch's encoder took over (bf16_encoder)
        self.batch_size: int | None = None  # windows at once in the last transcription
        self._load_bf16_encoder = load_bf16_encoder
        self._bf16_from_windows = bf16_from_windows

    @property
    def multilingual(self) -> bool:
        return bool(self._loaded().model.is_multilingual)

    def _loaded(self) -> Any:
        if self._model is None:
            raise RuntimeError("the engine was closed")
        return self._model

    def transcribe(
        self,
        audio: np.ndarray,
        options: TranscribeOptions,
        *,
        on_progress: ProgressCallback | None = None,
        on_segment: SegmentCallback | None = None,
        cancelled: CancelCheck | None = None,
    ) -> EngineResult:
        model = self._loaded()
        # faster-whisper lists all 100 codes; models before large-v3 lack the 100th, Cantonese.
        known = [c for c in model.supported_languages if c != "yue" or model.model.num_languages >= 100]
        language = check_task(options, model.model.is_multilingual, known)
        progress = ProgressReporter(on_progress, cancelled)
        found = speech_to_decode(audio, options, progress)
        if found is None:
            return EngineResult(segments=[], language=language)
        speech, time_map = found

        windows = batching.pack_windows(speech, batching.stretch_lengths(time_map.chunks, speech.size))
        self._switch_to_bf16_encoder_if_worth_it(model, len(windows))
        batch_size = options.batch_size or batching.CPU_BATCH_SIZE
        # One window gains nothing from batching, and the sequential decoder may look at it twice.
        self.batch_size = min(batch_size, len(windows)) if batch_size > 1 and len(windows) > 1 else 1
        duration = speech.size / vad.SAMPLE_RATE
        segments: list[Segment] = []
        avg_logprobs: list[float] = []
        with device_failures_as_user_errors(self.device):
            if self.batch_size > 1:
                pieces, info = self._batched(model, speech, windows, options, language)
            else:
                pieces, info = self._sequential(model, speech, options, language)
            # The generator decodes as it is consumed: one window, or one batch of windows, at a time.
            for piece in pieces:
                progress.check()
                if piece.text.strip():
                    words = [
                        Word(start=w.start, end=w.end, text=w.word, probability=w.probability)
                        for w in piece.words or []
                    ]
                    segment = time_map.restore(Segment(start=piece.start, end=piece.end, text=piece.text, words=words))
                    segments.append(segment)
                    avg_logprobs.append(float(piece.avg_logprob))
                    if on_segment is not None:
                        on_segment(segment)
                progress.report(piece.end / duration)
        progress.report(1.0)
        return EngineResult(segments=segments, language=info.language, avg_logprobs=avg_logprobs,
                            speech=time_map.speech_stretches(audio.size / vad.SAMPLE_RATE), batch_size=self.batch_size,
                            bf16_encoder=self.encoder_precision == "bfloat16")

    def _switch_to_bf16_encoder_if_worth_it(self, model: Any, windows: int) -> None:
        if self._load_bf16_encoder is None or windows < bf16_encoder.FEWEST_WINDOWS:
            return
        from_windows = self._bf16_from_windows()  # a measurement made since the last file counts
        if from_windows is None or windows < from_windows:
            return
        load, self._load_bf16_encoder = self._load_bf16_encoder, None
        try:
            encoder = load()
        except Exception as exc:  # noqa: BLE001 - a speed-up only: CTranslate2's own encoder carries on
            log.warning("CTranslate2's own encoder stays in use: %s: %s", type(exc).__name__, exc)
            return
        model.encode = encoder.encode  # both of faster-whisper's pipelines encode through this method
        self.encoder_precision = "bfloat16"

    @staticmethod
    def _decoding(options: TranscribeOptions, language: str | None) -> dict[str, Any]:
        """What both ways of decoding are told alike."""
        return dict(
            language=language,
            task=options.task,
            beam_size=max(1, options.beam_size),
            initial_prompt=options.initial_prompt or None,
            hotwords=glossary_hotwords(options.glossary_terms),  # faster-whisper puts them before every window
            word_timestamps=options.word_timestamps,
            vad_filter=False,  # vad.prepare already did it, the same way for both engines
        )

    def _sequential(self, model: Any, speech: np.ndarray, options: TranscribeOptions, language: str | None) -> Any:
        extra = {} if options.temperature is None else {"temperature": options.temperature}
        return model.transcribe(speech, **self._decoding(options, language),
                                condition_on_previous_text=options.condition_on_previous_text, **extra)

    def _batched(self, model: Any, speech: np.ndarray, windows: list[batching.Window], options: TranscribeOptions,
                 language: str | None) -> Any:
        """faster-whisper's batched pipeline over VoxDesk's own windows of speech (no second VAD)."""
        from faster_whisper import BatchedInferencePipeline

        clips = [{"start": w.start / vad.SAMPLE_RATE, "end": w.end / vad.SAMPLE_RATE} for w in windows]
        return BatchedInferencePipeline(_AsBatchesNeedIt(model)).transcribe(
            speech,
            **self._decoding(options, language),
            without_timestamps=False,  # segments cut where Whisper says, as in sequential decoding
            temperature=options.temperature or 0.0,  # the pipeline has no temperature fallback
            clip_timestamps=clips,
            batch_size=self.batch_size,
        )

    def close(self) -> None:
        if self._model is not None:
            self._model.model.unload_model()
            self._model = None


class _AsBatchesNeedIt:
    """The faster-whisper model as its batched pipeline sees it, with two changes that keep every word
    of a window; sequential decoding needs neither, as the next window starts where one stopped.

    - A window shorter than 30 s is followed by the spectrogram of silence, as in Whisper's training.
      faster-whisper 1.2 pads the spectrogram with zeros instead, a steady sound Whisper never heard
      after speech, and Whisper often ends such a window before its last words.
    - A window's tokens are cut into segments by ``batching.split_segments``, as in the torch engine:
      faster-whisper drops the text Whisper leaves unfinished at the end of a window.
    """

    def __init__(self, model: Any):
        self._model = model
        self.feature_extractor = _FollowedBySilence(model.feature_extractor)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._model, name)

    def _split_segments_by_timestamps(self, tokenizer: Any, tokens: list[int], time_offset: float,
                                      segment_size: int, segment_duration: float,
                                      seek: int) -> tuple[list[dict], int, bool]:
        pieces = batching.split_segments(tokens, tokenizer, segment_duration)
        segments = [dict(seek=seek, start=time_offset + piece["start"], end=time_offset + piece["end"],
                         tokens=piece["tokens"]) for piece in pieces]
        return segments, seek + segment_size, True


class _FollowedBySilence:
    """faster-whisper's feature extractor, computing a window's spectrogram with silence after it up to
    30 s (the pipeline then finds nothing left to pad)."""

    def __init__(self, extractor: Any):
        self._extractor = extractor

    def __getattr__(self, name: str) -> Any:
        return getattr(self._extractor, name)

    def __call__(self, waveform: np.ndarray, *args: Any, **kwargs: Any) -> np.ndarray:
        missing = self._extractor.n_samples - waveform.size
        if missing > 0:
            waveform = np.concatenate([waveform, np.zeros(missing, dtype=waveform.dtype)])
        return self._extractor(waveform, *args, **kwargs)


def load_ct2_engine(
    model: "LocalModel", device: str, compute_type: str | None = None, *, cache_dir: Path | None = None,
    bf16_from_windows: int | None | str = AUTOMATIC,
) -> Ct2WhisperEngine:
    """Load ``model`` ("ct2" folder or "pt" checkpoint) with faster-whisper on "cpu" or "cuda".

    ``compute_type`` defaults to int8 on the CPU and float16 on the GPU. A "pt" checkpoint is converted
    once into ``cache_dir`` (default: the checkpoint's folder) and the conversion is reused afterwards.
    On the CPU, recordings of ``bf16_from_windows`` windows or more are encoded with torch's encoder in
    bfloat16 (``bf16_encoder``); None never, and AUTOMATIC where this computer's processor and its
    measurement say it is faster (``bf16_encoder.automatic_from_windows``).
    """
    import ctranslate2

    if device not in ("cpu", "cuda"):
        raise ValueError(f"unknown device {device!r}")
    if device == "cuda" and ctranslate2.get_cuda_device_count() == 0:
        raise ModelError(
            N_("Engine", "The fast engine cannot use the graphics card on this computer; choose the processor (CPU) "
                         "for it, or the standard engine for the graphics card."),
            detail="ctranslate2.get_cuda_device_count() is 0 (this CTranslate2 build has no GPU support)",
        )
    folder = ct2_folder(model, cache_dir)
    compute_type = _pick_compute_type(ctranslate2, device, compute_type)

    from faster_whisper import WhisperModel

    try:
        whisper_model = WhisperModel(
            str(folder),
            device=device,
            compute_type=compute_type,
            cpu_threads=os.cpu_count() or 0,
            local_files_only=True,
        )
    except (RuntimeError, ValueError, OSError) as exc:
        failure = device_failure(exc, device)
        if failure is not None:
            raise failure from exc
        raise ModelError(
            N_("Engine", "The model could not be loaded; it may be damaged. Remove it and download or import it "
                         "again."),
            detail=f"{type(exc).__name__}: {exc}",
        ) from exc
    if device != "cpu" or bf16_from_windows is None:
        return Ct2WhisperEngine(whisper_model, device=device, model_name=model.name, compute_type=compute_type)
    if bf16_from_windows == AUTOMATIC:
        from_windows = functools.partial(bf16_encoder.automatic_from_windows, model.name)
    else:
        from_windows = functools.partial(int, bf16_from_windows)
    return Ct2WhisperEngine(whisper_model, device=device, model_name=model.name, compute_type=compute_type,
                            load_bf16_encoder=functools.partial(bf16_encoder.load_encoder, folder),
                            bf16_from_windows=from_windows)


def _pick_compute_type(ctranslate2: Any, device: str, requested: str | None) -> str:
    supported = set(ctranslate2.get_supported_compute_types(device))
    if requested:
        if requested not in supported and requested not in ("default", "auto"):
            raise ModelError(
                N_("Engine", "This computer cannot run the fast engine with “{requested}” precision; choose "
                             "automatic precision in Settings.").format(requested=requested),
                detail=f"supported on {device}: {sorted(supported)}",
            )
        return requested
    preferred = ["int8", "int8_float32", "float32"] if device == "cpu" else ["float16", "int8_float16", "float32"]
    return next((t for t in preferred if t in supported), "default")


# --- model folders ------------------------------------------------------------------------------


def ct2_folder(model: "LocalModel", cache_dir: Path | None = None) -> Path:
    """A CTranslate2 folder faster-whisper can load offline for ``model``."""
    path = Path(model.path)
    if model.format == "ct2":
        if not (path / "model.bin").is_file():
            raise ModelError(
                N_("Engine", "The model files are missing; download or import the model again."),
                detail=f"no model.bin in {path}",
            )
        _complete_folder(path)
        return path
    if model.format == "pt":
        if not path.is_file():
            raise ModelError(
                N_("Engine", "The model file is missing; download or import the model again."),
                detail=f"{path} not found",
            )
        return _converted_folder(path, model.name, cache_dir or path.parent)
    raise ValueError(f"unknown model format {model.format!r}")


def _complete_folder(folder: Path) -> None:
    """Add what faster-whisper would otherwise fetch or guess: tokenizer, vocabulary and mel size."""
    needs_tokenizer = not (folder / "tokenizer.json").is_file()
    needs_vocabulary = not any(folder.glob("vocabulary.*"))
    needs_features = not (folder / "preprocessor_config.json").is_file()
    if not (needs_tokenizer or needs_vocabulary or needs_features):
        return
    dims = ct2_format.whisper_dims(ct2_format.read_model_bin(folder / "model.bin", shapes_only=True))
    try:
        # Only build the tokenizer when a file needs it: for multilingual models that reads
        # openai-whisper's vocabulary, whose package imports torch (seconds on a CPU-only path).
        if needs_tokenizer or needs_vocabulary:
            tokenizer = tokenizer_json(dims["n_vocab"])
            if needs_tokenizer:
                ct2_format.write_text_atomic(folder / "tokenizer.json", tokenizer)
            if needs_vocabulary:
                ct2_format.write_text_atomic(
                    folder / "vocabulary.json", json.dumps(vocabulary(tokenizer, dims["n_vocab"]), ensure_ascii=False)
                )
        if needs_features and dims["n_mels"] != 80:  # 80 is faster-whisper's default
            ct2_format.write_text_atomic(folder / "preprocessor_config.json", _preprocessor_config(dims))
    except OSError as exc:
        raise ModelError(
            N_("Engine", "The model folder is missing its tokenizer and VoxDesk could not add it; check that the "
                         "folder is writable, or import the model again."),
            detail=str(exc),
        ) from exc


def _preprocessor_config(dims: dict[str, int]) -> str:
    return json.dumps({"feature_size": dims["n_mels"], "sampling_rate": 16000, "hop_length": 160,
                       "chunk_length": 30, "n_fft": 400}, indent=2) + "\n"


def _converted_folder(checkpoint: Path, name: str, cache_dir: Path) -> Path:
    """The CTranslate2 conversion of ``checkpoint`` in ``cache_dir``, made now if missing or stale."""
    target = cache_dir / f"{checkpoint.stem}.ct2"
    stat = checkpoint.stat()
    source = {"file": checkpoint.name, "size": stat.st_size, "mtime_ns": stat.st_mtime_ns,
              "converter": CONVERTER_VERSION}
    record = target / _SOURCE_RECORD
    try:
        if record.is_file() and json.loads(record.read_text(encoding="utf-8")) == source:
            return target
    except (OSError, ValueError):
        pass  # an unreadable record means: convert again

    log.info("converting %s to CTranslate2 in %s", checkpoint, target)
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=cache_dir))
    except OSError as exc:
        raise _cannot_save(cache_dir, exc) from exc
    try:
        convert_checkpoint(checkpoint, work, name)
        ct2_format.write_text_atomic(work / _SOURCE_RECORD, json.dumps(source) + "\n")
        if target.exists():
            shutil.rmtree(target)
        os.replace(work, target)
    except OSError as exc:
        raise _cannot_save(cache_dir, exc) from exc
    finally:
        if work.exists():
            shutil.rmtree(work, ignore_errors=True)
    return target


def _cannot_save(folder: Path, exc: OSError) -> ModelError:
    return ModelError(
        write_error_message(exc, N_("Engine", "the converted model"), folder),
        detail=f"{folder}: {exc}",
    )


def convert_checkpoint(checkpoint: Path, destination: Path, name: str | None = None) -> None:
    """Write a CTranslate2 Whisper folder for an openai-whisper checkpoint into ``destination``.

    The checkpoint is read with ``weights_only=True`` (``base.read_checkpoint``). ``name`` (e.g. "base", "large-v3") selects openai's word-alignment heads.
    """
    import torch

    dims, tensors = read_checkpoint(checkpoint)
    half = all(t.dtype == torch.float16 for t in tensors.values() if t.is_floating_point())
    state = {key: (t.float() if t.dtype == torch.bfloat16 else t).numpy() for key, t in tensors.items()}
    del tensors

    model = ct2_format.from_whisper_state_dict(dims, state, np.float16 if half else np.float32)
    del state
    ct2_format.write_model_bin(destination / "model.bin", model)
    del model
    tokenizer = tokenizer_json(dims["n_vocab"])
    ct2_format.write_text_atomic(destination / "tokenizer.json", tokenizer)
    ct2_format.write_text_atomic(
        destination / "vocabulary.json", json.dumps(vocabulary(tokenizer, dims["n_vocab"]), ensure_ascii=False)
    )
    ct2_format.write_text_atomic(destination / "config.json", json.dumps(whisper_config(dims, name), indent=2) + "\n")
    ct2_format.write_text_atomic(destination / "preprocessor_config.json", _preprocessor_config(dims))


# --- tokenizer, vocabulary and config of a converted model ---------------------------------------


def tokenizer_json(n_vocab: int) -> str:
    """The Hugging Face tokenizer.json for a Whisper model with ``n_vocab`` tokens.

    English-only and 99-language models use the shipped files as they are. Models with more languages
    (large-v3: 100) get the extra language tokens inserted after the last one, moving the special tokens
    after them; every special token is then checked against openai-whisper's tokenizer.
    """
    from desktop.resources import resource_path

    multilingual = n_vocab > ENGLISH_VOCAB
    filename = "tokenizer.multilingual.json" if multilingual else "tokenizer.en.json"
    shipped = resource_path("whisper", filename).read_text(encoding="utf-8")
    if not multilingual:
        return shipped
    data = json.loads(shipped)

    from whisper.tokenizer import LANGUAGES, get_encoding

    num_languages = n_vocab - 51765 - 1  # openai-whisper's rule (whisper.model.Whisper.num_languages)
    added = sorted(data["added_tokens"], key=lambda t: t["id"])
    names = [t["content"] for t in added]
    last_language = names.index("<|translate|>") - 1
    shipped_languages = last_language - names.index("<|startoftranscript|>")
    extra = list(LANGUAGES)[shipped_languages:num_languages]
    if num_languages < shipped_languages:
        raise ModelError(
            N_("Engine", "This Whisper model has an unusual vocabulary that VoxDesk cannot convert."),
            detail=f"n_vocab {n_vocab}",
        )
    if extra:
        template = added[last_language]
        inserted = [dict(template, content=f"<|{code}|>", id=template["id"] + 1 + i) for i, code in enumerate(extra)]
        for token in added[last_language + 1:]:
            token["id"] += len(extra)
        added = added[: last_language + 1] + inserted + added[last_language + 1:]
        data["added_tokens"] = added
        ids = {t["content"]: t["id"] for t in added}
        for special in data["post_processor"]["special_tokens"].values():
            special["ids"] = [ids[token] for token in special["tokens"]]

    # Hugging Face names two tokens differently from openai-whisper.
    hf_names = {"<|nospeech|>": "<|nocaptions|>", "<|he|>": "<|iw|>"}
    ids = {t["content"]: t["id"] for t in data["added_tokens"]}
    encoding = get_encoding("multilingual", num_languages=num_languages)
    for token, expected in encoding._special_tokens.items():
        if token.startswith("<|") and token[2:3].isdigit():
            continue  # timestamps are not part of the tokenizer file
        actual = ids.get(token, ids.get(hf_names.get(token, "")))
        if actual != expected:
            raise ModelError(
                N_("Engine", "This Whisper model has an unusual vocabulary that VoxDesk cannot convert."),
                detail=f"{token}: tokenizer id {actual}, openai-whisper id {expected}",
            )
    return json.dumps(data, ensure_ascii=False) if extra else shipped


def vocabulary(tokenizer: str, n_vocab: int) -> list[str]:
    """CTranslate2's vocabulary: every token by id, then the timestamp tokens up to ``n_vocab``."""
    data = json.loads(tokenizer)
    by_id: dict[int, str] = {index: token for token, index in data["model"]["vocab"].items()}
    by_id.update({t["id"]: t["content"] for t in data["added_tokens"]})
    tokens = [by_id[i] for i in range(len(by_id))]
    tokens.extend("<|%.2f|>" % (i * 0.02) for i in range(n_vocab - len(tokens)))
    return tokens


def whisper_config(dims: dict[str, int], name: str | None) -> dict:
    """config.json of a CTranslate2 Whisper model, as CTranslate2's own converter writes it."""
    from whisper.tokenizer import get_tokenizer

    multilingual = dims["n_vocab"] > ENGLISH_VOCAB
    tokenizer = get_tokenizer(multilingual, num_languages=dims["n_vocab"] - 51765 - int(multilingual))
    suppress = set(tokenizer.non_speech_tokens) | {
        tokenizer.sot, tokenizer.translate, tokenizer.transcribe, tokenizer.sot_lm, tokenizer.sot_prev,
        tokenizer.no_speech,
    }
    return {
        "alignment_heads": alignment_heads(dims, name),
        "lang_ids": sorted(tokenizer.all_language_tokens),
        "suppress_ids": sorted(suppress),
        "suppress_ids_begin": [tokenizer.encode(" ")[0], tokenizer.eot],
    }


def alignment_heads(dims: dict[str, int], name: str | None) -> list[list[int]]:
    """openai's word-alignment heads for a known model name, else the last half of the decoder layers."""
    import base64
    import gzip

    import whisper

    layers, heads = dims["n_text_layer"], dims["n_text_head"]
    dump = whisper._ALIGNMENT_HEADS.get(name or "")
    if dump is not None:
        mask = np.frombuffer(gzip.decompress(base64.b85decode(dump)), dtype=bool)
        if mask.size == layers * heads:
            return [[int(layer), int(head)] for layer, head in np.argwhere(mask.reshape(layers, heads))]
    return [[layer, head] for layer in range(layers // 2, layers) for head in range(heads)]
