"""CTranslate2 Whisper models without CTranslate2: read and write model.bin, and map its variables to and
from the state dict of an openai-whisper checkpoint.

The binary layout is the one CTranslate2's ``ModelSpec._serialize`` writes (binary version 6)::

    uint32 version, string spec name, uint32 spec revision, uint32 n_variables,
    n_variables x (string name, uint8 rank, uint32 dims[rank], uint8 dtype id, uint32 nbytes, bytes),
    uint32 n_aliases, n_aliases x (string alias, string target)

with little-endian integers and strings stored as uint16 length (including a final NUL), the UTF-8
bytes and the NUL.

Only numpy is needed here, so the conversion runs before torch or ctranslate2 is imported.
"""
from __future__ import annotations

import json
import os
import re
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


def write_text_atomic(path: str | os.PathLike, text: str) -> None:
    """Write a UTF-8 text file atomically (an OSError when that fails, for the caller to word)."""
    with atomic_stream(Path(path)) as out:
        out.write(text.encode("utf-8"))


# --- CTranslate2 variables <-> openai-whisper state dict ---------------------------------------


def _layer_count(model: Ct2Model, prefix: str) -> int:
    pattern = re.compile(re.escape(prefix) + r"/layer_(\d+)/")
    indices = {int(m.group(1)) for name in list(model.variables) + list(model.aliases) if (m := pattern.match(name))}
    if indices != set(range(len(indices))):
        raise ModelError(DAMAGED_MODEL, detail=f"{prefix} layers are not numbered 0..n-1: {sorted(indices)}")
    return len(indices)


def whisper_dims(model: Ct2Model) -> dict[str, int]:
    """openai-whisper's ModelDimensions (as a dict) derived from shapes and stored head counts."""
    if model.spec != WHISPER_SPEC:
        raise ModelError(
            N_("Engine", "This model is not a Whisper speech recognition model."), detail=f"spec is {model.spec!r}"
        )
    conv1 = model.get("encoder/conv1/weight")
    embeddings = model.get("decoder/embeddings/weight")
    decoder_positions = model.get("decoder/position_encodings/encodings")
    if conv1 is None or embeddings is None or decoder_positions is None:
        raise ModelError(DAMAGED_MODEL, detail="model.bin lacks the Whisper encoder or decoder weights")
    audio_state = conv1.shape[0]
    encoder_positions = model.get("encoder/position_encodings/encodings")
    return {
        "n_mels": conv1.shape[1],
        # Whisper's encoder always sees 30 s = 3000 mel frames, halved by the stride-2 conv2.
        "n_audio_ctx": encoder_positions.shape[0] if encoder_positions is not None else 1500,
        "n_audio_state": audio_state,
        "n_audio_head": model.scalar("encoder/num_heads"),
        "n_audio_layer": _layer_count(model, "encoder"),
        "n_vocab": embeddings.shape[0],
        "n_text_ctx": decoder_positions.shape[0],
        "n_text_state": embeddings.shape[1],
        "n_text_head": model.scalar("decoder/num_heads"),
        "n_text_layer": _layer_count(model, "decoder"),
    }


def _split_rows(weight: np.ndarray, parts: int) -> list[np.ndarray]:
    if weight.shape[0] % parts:
        raise ModelError(DAMAGED_MODEL, detail=f"fused projection of {weight.shape[0]} rows cannot split in {parts}")
    return np.split(weight, parts, axis=0)


def to_whisper_state_dict(model: Ct2Model) -> tuple[dict[str, int], dict[str, np.ndarray]]:
    """Map a CTranslate2 Whisper model onto openai-whisper's ``(dims, model_state_dict)``.

    Weights keep their stored float precision where they have one (float16 stays float16, as views of
    the file's bytes: a large model is not copied once more); quantized ones are dequantized to float32.
    ``Whisper.load_state_dict`` converts them to the model's float32 parameters.

    CTranslate2 fuses the self-attention query/key/value projections into one ``linear_0`` and the
    cross-attention key/value into ``linear_1`` (rows stacked in that order). openai-whisper's key
    projection has no bias; a key bias only shifts every attention logit of a query by the same amount,
    which softmax cancels, so dropping it (it is zero in converted Whisper models anyway) is exact.
    """
    dims = whisper_dims(model)
    mapping = _ToWhisper(model)
    mapping.encoder(dims)
    mapping.decoder(dims)
    mapping.check_output_tied()
    mapping.check_all_used()
    return dims, mapping.state


def to_whisper_encoder_state_dict(model: Ct2Model) -> tuple[dict[str, int], dict[str, np.ndarray]]:
    """Map the encoder of a CTranslate2 Whisper model onto openai-whisper's ``(dims, AudioEncoder state
    dict)``, as ``to_whisper_state_dict`` does for the whole model. Only the encoder's weights need to
    have been read (``read_model_bin(..., weights_under="encoder/")``)."""
    dims = whisper_dims(model)
    mapping = _ToWhisper(model)
    mapping.encoder(dims)
    mapping.check_all_used(under="encoder/")
    return dims, {key.removeprefix("encoder."): value for key, value in mapping.state.items()}


class _ToWhisper:
    """Fills openai-whisper's state dict from a Ct2Model, one block at a time, and remembers which
    variables found a place."""

    def __init__(self, model: Ct2Model):
        self.model = model
        self.used: set[str] = set()
        self.state: dict[str, np.ndarray] = {}

    def take(self, name: str) -> np.ndarray:
        resolved = self.model.aliases.get(name, name)
        self.used.add(resolved)
        if resolved + "_scale" in self.model.variables:
            self.used.add(resolved + "_scale")
        return self.model.weight(name)

    def has(self, name: str) -> bool:
        return self.model.get(name) is not None

    def linear(self, src: str, dst: str, bias: bool = True) -> None:
        self.state[f"{dst}.weight"] = self.take(f"{src}/weight")
        if bias:
            self.state[f"{dst}.bias"] = self.take(f"{src}/bias")

    def norm(self, src: str, dst: str) -> None:
        self.state[f"{dst}.weight"] = self.take(f"{src}/gamma")
        self.state[f"{dst}.bias"] = self.take(f"{src}/beta")

    def self_attention(self, src: str, dst: str) -> None:
        q, k, v = _split_rows(self.take(f"{src}/linear_0/weight"), 3)
        qb, _, vb = _split_rows(self.take(f"{src}/linear_0/bias"), 3)
        self.state.update({f"{dst}.query.weight": q, f"{dst}.query.bias": qb, f"{dst}.key.weight": k,
                           f"{dst}.value.weight": v, f"{dst}.value.bias": vb})
        self.linear(f"{src}/linear_1", f"{dst}.out")

    def cross_attention(self, src: str, dst: str) -> None:
        self.linear(f"{src}/linear_0", f"{dst}.query")
        k, v = _split_rows(self.take(f"{src}/linear_1/weight"), 2)
        _, vb = _split_rows(self.take(f"{src}/linear_1/bias"), 2)
        self.state.update({f"{dst}.key.weight": k, f"{dst}.value.weight": v, f"{dst}.value.bias": vb})
        self.linear(f"{src}/linear_2", f"{dst}.out")

    def mlp(self, src: str, dst: str) -> None:
        self.norm(f"{src}/layer_norm", f"{dst}.mlp_ln")
        self.linear(f"{src}/linear_0", f"{dst}.mlp.0")
        self.linear(f"{src}/linear_1", f"{dst}.mlp.2")

    def encoder(self, dims: dict[str, int]) -> None:
        self.linear("encoder/conv1", "encoder.conv1")
        self.linear("encoder/conv2", "encoder.conv2")
        if self.has("encoder/position_encodings/encodings"):
            self.state["encoder.positional_embedding"] = self.take("encoder/position_encodings/encodings")
        else:
            self.state["encoder.positional_embedding"] = _sinusoids(dims["n_audio_ctx"], dims["n_audio_state"])
        for i in range(dims["n_audio_layer"]):
            src, dst = f"encoder/layer_{i}", f"encoder.blocks.{i}"
            self.norm(f"{src}/self_attention/layer_norm", f"{dst}.attn_ln")
            self.self_attention(f"{src}/self_attention", f"{dst}.attn")
            self.mlp(f"{src}/ffn", dst)
        self.norm("encoder/layer_norm", "encoder.ln_post")

    def decoder(self, dims: dict[str, int]) -> None:
        self.state["decoder.token_embedding.weight"] = self.take("decoder/embeddings/weight")
        self.state["decoder.positional_embedding"] = self.take("decoder/position_encodings/encodings")
        for i in range(dims["n_text_layer"]):
            src, dst = f"decoder/layer_{i}", f"decoder.blocks.{i}"
            self.norm(f"{src}/self_attention/layer_norm", f"{dst}.attn_ln")
            self.self_attention(f"{src}/self_attention", f"{dst}.attn")
            self.norm(f"{src}/attention/layer_norm", f"{dst}.cross_attn_ln")
            self.cross_attention(f"{src}/attention", f"{dst}.cross_attn")
            self.mlp(f"{src}/ffn", dst)
        self.norm("decoder/layer_norm", "decoder.ln")

    def check_output_tied(self) -> None:
        """openai-whisper ties the output projection to the token embedding; refuse a model that does not."""
        model = self.model
        tied = model.aliases.get("decoder/projection/weight") == "decoder/embeddings/weight"
        if not tied:
            projection = self.take("decoder/projection/weight")
            embedding = self.state["decoder.token_embedding.weight"]
            tied = projection.shape == embedding.shape and np.allclose(projection, embedding, atol=1e-2, rtol=0)
        separate_output = (
            N_("Engine", "This Whisper model has a separate output layer, which VoxDesk cannot convert; use it with "
                         "the fast (CTranslate2) engine instead.")
        )
        if not tied:
            raise ModelError(separate_output, detail="decoder/projection/weight differs from decoder/embeddings/weight")
        if self.has("decoder/projection/bias") and np.any(self.take("decoder/projection/bias") != 0):
            raise ModelError(separate_output, detail="decoder/projection/bias is not zero")

    def check_all_used(self, under: str = "") -> None:
        """Everything with a shape (whose name starts with ``under``) must have found a place; scalars are
        settings checked by whisper_dims."""
        leftover = sorted(n for n, v in self.model.variables.items()
                          if v.ndim > 0 and n.startswith(under) and n not in self.used)
        if leftover:
            raise ModelError(
                N_("Engine", "This Whisper model has parts VoxDesk cannot convert; use it with the fast (CTranslate2) "
                             "engine instead."),
                detail="unmapped variables: " + ", ".join(leftover[:10]),
            )


def _sinusoids(length: int, channels: int, max_timescale: float = 10000) -> np.ndarray:
    """openai-whisper's positional embedding of the encoder (whisper.model.sinusoids), in numpy."""
    increment = np.log(max_timescale) / (channels // 2 - 1)
    inv_timescales = np.exp(-increment * np.arange(channels // 2, dtype=np.float32))
    scaled = np.arange(length, dtype=np.float32)[:, None] * inv_timescales[None, :]
    return np.concatenate([np.sin(scaled), np.cos(scaled)], axis=1).astype(np.float32)


def from_whisper_state_dict(
    dims: dict[str, int], state: dict[str, np.ndarray], dtype: np.dtype | str = np.float16
) -> Ct2Model:
    """Map openai-whisper's ``(dims, model_state_dict)`` (numpy arrays) onto a CTranslate2 WhisperSpec.

    Weights are stored as ``dtype`` (float16 or float32); CTranslate2 converts them to its compute type
    when it loads the model.
    """
    dtype = np.dtype(dtype)
    if dtype not in (np.dtype(np.float16), np.dtype(np.float32)):
        raise ValueError("dtype must be float16 or float32")
    mapping = _FromWhisper(state, dtype)
    mapping.encoder(dims)
    mapping.decoder(dims)
    _put_whisper_settings(mapping.model, dims)
    return mapping.model


class _FromWhisper:
    """Fills a Ct2Model's variables from openai-whisper's state dict, one block at a time."""

    def __init__(self, state: dict[str, np.ndarray], dtype: np.dtype):
        self.source = state
        self.dtype = dtype
        self.model = Ct2Model()

    def get(self, name: str) -> np.ndarray:
        try:
            return np.asarray(self.source[name], dtype=np.float32)
        except KeyError:
            raise ModelError(DAMAGED_MODEL, detail=f"checkpoint has no {name}") from None

    def put(self, name: str, value: np.ndarray) -> None:
        self.model.variables[name] = value.astype(self.dtype)

    def linear(self, src: str, dst: str) -> None:
        self.put(f"{dst}/weight", self.get(f"{src}.weight"))
        self.put(f"{dst}/bias", self.get(f"{src}.bias"))

    def norm(self, src: str, dst: str) -> None:
        self.put(f"{dst}/gamma", self.get(f"{src}.weight"))
        self.put(f"{dst}/beta", self.get(f"{src}.bias"))

    def self_attention(self, src: str, dst: str) -> None:
        get = self.get
        q, k, v = get(f"{src}.query.weight"), get(f"{src}.key.weight"), get(f"{src}.value.weight")
        self.put(f"{dst}/linear_0/weight", np.concatenate([q, k, v]))
        self.put(f"{dst}/linear_0/bias", np.concatenate(
            [get(f"{src}.query.bias"), np.zeros(k.shape[0], np.float32), get(f"{src}.value.bias")]))
        self.linear(f"{src}.out", f"{dst}/linear_1")

    def cross_attention(self, src: str, dst: str) -> None:
        get = self.get
        self.linear(f"{src}.query", f"{dst}/linear_0")
        k, v = get(f"{src}.key.weight"), get(f"{src}.value.weight")
        self.put(f"{dst}/linear_1/weight", np.concatenate([k, v]))
        self.put(f"{dst}/linear_1/bias",
                 np.concatenate([np.zeros(k.shape[0], np.float32), get(f"{src}.value.bias")]))
        self.linear(f"{src}.out", f"{dst}/linear_2")

    def mlp(self, src: str, dst: str) -> None:
        self.norm(f"{src}.mlp_ln", f"{dst}/layer_norm")
        self.linear(f"{src}.mlp.0", f"{dst}/linear_0")
        self.linear(f"{src}.mlp.2", f"{dst}/linear_1")

    def encoder(self, dims: dict[str, int]) -> None:
        self.linear("encoder.conv1", "encoder/conv1")
        self.linear("encoder.conv2", "encoder/conv2")
        self.put("encoder/position_encodings/encodings", self.get("encoder.positional_embedding"))
        for i in range(dims["n_audio_layer"]):
            src, dst = f"encoder.blocks.{i}", f"encoder/layer_{i}"
            self.norm(f"{src}.attn_ln", f"{dst}/self_attention/layer_norm")
            self.self_attention(f"{src}.attn", f"{dst}/self_attention")
            self.mlp(src, f"{dst}/ffn")
        self.norm("encoder.ln_post", "encoder/layer_norm")

    def decoder(self, dims: dict[str, int]) -> None:
        self.put("decoder/embeddings/weight", self.get("decoder.token_embedding.weight"))
        self.put("decoder/position_encodings/encodings", self.get("decoder.positional_embedding"))
        for i in range(dims["n_text_layer"]):
            src, dst = f"decoder.blocks.{i}", f"decoder/layer_{i}"
            self.norm(f"{src}.attn_ln", f"{dst}/self_attention/layer_norm")
            self.self_attention(f"{src}.attn", f"{dst}/self_attention")
            self.norm(f"{src}.cross_attn_ln", f"{dst}/attention/layer_norm")
            self.cross_attention(f"{src}.cross_attn", f"{dst}/attention")
            self.mlp(src, f"{dst}/ffn")
        self.norm("decoder.ln", "decoder/layer_norm")
        self.model.aliases["decoder/projection/weight"] = "decoder/embeddings/weight"


def _put_whisper_settings(model: Ct2Model, dims: dict[str, int]) -> None:
    """The settings of the WhisperSpec, as CTranslate2's converter writes them."""
    out = model.variables
    out["encoder/num_heads"] = np.array(dims["n_audio_head"], np.int16)
    out["decoder/num_heads"] = np.array(dims["n_text_head"], np.int16)
    out["decoder/activation"] = np.array(3, np.int8)  # GELU
    out["decoder/alibi"] = np.array(0, np.int8)
    out["decoder/alignment_heads"] = np.array(1, np.int16)
    out["decoder/alignment_layer"] = np.array(-1, np.int16)
    out["decoder/pre_norm"] = np.array(1, np.int8)
    out["decoder/scale_embeddings"] = np.array(0, np.int8)
    out["decoder/start_from_zero_embedding"] = np.array(0, np.int8)


def read_config(folder: str | os.PathLike) -> dict:
    """config.json of a CTranslate2 model folder, or {} when it has none."""
    path = Path(folder) / "config.json"
    if not path.is_file():
        return {}
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ModelError(DAMAGED_MODEL, detail=f"{path}: {exc}") from exc
