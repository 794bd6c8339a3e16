"""The fast engine with torch's encoder in bfloat16 where this computer measured it faster: long
recordings are encoded by torch and decoded by CTranslate2, with the words CTranslate2's own encoder
gives.

Which processor a test runs on changes nothing here: the choice is given its facts (processor flags,
measured times), and the engine is told from how many windows to switch. torch's bfloat16 kernels run
on every x86-64 processor, emulated where it has no bfloat16 instructions, so the same words come out.
"""
from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import numpy as np
import pytest

from desktop.core.common.errors import ModelError
from desktop.core.gpu.device import cpu_flags
from desktop.core.transcription.speed_records import EncoderRecord, SpeedRecords, machine_key
from desktop.engines.transcription.decoders import bf16_encoder
from desktop.engines.transcription.model_files import ct2_format, weight_mapping
from desktop.engines.transcription.engine import TranscribeOptions
from desktop.engines.transcription.computer_measurement import bundled_speech, measure_encoders
from desktop.engines.transcription.decoders.whisper_ct2 import load_ct2_engine
from tests.helpers.weights import ModelRef, base_dir, recording, reference, tiny_en_dir, wer

GREEDY = TranscribeOptions(language="en", beam_size=1)

# What /proc/cpuinfo says on three kinds of processor our users have.
AMX_XEON = frozenset({"fpu", "avx2", "avx512f", "avx512_bf16", "amx_bf16", "amx_tile", "amx_int8"})
ZEN_4 = frozenset({"fpu", "avx2", "avx512f", "avx512_bf16", "avx512_vnni"})
AVX2_ONLY = frozenset({"fpu", "avx", "avx2", "fma"})


def measured(int8: float, bf16: float | None, load: float | None = 2.0) -> EncoderRecord:
    return EncoderRecord("base", "this machine", int8, bf16, load, "2026-12-01T00:00:00+00:00")


def long_meeting() -> tuple[np.ndarray, str]:
    """About 3.5 minutes of two English speakers taking turns, with pauses: ten windows."""
    jfk, lj = recording("jfk.flac"), recording("lj050-0131.wav")
    pause = np.zeros(16000, np.float32)
    audio = np.concatenate([jfk, pause, lj, pause] * 10)
    return audio, " ".join([reference("jfk.flac"), reference("lj050-0131.wav")] * 10)


def words(result) -> str:
    return " ".join(segment.text for segment in result.segments)


def test_before_any_measurement_only_processors_with_matrix_units_switch():
    assert bf16_encoder.worth_loading_from_windows(AMX_XEON, None) == bf16_encoder.UNMEASURED_AMX_FROM_WINDOWS
    assert bf16_encoder.worth_loading_from_windows(ZEN_4, None) is None
    assert bf16_encoder.worth_loading_from_windows(AVX2_ONLY, None) is None


@pytest.mark.parametrize("flags, times, from_windows", [
    # AMD Zen 4 as measured there: 0.34 s a window with CTranslate2, 0.28 s with torch; loading 2 s
    (ZEN_4, measured(0.34, 0.28), 34),
    (AMX_XEON, measured(0.45, 0.155, load=1.6), 6),  # this kind of Xeon: a large gain repays sooner
    (ZEN_4, measured(3.0, 1.0, load=3.0), bf16_encoder.FEWEST_WINDOWS),  # a large model: worth it at once
    (AVX2_ONLY, measured(0.77, 3.76), None),  # emulated bfloat16: several times slower
    (AMX_XEON, measured(0.45, 0.60), None),  # the measurement outweighs the flags
    (ZEN_4, measured(0.34, 0.32), None),  # 6 %: within the noise of one measurement
    (ZEN_4, measured(0.34, None, load=None), None),  # torch's encoder could not run on this processor
])
def test_a_measured_processor_switches_where_torchs_encoder_is_faster_from_the_windows_that_repay_it(
        flags, times, from_windows):
    assert bf16_encoder.worth_loading_from_windows(flags, times) == from_windows


def test_the_automatic_choice_reads_this_computers_processor_and_measurement(tmp_path: Path):
    def cpuinfo(flags: frozenset[str]) -> Path:
        path = tmp_path / "cpuinfo"
        path.write_text("processor\t: 0\nflags\t\t: " + " ".join(sorted(flags)) + "\n")
        return path

    records = SpeedRecords(tmp_path / "model-speeds.json")
    assert bf16_encoder.automatic_from_windows("base", records, cpuinfo(ZEN_4)) is None
    assert bf16_encoder.automatic_from_windows("base", records, cpuinfo(AMX_XEON)) == 8
    assert bf16_encoder.automatic_from_windows("base", records, tmp_path / "unreadable") is None

    records.add_encoder("base", machine_key(), int8_seconds=0.34, bf16_seconds=0.28, load_seconds=2.0)
    records.add_encoder("base", "another computer", int8_seconds=0.34, bf16_seconds=0.1, load_seconds=0.1)
    assert bf16_encoder.automatic_from_windows("base", records, cpuinfo(ZEN_4)) == 34
    assert bf16_encoder.automatic_from_windows("tiny", records, cpuinfo(ZEN_4)) is None  # not measured


def test_the_encoder_state_is_read_without_the_decoders_weights():
    model = ct2_format.read_model_bin(tiny_en_dir() / "model.bin", weights_under="encoder/")
    assert not np.any(model.get("decoder/embeddings/weight"))  # skipped: zero-strided, never read
    dims, state = weight_mapping.to_whisper_encoder_state_dict(model)
    _, whole = weight_mapping.to_whisper_state_dict(ct2_format.read_model_bin(tiny_en_dir() / "model.bin"))
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
    own = load_ct2_engine(model, "cpu", bf16_from_windows=None)
    switching = load_ct2_engine(model, "cpu", bf16_from_windows=8)
    try:
        short = switching.transcribe(recording("jfk.flac"), GREEDY)
        return own.transcribe(audio, GREEDY), switching.transcribe(audio, GREEDY), short
    finally:
        own.close()
        switching.close()


def test_the_engine_switches_for_a_recording_of_the_windows_it_was_told(long_runs):
    own, switched, short = long_runs
    assert not short.bf16_encoder and short.compute_type == "int8"  # one window: not worth loading torch for
    assert switched.bf16_encoder and not own.bf16_encoder


def test_the_bf16_encoder_gives_the_same_words_and_times(long_runs):
    own, automatic, _ = long_runs
    _, text = long_meeting()
    # CTranslate2's encoder: 2 windows at once; torch's cheaper one: 4, as base's caches fit many times
    # over in the memory of any computer that runs the tests.
    assert own.batch_size == 2 and automatic.batch_size == 4
    # Two encoders, two kinds of arithmetic (int8 kernels that differ by instruction set, bfloat16): now and
    # then a phrase heard two ways ("they are under" / "there under"), at the same accuracy to a point.
    assert wer(words(own), words(automatic)) <= 0.05
    assert wer(text, words(automatic)) <= wer(text, words(own)) + 0.01
    starts = [w.start for s in automatic.segments for w in s.words if "country" in w.text]
    assert len(starts) == 20 and starts == sorted(starts)
    assert np.allclose(starts, [w.start for s in own.segments for w in s.words if "country" in w.text], atol=0.3)


def test_the_automatic_engine_follows_a_measurement_made_while_it_is_loaded():
    audio, text = long_meeting()
    records = SpeedRecords()  # this computer's, where Tools → Measure this computer keeps them
    records.add_encoder("tiny.en", machine_key(), int8_seconds=0.1, bf16_seconds=0.3, load_seconds=2.0)
    engine = load_ct2_engine(ModelRef("tiny.en", "ct2", tiny_en_dir()), "cpu")
    try:
        slower = engine.transcribe(audio, GREEDY)
        assert slower.compute_type == "int8" and not slower.bf16_encoder

        records.add_encoder("tiny.en", machine_key(), int8_seconds=0.3, bf16_seconds=0.1, load_seconds=0.5)
        faster = engine.transcribe(audio, GREEDY)
        assert faster.bf16_encoder
    finally:
        engine.close()
    assert wer(text, words(slower)) <= 0.15 and wer(text, words(faster)) <= 0.15  # tiny.en: a word off here and there


def test_this_computer_is_measured_in_a_process_of_its_own_and_the_engine_follows_the_measurement():
    model = ModelRef("tiny.en", "ct2", tiny_en_dir())
    figures = measure_encoders(model, bundled_speech())
    assert figures is not None and 0 < figures["int8_seconds"] < 60
    assert 0 < figures["bf16_seconds"] < 600 and 0 < figures["load_seconds"] < 600  # torch runs everywhere
    record = SpeedRecords().add_encoder("tiny.en", machine_key(), **figures)

    audio, _ = long_meeting()
    engine = load_ct2_engine(model, "cpu")
    try:
        result = engine.transcribe(audio, GREEDY)
    finally:
        engine.close()
    from_windows = bf16_encoder.worth_loading_from_windows(cpu_flags(Path("/proc/cpuinfo")), record)
    switched = from_windows is not None and from_windows <= 10  # the meeting has ten windows
    assert result.bf16_encoder == switched


def fake_torch(folder: Path, body: str) -> dict[str, str]:
    """An environment whose ``import torch`` runs ``body`` instead, for a measuring process."""
    (folder / "torch").mkdir(parents=True)
    (folder / "torch" / "__init__.py").write_text(body)
    return {"PYTHONPATH": os.pathsep.join(filter(None, [str(folder), os.environ.get("PYTHONPATH")]))}


@pytest.mark.parametrize("torch_body", [
    "import os, signal\nos.kill(os.getpid(), signal.SIGILL)\n",  # a processor without the instructions
    "raise ImportError('No module named torch')\n",  # PyTorch not installed
])
def test_where_torchs_encoder_cannot_run_the_measurement_says_so_and_the_engine_never_switches(
        tmp_path, monkeypatch, torch_body):
    for name, value in fake_torch(tmp_path / "site", torch_body).items():
        monkeypatch.setenv(name, value)
    figures = measure_encoders(ModelRef("tiny.en", "ct2", tiny_en_dir()), bundled_speech())
    assert figures is not None and figures["int8_seconds"] > 0
    assert figures["bf16_seconds"] is None and figures["load_seconds"] is None
    record = SpeedRecords().add_encoder("tiny.en", machine_key(), **figures)
    assert bf16_encoder.worth_loading_from_windows(AMX_XEON, record) is None


def test_a_damaged_model_teaches_nothing_and_a_cancel_stops_the_measuring_process(tmp_path):
    from desktop.core.common.errors import Cancelled

    broken = tmp_path / "broken"
    shutil.copytree(tiny_en_dir(), broken)
    (broken / "model.bin").write_bytes(b"not a model")
    assert measure_encoders(ModelRef("broken", "ct2", broken), bundled_speech()) is None
    with pytest.raises(Cancelled):
        measure_encoders(ModelRef("tiny.en", "ct2", tiny_en_dir()), bundled_speech(), cancelled=lambda: True)


def test_a_model_folder_damaged_after_loading_leaves_ctranslate2s_encoder_at_work(tmp_path):
    folder = tmp_path / "tiny.en"
    shutil.copytree(tiny_en_dir(), folder)
    engine = load_ct2_engine(ModelRef("tiny.en", "ct2", folder), "cpu", bf16_from_windows=2)
    try:
        with open(folder / "model.bin", "r+b") as model_bin:  # CTranslate2 holds its copy in memory
            model_bin.truncate(1000)
        audio, text = long_meeting()
        result = engine.transcribe(audio, GREEDY)
    finally:
        engine.close()
    assert not result.bf16_encoder
    assert wer(text, words(result)) <= 0.1


# -- loading torch's encoder while the recording is read --------------------------------------------------

class Loads:
    """An encoder loader that counts its calls and answers (or fails) as told."""

    def __init__(self, answer="encoder"):
        self.calls = 0
        self.answer = answer

    def __call__(self):
        self.calls += 1
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


def test_told_that_a_long_recording_comes_the_switch_loads_the_encoder_at_once_and_takes_it_then():
    load = Loads()
    switch = bf16_encoder.Bf16Switch(load, lambda: 8)
    switch.expect(10 * 60)  # twenty windows
    assert switch.encoder_for(windows=20) == "encoder"
    assert load.calls == 1
    assert switch.encoder_for(windows=20) is None, "switched once, for the model's life"


def test_a_recording_too_short_to_repay_the_load_starts_nothing():
    load = Loads()
    switch = bf16_encoder.Bf16Switch(load, lambda: 8)
    switch.expect(60)  # two windows
    assert switch.encoder_for(windows=2) is None
    assert load.calls == 0
    assert switch.encoder_for(windows=8) == "encoder", "a longer recording later still switches"


def test_an_encoder_loaded_ahead_serves_a_recording_that_turned_out_shorter():
    # Voice activity detection left fewer windows than the length promised: the load is paid for already.
    switch = bf16_encoder.Bf16Switch(Loads(), lambda: 8)
    switch.expect(10 * 60)
    assert switch.encoder_for(windows=3) == "encoder"
    assert switch.encoder_for(windows=1) is None


def test_where_it_is_never_worth_it_nothing_loads_whatever_comes():
    load = Loads()
    switch = bf16_encoder.Bf16Switch(load, lambda: None)
    switch.expect(60 * 60)
    assert switch.encoder_for(windows=120) is None
    assert load.calls == 0


def test_an_encoder_that_fails_to_load_in_the_background_leaves_ctranslate2s_at_work():
    switch = bf16_encoder.Bf16Switch(Loads(MemoryError("short of memory")), lambda: 8)
    switch.expect(10 * 60)
    assert switch.encoder_for(windows=20) is None
    assert switch.encoder_for(windows=20) is None, "not tried again"


def test_the_engine_told_of_a_long_recording_loads_torchs_encoder_while_the_model_loads(monkeypatch):
    began = threading.Event()
    real_load = bf16_encoder.load_encoder

    def load_encoder(folder, *args, **kwargs):
        began.set()
        return real_load(folder, *args, **kwargs)

    monkeypatch.setattr(bf16_encoder, "load_encoder", load_encoder)
    engine = load_ct2_engine(ModelRef("tiny.en", "ct2", tiny_en_dir()), "cpu", bf16_from_windows=8,
                             expect_seconds=10 * 60)
    try:
        assert began.wait(timeout=120), "the encoder's load begins before any recording is decoded"
        audio, text = long_meeting()
        result = engine.transcribe(audio, GREEDY)
    finally:
        engine.close()
    assert result.bf16_encoder
    assert wer(text, words(result)) <= 0.1
