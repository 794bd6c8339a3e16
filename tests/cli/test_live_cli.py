"""`voxdesk live` as a person runs it from a terminal, listening to a virtual microphone on the private
PulseAudio server that speaks real recordings; real Whisper base weights, a real process."""
from __future__ import annotations

import os
import signal
import subprocess
import sys

import numpy as np
import pytest
import srt

from desktop.core.common.audio import decode, probe
from tests.helpers.pulseaudio import pulseaudio, pulseaudio_server  # noqa: F401 - fixtures
from tests.helpers.speaking_microphone import RATE, SpeakingMicrophone
from tests.helpers.weights import DATA_DIR, TESTS_DIR, base_dir, normalize_english

CHECKOUT = str(TESTS_DIR.parent)  # run from another folder, the command must still be this checkout's

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]


def voxdesk_live(*args) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "desktop", "live", *map(str, args)], env={**os.environ},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_until_listening(process: subprocess.Popen) -> str:
    """The lines on stderr until the command says it listens (the model loads first)."""
    said = ""
    while "Listening to" not in said:
        line = process.stderr.readline()
        assert line, f"voxdesk live ended before listening: {said}"
        said += line
    return said


def jfk() -> np.ndarray:
    return decode(DATA_DIR / "jfk.flac", sample_rate=RATE)


def recordings(data_folder) -> list:
    return sorted((data_folder / "live").glob("Live *.flac"))


def test_lines_are_printed_as_spoken_and_the_subtitles_and_recording_written_at_the_end(
        pulseaudio, tmp_path, isolated_user_folders):
    output = tmp_path / "meeting.srt"
    with SpeakingMicrophone(pulseaudio, tmp_path) as microphone:
        process = voxdesk_live("--model", base_dir(), "--language", "en", "--duration", "16", "--output", output)
        before = wait_until_listening(process)
        # Silence after the speech: a pipe source that is not fed stops, like an unplugged device.
        microphone.say_in_background(jfk(), then_silence=60.0)
        stdout, stderr = process.communicate(timeout=300)
        stderr = before + stderr

    assert process.returncode == 0, stderr
    lines = stdout.splitlines()
    assert len(lines) >= 2 and all(line.startswith("[0:") for line in lines)
    spoken = normalize_english(" ".join(line.split("] ", 1)[1] for line in lines))
    assert "fellow americans" in spoken and "what you can do for your country" in spoken
    cues = list(srt.parse(output.read_text(encoding="utf-8")))
    assert normalize_english(" ".join(c.content.replace("\n", " ") for c in cues)) == spoken
    assert [c.start for c in cues] == sorted(c.start for c in cues)
    [recording] = recordings(isolated_user_folders / "data")
    assert str(recording) in stderr
    assert probe(recording).duration >= 14.0


def test_ctrl_c_stops_and_still_writes_the_text_and_the_recording(pulseaudio, tmp_path, isolated_user_folders):
    output = tmp_path / "notes.txt"
    with SpeakingMicrophone(pulseaudio, tmp_path) as microphone:
        process = voxdesk_live("--model", base_dir(), "--language", "en", "--output", output)
        wait_until_listening(process)
        microphone.say(jfk()[: int(3.3 * RATE)])  # "And so my fellow Americans", at the pace of speech
        microphone.say_in_background(np.zeros(0, np.float32), then_silence=60.0)
        process.send_signal(signal.SIGINT)  # Ctrl-C as soon as the last word was said, not a guess after it
        stdout, stderr = process.communicate(timeout=300)

    assert process.returncode == 0, stderr
    assert "fellow americans" in normalize_english(output.read_text(encoding="utf-8"))
    assert "fellow americans" in normalize_english(stdout)
    [recording] = recordings(isolated_user_folders / "data")
    assert probe(recording).duration >= 3.0


def test_the_list_of_inputs_names_the_monitor_of_what_the_computer_plays(pulseaudio):
    process = voxdesk_live("--list-devices")
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 0, stderr
    assert "Monitor of VoxDesk-test-speakers" in stdout and "captions what this computer plays" in stdout


@pytest.mark.parametrize("args, says", [
    (["--output", "notes.docx"], "--output must end in"),
    (["--output", "missing folder/notes.txt"], "does not exist"),
    (["--device", "a microphone that is not there"], "--list-devices"),
    (["--duration", "-3"], "expected a number of seconds"),
])
def test_wrong_choices_are_refused_before_anything_is_recorded(pulseaudio, tmp_path, isolated_user_folders,
                                                                args, says):
    process = subprocess.run([sys.executable, "-m", "desktop", "live", *args], env={**os.environ, "PYTHONPATH": CHECKOUT}, cwd=tmp_path,
                             capture_output=True, text=True, timeout=120)
    assert process.returncode == 2
    assert says in process.stderr
    assert recordings(isolated_user_folders / "data") == []


def test_an_existing_output_is_kept_unless_overwrite_is_given(pulseaudio, tmp_path):
    output = tmp_path / "notes.txt"
    output.write_text("yesterday's notes")
    process = subprocess.run([sys.executable, "-m", "desktop", "live", "--output", output], env={**os.environ},
                             capture_output=True, text=True, timeout=120)
    assert process.returncode == 2 and "--overwrite" in process.stderr
    assert output.read_text() == "yesterday's notes"
