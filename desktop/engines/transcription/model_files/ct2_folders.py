"""The CTranslate2 folder a Whisper model is loaded from: an imported folder completed with what
faster-whisper would otherwise fetch or guess (tokenizer, vocabulary, mel size), or an openai-whisper
checkpoint (``.pt``) converted once into a folder next to it (or in a given cache folder).

Everything works offline: the tokenizer files ship in ``resources/whisper``. The weights themselves are
read and written by ``ct2_format`` and mapped from a checkpoint's by ``weight_mapping``.
"""
from __future__ import annotations

import json
import logging
import os
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from desktop.core.common.audio import SAMPLE_RATE
from desktop.core.common.errors import ModelError
from desktop.core.common.fs_errors import write_error_message
from desktop.core.common.i18n import N_
from desktop.core.common.atomic import atomic_stream
from desktop.engines.transcription.model_files import ct2_format
from desktop.engines.transcription.model_files.checkpoint import read_checkpoint
from desktop.engines.transcription.model_files.weight_mapping import from_whisper_state_dict, whisper_dims

if TYPE_CHECKING:
    from desktop.core.transcription.whisper_models import LocalModel

log = logging.getLogger(__name__)

ENGLISH_VOCAB = 51864  # English-only Whisper models; multilingual ones have 51865 + extra languages
CONVERTER_VERSION = 1  # bump when the converted folder's content changes, to redo old conversions
_SOURCE_RECORD = "voxdesk-source.json"


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
    dims = whisper_dims(ct2_format.read_model_bin(folder / "model.bin", shapes_only=True))
    try:
        # Only build the tokenizer when a file needs it: for multilingual models that reads
        # openai-whisper's vocabulary, whose package imports torch (seconds on a CPU-only path).
        if needs_tokenizer or needs_vocabulary:
            tokenizer = tokenizer_json(dims["n_vocab"])
            if needs_tokenizer:
                _write_text(folder / "tokenizer.json", tokenizer)
            if needs_vocabulary:
                _write_text(
                    folder / "vocabulary.json", json.dumps(vocabulary(tokenizer, dims["n_vocab"]), ensure_ascii=False)
                )
        if needs_features and dims["n_mels"] != 80:  # 80 is faster-whisper's default
            _write_text(folder / "preprocessor_config.json", _preprocessor_config(dims))
    except OSError as exc:
        raise ModelError(
            N_("Engine", "The model folder is missing its tokenizer and VoxDesk could not add it; check that the "
                         "folder is writable, or import the model again."),
            detail=str(exc),
        ) from exc


def _write_text(path: Path, text: str) -> None:
    """A UTF-8 text file written atomically (an OSError when that fails, for the caller to word)."""
    with atomic_stream(path) as out:
        out.write(text.encode("utf-8"))


def _preprocessor_config(dims: dict[str, int]) -> str:
    return json.dumps({"feature_size": dims["n_mels"], "sampling_rate": SAMPLE_RATE, "hop_length": 160,
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
        _write_text(work / _SOURCE_RECORD, json.dumps(source) + "\n")
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

    The checkpoint is read with ``weights_only=True`` (``checkpoint.read_checkpoint``). ``name`` (e.g. "base", "large-v3") selects openai's word-alignment heads.
    """
    import torch

    dims, tensors = read_checkpoint(checkpoint)
    half = all(t.dtype == torch.float16 for t in tensors.values() if t.is_floating_point())
    state = {key: (t.float() if t.dtype == torch.bfloat16 else t).numpy() for key, t in tensors.items()}
    del tensors

    model = from_whisper_state_dict(dims, state, np.float16 if half else np.float32)
    del state
    ct2_format.write_model_bin(destination / "model.bin", model)
    del model
    tokenizer = tokenizer_json(dims["n_vocab"])
    _write_text(destination / "tokenizer.json", tokenizer)
    _write_text(
        destination / "vocabulary.json", json.dumps(vocabulary(tokenizer, dims["n_vocab"]), ensure_ascii=False)
    )
    _write_text(destination / "config.json", json.dumps(whisper_config(dims, name), indent=2) + "\n")
    _write_text(destination / "preprocessor_config.json", _preprocessor_config(dims))


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
