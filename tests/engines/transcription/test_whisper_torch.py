"""The openai-whisper engine: loading checkpoints safely, alignment heads, the CPU path, progress hooks."""
from __future__ import annotations

import base64
import gzip
import warnings
from pathlib import Path

import numpy as np
import pytest

from desktop.core.common.errors import ModelError
from desktop.engines.transcription.model_files import ct2_format, weight_mapping
from desktop.engines.transcription.engine import TranscribeOptions
from desktop.engines.transcription.decoders.whisper_torch import load_torch_engine
from tests.helpers.weights import ModelRef, recording, tiny_en_dir


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
    engine = load_torch_engine(ModelRef("tiny.en", "ct2", tiny_en_dir()), "cpu")
    yield engine
    engine.close()


def openai_heads(name: str, layers: int, heads: int) -> np.ndarray:
    import whisper

    dump = whisper._ALIGNMENT_HEADS[name]
    return np.frombuffer(gzip.decompress(base64.b85decode(dump)), dtype=bool).reshape(layers, heads)


def test_the_gpu_is_refused_clearly_when_torch_has_none(cpu_only_machine):
    with pytest.raises(ModelError, match="processor"):
        load_torch_engine(ModelRef("tiny.en", "ct2", tiny_en_dir()), "cuda")


def test_a_checkpoint_and_its_ctranslate2_folder_give_the_same_model_and_alignment_heads(tiny_checkpoint, tiny_engine):
    from_pt = load_torch_engine(ModelRef("tiny.en", "pt", tiny_checkpoint), "cpu")
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
    engine = load_torch_engine(ModelRef("my-own-model", "pt", tiny_checkpoint), "cpu")
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
        load_torch_engine(ModelRef("evil", "pt", path), "cpu")
    assert not marker.exists()


def test_cpu_transcription_gives_no_fp16_warning_and_stays_on_the_cpu(tiny_engine):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = tiny_engine.transcribe(recording("jfk.flac")[: 4 * 16000], TranscribeOptions(beam_size=1, word_timestamps=False))
    assert result.segments
    assert not [w for w in caught if "FP16" in str(w.message)]
    assert tiny_engine.device == "cpu" and str(tiny_engine._model.device) == "cpu"


def test_openai_whisper_keeps_its_own_progress_bar_for_other_callers(tiny_engine, capfd):
    import torch
    import whisper

    tiny_engine.transcribe(np.zeros(16000, np.float32), TranscribeOptions())  # hooks are installed by now
    audio = torch.from_numpy(recording("jfk.flac")[: 3 * 16000])
    whisper.transcribe(tiny_engine._model, audio, verbose=False, fp16=False, language="en")
    assert "frames" in capfd.readouterr().err  # tqdm's bar, drawn as before
