"""The files one run writes: never two exports on one path, never an export on a recording."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from desktop.core.transcription.export_plan import plan_exports, unique_formats


def test_two_recordings_with_one_name_get_numbered_files_in_input_order(tmp_path):
    out = tmp_path / "out"
    plan = plan_exports([tmp_path / "a" / "talk.flac", tmp_path / "b" / "talk.wav", tmp_path / "c" / "talk.mp4"],
                        ["srt", "txt"], out)
    assert plan == [
        {"srt": out / "talk.srt", "txt": out / "talk.txt"},
        {"srt": out / "talk (2).srt", "txt": out / "talk (2).txt"},
        {"srt": out / "talk (3).srt", "txt": out / "talk (3).txt"},
    ]


def test_next_to_each_recording_only_recordings_in_one_folder_collide(tmp_path):
    plan = plan_exports([tmp_path / "a" / "talk.flac", tmp_path / "b" / "talk.wav", tmp_path / "a" / "talk.wav"],
                        ["srt"])
    assert plan == [
        {"srt": tmp_path / "a" / "talk.srt"},
        {"srt": tmp_path / "b" / "talk.srt"},
        {"srt": tmp_path / "a" / "talk (2).srt"},
    ]


def test_a_recording_is_never_the_export_of_itself_or_of_another(tmp_path):
    speech = tmp_path / "speech.srt"  # a recording that happens to be called .srt
    notes = tmp_path / "notes.wav"
    notes_txt = tmp_path / "notes.txt"  # another recording, named like notes.wav's text export
    plan = plan_exports([speech, notes, notes_txt], ["srt", "txt"])
    assert plan[0] == {"srt": tmp_path / "speech (2).srt", "txt": tmp_path / "speech (2).txt"}
    assert plan[1] == {"srt": tmp_path / "notes (2).srt", "txt": tmp_path / "notes (2).txt"}
    assert plan[2] == {"srt": tmp_path / "notes (3).srt", "txt": tmp_path / "notes (3).txt"}
    written = [path for paths in plan for path in paths.values()]
    assert len(set(written)) == len(written)
    assert not {speech, notes, notes_txt} & set(written)


def test_a_recording_whose_own_name_is_free_keeps_it(tmp_path):
    plan = plan_exports([tmp_path / "talk.flac", tmp_path / "talk.wav", tmp_path / "talk (2).flac"], ["srt"])
    assert [paths["srt"].name for paths in plan] == ["talk.srt", "talk (3).srt", "talk (2).srt"]


def test_a_link_to_a_recording_counts_as_that_recording(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    (real / "speech.srt").write_bytes(b"audio")
    link = tmp_path / "link"
    link.symlink_to(real)
    plan = plan_exports([link / "speech.srt"], ["srt"], real)
    assert plan == [{"srt": real / "speech (2).srt"}]


def test_duplicate_formats_are_collapsed_in_first_seen_order(tmp_path):
    assert unique_formats(["srt", "json", "srt", "txt", "json"]) == ["srt", "json", "txt"]
    plan = plan_exports([tmp_path / "talk.flac"], ["srt", "srt", "txt"], tmp_path)
    assert list(plan[0]) == ["srt", "txt"]


def test_files_already_on_disk_are_left_to_the_overwrite_rule(tmp_path):
    (tmp_path / "talk.srt").write_text("an earlier export")
    assert plan_exports([tmp_path / "talk.flac"], ["srt"]) == [{"srt": tmp_path / "talk.srt"}]


def test_an_unknown_format_is_refused(tmp_path):
    with pytest.raises(ValueError):
        plan_exports([tmp_path / "talk.flac"], ["docx"])


def test_relative_and_absolute_spellings_of_one_folder_are_one_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    plan = plan_exports([Path("talk.flac"), tmp_path / "talk.wav"], ["srt"])
    assert plan == [{"srt": Path("talk.srt")}, {"srt": tmp_path / "talk (2).srt"}]
    assert os.path.realpath(plan[0]["srt"]) != os.path.realpath(plan[1]["srt"])
