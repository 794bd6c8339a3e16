"""`voxdesk live` as a person runs it from a terminal, listening to a virtual microphone on the private
PulseAudio server that speaks real recordings; real Whisper base weights, a real process."""
from __future__ import annotations

import os
import shutil
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
    assert "What this computer plays (VoxDesk-test-speakers)" in stdout
    assert stdout.count("[default]") == 1


@pytest.mark.parametrize("args, says", [
    (["--output", "notes.docx"], "--output must end in"),
    (["--output", "missing folder/notes.txt"], "does not exist"),
    (["--device", "a microphone that is not there"], "--list-devices"),
    (["--duration", "-3"], "expected a number of seconds"),
    (["--save-audio", "meeting.wav"], "--save-audio must end in .flac"),
    (["--save-audio", "missing folder/meeting.flac"], "does not exist"),
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


def test_the_recording_goes_to_the_file_save_audio_names(pulseaudio, tmp_path, isolated_user_folders):
    output, audio = tmp_path / "notes.txt", tmp_path / "meeting.flac"
    with SpeakingMicrophone(pulseaudio, tmp_path) as microphone:
        process = voxdesk_live("--model", base_dir(), "--language", "en", "--duration", "8", "--output", output,
                               "--save-audio", audio)
        before = wait_until_listening(process)
        microphone.say_in_background(jfk()[: int(3.3 * RATE)], then_silence=60.0)  # "And so my fellow Americans"
        _stdout, stderr = process.communicate(timeout=300)
        stderr = before + stderr

    assert process.returncode == 0, stderr
    assert f"Recording to {audio}" in stderr and f"Recording kept: {audio}" in stderr
    assert probe(audio).duration >= 3.0
    assert "fellow americans" in normalize_english(output.read_text(encoding="utf-8"))
    assert recordings(isolated_user_folders / "data") == [], "nothing is left in the data folder"


def test_an_existing_recording_is_never_replaced(pulseaudio, tmp_path, isolated_user_folders):
    audio = tmp_path / "yesterday.flac"
    audio.write_bytes(b"yesterday's meeting")
    process = subprocess.run([sys.executable, "-m", "desktop", "live", "--save-audio", audio, "--overwrite"],
                             env={**os.environ}, capture_output=True, text=True, timeout=120)
    assert process.returncode == 2 and "Choose another name for --save-audio" in process.stderr
    assert audio.read_bytes() == b"yesterday's meeting"
    assert recordings(isolated_user_folders / "data") == []


def test_a_model_in_the_shared_folders_is_used_with_no_network_attempt(pulseaudio, tmp_path):
    from tests.helpers.http_server import FileServer, closed_port_url
    from tests.helpers.weights import tiny_en_dir

    shared = tmp_path / "it-models"
    shutil.copytree(tiny_en_dir(), shared / "faster-whisper-tiny.en")
    dead = closed_port_url().rstrip("/")
    with FileServer() as hub, SpeakingMicrophone(pulseaudio, tmp_path) as microphone:
        env = {**os.environ, "VOXDESK_MODEL_DIRS": str(shared), "HF_ENDPOINT": hub.base_url.rstrip("/"),
               "http_proxy": dead, "https_proxy": dead, "HTTP_PROXY": dead, "HTTPS_PROXY": dead,
               "no_proxy": "127.0.0.1", "NO_PROXY": "127.0.0.1"}
        process = subprocess.Popen([sys.executable, "-m", "desktop", "live", "--model", "tiny.en", "--language", "en",
                                    "--duration", "3"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True)
        microphone.say_in_background(np.zeros(RATE, np.float32), then_silence=60.0)
        _stdout, stderr = process.communicate(timeout=300)
        asked = hub.request_count()

    assert process.returncode == 0, stderr
    assert "Listening to" in stderr and "Downloading" not in stderr
    assert asked == 0


def test_silence_says_no_speech_was_heard_and_writes_no_empty_subtitles(pulseaudio, tmp_path, isolated_user_folders):
    output = tmp_path / "out.srt"
    with SpeakingMicrophone(pulseaudio, tmp_path) as microphone:
        process = voxdesk_live("--model", base_dir(), "--language", "en", "--duration", "6", "--output", output)
        wait_until_listening(process)
        microphone.say_in_background(np.zeros(RATE, np.float32), then_silence=60.0)
        _stdout, stderr = process.communicate(timeout=300)

    assert process.returncode == 0, stderr
    assert "No speech was heard" in stderr and "out.srt was not written" in stderr
    assert not output.exists()
    [recording] = recordings(isolated_user_folders / "data")
    assert str(recording) in stderr


def test_the_sound_library_s_own_error_lines_stay_off_the_terminal(pulseaudio, tmp_path, isolated_user_folders):
    # The source the sound server is told to record from is gone: ALSA and PortAudio both complain
    # on stderr when the stream opens; the user gets VoxDesk's sentence alone.
    env = {**os.environ, "PULSE_SOURCE": "a_headset_unplugged_a_moment_ago"}
    process = subprocess.run([sys.executable, "-m", "desktop", "live", "--model", base_dir(), "--language", "en",
                              "--duration", "2"], env=env, capture_output=True, text=True, timeout=300)

    assert process.returncode == 1, process.stderr
    # The sound server's default source is offered first (PULSE_SOURCE names none that exists).
    assert "voxdesk: The microphone “Virtual Source voxdesk_microphone" in process.stderr
    assert "ALSA lib" not in process.stderr and "Expression '" not in process.stderr, process.stderr
    assert "Traceback" not in process.stderr


def test_a_source_unloaded_mid_session_stops_it_with_a_sentence_and_keeps_the_recording(
        pulseaudio, tmp_path, isolated_user_folders):
    output = tmp_path / "meeting.txt"
    with SpeakingMicrophone(pulseaudio, tmp_path) as microphone:
        process = voxdesk_live("--model", base_dir(), "--language", "en", "--duration", "60", "--output", output)
        wait_until_listening(process)
        microphone.say(jfk()[: int(3.3 * RATE)])  # "And so my fellow Americans"
        # The headset goes away; the sound server moves the stream to its fallback source and the
        # session would record on from there.
        microphone.unplug()
        stdout, stderr = process.communicate(timeout=300)

    assert process.returncode == 1, stderr
    assert "went away (unplugged or switched off), so live captions stopped" in stderr
    assert "fellow americans" in normalize_english(output.read_text(encoding="utf-8"))
    [recording] = recordings(isolated_user_folders / "data")
    assert str(recording) in stderr
    assert 3.0 <= probe(recording).duration < 50.0  # not the whole --duration from the fallback source
