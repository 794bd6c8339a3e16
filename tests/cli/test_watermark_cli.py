"""`voxdesk clone` marks what it writes, `voxdesk watermark` finds the mark, and a voice folder edited by
hand is refused: headless, end to end, with a voice added through `voxdesk voices` (Whisper base, espeak-ng)
and a tiny XTTS model."""
from __future__ import annotations

import hashlib
import json
import shutil

import pytest

from desktop.core.voices.library import VoiceLibrary
from tests.cli.test_voices_cli import add_voice, issue_sentence, material  # noqa: F401 - material is a fixture
from tests.helpers.cli import voxdesk
from tests.helpers.weights import DATA_DIR

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("no_stdin")]


def test_recordings_not_made_by_voxdesk_carry_no_watermark(capsys):
    recordings = [DATA_DIR / "jfk.flac", DATA_DIR / "lj050-0131.wav"]

    assert voxdesk("watermark", *map(str, recordings)) == 1

    out = capsys.readouterr().out
    assert out.count("no VoxDesk watermark found") == 2


def test_a_file_that_is_not_audio_is_reported_and_counts_as_unmarked(tmp_path, capsys):
    text = tmp_path / "notes.wav"
    text.write_text("not a recording")

    assert voxdesk("watermark", str(text)) == 1

    assert "notes.wav: cannot be read" in capsys.readouterr().out


def test_cloned_files_carry_the_watermark_and_a_hand_edited_voice_is_refused(tmp_path, monkeypatch, capsys,
                                                                                material):
    sentence, code = issue_sentence(monkeypatch, capsys)
    assert add_voice(tmp_path, material, sentence, code) == 0
    outputs = [tmp_path / "cloned.wav", tmp_path / "cloned.mp3"]
    for output in outputs:
        assert voxdesk("clone", "--voice", "Alex", "--text", "The office closes at five. See you tomorrow.",
                       "--output", str(output), "--xtts-model", str(material["xtts"]), "--accept-licence") == 0
    capsys.readouterr()

    assert voxdesk("watermark", *map(str, outputs)) == 0
    assert capsys.readouterr().out.count("carries VoxDesk's watermark") == 2
    assert voxdesk("watermark", str(outputs[0]), str(DATA_DIR / "jfk.flac")) == 1
    capsys.readouterr()

    # A copy of the genuine voice whose sample is replaced, with its hash "fixed" in voice.json.
    genuine = VoiceLibrary().get("Alex")
    copy = genuine.folder.parent / "0123456789ab"
    shutil.copytree(genuine.folder, copy)
    shutil.copyfile(DATA_DIR / "lj050-0131.wav", copy / "sample-1.wav")
    metadata = json.loads((copy / "voice.json").read_text(encoding="utf-8"))
    metadata["name"] = "Alex copy"
    metadata["consent"]["audio_sha256"]["sample-1.wav"] = hashlib.sha256(
        (copy / "sample-1.wav").read_bytes()).hexdigest()
    (copy / "voice.json").write_text(json.dumps(metadata), encoding="utf-8")
    refused = tmp_path / "refused.wav"

    assert voxdesk("clone", "--voice", "Alex copy", "--text", "Hello there.", "--output", str(refused),
                   "--xtts-model", str(material["xtts"])) == 1

    assert "“Alex copy” has no valid consent record" in capsys.readouterr().err
    assert not refused.exists()
