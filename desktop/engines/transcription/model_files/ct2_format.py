"""CTranslate2 Whisper models without CTranslate2: read and write model.bin and read config.json.
``weight_mapping`` maps the variables onto an openai-whisper checkpoint's state dict and back.

The binary layout is the one CTranslate2's ``ModelSpec._serialize`` writes (binary version 6)::

    uint32 version, string spec name, uint32 spec revision, uint32 n_variables,
    n_variables x (string name, uint8 rank, uint32 dims[rank], uint8 dtype id, uint32 nbytes, bytes),
    uint32 n_aliases, n_aliases x (string alias, string target)

with little-endian integers and strings stored as uint16 length (including a final NUL), the UTF-8
bytes and the NUL.

Only numpy is needed here, so a model is read before torch or ctranslate2 is imported.
"""
from __future__ import annotations

import json
import os
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

import numpy as np

from desktop.core.common.atomic import atomic_stream
from desktop.core.common.errors import ModelError
from desktop.engines.transcription.engine import DAMAGED_MODEL
from desktop.core.common.i18n import N_

WHISPER_SPEC = "WhisperSpec"
WHISPER_SPEC_REVISION = 3
BINARY_VERSION = 6

# The order is CTranslate2's DataType enum (include/ctranslate2/types.h); bfloat16 has no numpy type
# and is carried as its raw 16 bits.
_DTYPES: tuple[tuple[str, np.dtype], ...] = (
    ("float32", np.dtype("<f4")),
    ("int8", np.dtype("i1")),
    ("int16", np.dtype("<i2")),
    ("int32", np.dtype("<i4")),
    ("float16", np.dtype("<f2")),
    ("bfloat16", np.dtype("<u2")),
)
_BFLOAT16 = 5


@dataclass
class Ct2Model:
    """The content of a model.bin: named arrays plus aliases (one name standing for another's data)."""

    spec: str = WHISPER_SPEC
    revision: int = WHISPER_SPEC_REVISION
    variables: dict[str, np.ndarray] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)
    bfloat16: set[str] = field(default_factory=set)  # names whose uint16 arrays hold bfloat16 bits

    def get(self, name: str) -> np.ndarray | None:
        """A variable by name, following an alias, or None."""
        name = self.aliases.get(name, name)
        return self.variables.get(name)

    def weight(self, name: str) -> np.ndarray:
        """A weight as floats: float16/float32 as stored (no copy), integers dequantized with their
        ``<name>_scale``, bfloat16 widened; those two come back as float32."""
        value = self.get(name)
        if value is None:
            raise ModelError(DAMAGED_MODEL, detail=f"model.bin has no variable {name}")
        resolved = self.aliases.get(name, name)
        if resolved in self.bfloat16:
            return (value.astype(np.uint32) << 16).view(np.float32)
        if value.dtype.kind == "i":
            scale = self.get(resolved + "_scale")
            if scale is None:
                raise ModelError(DAMAGED_MODEL, detail=f"{name} is quantized but has no scale")
            scale = scale.astype(np.float32)
            if scale.ndim == 1:  # int8: one scale per output row (conv weights are rows too)
                scale = scale.reshape((-1,) + (1,) * (value.ndim - 1))
            return value.astype(np.float32) / scale
        return value

    def float32(self, name: str) -> np.ndarray:
        """A weight as float32 (a copy)."""
        return self.weight(name).astype(np.float32)

    def scalar(self, name: str) -> int:
        value = self.get(name)
        if value is None or value.size != 1:
            raise ModelError(DAMAGED_MODEL, detail=f"model.bin has no scalar {name}")
        return int(value.reshape(()))


# --- model.bin --------------------------------------------------------------------------------


def _read_exact(stream: BinaryIO, size: int) -> bytes:
    data = stream.read(size)
    if len(data) != size:
        raise ModelError(DAMAGED_MODEL, detail="model.bin ends early")
    return data


def _read_uint(stream: BinaryIO, fmt: str) -> int:
    return struct.unpack("<" + fmt, _read_exact(stream, struct.calcsize(fmt)))[0]


def _read_string(stream: BinaryIO) -> str:
    length = _read_uint(stream, "H")
    raw = _read_exact(stream, length)
    if not raw or raw[-1] != 0:
        raise ModelError(DAMAGED_MODEL, detail="model.bin has a malformed string")
    return raw[:-1].decode("utf-8")


def read_model_bin(path: str | os.PathLike, *, shapes_only: bool = False, weights_under: str | None = None) -> Ct2Model:
    """Read a CTranslate2 model.bin into numpy arrays (stored dtypes kept).

    With ``shapes_only`` the weights are skipped, not read: every variable comes back as a zero-strided
    view of the right shape and dtype whose values are meaningless, except scalars, which are read.
    That is enough to learn the dimensions of a large model in a millisecond. With ``weights_under``
    (a prefix such as "encoder/") only the weights whose names start with it are read.
    """
    try:
        stream = open(path, "rb")
    except FileNotFoundError as exc:
        raise ModelError(
            N_("Engine", "The model files are missing; download or import the model again."), detail=str(exc)
        ) from exc
    except OSError as exc:
        raise ModelError(N_("Engine", "The model file could not be opened."), detail=str(exc)) from exc
    with stream:
        version = _read_uint(stream, "I")
        if not 1 <= version <= BINARY_VERSION:
            raise ModelError(DAMAGED_MODEL, detail=f"model.bin binary version {version} is not supported")
        model = Ct2Model(spec="", revision=1)
        if version >= 2:
            model.spec = _read_string(stream)
            model.revision = _read_uint(stream, "I")
        count = _read_uint(stream, "I")
        for _ in range(count):
            name, value, type_id = _read_variable(stream, version, shapes_only, weights_under)
            model.variables[name] = value
            if type_id == _BFLOAT16:
                model.bfloat16.add(name)
        if version >= 3:
            for _ in range(_read_uint(stream, "I")):
                alias = _read_string(stream)
                model.aliases[alias] = _read_string(stream)
    return model


def _read_variable(stream: BinaryIO, version: int, shapes_only: bool,
                   weights_under: str | None) -> tuple[str, np.ndarray, int]:
    """One variable of a model.bin: its name, its array and its CTranslate2 data type id."""
    name = _read_string(stream)
    if weights_under is not None and not name.startswith(weights_under):
        shapes_only = True
    rank = _read_uint(stream, "B")
    shape = tuple(_read_uint(stream, "I") for _ in range(rank))
    if version >= 4:
        type_id = _read_uint(stream, "B")
        nbytes = _read_uint(stream, "I")
    else:  # older files: item size then element count
        item_size = _read_uint(stream, "B")
        nbytes = _read_uint(stream, "I") * item_size
        type_id = {4: 0, 1: 1, 2: 2}.get(item_size, -1)
    if not 0 <= type_id < len(_DTYPES):
        raise ModelError(DAMAGED_MODEL, detail=f"{name} has unknown data type {type_id}")
    dtype = _DTYPES[type_id][1]
    if nbytes != int(np.prod(shape, dtype=np.int64)) * dtype.itemsize:
        raise ModelError(DAMAGED_MODEL, detail=f"{name}: {nbytes} bytes do not fit shape {shape}")
    if shapes_only and rank > 0:
        stream.seek(nbytes, os.SEEK_CUR)
        value = np.lib.stride_tricks.as_strided(np.zeros(1, dtype), shape, (0,) * rank, writeable=False)
    else:
        # A writable buffer, so torch.from_numpy can share it without copying or warning.
        buffer = bytearray(nbytes)
        if stream.readinto(buffer) != nbytes:
            raise ModelError(DAMAGED_MODEL, detail="model.bin ends early")
        value = np.frombuffer(buffer, dtype=dtype).reshape(shape)
    return name, value, type_id


def _dtype_id(name: str, value: np.ndarray, bfloat16: set[str]) -> int:
    if name in bfloat16:
        return _BFLOAT16
    for index, (_, dtype) in enumerate(_DTYPES[:_BFLOAT16]):
        if (value.dtype.kind, value.dtype.itemsize) == (dtype.kind, dtype.itemsize):
            return index
    raise ValueError(f"{name}: dtype {value.dtype} cannot be stored in model.bin")


def write_model_bin(path: str | os.PathLike, model: Ct2Model) -> None:
    """Write a model.bin atomically (temporary file in the same folder, fsync, rename)."""

    def string(text: str) -> bytes:
        raw = text.encode("utf-8") + b"\0"
        return struct.pack("<H", len(raw)) + raw

    path = Path(path)
    with atomic_stream(path) as out:
        out.write(struct.pack("<I", BINARY_VERSION))
        out.write(string(model.spec))
        out.write(struct.pack("<I", model.revision))
        out.write(struct.pack("<I", len(model.variables)))
        for name in sorted(model.variables):
            value = np.asarray(model.variables[name])  # tobytes() below is C order; keeps rank 0
            out.write(string(name))
            out.write(struct.pack("<B", value.ndim))
            out.write(struct.pack(f"<{value.ndim}I", *value.shape))
            type_id = _dtype_id(name, value, model.bfloat16)
            out.write(struct.pack("<B", type_id))
            out.write(struct.pack("<I", value.nbytes))
            out.write(value.astype(_DTYPES[type_id][1], copy=False).tobytes())
        out.write(struct.pack("<I", len(model.aliases)))
        for alias in sorted(model.aliases):
            out.write(string(alias))
            out.write(string(model.aliases[alias]))


def read_config(folder: str | os.PathLike) -> dict:
    """config.json of a CTranslate2 model folder, or {} when it has none."""
    path = Path(folder) / "config.json"
    if not path.is_file():
        return {}
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ModelError(DAMAGED_MODEL, detail=f"{path}: {exc}") from exc
