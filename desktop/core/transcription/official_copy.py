"""Is an imported model really a copy of an official one? Only then may it take the official name.

An openai-whisper checkpoint is compared by its SHA-256, which openai publishes in the download URL.
A CTranslate2 folder (converted and perhaps quantized by someone else) cannot be compared byte for
byte, so its shape is: width, decoder layers, mel bins and vocabulary identify each official model
(large-v1 and large-v2 share a shape, and serve each other's name).
"""
from __future__ import annotations

import hashlib
import os
import re
import struct
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Iterable

from desktop.core.common.errors import ModelError
from desktop.core.common.i18n import N_

if TYPE_CHECKING:
    from desktop.core.transcription.whisper_models import ModelInfo

# name -> (width, decoder layers, mel bins), from openai-whisper's published model dimensions.
_SHAPES = {
    "tiny": (384, 4, 80), "base": (512, 6, 80), "small": (768, 12, 80), "medium": (1024, 24, 80),
    "large-v1": (1280, 32, 80), "large-v2": (1280, 32, 80), "large-v3": (1280, 32, 128), "turbo": (1280, 4, 128),
}
_ENGLISH_VOCAB = 51864


def official_name_of(path: Path, official: Iterable["ModelInfo"]) -> str | None:
    """The one official model that ``path`` (a checked .pt file or CTranslate2 folder) is a copy of, by
    the same tests an import under that name passes; None when it is none of them, or could be two."""
    candidates = list(official)
    if path.is_file():
        digest = _sha256(path)
        names = [info.name for info in candidates if info.pt_sha256 == digest]
    else:
        names = [info.name for info in candidates if _has_shape_of(path, info)]
    return names[0] if len(names) == 1 else None


def check_official_pt(path: Path, info: "ModelInfo") -> None:
    """Refuse a checkpoint whose SHA-256 is not the one openai publishes for ``info``."""
    digest = _sha256(path)
    if digest != info.pt_sha256:
        raise _not_official(path.name, info.name, f"SHA-256 {digest}, expected {info.pt_sha256}")


def _sha256(path: Path) -> str:
    hasher = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1024 * 1024), b""):
                hasher.update(block)
    except OSError as exc:
        raise ModelError(N_("Models", 'VoxDesk could not read "{shown}"; check that the file is still '
                                      'there.').format(shown=path.name), detail=repr(exc)) from exc
    return hasher.hexdigest()


def _has_shape_of(folder: Path, info: "ModelInfo") -> bool:
    try:
        check_official_ct2(folder, info)
    except ModelError:
        return False
    return True


def check_official_ct2(folder: Path, info: "ModelInfo") -> None:
    """Refuse a CTranslate2 folder whose model does not have the shape of ``info``."""
    shown = Path(os.path.abspath(folder)).name
    found = ct2_shape(folder / "model.bin")
    base = info.name.removesuffix(".en")
    expected = _SHAPES.get(base)
    if found is None or expected is None:
        raise _not_official(shown, info.name, f"shape {found}, expected {expected}")
    width, layers, mels, vocab = found
    if (width, layers, mels) != expected or (vocab == _ENGLISH_VOCAB) != info.english_only:
        raise _not_official(shown, info.name, f"shape {found}, expected {expected}, english_only={info.english_only}")


def ct2_shape(model_bin: Path) -> tuple[int, int, int, int] | None:
    """(width, decoder layers, mel bins, vocabulary size) from a CTranslate2 model.bin, read without
    its weights; None when the file is not a Whisper model in CTranslate2's format (binary version 4-6)."""
    try:
        with open(model_bin, "rb") as stream:
            return _walk(stream)
    except (OSError, struct.error, UnicodeDecodeError, ValueError):
        return None


def _walk(stream: BinaryIO) -> tuple[int, int, int, int] | None:
    version = _uint(stream, "<I")
    if not 4 <= version <= 6 or _string(stream) != "WhisperSpec":
        return None
    _uint(stream, "<I")  # spec revision
    shapes: dict[str, tuple[int, ...]] = {}
    layers: set[int] = set()
    for _ in range(_uint(stream, "<I")):
        name = _string(stream)
        rank = _uint(stream, "<B")
        shape = tuple(_uint(stream, "<I") for _ in range(rank))
        _uint(stream, "<B")  # data type
        stream.seek(_uint(stream, "<I"), os.SEEK_CUR)
        shapes[name] = shape
        match = re.match(r"decoder/layer_(\d+)/", name)
        if match:
            layers.add(int(match.group(1)))
    embeddings, conv1 = shapes.get("decoder/embeddings/weight"), shapes.get("encoder/conv1/weight")
    if not embeddings or not conv1 or len(embeddings) != 2 or len(conv1) != 3:
        return None
    return embeddings[1], len(layers), conv1[1], embeddings[0]


def _uint(stream: BinaryIO, fmt: str) -> int:
    size = struct.calcsize(fmt)
    data = stream.read(size)
    if len(data) != size:
        raise ValueError("model.bin ends early")
    return struct.unpack(fmt, data)[0]


def _string(stream: BinaryIO) -> str:
    length = _uint(stream, "<H")
    raw = stream.read(length)
    if len(raw) != length or not raw.endswith(b"\0"):
        raise ValueError("bad string in model.bin")
    return raw[:-1].decode("utf-8")


def _not_official(shown: str, name: str, detail: str) -> ModelError:
    return ModelError(
        N_("Models", '"{shown}" is not a copy of the official "{name}" model, so it cannot take that name; import it '
                     "under another name.").format(shown=shown, name=name),
        detail=detail,
    )
