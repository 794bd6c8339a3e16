"""Atomic file writes: a reader sees the old file or the complete new one, never half a file.

The data goes to a temporary file in the destination's own folder (so the final rename stays on one
file system), is flushed to the disk with fsync, and only then takes the destination's name with
os.replace. Whatever fails on the way, the temporary file is removed and an existing destination is
left exactly as it was.
"""
from __future__ import annotations

import errno
import os
import secrets
from pathlib import Path

from desktop.core.common.errors import ExportError
from desktop.core.common.i18n import N_

_NO_PERMISSION = {errno.EACCES, errno.EPERM, errno.EROFS}
_NO_SPACE = {errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)}
# Errors that mean "this file system cannot make hard links", so the no-overwrite path falls back.
_NO_HARD_LINKS = {errno.EPERM, errno.EXDEV, errno.EMLINK, errno.EOPNOTSUPP, errno.ENOTSUP, errno.ENOSYS}


class ExportExists(ExportError, FileExistsError):
    """The destination exists and the caller did not allow replacing it."""


def atomic_write_text(path: str | os.PathLike[str], text: str, *, overwrite: bool,
                      encoding: str = "utf-8") -> Path:
    """Write text (encoded as UTF-8 unless told otherwise) atomically; see atomic_write_bytes."""
    return atomic_write_bytes(path, text.encode(encoding), overwrite=overwrite)


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
        if overwrite:
            _keep_mode_of_existing(path, temp)
            os.replace(temp, path)
        else:
            _move_without_replacing(temp, path)
    except BaseException as exc:
        _remove_quietly(temp)
        if isinstance(exc, OSError) and not isinstance(exc, ExportError):
            raise _as_export_error(exc, path) from exc
        raise
    fsync_dir(path.parent)
    return path


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
        f"A file named “{path.name}” already exists in {path.parent}. "
        "Choose another name, or allow VoxDesk to replace it.",
        detail=f"{path} exists and replacing it was not allowed",
    )
    error.filename = str(path)
    return error


def _as_export_error(exc: OSError, path: Path) -> ExportError:
    folder = path.parent
    detail = f"{type(exc).__name__}: {exc}"
    code = exc.errno
    if code in _NO_PERMISSION:
        message = (N_("Files", "VoxDesk cannot write to the folder {folder}. Choose another folder, or ask for write "
                               "permission.").format(folder=folder))
    elif code in _NO_SPACE:
        message = (N_("Files", "The disk is full, so “{name}” could not be saved. Free some space or choose another "
                               "folder, then try again.").format(name=path.name))
    elif code == errno.ENOENT:
        message = N_("Files", "The folder {folder} does not exist. Choose another folder.").format(folder=folder)
    elif code == errno.ENOTDIR:
        message = (N_("Files", "VoxDesk cannot save into {folder} because it is not a folder. Choose another "
                               "folder.").format(folder=folder))
    elif code == errno.EISDIR:
        message = (N_("Files", "“{name}” is a folder, so VoxDesk cannot save the file under that name. Choose "
                               "another name.").format(name=path.name))
    elif code == errno.ENAMETOOLONG:
        message = N_("Files", "The file name is too long for this disk. Choose a shorter name.")
    else:
        message = (N_("Files", "VoxDesk could not save “{name}” in {folder}. Check that the folder is still "
                               "available, then try again.").format(name=path.name, folder=folder))
    return ExportError(message, detail=detail)
