"""Atomic file writes: a reader sees the old file or the complete new one, never half a file.

The data goes to a temporary file in the destination's own folder (so the final rename stays on one
file system), is flushed to the disk with fsync, and only then takes the destination's name with
os.replace. Whatever fails on the way, the temporary file is removed and an existing destination is
left exactly as it was.

Also here: atomic_output, the same for a writer that needs a file name (a video muxer); atomic_stream, the same for a file written piece by piece (raising OSError as it comes); copy_synced, a copy flushed to the disk for folders published with one rename, and
fsync_dir, which makes such a rename last.
"""
from __future__ import annotations

import errno
import os
import secrets
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, Callable, Iterator

from desktop.core.common.errors import ExportError
from desktop.core.common.fs_errors import write_error_message
from desktop.core.common.i18n import N_

_COPY_CHUNK = 4 * 1024 * 1024
# Errors that mean "this file system cannot make hard links", so the no-overwrite path falls back.
_NO_HARD_LINKS = {errno.EPERM, errno.EXDEV, errno.EMLINK, errno.EOPNOTSUPP, errno.ENOTSUP, errno.ENOSYS}


class ExportExists(ExportError, FileExistsError):
    """The destination exists and the caller did not allow replacing it."""


def atomic_write_text(path: str | os.PathLike[str], text: str, *, overwrite: bool,
                      encoding: str = "utf-8") -> Path:
    """Write text (encoded as UTF-8 unless told otherwise) atomically; see atomic_write_bytes. Text
    the encoding cannot hold (a lone surrogate) is an ExportError before anything is written."""
    try:
        data = text.encode(encoding)
    except UnicodeEncodeError as exc:
        name = Path(path).name
        raise ExportError(
            N_("Files", "VoxDesk could not save “{name}”: its text holds characters that cannot be written to a "
                        "file. Remove the characters that show as boxes or question marks, then try again.").format(
                name=name), detail=f"{type(exc).__name__}: {exc}") from exc
    return atomic_write_bytes(path, data, overwrite=overwrite)


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes, *, overwrite: bool) -> Path:
    """Write data to path atomically and return the path.

    With overwrite=False an existing file is never replaced: ExportExists is raised instead, also when
    another program creates the file while this one is being written. Every other failure is an
    ExportError with a sentence the user can act on.
    """
    path = Path(path)
    if not overwrite and os.path.lexists(path):
        raise _exists_error(path)

    fd, temp = _open_temp(path)
    try:
        try:
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        _publish(temp, path, overwrite)
    except BaseException as exc:
        _remove_quietly(temp)
        if isinstance(exc, OSError) and not isinstance(exc, ExportError):
            raise _as_export_error(exc, path) from exc
        raise
    fsync_dir(path.parent)
    return path


def check_writable(path: str | os.PathLike[str], *, overwrite: bool) -> None:
    """Raise now what writing ``path`` later would raise, so a long job is not done for nothing:
    ExportExists when the file exists and overwrite is False, ExportError when its folder takes no new
    file (missing, read-only, full of names). A hidden file is made there and removed at once."""
    path = Path(path)
    if not overwrite and os.path.lexists(path):
        raise _exists_error(path)
    fd, temp = _open_temp(path)
    os.close(fd)
    _remove_quietly(temp)


def _open_temp(path: Path) -> tuple[int, Path]:
    """Create a new hidden file next to the destination, e.g. '.notes.srt.3fa9c1d2.tmp'.

    O_EXCL: never write through a file (or link) that someone else put there. Mode 0o666 lets the
    user's umask decide the permissions, as for any file a program saves.
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    while True:
        temp = path.with_name(f".{_shortened(path.name)}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(temp, flags, 0o666), temp
        except FileExistsError:
            continue  # another writer's temporary file has this name; draw another
        except OSError as exc:
            raise _as_export_error(exc, path) from exc


def _shortened(name: str, limit: int = 200) -> str:
    """At most limit UTF-8 bytes of name, so a temporary name stays under the usual 255-byte limit
    even when the destination's own name is close to it (a Chinese character takes 3 bytes)."""
    return name.encode("utf-8", "surrogateescape")[:limit].decode("utf-8", "ignore")


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _keep_mode_of_existing(path: Path, temp: Path) -> None:
    """A replaced file keeps its permissions (e.g. a file shared with colleagues stays readable)."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return
    os.chmod(temp, mode & 0o7777)


def _move_without_replacing(temp: Path, path: Path) -> None:
    """Give temp the name path unless path exists by now.

    os.link fails when the name is taken, which closes the gap between the check at the start and
    the rename. File systems without hard links (FAT USB sticks, some network shares) fall back to
    a second check followed by os.replace.
    """
    try:
        os.link(temp, path)
    except FileExistsError:
        raise _exists_error(path) from None
    except OSError as exc:
        if exc.errno not in _NO_HARD_LINKS:
            raise
        if os.path.lexists(path):
            raise _exists_error(path) from None
        os.replace(temp, path)
    else:
        _remove_quietly(temp)


def _remove_quietly(temp: Path) -> None:
    try:
        os.unlink(temp)
    except OSError:
        pass


@contextmanager
def atomic_output(path: str | os.PathLike[str], *, overwrite: bool) -> Iterator[Path]:
    """A new hidden file beside ``path`` for a writer that opens a file by its name (a video muxer):
    published as ``path`` when the block ends without an error, with the rules of atomic_write_bytes
    (an existing file replaced only with overwrite=True, ExportExists otherwise, ExportError for the
    rest); removed whatever else happens, cancelling included, so no half-written file is left."""
    path = Path(path)
    if not overwrite and os.path.lexists(path):
        raise _exists_error(path)
    fd, temp = _open_temp(path)
    os.close(fd)
    try:
        yield temp
        fd = os.open(temp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        _publish(temp, path, overwrite)
    except BaseException as exc:
        _remove_quietly(temp)
        if isinstance(exc, OSError) and not isinstance(exc, ExportError):
            raise _as_export_error(exc, path) from exc
        raise
    fsync_dir(path.parent)


def _publish(temp: str | Path, path: Path, overwrite: bool) -> None:
    """The finished temporary file takes its place: over an existing file (keeping its mode) only when
    overwrite, else never replacing one that appeared meanwhile."""
    if overwrite:
        _keep_mode_of_existing(path, temp)
        os.replace(temp, path)
    else:
        _move_without_replacing(temp, path)


@contextmanager
def atomic_stream(path: Path) -> Iterator[BinaryIO]:
    """A binary file written to a temporary name next to ``path`` and renamed over it when the block
    ends without an error; the temporary file is removed whatever happens. Failures are the OSError
    itself, for callers that word it themselves (a model being converted)."""
    fd, temp = tempfile.mkstemp(prefix="." + path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        os.chmod(temp, 0o644)  # mkstemp makes it private; what is written here are ordinary files
        with os.fdopen(fd, "wb") as stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temp, path)
    finally:
        if os.path.exists(temp):
            os.unlink(temp)


def copy_synced(source: Path, target: Path, on_chunk: Callable[[int], None] | None = None) -> None:
    """Copy a file to the new file `target` and flush it to the disk.

    Callers copy into a staging folder and publish the folder with one rename, so the copy itself
    needs no temporary name. `on_chunk(byte_count)` runs after each chunk; raising in it (Cancelled)
    stops the copy.
    """
    with open(source, "rb") as src:
        write_synced(src, target, on_chunk)


def write_synced(stream: BinaryIO, target: Path, on_chunk: Callable[[int], None] | None = None) -> None:
    """Write what is left in an open binary stream to the new file `target` and flush it to the disk."""
    with open(target, "xb") as out:
        while chunk := stream.read(_COPY_CHUNK):
            out.write(chunk)
            if on_chunk is not None:
                on_chunk(len(chunk))
        out.flush()
        os.fsync(out.fileno())


def fsync_dir(folder: Path) -> None:
    """Make a rename inside ``folder`` survive a power cut (best effort: some systems cannot open a
    folder for this)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _exists_error(path: Path) -> ExportExists:
    error = ExportExists(
        N_("Files", "A file named “{name}” already exists in {folder}. Choose another name, or allow VoxDesk to "
                    "replace it.").format(name=path.name, folder=path.parent.absolute()),  # not "." for a bare name
        detail=f"{path} exists and replacing it was not allowed",
    )
    error.filename = str(path)
    return error


def _as_export_error(exc: OSError, path: Path) -> ExportError:
    message = write_error_message(exc, f"“{path.name}”", path.parent, user_folder=True)
    return ExportError(message, detail=f"{type(exc).__name__}: {exc}")
