"""How fast each Whisper model ran on this computer, and which encoder is faster on its processor:
measured once, kept in a small JSON file.

A record is keyed by model, engine, device and the machine: the processor, the graphics cards and the
versions of VoxDesk and the engine libraries, so a new GPU or a new CTranslate2 is measured again
instead of showing an old figure. The file is the user's own but may be damaged or replaced: anything
in it that is not a record exactly as written here is ignored, and a file that cannot be read counts
as empty.
"""
from __future__ import annotations

import functools
import hashlib
import json
import logging
import math
import os
import re
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path

from desktop.core.common.atomic import atomic_write_text
from desktop.core.common.errors import UserFacingError
from desktop.core.common.paths import data_dir
from desktop.core.common.safe_files import open_regular

log = logging.getLogger(__name__)

FILE_NAME = "model-speeds.json"
_MAX_FILE_BYTES = 1_000_000
_MAX_FIELD = 200
_LIBRARIES = ("voxdesk", "ctranslate2", "faster-whisper", "torch", "openai-whisper")


def default_path() -> Path:
    return data_dir() / FILE_NAME


@dataclass(frozen=True)
class EncoderRecord:
    """How long one 30-second window takes to encode on this machine's processor with each of the fast
    engine's two encoders, for one model (``engines/transcription/bf16_encoder.py``)."""

    model: str
    machine: str  # machine_key() when it was measured
    int8_seconds: float  # CTranslate2's own encoder, per window
    bf16_seconds: float | None  # torch's encoder in bfloat16, per window; None: it could not run here
    load_seconds: float | None  # what switching to torch's encoder costs once, in a fresh engine process
    measured: str  # ISO date and time

    @property
    def key(self) -> tuple[str, str]:
        return self.model, self.machine


@dataclass(frozen=True)
class SpeedRecord:
    model: str
    engine: str  # "torch" or "ct2"
    device: str  # "cuda" or "cpu"
    machine: str  # machine_key() when it was measured
    factor: float  # seconds of audio transcribed per second of work
    measured: str  # ISO date and time, for the curious reader of the file

    @property
    def key(self) -> tuple[str, str, str, str]:
        return self.model, self.engine, self.device, self.machine


@functools.lru_cache(maxsize=1)
def machine_key() -> str:
    """A short fingerprint of what makes a measurement valid: processor, graphics cards, library versions.

    Reads /proc and /sys and the installed packages' metadata (about 0.1 s) once per process: none of
    it changes while VoxDesk runs, and the engine asks before every recording. Imports no heavy library.
    """
    from importlib import metadata

    from desktop.core.gpu.device import cpu_name

    versions = {}
    for name in _LIBRARIES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    parts = {"cpu": cpu_name(Path("/proc/cpuinfo")), "cores": os.cpu_count(), "gpus": _display_devices(),
             "versions": versions}
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:16]


def _display_devices(sysfs_drm: Path = Path("/sys/class/drm")) -> list[str]:
    """vendor:device PCI ids of every graphics card (any vendor)."""
    found = []
    try:
        cards = sorted(p for p in sysfs_drm.iterdir() if re.fullmatch(r"card\d+", p.name))
    except OSError:
        return []
    for card in cards:
        try:
            vendor = (card / "device" / "vendor").read_text().strip()
            device = (card / "device" / "device").read_text().strip()
        except OSError:
            continue
        found.append(f"{vendor}:{device}")
    return found


class SpeedRecords:
    """The records file. Reads are cheap and never fail; writes replace the file atomically."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()

    def all(self) -> list[SpeedRecord]:
        """Every valid record in the file; none when it is missing, damaged or not a regular file."""
        return self._read()[0]

    def encoders(self) -> list[EncoderRecord]:
        """Every valid encoder measurement in the file."""
        return self._read()[1]

    def _read(self) -> tuple[list[SpeedRecord], list[EncoderRecord]]:
        try:
            with open_regular(self.path, follow_links=False) as stream:  # a link may point anywhere
                raw = stream.read(_MAX_FILE_BYTES + 1)
            if len(raw) > _MAX_FILE_BYTES:
                raise ValueError("longer than a speeds file can be")
            data = json.loads(raw.decode("utf-8"))
        except FileNotFoundError:
            return [], []
        except (OSError, UserFacingError, UnicodeDecodeError, ValueError, RecursionError) as exc:
            log.warning("ignoring the model speeds file %s: %s", self.path, exc)
            return [], []
        if not isinstance(data, dict):
            return [], []
        records, encoders = data.get("records"), data.get("encoders")
        return ([record for record in map(_parsed, records) if record is not None] if isinstance(records, list) else [],
                [record for record in map(_parsed_encoder, encoders) if record is not None]
                if isinstance(encoders, list) else [])

    def add(self, model: str, engine: str, device: str, machine: str, factor: float) -> SpeedRecord:
        """Keep a new measurement, replacing an older one with the same key. Raises ExportError on a failed write."""
        record = SpeedRecord(model, engine, device, machine, round(float(factor), 3), _now())
        if _parsed(asdict(record)) is None:
            raise ValueError(f"not a valid speed record: {record}")
        records, encoders = self._read()
        self._write([old for old in records if old.key != record.key] + [record], encoders)
        return record

    def add_encoder(self, model: str, machine: str, *, int8_seconds: float, bf16_seconds: float | None,
                    load_seconds: float | None) -> EncoderRecord:
        """Keep a new encoder measurement, replacing an older one of the same model and machine. Raises
        ExportError on a failed write."""
        record = EncoderRecord(model, machine, round(float(int8_seconds), 4),
                               _rounded(bf16_seconds, 4), _rounded(load_seconds, 3), _now())
        if _parsed_encoder(asdict(record)) is None:
            raise ValueError(f"not a valid encoder record: {record}")
        records, encoders = self._read()
        self._write(records, [old for old in encoders if old.key != record.key] + [record])
        return record

    def encoder(self, model: str, machine: str) -> EncoderRecord | None:
        """The encoder measurement of ``model`` on ``machine``, if there is one."""
        return next((record for record in self.encoders() if record.key == (model, machine)), None)

    def _write(self, records: list[SpeedRecord], encoders: list[EncoderRecord]) -> None:
        text = json.dumps({"records": [asdict(r) for r in records], "encoders": [asdict(r) for r in encoders]},
                          ensure_ascii=False, indent=1)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(self.path, text + "\n", overwrite=True)

    def measured(self, machine: str) -> set[tuple[str, str, str]]:
        """The (model, engine, device) measured on this machine."""
        return {(r.model, r.engine, r.device) for r in self.all() if r.machine == machine}

    def factors(self, machine: str, *, engine: str = "auto", device: str = "auto") -> dict[str, float]:
        """Model → the best factor measured on this machine with the engine and device the user's settings allow.

        engine: "auto", "torch" or "ct2"; device: "auto", "gpu" or "cpu" (the Settings choices).
        """
        best: dict[str, float] = {}
        for record in self.all():
            if record.machine != machine or (engine != "auto" and record.engine != engine):
                continue
            if device != "auto" and record.device != ("cuda" if device == "gpu" else "cpu"):
                continue
            best[record.model] = max(best.get(record.model, 0.0), record.factor)
        return best


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _rounded(value: float | None, digits: int) -> float | None:
    return None if value is None else round(float(value), digits)


def _texts_valid(entry: dict, fields: tuple[str, ...]) -> bool:
    return all(isinstance(entry.get(field), str) and 0 < len(entry[field]) <= _MAX_FIELD for field in fields)


def _seconds(value, *, most: float = 3600.0) -> float | None:
    """A measured duration as a float, or None when it is not one a measurement can give."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return float(value) if 0 < value <= most else None


def _parsed_encoder(entry) -> EncoderRecord | None:
    """An encoder record exactly as add_encoder() writes one, or None."""
    if not isinstance(entry, dict) or not _texts_valid(entry, ("model", "machine", "measured")):
        return None
    int8, bf16, load = (entry.get(field) for field in ("int8_seconds", "bf16_seconds", "load_seconds"))
    if _seconds(int8) is None or any(value is not None and _seconds(value) is None for value in (bf16, load)):
        return None
    return EncoderRecord(entry["model"], entry["machine"], float(int8), _rounded(bf16, 4), _rounded(load, 3),
                         entry["measured"])


def _parsed(entry) -> SpeedRecord | None:
    """A record exactly as add() writes one, or None."""
    if not isinstance(entry, dict):
        return None
    if not _texts_valid(entry, ("model", "engine", "device", "machine", "measured")):
        return None
    factor = entry.get("factor")
    if isinstance(factor, bool) or not isinstance(factor, (int, float)) or not math.isfinite(factor):
        return None
    if not 0 < factor < 100_000 or entry["engine"] not in ("torch", "ct2") or entry["device"] not in ("cuda", "cpu"):
        return None
    return SpeedRecord(entry["model"], entry["engine"], entry["device"], entry["machine"], float(factor),
                       entry["measured"])
