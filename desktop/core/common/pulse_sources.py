"""The sound server's own sources (PulseAudio, or PipeWire through pipewire-pulse), "Monitor of …" included.

PortAudio sees a PulseAudio or PipeWire server as one ALSA device called "pulse"; which source that
device records from is the server's default, or the one named in the PULSE_SOURCE variable when
the stream opens. So each source is offered as an InputDevice on the "pulse" device with its
source name, and ``source_selected`` names it while the stream opens.

A monitor source hears what the computer plays (a call, a video), not a microphone. The sources are
read with ``pactl`` (its JSON where it has one), with the descriptions the desktop's sound settings
show; without it (no sound server, or a plain ALSA system) the list is empty and PortAudio's own
device names are all there is.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator

from desktop.core.common.input_device import InputDevice
from desktop.core.common.safe_text import clean_text

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


MAX_LISTING_CHARS = 4_000_000  # far above any real listing; a bigger answer is not read


@dataclass(frozen=True)
class ServerSource:
    """One source as the desktop's sound settings name it."""

    name: str  # the server's own name, used to record from it
    description: str  # the name people see ("Built-in Audio Analog Stereo", "USB Headset")
    monitor: bool = False  # hears what the computer plays: ``description`` is then the speakers' name
    is_default: bool = False


def parse_sources_json(listing: str, sinks: str = "[]") -> list[tuple[str, str, bool]]:
    """(name, description, is a monitor) of each source in ``pactl -f json list sources`` output.

    A monitor is described by the speakers it listens to (their entry in ``pactl -f json list
    sinks``), since the server's "Monitor of …" is not a name anyone chose. Entries that are not
    what pactl writes are left out.
    """
    sink_names = {entry.get("name"): entry.get("description")
                  for entry in _json_list(sinks) if isinstance(entry.get("name"), str)}
    found: list[tuple[str, str, bool]] = []
    for entry in _json_list(listing):
        name, description = entry.get("name"), entry.get("description")
        if not isinstance(name, str) or not name:
            continue
        properties = entry.get("properties") if isinstance(entry.get("properties"), dict) else {}
        watched = entry.get("monitor_source")  # for a source pactl names the sink it monitors here
        monitor = properties.get("device.class") == "monitor" or (isinstance(watched, str) and bool(watched))
        if monitor and isinstance(watched, str) and isinstance(sink_names.get(watched), str):
            description = sink_names[watched]
        found.append((name, description if isinstance(description, str) and description else name, monitor))
    return found


def _json_list(text: str) -> list[dict]:
    from desktop.core.common.bounded_http import parse_json

    if len(text) > MAX_LISTING_CHARS:
        return []
    try:
        value = parse_json(text, max_depth=8)
    except ValueError:
        return []
    return [entry for entry in value if isinstance(entry, dict)] if isinstance(value, list) else []


def server_sources() -> list[ServerSource] | None:
    """The sound server's sources as its settings show them: the default first, then the other
    microphones, then what the computer plays; None when no server answers through pactl."""
    listing = _pactl("-f", "json", "list", "sources")
    if listing is not None:
        found = parse_sources_json(listing, _pactl("-f", "json", "list", "sinks") or "[]")
    else:  # pactl before version 16 has no JSON
        listing = _pactl("list", "sources")
        if listing is None:
            return None
        found = parse_sources(listing)
    # PULSE_SOURCE, where set, is this program's default, as for every client of the sound server.
    names = {name for name, _description, _monitor in found}
    default = os.environ.get("PULSE_SOURCE", "").strip()
    if default not in names:
        default = (_pactl("get-default-source") or "").strip()
    sources = [ServerSource(name=name, description=clean_text(description).strip() or name, monitor=monitor,
                            is_default=name == default)
               for name, description, monitor in found]
    return sorted(sources, key=lambda source: (not source.is_default, source.monitor))


def pulse_sources(pulse_device: InputDevice | None) -> list[InputDevice]:
    """Every source of the sound server as an InputDevice on PortAudio's "pulse" device, named as the
    desktop names it, the server's default first and marked; [] when there is no such device, no
    pactl, or no server answering."""
    if pulse_device is None:
        return []
    return [
        InputDevice(index=pulse_device.index, name=source.description, channels=pulse_device.channels,
                    default_rate=pulse_device.default_rate, is_default=source.is_default,
                    pulse_source=source.name, monitor=source.monitor)
        for source in server_sources() or []
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
