"""The GPU check's bundle: the weights it carries, its stand-ins for missing libraries, its installer."""
from __future__ import annotations

import importlib
import json
import sys
import zipfile

import numpy as np
import pytest

from benchmarks import gpu_bundle, gpu_checks
from desktop.engines.transcription.model_files import ct2_format, weight_mapping
from desktop.engines.transcription.engine import TranscribeOptions
from desktop.engines.transcription.decoders.loading import load_engine
from tests.helpers.weights import ModelRef, recording, reference, tiny_en_dir, wer


@pytest.fixture(scope="module")
def packed(tmp_path_factory):
    dims, state = weight_mapping.to_whisper_state_dict(ct2_format.read_model_bin(tiny_en_dir() / "model.bin"))
    path = tmp_path_factory.mktemp("bundle") / "tiny.en.npz"
    gpu_bundle.pack_weights(dims, state, path)
    return path, dims, state


def test_the_packed_weights_are_small_enough_and_expand_to_fp16_close_to_the_originals(packed):
    path, dims, state = packed
    assert path.stat().st_size < 45 * 2 ** 20  # the fp16 originals are 75 MB
    unpacked_dims, unpacked = gpu_bundle.unpack_weights(path)
    assert unpacked_dims == dims and unpacked.keys() == state.keys()
    for key, original in state.items():
        expanded = unpacked[key].numpy()
        assert expanded.dtype == np.float16 and expanded.shape == original.shape
        rows = original.reshape(original.shape[0], -1).astype(np.float32)
        tolerance = np.abs(rows).max(axis=1, keepdims=True) / 254 + 1e-3  # half an int8 step, and fp16's rounding
        assert (np.abs(expanded.reshape(rows.shape) - rows) <= tolerance).all(), key


def test_the_expanded_checkpoint_transcribes_as_the_original_weights_do(packed, tmp_path):
    checkpoint = gpu_bundle.write_checkpoint(packed[0], tmp_path / "tiny.en.pt")
    engine = load_engine(ModelRef("tiny.en", "pt", checkpoint), "torch", "cpu")
    try:
        result = engine.transcribe(recording("jfk.flac"), TranscribeOptions(language="en", beam_size=1))
    finally:
        engine.close()
    text = " ".join(segment.text for segment in result.segments)
    assert wer(reference("jfk.flac"), text) <= 0.05


def test_recorded_voice_activity_is_replayed_for_that_audio_only(tmp_path, monkeypatch):
    audio = recording("jfk.flac")
    recorded = gpu_bundle.recorded_vad({"jfk": audio})
    (tmp_path / "vad.json").write_text(json.dumps(recorded), encoding="utf-8")
    (tmp_path / "shim").mkdir()
    (tmp_path / "shim" / "replayed_vad.py").write_text(gpu_checks.VAD_SHIM, encoding="utf-8")
    monkeypatch.setenv("VOXDESK_RECORDED_VAD", str(tmp_path / "vad.json"))
    monkeypatch.syspath_prepend(str(tmp_path / "shim"))
    replayed = importlib.import_module("replayed_vad")
    try:
        from faster_whisper.vad import VadOptions, get_speech_timestamps

        assert replayed.get_speech_timestamps(audio, replayed.VadOptions()) == get_speech_timestamps(
            audio, VadOptions(), sampling_rate=16000)
        assert vars(replayed.VadOptions()) == vars(VadOptions())  # the same defaults as the real ones
        with pytest.raises(RuntimeError, match="no voice activity was recorded"):
            replayed.get_speech_timestamps(audio[:16000])
        with pytest.raises(RuntimeError, match="only the default options"):
            replayed.get_speech_timestamps(audio, replayed.VadOptions(speech_pad_ms=100))
    finally:
        sys.modules.pop("replayed_vad", None)


def test_the_installer_unpacks_the_wheels_for_this_python_only(tmp_path, monkeypatch):
    bundle, work = tmp_path / "bundle", tmp_path / "work"
    (bundle / "wheels").mkdir(parents=True)
    this = f"cp{sys.version_info.major}{sys.version_info.minor}"

    def wheel(name: str, module: str) -> None:
        with zipfile.ZipFile(bundle / "wheels" / name, "w") as archive:
            archive.writestr(f"{module}/__init__.py", f"NAME = {name!r}\n")

    wheel("puremod-1.0-py3-none-any.whl", "puremod")
    wheel(f"tiktoken-9.9-{this}-{this}-manylinux_2_28_x86_64.whl", "tiktoken")
    wheel("othermod-1.0-cp39-cp39-manylinux_2_28_x86_64.whl", "othermod")
    monkeypatch.setattr(sys, "path", list(sys.path))
    notes = gpu_checks.install(bundle, work)
    assert (work / "site" / "puremod").is_dir() and (work / "site" / "tiktoken").is_dir()
    assert not (work / "site" / "othermod").exists()
    assert sys.path[0] == str(work / "site")
    assert sum(note.startswith("installed") for note in notes) == 2
