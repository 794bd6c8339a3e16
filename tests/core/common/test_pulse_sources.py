"""The sound server's sources, monitors included, listed and recorded from by name (a real private server)."""
from __future__ import annotations

import os
import time

import numpy as np
import pytest

from desktop.core.common.pulse_sources import parse_sources, source_selected
from desktop.core.common.recorder import capture_devices
from desktop.core.common.recorder import Recorder
from tests.helpers.pulseaudio import pulseaudio, pulseaudio_server  # noqa: F401 - fixtures

pytestmark = pytest.mark.timeout(120)

LISTING = """Source #0
\tState: RUNNING
\tName: alsa_output.pci-0000_00_1f.3.analog-stereo.monitor
\tDescription: Monitor of Built-in Audio Analog Stereo
\tMonitor of Sink: alsa_output.pci-0000_00_1f.3.analog-stereo
\tProperties:
\t\tdevice.description = "Monitor of Built-in Audio Analog Stereo"
Source #1
\tName: alsa_input.usb-Headset-00.mono-fallback
\tDescription: USB Headset Mono
\tMonitor of Sink: n/a
"""


def test_sources_are_read_from_pactl_with_monitors_told_apart():
    assert parse_sources(LISTING) == [
        ("alsa_output.pci-0000_00_1f.3.analog-stereo.monitor", "Monitor of Built-in Audio Analog Stereo", True),
        ("alsa_input.usb-Headset-00.mono-fallback", "USB Headset Mono", False),
    ]
    assert parse_sources("") == []


def test_the_monitor_of_the_speakers_is_offered_with_the_microphones(pulseaudio):
    devices = capture_devices()

    assert devices[0].is_default and devices[0].pulse_source is None  # PortAudio's default first
    monitors = [d for d in devices if d.monitor]
    assert [d.name for d in monitors] == ["Monitor of VoxDesk-test-speakers"]
    assert monitors[0].pulse_source == f"{pulseaudio.sink}.monitor"
    microphone = next(d for d in devices if d.pulse_source == pulseaudio.source)
    assert not microphone.monitor


def test_a_source_chosen_by_name_is_the_one_recorded(pulseaudio):
    index = pulseaudio.pactl("load-module", "module-sine-source", "source_name=named_tone", "rate=44100").strip()
    try:
        tone = next(d for d in capture_devices() if d.pulse_source == "named_tone")
        recorder = Recorder(tone)
        recorder.start()
        deadline = time.monotonic() + 30
        while recorder.elapsed < 1.0 and time.monotonic() < deadline:
            time.sleep(0.05)
        recording = recorder.stop()
    finally:
        pulseaudio.pactl("unload-module", index)

    # The default microphone hears silence here; the tone comes from the source named.
    assert np.max(np.abs(recording.samples)) > 0.4
    assert os.environ.get("PULSE_SOURCE") == pulseaudio.source  # put back after opening


def test_choosing_a_source_puts_the_variable_back():
    saved = os.environ.get("PULSE_SOURCE")
    with source_selected("somewhere"):
        assert os.environ["PULSE_SOURCE"] == "somewhere"
    assert os.environ.get("PULSE_SOURCE") == saved
    with source_selected(None):
        assert os.environ.get("PULSE_SOURCE") == saved
