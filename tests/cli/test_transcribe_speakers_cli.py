"""`voxdesk transcribe --speakers`: the window's speaker stage from a terminal, in every format."""
from __future__ import annotations

import json

import pytest
import srt
import webvtt

from tests.cli.test_transcribe_cli import voxdesk
from tests.helpers.meetings import two_speakers
from tests.helpers.weights import tiny_en_dir

pytestmark = pytest.mark.slow


def test_speakers_auto_names_the_two_people_of_a_meeting_in_every_format(tmp_path):
    path = two_speakers().write(tmp_path / "meeting.wav")
    result = voxdesk("transcribe", path, "--model", tiny_en_dir(), "--language", "en", "--speakers", "auto",
                     "--format", "srt,vtt,txt,json")
    assert result.returncode == 0, result.stderr

    data = json.loads((tmp_path / "meeting.json").read_text(encoding="utf-8"))
    assert data["speakers"] == [{"id": 1, "name": "Speaker 1"}, {"id": 2, "name": "Speaker 2"}]
    said = [segment["speaker"] for segment in data["segments"]]
    cues = list(srt.parse((tmp_path / "meeting.srt").read_text(encoding="utf-8")))
    assert [cue.content.split(": ", 1)[0] for cue in cues] == said
    voices = [caption.voice for caption in webvtt.read(str(tmp_path / "meeting.vtt")).captions]
    assert voices == said
    txt = (tmp_path / "meeting.txt").read_text(encoding="utf-8")
    assert txt.startswith("Speaker 1: ") and "\n\nSpeaker 2: " in txt


@pytest.mark.parametrize("value", ["1", "9", "many", ""])
def test_a_speaker_choice_that_is_not_off_auto_or_2_to_8_is_refused_in_one_line(tmp_path, value):
    result = voxdesk("transcribe", tmp_path / "none.wav", "--speakers", value)
    assert result.returncode == 2
    assert "--speakers: expected off, auto or a number from 2 to 8" in result.stderr
    assert "Traceback" not in result.stderr
