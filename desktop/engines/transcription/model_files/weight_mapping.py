"""CTranslate2's Whisper variables mapped onto openai-whisper's state dict and back: the dimensions of a
model.bin in openai-whisper's terms (``whisper_dims``), its weights for openai-whisper's model
(``to_whisper_state_dict``, or its encoder alone), and a checkpoint's weights as a CTranslate2
WhisperSpec (``from_whisper_state_dict``). The files themselves are read and written by ``ct2_format``.

Only numpy is needed here, so the conversion runs before torch or ctranslate2 is imported.
"""
from __future__ import annotations

import re

import numpy as np

from desktop.core.common.errors import ModelError
from desktop.core.common.i18n import N_
from desktop.engines.transcription.engine import DAMAGED_MODEL
from desktop.engines.transcription.model_files.ct2_format import WHISPER_SPEC, Ct2Model


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
