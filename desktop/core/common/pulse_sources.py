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
from typing import Iterator

from desktop.core.common.input_device import InputDevice

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


def pulse_sources(pulse_device: InputDevice | None) -> list[InputDevice]:
    """Every source of the sound server as an InputDevice on PortAudio's "pulse" device; [] when
    there is no such device, no pactl, or no server answering."""
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


def recording_streams(pid: int | None = None) -> dict[int, str]:
    """The sound server's recording streams of this process (by stream number) and the name of the
    source each one records from now; {} when there is no sound server or pactl cannot tell.

    When a source goes away (a headset unplugged, a module unloaded), the sound server moves its
    streams to another source without telling the program: comparing this with what it said when
    the stream opened is the only way to know.
    """
    pid = os.getpid() if pid is None else pid
    outputs = _pactl("list", "source-outputs")
    names = _pactl("list", "short", "sources")
    if outputs is None or names is None:
        return {}
    source_names = {}
    for line in names.splitlines():
        fields = line.split("\t")
        if len(fields) >= 2 and fields[0].strip().isdigit():
            source_names[int(fields[0])] = fields[1].strip()
    streams: dict[int, str] = {}
    number = source = owner = None

    def close() -> None:
        if number is not None and source in source_names and owner == str(pid):
            streams[number] = source_names[source]

    for raw in outputs.splitlines():
        line = raw.strip()
        if raw.startswith("Source Output #"):
            close()
            number_text = raw.partition("#")[2].strip()
            number, source, owner = (int(number_text) if number_text.isdigit() else None), None, None
        elif line.startswith("Source:"):
            value = line.partition(":")[2].strip()
            source = int(value) if value.isdigit() else None
        elif line.startswith("application.process.id ="):
            owner = line.partition("=")[2].strip().strip('"')
    close()
    return streams


def _pactl(*args: str) -> str | None:
    if shutil.which("pactl") is None:
        return None
    try:
        result = subprocess.run(["pactl", *args], capture_output=True, text=True, timeout=5,
                                env={**os.environ, "LC_ALL": "C"}, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return result.stdout if result.returncode == 0 else None
