"""The sound server's own sources (PulseAudio, or PipeWire through pipewire-pulse), "Monitor of …" included.

PortAudio sees a PulseAudio or PipeWire server as one ALSA device called "pulse"; which source that
device records from is the server's default, or the one named in the PULSE_SOURCE variable when
the stream opens. So each source is offered as an InputDevice on the "pulse" device with its
source name, and ``source_selected`` names it while the stream opens.

A monitor source hears what the computer plays (a call, a video), not a microphone. The sources are
read with ``pactl``; without it (no sound server, or a plain ALSA system) the list is empty.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import threading
from contextlib import contextmanager
from typing import TYPE_CHECKING, Iterator

if TYPE_CHECKING:
    from desktop.core.common.recorder import InputDevice

_ENV_LOCK = threading.Lock()  # one stream opens at a time while PULSE_SOURCE is changed


@contextmanager
def source_selected(source: str | None) -> Iterator[None]:
    """PULSE_SOURCE names ``source`` while the block runs (nothing changes for None)."""
    if source is None:
        yield
        return
    with _ENV_LOCK:
        saved = os.environ.get("PULSE_SOURCE")
        os.environ["PULSE_SOURCE"] = source
        try:
            yield
        finally:
            if saved is None:
                os.environ.pop("PULSE_SOURCE", None)
            else:
                os.environ["PULSE_SOURCE"] = saved


def parse_sources(listing: str) -> list[tuple[str, str, bool]]:
    """(name, description, is a monitor) of each source in ``pactl list sources`` output (C locale)."""
    found: list[tuple[str, str, bool]] = []
    name = description = None
    monitor = False

    def close() -> None:
        if name:
            found.append((name, description or name, monitor))

    for raw in listing.splitlines():
        line = raw.strip()
        if raw.startswith("Source #"):
            close()
            name, description, monitor = None, None, False
        elif line.startswith("Name:") and name is None:
            name = line.partition(":")[2].strip()
        elif line.startswith("Description:") and description is None:
            description = line.partition(":")[2].strip()
        elif line.startswith("Monitor of Sink:"):
            monitor = line.partition(":")[2].strip() not in ("", "n/a")
    close()
    return found


def pulse_sources(pulse_device: "InputDevice | None") -> list["InputDevice"]:
    """Every source of the sound server as an InputDevice on PortAudio's "pulse" device; [] when
    there is no such device, no pactl, or no server answering."""
    from desktop.core.common.recorder import InputDevice

    if pulse_device is None or shutil.which("pactl") is None:
        return []
    try:
        result = subprocess.run(["pactl", "list", "sources"], capture_output=True, text=True, timeout=5,
                                env={**os.environ, "LC_ALL": "C"}, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return []
    if result.returncode != 0:
        return []
    return [
        InputDevice(index=pulse_device.index, name=description, channels=pulse_device.channels,
                    default_rate=pulse_device.default_rate, pulse_source=name, monitor=monitor)
        for name, description, monitor in parse_sources(result.stdout)
    ]


def capture_devices() -> list["InputDevice"]:
    """What live captions can listen to: PortAudio's inputs (the default first), then each source of
    the sound server by name, monitors of what the computer plays included."""
    from desktop.core.common.recorder import input_devices

    devices = input_devices()
    pulse = next((device for device in devices if device.name == "pulse"), None)
    return devices + pulse_sources(pulse)
