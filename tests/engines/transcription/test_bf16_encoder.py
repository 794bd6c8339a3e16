"""The fast engine on processors with bfloat16 matrix units: long recordings are encoded by torch in
bfloat16 and decoded by CTranslate2, with the words CTranslate2's own encoder gives."""
from __future__ import annotations

import os
import shutil
import threading

import numpy as np
import pytest

from desktop.core.common.errors import ModelError
from desktop.engines.transcription import bf16_encoder, ct2_format
from desktop.engines.transcription.base import TranscribeOptions
from desktop.engines.transcription.whisper_ct2 import load_ct2_engine
from tests.helpers.weights import ModelRef, base_dir, recording, reference, tiny_en_dir, wer

HAS_UNITS = bf16_encoder.processor_has_bfloat16_units()
GREEDY = TranscribeOptions(language="en", beam_size=1)


def long_meeting() -> tuple[np.ndarray, str]:
    """About 3.5 minutes of two English speakers taking turns, with pauses: ten windows."""
    jfk, lj = recording("jfk.flac"), recording("lj050-0131.wav")
    pause = np.zeros(16000, np.float32)
    audio = np.concatenate([jfk, pause, lj, pause] * 10)
    return audio, " ".join([reference("jfk.flac"), reference("lj050-0131.wav")] * 10)


def words(result) -> str:
    return " ".join(segment.text for segment in result.segments)


def test_only_processors_with_bfloat16_matrix_units_qualify(tmp_path):
    sapphire_rapids = tmp_path / "amx"
    sapphire_rapids.write_text("processor\t: 0\nflags\t\t: fpu avx512f avx512_bf16 amx_bf16 amx_tile amx_int8\n")
    zen3 = tmp_path / "avx2"
    zen3.write_text("processor\t: 0\nflags\t\t: fpu avx avx2 fma\n")
    assert bf16_encoder.processor_has_bfloat16_units(sapphire_rapids)
    assert not bf16_encoder.processor_has_bfloat16_units(zen3)
    assert not bf16_encoder.processor_has_bfloat16_units(tmp_path / "missing")


def test_the_encoder_state_is_read_without_the_decoders_weights():
    model = ct2_format.read_model_bin(tiny_en_dir() / "model.bin", weights_under="encoder/")
    assert not np.any(model.get("decoder/embeddings/weight"))  # skipped: zero-strided, never read
    dims, state = ct2_format.to_whisper_encoder_state_dict(model)
    _, whole = ct2_format.to_whisper_state_dict(ct2_format.read_model_bin(tiny_en_dir() / "model.bin"))
    assert dims["n_audio_layer"] == 4 and set(state) == {k[len("encoder."):] for k in whole if k.startswith("encoder.")}
    assert all(np.array_equal(state[k], whole["encoder." + k]) for k in state)


def test_the_encoder_is_not_loaded_where_memory_is_short(tmp_path):
    meminfo = tmp_path / "meminfo"
    meminfo.write_text("MemTotal:        8000000 kB\nMemFree:           20000 kB\nMemAvailable:      30000 kB\n")
    with pytest.raises(MemoryError, match="29 MiB of memory available"):
        bf16_encoder.load_encoder(tiny_en_dir(), meminfo)


def test_a_model_bin_replaced_by_a_fifo_is_refused_not_read(tmp_path):
    folder = tmp_path / "tiny.en"
    shutil.copytree(tiny_en_dir(), folder)
    (folder / "model.bin").unlink()
    os.mkfifo(folder / "model.bin")
    outcome: list[BaseException] = []

    def load() -> None:
        try:
            bf16_encoder.load_encoder(folder)
        except BaseException as exc:  # noqa: BLE001 - handed to the test's thread
            outcome.append(exc)

    loader = threading.Thread(target=load, daemon=True)
    loader.start()
    loader.join(timeout=20)
    if loader.is_alive():  # unblock the read, so that the thread ends
        with open(folder / "model.bin", "wb"):
            pass
    assert outcome and isinstance(outcome[0], ModelError), "the loader waited on the FIFO"


def test_the_bf16_encoder_gives_what_ctranslate2s_encoder_gives():
    import ctranslate2
    from faster_whisper.feature_extractor import FeatureExtractor

    speech = recording("jfk.flac")
    features = FeatureExtractor()(np.concatenate([speech, np.zeros(30 * 16000 - speech.size, np.float32)]))
    ours = np.asarray(bf16_encoder.load_encoder(tiny_en_dir()).encode(features[:, :3000]))
    theirs = np.asarray(ctranslate2.models.Whisper(str(tiny_en_dir()), device="cpu").encode(
        ctranslate2.StorageView.from_array(np.ascontiguousarray(features[None, :, :3000]))))
    assert ours.shape == theirs.shape == (1, 1500, 384)
    cosine = np.sum(ours * theirs, axis=-1) / (np.linalg.norm(ours, axis=-1) * np.linalg.norm(theirs, axis=-1))
    assert cosine.min() > 0.98, cosine.min()


@pytest.fixture(scope="module")
def long_runs():
    audio, _ = long_meeting()
    model = ModelRef("base", "ct2", base_dir())
    own = load_ct2_engine(model, "cpu", bf16_encoder_allowed=False)
    automatic = load_ct2_engine(model, "cpu")
    try:
        automatic.transcribe(recording("jfk.flac"), GREEDY)
        precision_after_short = automatic.encoder_precision
        return own.transcribe(audio, GREEDY), automatic.transcribe(audio, GREEDY), precision_after_short, automatic
    finally:
        own.close()
        automatic.close()


def test_a_long_recording_is_encoded_in_bfloat16_where_the_processor_has_the_units(long_runs):
    _, _, precision_after_short, automatic = long_runs
    assert precision_after_short == "int8"  # one window: not worth loading torch for
    assert automatic.encoder_precision == ("bfloat16" if HAS_UNITS else "int8")


def test_the_bf16_encoder_gives_the_same_words_and_times(long_runs):
    own, automatic, _, _ = long_runs
    _, text = long_meeting()
    assert automatic.batch_size == own.batch_size == 2
    assert wer(words(own), words(automatic)) <= 0.02
    assert wer(text, words(automatic)) <= wer(text, words(own)) + 0.005  # the same accuracy, to half a point
    starts = [w.start for s in automatic.segments for w in s.words if "country" in w.text]
    assert len(starts) == 20 and starts == sorted(starts)
    assert np.allclose(starts, [w.start for s in own.segments for w in s.words if "country" in w.text], atol=0.3)


@pytest.mark.skipif(not HAS_UNITS, reason="the bfloat16 encoder is only loaded on processors with AMX")
def test_a_model_folder_damaged_after_loading_leaves_ctranslate2s_encoder_at_work(tmp_path):
    folder = tmp_path / "tiny.en"
    shutil.copytree(tiny_en_dir(), folder)
    engine = load_ct2_engine(ModelRef("tiny.en", "ct2", folder), "cpu")
    try:
        with open(folder / "model.bin", "r+b") as model_bin:  # CTranslate2 holds its copy in memory
            model_bin.truncate(1000)
        audio, text = long_meeting()
        result = engine.transcribe(audio, GREEDY)
    finally:
        engine.close()
    assert engine.encoder_precision == "int8"
    assert wer(text, words(result)) <= 0.1
