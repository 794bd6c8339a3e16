"""`voxdesk transcribe` refuses a file whose subtitles cannot be written before it loads a model or
decodes a second of it, not after (it used to transcribe for 14.7 s and then refuse)."""
from __future__ import annotations

import shutil

import pytest

from desktop.__main__ import main
from desktop.engines.transcription.transcriber import Transcriber
from tests.helpers.weights import DATA_DIR, tiny_en_dir


@pytest.fixture
def decodings(monkeypatch):
    """The files the Transcriber was asked to transcribe, and whether it ever looked for its model."""
    asked = {"files": [], "model_looked_for": False}
    transcribe_file, missing_model = Transcriber.transcribe_file, Transcriber.missing_model

    def recorded_transcribe(self, path, settings, **kwargs):
        asked["files"].append(str(path))
        return transcribe_file(self, path, settings, **kwargs)

    def recorded_missing(self, settings):
        asked["model_looked_for"] = True
        return missing_model(self, settings)

    monkeypatch.setattr(Transcriber, "transcribe_file", recorded_transcribe)
    monkeypatch.setattr(Transcriber, "missing_model", recorded_missing)
    return asked


def test_an_existing_subtitle_is_refused_before_the_model_is_looked_for(tmp_path, capsys, decodings):
    recording = shutil.copy(DATA_DIR / "jfk.flac", tmp_path / "jfk.flac")
    (tmp_path / "jfk.srt").write_text("my own careful edits\n", encoding="utf-8")

    status = main(["transcribe", str(recording), "--model", str(tiny_en_dir()), "--language", "en"])

    stderr = capsys.readouterr().err
    assert status == 1
    assert "already exists" in stderr and "--overwrite" in stderr and "1 of 1 files failed" in stderr
    assert decodings == {"files": [], "model_looked_for": False}
    assert (tmp_path / "jfk.srt").read_text(encoding="utf-8") == "my own careful edits\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["jfk.flac", "jfk.srt"], "no temporary file is left"


def test_only_the_file_whose_subtitle_exists_is_refused_the_others_are_transcribed(tmp_path, capsys, decodings):
    kept = shutil.copy(DATA_DIR / "jfk.flac", tmp_path / "kept.flac")
    fresh = shutil.copy(DATA_DIR / "lj050-0131.wav", tmp_path / "fresh.wav")
    (tmp_path / "kept.srt").write_text("my own careful edits\n", encoding="utf-8")

    status = main(["transcribe", str(kept), str(fresh), "--model", str(tiny_en_dir()), "--language", "en"])

    stderr = capsys.readouterr().err
    assert status == 1
    assert decodings["files"] == [str(fresh)], "the refused file is never decoded"
    assert stderr.index("[1/2] kept.flac") < stderr.index("[2/2] fresh.wav")
    assert "1 of 2 files failed" in stderr
    assert "formal review" in (tmp_path / "fresh.srt").read_text(encoding="utf-8")
    assert (tmp_path / "kept.srt").read_text(encoding="utf-8") == "my own careful edits\n"
