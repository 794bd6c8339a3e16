"""CTranslate2's model.bin read and written without CTranslate2, and mapped onto openai-whisper."""
from __future__ import annotations

import numpy as np
import pytest

from desktop.core.common.errors import ModelError
from desktop.engines.transcription.model_files import ct2_format, weight_mapping
from tests.helpers.weights import base_dir, tiny_en_dir


@pytest.fixture(scope="module")
def tiny() -> ct2_format.Ct2Model:
    return ct2_format.read_model_bin(tiny_en_dir() / "model.bin")


def test_dimensions_come_from_shapes_and_stored_head_counts():
    tiny_dims = weight_mapping.whisper_dims(ct2_format.read_model_bin(tiny_en_dir() / "model.bin", shapes_only=True))
    base_dims = weight_mapping.whisper_dims(ct2_format.read_model_bin(base_dir() / "model.bin", shapes_only=True))
    # openai-whisper's published dimensions of tiny.en and base.
    assert tiny_dims == {"n_mels": 80, "n_audio_ctx": 1500, "n_audio_state": 384, "n_audio_head": 6,
                         "n_audio_layer": 4, "n_vocab": 51864, "n_text_ctx": 448, "n_text_state": 384,
                         "n_text_head": 6, "n_text_layer": 4}
    assert base_dims == {"n_mels": 80, "n_audio_ctx": 1500, "n_audio_state": 512, "n_audio_head": 8,
                         "n_audio_layer": 6, "n_vocab": 51865, "n_text_ctx": 448, "n_text_state": 512,
                         "n_text_head": 8, "n_text_layer": 6}


def test_converted_state_dict_loads_strictly_into_openai_whisper(tiny):
    import torch
    from whisper.model import ModelDimensions, Whisper, sinusoids

    dims, state = weight_mapping.to_whisper_state_dict(tiny)
    model = Whisper(ModelDimensions(**dims))
    model.load_state_dict({k: torch.from_numpy(v) for k, v in state.items()}, strict=True)

    # The encoder's stored positions are openai-whisper's sinusoids; the key projections have no bias.
    assert np.allclose(state["encoder.positional_embedding"], sinusoids(1500, 384).numpy(), atol=1e-3)
    assert "encoder.blocks.0.attn.key.bias" not in state
    # The fused query/key/value rows land in the right projections.
    fused = tiny.float32("decoder/layer_2/self_attention/linear_0/weight")
    assert np.array_equal(state["decoder.blocks.2.attn.key.weight"], fused[384:768])
    assert np.array_equal(state["decoder.blocks.2.cross_attn.value.weight"],
                          tiny.float32("decoder/layer_2/attention/linear_1/weight")[384:])


def test_mapping_back_to_ctranslate2_reproduces_the_original_file_byte_for_byte(tiny, tmp_path):
    dims, state = weight_mapping.to_whisper_state_dict(tiny)
    rebuilt = weight_mapping.from_whisper_state_dict(dims, state, np.float16)
    ct2_format.write_model_bin(tmp_path / "model.bin", rebuilt)

    assert (tmp_path / "model.bin").read_bytes() == (tiny_en_dir() / "model.bin").read_bytes()
    assert [p.name for p in tmp_path.iterdir()] == ["model.bin"]  # no temporary file left behind


def test_int8_weights_written_by_ctranslate2_are_dequantized_with_their_scales(tiny, tmp_path):
    from ctranslate2.specs import model_spec, whisper_spec

    dims = weight_mapping.whisper_dims(tiny)
    spec = whisper_spec.WhisperSpec(dims["n_audio_layer"], dims["n_audio_head"], dims["n_text_layer"], dims["n_text_head"])
    for name, value in tiny.variables.items():
        if value.ndim:
            scope, attr = model_spec._parent_scope(name)
            setattr(model_spec.index_spec(spec, scope), attr, value.astype(np.float32))
    spec.decoder.projection.weight = tiny.variables["decoder/embeddings/weight"].astype(np.float32)
    spec.register_vocabulary([str(i) for i in range(dims["n_vocab"])])
    spec.validate()
    spec.optimize("int8")
    spec.save(str(tmp_path))

    quantized = ct2_format.read_model_bin(tmp_path / "model.bin")
    assert quantized.variables["encoder/conv2/weight"].dtype == np.int8
    assert quantized.variables["decoder/embeddings/weight"].dtype == np.int8
    _, exact = weight_mapping.to_whisper_state_dict(tiny)
    _, dequantized = weight_mapping.to_whisper_state_dict(quantized)
    assert exact.keys() == dequantized.keys()
    for name in ("encoder.conv2.weight", "decoder.blocks.1.mlp.0.weight", "decoder.token_embedding.weight"):
        rows = exact[name].reshape(exact[name].shape[0], -1)
        # int8 rounding moves a weight by at most half a step, a step being the row's largest |w| / 127.
        half_step = np.abs(rows).max(axis=1, keepdims=True) / 127 / 2
        error = np.abs(dequantized[name].reshape(rows.shape) - rows)
        assert np.all(error <= half_step * 1.01 + 1e-6), name


def test_a_truncated_model_file_is_reported_as_damaged(tmp_path):
    data = (tiny_en_dir() / "model.bin").read_bytes()
    (tmp_path / "model.bin").write_bytes(data[: len(data) // 2])

    with pytest.raises(ModelError, match="damaged"):
        ct2_format.read_model_bin(tmp_path / "model.bin")


def test_a_missing_model_file_says_to_download_it_again(tmp_path):
    with pytest.raises(ModelError, match="download"):
        ct2_format.read_model_bin(tmp_path / "model.bin")
