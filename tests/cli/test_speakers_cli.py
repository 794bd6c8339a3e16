"""`voxdesk speakers`: known voices from a terminal, and `voxdesk transcribe --speakers auto` naming them."""
from __future__ import annotations

import json
import os

import numpy as np
import pytest
import srt

from desktop.core.common.paths import known_voices_dir
from tests.cli.test_transcribe_cli import voxdesk
from tests.helpers.meetings import RATE, Meeting, clip, compose, trimmed
from tests.helpers.weights import DATA_DIR, tiny_en_dir

pytestmark = pytest.mark.slow


def joined(*clips: np.ndarray) -> np.ndarray:
    gap = np.zeros(int(0.4 * RATE), np.float32)
    return np.concatenate([piece for c in clips for piece in (c, gap)])


def sample(path, *clips) -> os.PathLike:
    return Meeting(joined(*clips), [], []).write(path)


def entries() -> list[str]:
    folder = known_voices_dir()
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def test_add_list_export_remove_and_import_a_known_voice(tmp_path):
    anna = sample(tmp_path / "anna.wav", *(clip("A", i) for i in range(3)))
    added = voxdesk("speakers", "add", "Anna Li", "--sample", anna, "--agreed")
    assert added.returncode == 0, added.stderr
    assert "Added the known voice “Anna Li”" in added.stdout

    listed = json.loads(voxdesk("speakers", "list", "--json").stdout)
    (voice,) = listed["voices"]
    assert voice["name"] == "Anna Li" and voice["agreement"]["how"] == "confirmed"
    assert voice["agreement"]["confirmed_by"] and voice["speech_seconds"] >= 6.0

    exported = voxdesk("speakers", "export", "Anna Li", tmp_path / "anna.voxvoice")
    assert exported.returncode == 0, exported.stderr
    (folder,) = entries()
    removed = voxdesk("speakers", "remove", "anna li")
    assert removed.returncode == 0 and entries() == []  # every file of the voice is gone

    imported = voxdesk("speakers", "import", tmp_path / "anna.voxvoice")
    assert imported.returncode == 0, imported.stderr
    assert [v["name"] for v in json.loads(voxdesk("speakers", "list", "--json").stdout)["voices"]] == ["Anna Li"]


def test_adding_without_the_persons_agreement_is_refused_and_nothing_is_kept(tmp_path):
    anna = sample(tmp_path / "anna.wav", *(clip("A", i) for i in range(3)))
    result = voxdesk("speakers", "add", "Anna", "--sample", anna)
    assert result.returncode == 2 and "agreement" in result.stderr and "Traceback" not in result.stderr
    assert entries() == []


@pytest.mark.parametrize("name", ["Anna\nLi", "Anna\x1b]0;hi\x07"])
def test_a_name_with_control_characters_is_refused_in_one_sentence(tmp_path, name):
    result = voxdesk("speakers", "add", name, "--sample", tmp_path / "none.wav", "--agreed")
    assert result.returncode == 1 and "cannot be shown" in result.stderr and "Traceback" not in result.stderr
    assert entries() == []


def test_a_sample_far_too_short_is_refused_with_how_much_more_is_needed(tmp_path):
    result = voxdesk("speakers", "add", "Anna", "--sample", sample(tmp_path / "a.wav", clip("A", 0)), "--agreed")
    assert result.returncode == 1 and "Add about" in result.stderr and "Traceback" not in result.stderr
    assert entries() == []


def test_an_altered_export_is_refused_on_import(tmp_path):
    altered = tmp_path / "anna.voxvoice"
    altered.write_text(json.dumps({"format": "voxdesk-known-voice", "name": "Anna", "seal": "0" * 64}), "utf-8")
    result = voxdesk("speakers", "import", altered)
    assert result.returncode == 1 and "changed after it was exported" in result.stderr
    assert entries() == []


def test_transcribe_with_speakers_auto_names_the_known_voices_in_the_srt_and_no_one_else(tmp_path):
    from desktop.core.common.audio import decode

    assert voxdesk("speakers", "add", "Anna", "--sample",
                   sample(tmp_path / "anna.wav", *(clip("A", i) for i in range(3))), "--agreed").returncode == 0
    assert voxdesk("speakers", "add", "John", "--sample",
                   sample(tmp_path / "john.wav", clip("JFK", 0), clip("JFK", 1)), "--agreed").returncode == 0
    unknown = trimmed(decode(DATA_DIR / "speakers" / "libri_d.wav"))
    made = compose([("Anna", [clip("A", 0), clip("A", 1)]), ("unknown", [unknown]), ("John", [clip("JFK", 1)]),
                    ("Anna", [clip("A", 2)])])
    path = made.write(tmp_path / "meeting.wav")
    result = voxdesk("transcribe", path, "--model", tiny_en_dir(), "--language", "en", "--speakers", "auto",
                     "--format", "srt,json")
    assert result.returncode == 0, result.stderr
    cues = list(srt.parse((tmp_path / "meeting.srt").read_text(encoding="utf-8")))
    said = {}
    for cue in cues:
        middle = (cue.start.total_seconds() + cue.end.total_seconds()) / 2
        truth = min(made.turns, key=lambda turn: max(turn[0] - middle, middle - turn[1], 0.0))[2]
        said.setdefault(truth, set()).add(cue.content.split(": ", 1)[0])
    assert said["Anna"] == {"Anna"} and said["John"] == {"John"}
    assert said["unknown"].isdisjoint({"Anna", "John"})
    data = json.loads((tmp_path / "meeting.json").read_text(encoding="utf-8"))
    assert {s["speaker"] for s in data["segments"] if "recognised" in s} == {"Anna", "John"}
