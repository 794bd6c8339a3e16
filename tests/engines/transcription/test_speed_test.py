"""Measuring this computer: real models, the bundled speech, the engine loading of a transcription."""
import shutil
from pathlib import Path

import pytest

from desktop.core.common.errors import Cancelled
from desktop.core.gpu.fallback import FallbackLog
from desktop.core.transcription.speed_records import SpeedRecords, machine_key
from desktop.core.transcription.whisper_models import LocalModel, ModelStore
from desktop.engines.transcription import computer_measurement as speed_test
from desktop.engines.transcription.computer_measurement import Devices, Trial, measure_computer, trials_for
from desktop.engines.transcription.transcriber import Transcriber
from tests.helpers.weights import tiny_en_dir

CPU_ONLY = Devices(torch_gpu=False, ct2_gpu=False)


def store_with_tiny_en(root: Path) -> ModelStore:
    """A model store holding tiny.en where a download puts it."""
    shutil.copytree(tiny_en_dir(), root / "ct2" / "tiny.en")
    return ModelStore(root)


def test_the_bundled_speech_is_ten_seconds_of_sound():
    speech = speed_test.bundled_speech()
    assert len(speech) == 160_000
    assert float(abs(speech).max()) > 0.1


def test_measuring_tiny_en_on_the_cpu_keeps_a_real_factor(tmp_path: Path):
    store = store_with_tiny_en(tmp_path / "models")
    records = SpeedRecords(tmp_path / "model-speeds.json")
    seen = []
    (record,) = measure_computer(store, records, CPU_ONLY, only_missing=True, on_record=seen.append)
    assert (record.model, record.engine, record.device, record.machine) == ("tiny.en", "ct2", "cpu", machine_key())
    assert 0.5 < record.factor < 1000  # tiny.en on a CPU: somewhere between real time and far faster
    assert seen == [record]
    assert SpeedRecords(records.path).factors(machine_key()) == {"tiny.en": record.factor}

    # Which of the fast engine's encoders is faster on this processor is measured with it.
    encoders = SpeedRecords(records.path).encoder("tiny.en", machine_key())
    assert encoders is not None and encoders.int8_seconds > 0 and encoders.bf16_seconds > 0

    # The quiet run measures only what is missing; Tools → Measure measures again.
    assert measure_computer(store, records, CPU_ONLY, only_missing=True) == []
    assert records.encoder("tiny.en", machine_key()) == encoders
    (again,) = measure_computer(store, records, CPU_ONLY, only_missing=False)
    assert again.key == record.key and len(records.all()) == 1
    assert records.encoder("tiny.en", machine_key()).measured >= encoders.measured and len(records.encoders()) == 1


def test_a_damaged_model_is_skipped_and_a_cancel_stops(tmp_path: Path):
    store = store_with_tiny_en(tmp_path / "models")
    broken = tmp_path / "models" / "ct2" / "base"
    broken.mkdir()
    (broken / "config.json").write_text("{}")
    (broken / "model.bin").write_bytes(b"not a model")
    records = SpeedRecords(tmp_path / "model-speeds.json")
    results = measure_computer(store, records, CPU_ONLY, only_missing=True)
    assert [r.model for r in results] == ["tiny.en"]
    with pytest.raises(Cancelled):
        measure_computer(store, records, CPU_ONLY, only_missing=False, cancelled=lambda: True)


def test_each_engine_runs_on_its_devices_with_its_own_format(tmp_path: Path):
    ct2 = LocalModel("base", "ct2", tmp_path / "ct2", imported=False)
    pt = LocalModel("base", "pt", tmp_path / "base.pt", imported=False)
    plain = lambda trials: [(t.engine, t.device) for t in trials]  # noqa: E731
    assert plain(trials_for([pt, ct2], CPU_ONLY)) == [("ct2", "cpu")]
    assert plain(trials_for([pt, ct2], Devices(torch_gpu=True, ct2_gpu=False))) == [("torch", "cuda"), ("ct2", "cpu")]
    assert plain(trials_for([ct2], Devices(torch_gpu=True, ct2_gpu=True))) == [("ct2", "cpu"), ("ct2", "cuda")]
    assert plain(trials_for([pt], CPU_ONLY)) == [("torch", "cpu")]
    assert trials_for([ct2], CPU_ONLY) == [Trial(ct2, "ct2", "cpu")]


def test_the_devices_come_from_the_transcribers_own_planning(tmp_path: Path):
    store = ModelStore(tmp_path)
    no_gpu = Transcriber(store, FallbackLog(), gpu_available=lambda: False, ct2_gpu_count=lambda: 0)
    amd = Transcriber(store, FallbackLog(), gpu_available=lambda: True, ct2_gpu_count=lambda: 0)
    nvidia = Transcriber(store, FallbackLog(), gpu_available=lambda: True, ct2_gpu_count=lambda: 1)
    assert speed_test.devices_of(no_gpu) == CPU_ONLY
    assert speed_test.devices_of(amd) == Devices(torch_gpu=True, ct2_gpu=False)
    assert speed_test.devices_of(nvidia) == Devices(torch_gpu=True, ct2_gpu=True)
