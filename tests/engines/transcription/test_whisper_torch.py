"""The torch engine as the app loads it: checkpoints read safely, alignment heads, the CPU path."""
from __future__ import annotations

import base64
import gzip
import warnings
from pathlib import Path

import numpy as np
import pytest

from desktop.core.common.errors import ModelError
from desktop.engines.transcription.decoders.loading import load_engine
from desktop.engines.transcription.decoders.whisper_batched import BatchedTorchEngine
from desktop.engines.transcription.engine import TranscribeOptions
from desktop.engines.transcription.model_files import ct2_format, weight_mapping
from tests.helpers.weights import ModelRef, recording, reference, tiny_en_dir, wer


@pytest.fixture(scope="module")
def tiny_checkpoint(tmp_path_factory) -> Path:
    """An openai-whisper checkpoint of tiny.en (fp16, like openai's own files)."""
    import torch

    dims, state = weight_mapping.to_whisper_state_dict(ct2_format.read_model_bin(tiny_en_dir() / "model.bin"))
    path = tmp_path_factory.mktemp("openai") / "tiny.en.pt"
    torch.save({"dims": dims, "model_state_dict": {k: torch.from_numpy(v).half() for k, v in state.items()}}, path)
    return path


@pytest.fixture(scope="module")
def tiny_engine():
    engine = load_engine(ModelRef("tiny.en", "ct2", tiny_en_dir()), "torch", "cpu")
    yield engine
    engine.close()


def openai_heads(name: str, layers: int, heads: int) -> np.ndarray:
    import whisper

    dump = whisper._ALIGNMENT_HEADS[name]
    return np.frombuffer(gzip.decompress(base64.b85decode(dump)), dtype=bool).reshape(layers, heads)


def test_the_gpu_is_refused_clearly_when_torch_has_none(cpu_only_machine):
    with pytest.raises(ModelError, match="processor"):
        load_engine(ModelRef("tiny.en", "ct2", tiny_en_dir()), "torch", "cuda")


def test_a_checkpoint_and_its_ctranslate2_folder_give_the_same_model_and_alignment_heads(tiny_checkpoint, tiny_engine):
    from_pt = load_engine(ModelRef("tiny.en", "pt", tiny_checkpoint), "torch", "cpu")
    try:
        pt_state, ct2_state = from_pt._model.state_dict(), tiny_engine._model.state_dict()
        assert pt_state.keys() == ct2_state.keys()
        # The checkpoint holds the float16 weights the CTranslate2 file holds, so they are equal.
        assert all(bool((pt_state[k] == ct2_state[k]).all()) for k in pt_state)
        expected = openai_heads("tiny.en", 4, 6)
        assert np.array_equal(from_pt._model.alignment_heads.to_dense().numpy(), expected)
        assert np.array_equal(tiny_engine._model.alignment_heads.to_dense().numpy(), expected)  # from config.json
    finally:
        from_pt.close()


def test_an_unknown_checkpoint_name_aligns_words_with_the_last_half_of_the_decoder(tiny_checkpoint):
    engine = load_engine(ModelRef("my-own-model", "pt", tiny_checkpoint), "torch", "cpu")
    try:
        heads = engine._model.alignment_heads.to_dense().numpy()
        assert heads[:2].sum() == 0 and heads[2:].all()
    finally:
        engine.close()


def test_a_checkpoint_with_a_pickled_object_is_refused_without_running_it(tmp_path):
    import torch

    marker = tmp_path / "ran"

    class Payload:
        def __reduce__(self):
            return (Path.touch, (marker,))

    path = tmp_path / "evil.pt"
    torch.save({"dims": {}, "model_state_dict": {}, "extra": Payload()}, path)

    with pytest.raises(ModelError, match="damaged"):
        load_engine(ModelRef("evil", "pt", path), "torch", "cpu")
    assert not marker.exists()


def test_cpu_transcription_gives_no_fp16_warning_and_stays_on_the_cpu(tiny_engine):
    assert isinstance(tiny_engine, BatchedTorchEngine) and tiny_engine.compute_type == "float32"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = tiny_engine.transcribe(recording("jfk.flac")[: 4 * 16000], TranscribeOptions(beam_size=1, word_timestamps=False))
    assert result.segments
    assert not [w for w in caught if "FP16" in str(w.message)]
    assert tiny_engine.device == "cpu" and str(tiny_engine._model.device) == "cpu"


def test_the_loaded_model_is_openai_whispers_own_for_whisper_transcribe(tiny_engine):
    """The GPU check compares the engine with openai-whisper's own decoding of the same loaded model."""
    import torch
    import whisper

    tiny_engine.transcribe(np.zeros(16000, np.float32), TranscribeOptions())
    assert "decode" not in vars(tiny_engine._model)  # none of its methods replaced
    audio = torch.from_numpy(recording("jfk.flac"))
    result = whisper.transcribe(tiny_engine._model, audio, verbose=None, fp16=False, language="en")
    assert wer(reference("jfk.flac"), result["text"]) <= 0.1


def test_a_closed_engine_lets_its_model_go():
    engine = load_engine(ModelRef("tiny.en", "ct2", tiny_en_dir()), "torch", "cpu")
    engine.close()
    engine.close()  # twice is harmless
    assert engine._model is None
    with pytest.raises(RuntimeError, match="closed"):
        engine.transcribe(recording("jfk.flac"), TranscribeOptions())
