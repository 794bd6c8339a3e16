"""The sound server's sources, monitors included, listed and recorded from by name (a real private server)."""
from __future__ import annotations

import json
import os
import time
from contextlib import contextmanager

import numpy as np
import pytest

from desktop.core.common.pulse_sources import parse_sources, parse_sources_json, source_selected
from desktop.core.common.recorder import capture_devices, microphones
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

    monitors = [d for d in devices if d.monitor]
    assert [d.name for d in monitors] == ["VoxDesk-test-speakers"]  # named by the speakers it hears
    assert monitors[0].pulse_source == f"{pulseaudio.sink}.monitor"
    microphone = next(d for d in devices if d.pulse_source == pulseaudio.source)
    assert not microphone.monitor
    assert all(not d.monitor for d in microphones())


@contextmanager
def described_sources(server, *descriptions: str):
    """Sine sources with these descriptions, the last one the server's default, while the block runs."""
    saved_default = server.pactl("get-default-source").strip()
    modules, names = [], []
    try:
        for number, description in enumerate(descriptions):
            name = f"described_{number}"
            modules.append(server.pactl("load-module", "module-sine-source", f"source_name={name}", "rate=44100",
                                        f"source_properties=\"device.description='{description}'\"").strip())
            names.append(name)
        server.pactl("set-default-source", names[-1])
        yield names
    finally:
        for module in modules:
            server.pactl("unload-module", module)
        server.pactl("set-default-source", saved_default)


def test_devices_carry_the_names_the_sound_settings_show_the_default_first_and_marked_once(pulseaudio, monkeypatch):
    monkeypatch.delenv("PULSE_SOURCE")  # the server's own default, as the sound settings set it
    with described_sources(pulseaudio, "Desk microphone", "USB Headset"):
        devices = capture_devices()

    names = [d.label for d in devices]
    assert names[0] == "USB Headset" and devices[0].is_default
    assert [d.is_default for d in devices].count(True) == 1
    assert "Desk microphone" in names
    # PortAudio's ALSA names are not offered when the sound server names its sources.
    assert not {"pulse", "default", "sysdefault"} & set(names)
    assert not any("kHz" in name for name in names)
    assert devices[-1].monitor  # what the computer plays comes after the microphones


def test_a_source_named_in_pulse_source_is_this_programs_default_as_for_every_sound_client(pulseaudio, monkeypatch):
    with described_sources(pulseaudio, "Desk microphone", "USB Headset") as names:
        monkeypatch.setenv("PULSE_SOURCE", names[0])
        devices = capture_devices()
    assert devices[0].label == "Desk microphone" and devices[0].is_default
    assert [d.is_default for d in devices].count(True) == 1


def test_sources_are_read_from_pactl_json_with_monitors_named_by_their_speakers():
    sources = json.dumps([
        {"name": "alsa_output.analog.monitor", "description": "Monitor of Built-in Audio",
         "monitor_source": "alsa_output.analog", "properties": {"device.class": "monitor"}},
        {"name": "alsa_input.usb", "description": "USB Headset", "monitor_source": "", "properties": {}},
        {"name": "evil", "description": "Mic\u202e\x1b[31m red"},
        {"description": "no name"}, "not an object", {"name": 7},
    ])
    sinks = json.dumps([{"name": "alsa_output.analog", "description": "Built-in Audio"}])
    assert parse_sources_json(sources, sinks) == [
        ("alsa_output.analog.monitor", "Built-in Audio", True),
        ("alsa_input.usb", "USB Headset", False),
        ("evil", "Mic\u202e\x1b[31m red", False),
    ]
    assert parse_sources_json("{not json") == []
    assert parse_sources_json("[" * 10_000 + "]" * 10_000) == []


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
