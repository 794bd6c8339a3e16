"""`voxdesk voices` and `voxdesk clone`, headless, end to end: a consent sentence is issued, read
aloud (by espeak-ng), checked by Whisper base, the voice saved, spoken in with a tiny XTTS model, and
removed again."""
from __future__ import annotations

import json
import re
import secrets
from pathlib import Path

import av
import pytest

from desktop.core.voices.library import VoiceLibrary
from desktop.resources import resource_path
from tests.helpers.cli import voxdesk
from tests.helpers.espeak import speak
from tests.helpers.tiny_clone import build_tiny_xtts
from tests.helpers.weights import DATA_DIR, base_dir
from tests.helpers.tools import require_tool

# Nothing may ask on the terminal (XTTS's licence included).
pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("no_stdin")]


@pytest.fixture(scope="module")
def material(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("material")
    passage = resource_path("reading", "en.txt").read_text(encoding="utf-8")
    return {"sample": speak(passage, folder / "sample.wav"), "xtts": build_tiny_xtts(folder / "xtts")}


def issue_sentence(monkeypatch, capsys, name: str = "Alex Reader") -> tuple[str, str]:
    """`voxdesk voices sentence`: the sentence printed and its code (4821, which espeak-ng reads in a
    way Whisper base hears correctly; some numbers it reads are misheard)."""
    monkeypatch.setattr(secrets, "randbelow", lambda _limit: 3821)
    assert voxdesk("voices", "sentence", "--name", name, "--language", "en") == 0
    out = capsys.readouterr()
    sentence = out.out.strip()
    code = re.search(r"--code (\d{4})", out.err).group(1)
    return sentence, code


def add_voice(tmp_path, material, sentence: str, code: str, name: str = "Alex", sample: Path | None = None) -> int:
    consent = speak(sentence, tmp_path / "consent.wav")
    return voxdesk("voices", "add", name, "--sample", str(sample or material["sample"]), "--consent", str(consent),
                   "--code", code, "--whisper-model", str(base_dir()))


def test_a_voice_is_added_listed_spoken_in_and_removed(tmp_path, monkeypatch, capsys, material):
    sentence, code = issue_sentence(monkeypatch, capsys)
    assert "My name is Alex Reader." in sentence and code == "4821" and "4821" in sentence

    assert add_voice(tmp_path, material, sentence, code) == 0
    assert "consent of Alex Reader verified" in capsys.readouterr().err

    assert voxdesk("voices", "list") == 0
    assert re.search(r"^Alex\s+en\s+added .*consent: Alex Reader", capsys.readouterr().out, re.M)
    assert voxdesk("voices", "list", "--json") == 0
    listed = json.loads(capsys.readouterr().out)
    assert [v["name"] for v in listed] == ["Alex"] and listed[0]["problem"] is None

    output = tmp_path / "announcement.wav"
    assert voxdesk("clone", "--voice", "Alex", "--text", "The office closes at five. See you tomorrow.",
                   "--output", str(output), "--xtts-model", str(material["xtts"]), "--accept-licence") == 0
    assert "voice match" in capsys.readouterr().err
    with av.open(str(output)) as container:
        stream = container.streams.audio[0]
        assert stream.rate == 24000 and stream.codec_context.name == "pcm_s16le"
        assert sum(frame.samples for frame in container.decode(stream)) > 24000

    assert voxdesk("voices", "remove", "alex") == 0
    assert VoiceLibrary().list() == []
    assert voxdesk("clone", "--voice", "Alex", "--text", "Hello.", "--output", str(tmp_path / "x.wav"),
                   "--xtts-model", str(material["xtts"])) == 2
    assert "no longer in the voice library" in capsys.readouterr().err


def test_a_code_is_good_for_one_voice_only(tmp_path, monkeypatch, capsys, material):
    sentence, code = issue_sentence(monkeypatch, capsys)
    assert add_voice(tmp_path, material, sentence, code) == 0
    capsys.readouterr()

    assert add_voice(tmp_path, material, sentence, code, name="Alex again") == 1

    assert "The code 4821 has already been used" in capsys.readouterr().err
    assert [v.name for v in VoiceLibrary().list()] == ["Alex"]


def test_a_consent_recording_with_the_wrong_code_adds_nothing(tmp_path, monkeypatch, capsys, material):
    sentence, code = issue_sentence(monkeypatch, capsys)

    assert add_voice(tmp_path, material, sentence.replace("4821", "7395"), code) == 1

    assert "The code in the consent recording is not 4821" in capsys.readouterr().err
    assert VoiceLibrary().list() == []


def test_a_sample_by_someone_other_than_the_consenting_person_adds_nothing(tmp_path, monkeypatch, capsys, material):
    sentence, code = issue_sentence(monkeypatch, capsys)

    assert add_voice(tmp_path, material, sentence, code, sample=DATA_DIR / "jfk.flac") == 1

    assert "do not sound like the same person" in capsys.readouterr().err
    assert VoiceLibrary().list() == []


def test_xtts_s_licence_is_shown_and_must_be_accepted_with_a_flag_not_on_stdin(tmp_path, monkeypatch, capsys,
                                                                                  material):
    sentence, code = issue_sentence(monkeypatch, capsys)
    assert add_voice(tmp_path, material, sentence, code) == 0
    capsys.readouterr()
    output = tmp_path / "out.wav"

    assert voxdesk("clone", "--voice", "Alex", "--text", "Hello there.", "--output", str(output),
                   "--xtts-model", str(material["xtts"])) == 2

    err = capsys.readouterr().err
    assert "CPML" in err and "--accept-licence" in err
    assert not output.exists()


def test_a_sample_of_music_is_refused_before_any_consent_check(tmp_path, monkeypatch, capsys, material):
    import subprocess

    require_tool("sox")
    song = tmp_path / "song.wav"
    notes = ["synth", "0.5", "pluck", "C4", "pluck", "E4", "pluck", "G4", "remix", "-"]
    args = []
    for _ in range(20):
        args += notes + [":"]
    subprocess.run(["sox", "-n", "-r", "44100", "-c", "1", str(song), *args[:-1]], check=True, capture_output=True)
    sentence, code = issue_sentence(monkeypatch, capsys)

    assert add_voice(tmp_path, material, sentence, code, sample=song) == 1

    assert "sounds like music" in capsys.readouterr().err
