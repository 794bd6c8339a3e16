"""The measured speeds file: kept across restarts, per machine, and never trusted blindly."""
import json
import os
from pathlib import Path

import pytest

from desktop.core.transcription.speed_records import SpeedRecords, machine_key


def test_records_survive_a_new_reader_and_replace_older_ones_of_the_same_key(tmp_path: Path):
    path = tmp_path / "data" / "model-speeds.json"
    SpeedRecords(path).add("base", "ct2", "cpu", "m1", 9.0)
    SpeedRecords(path).add("base", "ct2", "cpu", "m1", 12.5)
    SpeedRecords(path).add("base", "torch", "cuda", "m1", 60.0)
    SpeedRecords(path).add("tiny", "ct2", "cpu", "other machine", 30.0)

    again = SpeedRecords(path)  # as after a restart
    assert len(again.all()) == 3
    assert again.measured("m1") == {("base", "ct2", "cpu"), ("base", "torch", "cuda")}
    assert again.factors("m1") == {"base": 60.0}
    assert again.factors("m1", device="cpu") == {"base": 12.5}
    assert again.factors("m1", engine="torch", device="cpu") == {}
    assert again.factors("a new GPU") == {}
    assert not [p for p in path.parent.iterdir() if p.name.startswith(".")]  # no temporary file left


def test_the_machine_key_is_stable_and_short():
    assert machine_key() == machine_key()
    assert len(machine_key()) == 16


@pytest.mark.parametrize("content", [
    b"", b"{", b"\xff\xfe not utf-8", b"[]", b'{"records": 5}', b'{"records": [1, "x", null]}',
    b"[" * 100_000 + b"]" * 100_000,  # nested too deep for the parser
    json.dumps({"records": [{"model": "base", "engine": "ct2", "device": "cpu", "machine": "m1",
                             "factor": float("inf"), "measured": "x"}]}).encode(),
])
def test_a_damaged_file_counts_as_empty_and_is_replaced_on_the_next_measurement(tmp_path: Path, content: bytes):
    path = tmp_path / "model-speeds.json"
    path.write_bytes(content)
    records = SpeedRecords(path)
    assert records.all() == [] and records.factors("m1") == {}
    records.add("base", "ct2", "cpu", "m1", 10.0)
    assert records.factors("m1") == {"base": 10.0}


def test_hostile_entries_are_skipped_and_good_ones_kept(tmp_path: Path):
    good = {"model": "base", "engine": "ct2", "device": "cpu", "machine": "m1", "factor": 8, "measured": "2026"}
    hostile = [
        {**good, "factor": True}, {**good, "factor": -1}, {**good, "factor": "9"}, {**good, "factor": 1e300},
        {**good, "engine": "rm -rf"}, {**good, "device": "tpu"}, {**good, "model": "x" * 10_000},
        {**good, "machine": ["m1"]}, {key: value for key, value in good.items() if key != "measured"},
    ]
    path = tmp_path / "model-speeds.json"
    path.write_text(json.dumps({"records": hostile + [good]}))
    assert SpeedRecords(path).factors("m1") == {"base": 8.0}


def test_a_huge_file_a_fifo_and_a_link_are_not_read(tmp_path: Path):
    huge = tmp_path / "huge.json"
    huge.write_bytes(b" " * 2_000_000 + b"{}")
    assert SpeedRecords(huge).all() == []

    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    assert SpeedRecords(fifo).all() == []  # returns at once instead of blocking on the pipe

    secret = tmp_path / "secret.json"
    secret.write_text(json.dumps({"records": [{"model": "base", "engine": "ct2", "device": "cpu",
                                               "machine": "m1", "factor": 8, "measured": "x"}]}))
    link = tmp_path / "link.json"
    link.symlink_to(secret)
    assert SpeedRecords(link).all() == []


def test_encoder_measurements_are_kept_beside_the_speeds_per_model_and_machine(tmp_path: Path):
    path = tmp_path / "model-speeds.json"
    records = SpeedRecords(path)
    records.add("base", "ct2", "cpu", "m1", 9.0)
    records.add_encoder("base", "m1", int8_seconds=0.34, bf16_seconds=0.28, load_seconds=2.1)
    records.add_encoder("base", "m1", int8_seconds=0.33, bf16_seconds=0.27, load_seconds=2.2)  # measured again
    records.add_encoder("tiny", "m1", int8_seconds=0.1, bf16_seconds=None, load_seconds=None)  # could not run
    records.add("tiny", "ct2", "cpu", "m1", 30.0)

    again = SpeedRecords(path)
    assert again.factors("m1") == {"base": 9.0, "tiny": 30.0}
    base = again.encoder("base", "m1")
    assert (base.int8_seconds, base.bf16_seconds, base.load_seconds) == (0.33, 0.27, 2.2)
    assert again.encoder("tiny", "m1").bf16_seconds is None
    assert again.encoder("base", "another machine") is None and len(again.encoders()) == 2


def test_hostile_encoder_entries_are_skipped(tmp_path: Path):
    good = {"model": "base", "machine": "m1", "int8_seconds": 0.3, "bf16_seconds": 0.2, "load_seconds": 2,
            "measured": "2026"}
    hostile = [
        {**good, "int8_seconds": 0}, {**good, "bf16_seconds": -1}, {**good, "bf16_seconds": float("nan")},
        {**good, "load_seconds": True}, {**good, "int8_seconds": None}, {**good, "bf16_seconds": "0.1"},
        {**good, "int8_seconds": 1e300}, {**good, "model": ""}, {**good, "machine": None}, "base", None,
    ]
    path = tmp_path / "model-speeds.json"
    path.write_text(json.dumps({"records": "not a list", "encoders": hostile + [good]}, allow_nan=True))
    (kept,) = SpeedRecords(path).encoders()
    assert (kept.int8_seconds, kept.bf16_seconds, kept.load_seconds) == (0.3, 0.2, 2.0)
    assert SpeedRecords(path).all() == []
