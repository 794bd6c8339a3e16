"""The recorder through the real stack: sounddevice -> PortAudio -> ALSA's pulse plugin -> a private
PulseAudio server whose microphone is a real PulseAudio source module:

- module-sine-source, a clocked 440 Hz tone (levels, duration, sample rate, the time limit, unplugging);
- module-pipe-source fed with a real recording (speech as a microphone would hear it), for trimming
  and the quality checks on what was really captured;
- module-null-source, a microphone that hears nothing.

(The helper's null-sink microphone is not used here: on the test machines its monitor delivers
audio in two-second bursts and drops most of a file played into it.)
"""
from __future__ import annotations

import contextlib
import os
import threading
import time
from pathlib import Path
from typing import Iterator

import numpy as np
import pytest

from desktop.core.common.audio import decode
from desktop.core.common.recorder import (
    DEVICE_LOST,
    NO_INPUT,
    Recorder,
    RecorderError,
    default_input_device,
    input_devices,
)
from desktop.core.voices.quality import prepare_sample
from desktop.core.voices.library import save_wav
from tests.helpers.pulseaudio import (  # noqa: F401 - fixtures
    PulseAudioServer,
    pulseaudio,
    pulseaudio_available,
    pulseaudio_server,
    refresh_portaudio,
)
from tests.helpers.weights import DATA_DIR
from tests.helpers.tools import require_tool

pytestmark = pytest.mark.timeout(180)


def wait_until(condition, timeout: float = 30.0) -> None:
    """Wait for something the audio thread does; fails the test if it never happens."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("the recorder never got there")
        time.sleep(0.02)


@contextlib.contextmanager
def microphone(server: PulseAudioServer, module: str, *args: str) -> Iterator[str]:
    """Load a source module as this process's microphone for the duration of the block."""
    name = f"test_mic_{module.replace('-', '_')}_{time.monotonic_ns()}"
    index = server.pactl("load-module", module, f"source_name={name}", *args).strip()
    saved = os.environ.get("PULSE_SOURCE")
    os.environ["PULSE_SOURCE"] = name
    refresh_portaudio()
    try:
        yield name
    finally:
        if saved is None:
            os.environ.pop("PULSE_SOURCE", None)
        else:
            os.environ["PULSE_SOURCE"] = saved
        server.pactl("unload-module", index)
        refresh_portaudio()


def feed(fifo: Path, samples: np.ndarray, rate: int) -> threading.Thread:
    """Write samples into a pipe source at the pace of real time, as a person speaking would."""
    pcm = (np.clip(samples, -1, 1) * 32767).astype("<i2").tobytes()

    def run() -> None:
        fd = os.open(fifo, os.O_WRONLY)
        try:
            block = rate // 50 * 2  # 20 ms
            started = time.monotonic()
            for start in range(0, len(pcm), block):
                os.write(fd, pcm[start : start + block])
                ahead = started + (start + block) / (2 * rate) - time.monotonic()
                if ahead > 0:
                    time.sleep(ahead)
        finally:
            os.close(fd)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def record_fed(server: PulseAudioServer, tmp_path: Path, samples: np.ndarray, rate: int = 48000):
    fifo = tmp_path / "microphone.fifo"
    with microphone(server, "module-pipe-source", f"file={fifo}", "format=s16le", f"rate={rate}", "channels=1"):
        # The pipe source has no clock of its own: small PortAudio blocks keep it near real time.
        recorder = Recorder(latency=0.005)
        recorder.start()
        feed(fifo, samples, rate).join()
        wait_until(lambda: recorder.elapsed >= len(samples) / rate - 0.05, timeout=120)
        return recorder, recorder.stop()


def test_the_microphones_are_listed_with_the_default_first_and_their_own_rate(pulseaudio):
    devices = input_devices()

    assert devices and devices[0].is_default
    assert default_input_device() == devices[0]
    assert all(d.default_rate >= 44100 and d.channels >= 1 for d in devices)


def test_a_tone_is_recorded_at_the_device_s_own_rate_with_live_levels(pulseaudio):
    with microphone(pulseaudio, "module-sine-source", "rate=44100", "frequency=440"):
        seen = []
        recorder = Recorder(on_levels=seen.append)
        recorder.start()
        wait_until(lambda: recorder.elapsed >= 1.5)
        meter = recorder.levels()
        recording = recorder.stop()

    device = recorder.device
    assert recording.sample_rate == device.default_rate >= 44100  # never 16 kHz
    assert recording.duration >= 1.5
    assert not recording.device_lost and recording.note is None
    # module-sine-source plays at half of full scale: -6 dBFS peak, -9 dBFS RMS.
    assert -7.0 < meter.peak_dbfs < -5.0
    assert -10.0 < meter.rms_dbfs < -8.0
    assert not meter.clipping
    assert meter.elapsed >= 1.5
    assert seen and all(-7.0 < level.peak_dbfs < -5.0 for level in seen[len(seen) // 2:])
    # A steady tone has no pauses and no syllables: it is not accepted as a voice.
    assert prepare_sample(recording.samples, recording.sample_rate).report.codes() == {"no_voice"}


def test_real_speech_from_the_microphone_is_captured_trimmed_and_passes_the_checks(pulseaudio, tmp_path):
    rate = 48000
    speech = decode(DATA_DIR / "jfk.flac", sample_rate=rate)
    spoken = np.concatenate([np.zeros(rate, np.float32), speech, np.zeros(2 * rate, np.float32)])

    recorder, recording = record_fed(pulseaudio, tmp_path, spoken, rate)
    prepared = prepare_sample(recording.samples, recording.sample_rate)

    assert recording.sample_rate == recorder.device.default_rate
    assert recording.duration >= len(spoken) / rate - 0.1
    assert prepared.report.accepted and prepared.report.issues == ()
    # The silence before and after is gone; 11 s of speech remain.
    assert 10.5 < prepared.report.duration < 11.8
    # What was captured is the speech itself, at its level (within half a decibel).
    original = prepare_sample(speech, rate).report
    assert abs(prepared.report.speech_rms_dbfs - original.speech_rms_dbfs) < 0.5
    path = save_wav(tmp_path / "sample.wav", prepared.samples, prepared.sample_rate)
    assert abs(len(decode(path, sample_rate=recording.sample_rate)) - len(prepared.samples)) < 10


def test_a_voice_that_is_too_loud_shows_red_on_the_meter_and_is_flagged_as_distorted(pulseaudio, tmp_path):
    rate = 48000
    speech = decode(DATA_DIR / "jfk.flac", sample_rate=rate)[: 7 * rate]
    shouted = np.clip(speech * 8.0, -1.0, 1.0)

    recorder, recording = record_fed(pulseaudio, tmp_path, shouted, rate)

    assert recorder.levels().clipping or any(recording.samples >= 0.999)
    assert "clipping" in prepare_sample(recording.samples, recording.sample_rate).report.codes()


def test_a_microphone_that_hears_nothing_gives_a_recording_refused_as_silent(pulseaudio):
    with microphone(pulseaudio, "module-null-source", "rate=48000"):
        recorder = Recorder()
        recorder.start()
        wait_until(lambda: recorder.elapsed >= 1.0)
        recording = recorder.stop()

    report = prepare_sample(recording.samples, recording.sample_rate).report
    assert report.codes() == {"silent"}
    assert "microphone" in report.issues[0].message


def test_a_recording_stops_by_itself_at_its_time_limit(pulseaudio):
    with microphone(pulseaudio, "module-sine-source", "rate=44100"):
        recorder = Recorder(max_seconds=1.0)
        recorder.start()
        wait_until(lambda: recorder.finished)
        recording = recorder.stop()

    assert recording.duration == pytest.approx(1.0, abs=1e-6)
    assert recording.reached_limit and not recording.device_lost


def test_unplugging_the_microphone_mid_recording_keeps_what_was_recorded(tmp_path):
    if not pulseaudio_available():
        require_tool("pulseaudio")
        require_tool("pactl", "pulseaudio-utils")
    # A server of its own: "unplugging" kills it, the way a USB sound card's driver goes away.
    server = PulseAudioServer(tmp_path / "pulse").start()
    try:
        server.pactl("load-module", "module-sine-source", "source_name=usb_mic", "rate=44100")
        with server.activated():
            os.environ["PULSE_SOURCE"] = "usb_mic"  # activated() puts the old value back afterwards
            refresh_portaudio()
            recorder = Recorder()
            recorder.start()
            wait_until(lambda: recorder.elapsed >= 1.0)
            server._process.kill()
            wait_until(lambda: recorder.finished)
            recording = recorder.stop()
    finally:
        server.stop()
        refresh_portaudio()

    assert recording.device_lost
    assert recording.note == DEVICE_LOST
    assert recording.duration >= 1.0
    assert np.max(np.abs(recording.samples)) > 0.4  # the tone recorded before the unplugging


def test_a_microphone_that_fails_to_start_is_reported_and_its_stream_closed(pulseaudio, monkeypatch):
    import sounddevice

    opened = []

    def start_fails(stream):  # the device went away between opening and starting
        opened.append(stream)
        raise sounddevice.PortAudioError("Device unavailable", -9985)

    with microphone(pulseaudio, "module-sine-source", "rate=44100"):
        monkeypatch.setattr(sounddevice.InputStream, "start", start_fails)
        with pytest.raises(RecorderError, match="could not be opened"):
            Recorder().start()

    assert len(opened) == 1 and opened[0].closed


def test_a_microphone_that_vanishes_just_before_recording_is_reported_in_plain_words(pulseaudio, monkeypatch):
    import sounddevice

    real_stream = sounddevice.InputStream

    def unplugged_meanwhile(**settings):
        # sounddevice's own answer for a device it no longer finds: ValueError, not PortAudioError.
        return real_stream(**{**settings, "device": "microphone unplugged a moment ago"})

    with microphone(pulseaudio, "module-sine-source", "rate=44100"):
        monkeypatch.setattr(sounddevice, "InputStream", unplugged_meanwhile)
        with pytest.raises(RecorderError, match="could not be opened"):
            Recorder().start()


def test_without_any_input_device_the_user_is_told_to_plug_in_a_microphone(tmp_path, monkeypatch):
    # No sound server and no sound card: PortAudio finds nothing to record from.
    (tmp_path / "client.conf").write_text("autospawn = no\n", encoding="utf-8")
    monkeypatch.setenv("PULSE_SERVER", f"unix:{tmp_path / 'no-server'}")
    monkeypatch.setenv("PULSE_CLIENTCONFIG", str(tmp_path / "client.conf"))
    refresh_portaudio_now()
    try:
        assert input_devices() == []
        with pytest.raises(RecorderError) as no_device:
            Recorder().start()
        assert no_device.value.message == NO_INPUT
    finally:
        monkeypatch.undo()
        refresh_portaudio_now()


def refresh_portaudio_now() -> None:
    import sounddevice

    sounddevice._terminate()
    sounddevice._initialize()
