"""Whether a recording is still the one a saved transcript was made from.

A fingerprint is the file's size, its modification time and a SHA-256 of its size, first MiB and last
MiB: fast on an hour of video, and enough to notice a recording replaced or re-encoded under the same
name. A file whose time changed but whose fingerprint did not (copied back, touched) counts as the same.
"""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from enum import Enum

_PART = 1024 * 1024  # bytes hashed from the start and from the end


class SourceState(Enum):
    SAME = "same"
    CHANGED = "changed"  # a different file has the name now
    MISSING = "missing"  # moved, deleted, or no longer readable


@dataclass(frozen=True)
class Fingerprint:
    size: int
    mtime_ns: int
    digest: str  # hex SHA-256 of the size, the first and the last MiB


def fingerprint(path: str | os.PathLike[str]) -> Fingerprint:
    """Raises OSError when the file cannot be read."""
    with open(path, "rb") as stream:
        status = os.fstat(stream.fileno())
        return Fingerprint(status.st_size, status.st_mtime_ns, _digest(stream, status.st_size))


def source_state(path: str | os.PathLike[str], saved: Fingerprint | None) -> SourceState:
    """How the file at path compares with its saved fingerprint (None: nothing to compare with)."""
    try:
        status = os.stat(path)
    except OSError:
        return SourceState.MISSING
    if saved is None:
        return SourceState.SAME
    if status.st_size != saved.size:
        return SourceState.CHANGED
    if status.st_mtime_ns == saved.mtime_ns:
        return SourceState.SAME  # as git does: same size and time, same file; no need to read it
    try:
        now = fingerprint(path)
    except OSError:
        return SourceState.MISSING
    return SourceState.SAME if now.digest == saved.digest else SourceState.CHANGED


def _digest(stream, size: int) -> str:
    digest = hashlib.sha256(size.to_bytes(8, "little"))
    if size <= 2 * _PART:
        digest.update(stream.read())
    else:
        digest.update(stream.read(_PART))
        stream.seek(size - _PART)
        digest.update(stream.read(_PART))
    return digest.hexdigest()
