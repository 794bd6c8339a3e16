"""Opening, reading and copying the files a user hands VoxDesk, without special files or links.

A path that comes in (a recording, a text file, a model) may name something that is not a file: a
named pipe (FIFO) that blocks whoever opens it, a device such as /dev/zero that never ends, or a
link out of a folder to a file the user never meant to share (/etc/shadow). Everything here checks
the kind of file before opening it (os.stat, never open()), opens with O_NONBLOCK so even a pipe
swapped in afterwards cannot block, and checks again on the open descriptor.

Every refusal is a UserFacingError (or the subclass the caller passes as ``error``) with a sentence
naming the file.
"""
from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path
from typing import BinaryIO, Callable

from desktop.core.common.atomic import write_synced
from desktop.core.common.errors import Cancelled, UserFacingError
from desktop.core.common.i18n import N_

ProgressCallback = Callable[[int, int | None], None]
CancelCheck = Callable[[], bool]



def kind_of(mode: int) -> str | None:
    """What a non-regular file is, in words ("a named pipe (FIFO)"), or None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return N_("Files", "a folder")
    if stat.S_ISLNK(mode):
        return N_("Files", "a link to another place")
    if stat.S_ISFIFO(mode):
        return N_("Files", "a named pipe (FIFO)")
    if stat.S_ISSOCK(mode):
        return N_("Files", "a socket")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return N_("Files", "a device")
    return N_("Files", "a special file")


def not_a_file(path: Path, kind: str, error: type[UserFacingError] = UserFacingError) -> UserFacingError:
    return error(
        N_("Files", "“{name}” is {kind}, not a regular file, so VoxDesk will not open it. Choose a regular "
                    "file.").format(name=path.name, kind=kind),
        detail=str(path),
    )


def require_regular_file(
    path: str | os.PathLike[str], *, follow_links: bool = True, error: type[UserFacingError] = UserFacingError,
) -> os.stat_result:
    """The file's stat, once it is known to be a regular file; ``error`` naming it otherwise.

    follow_links=False also refuses a link (used for files inside a folder that is being copied).
    A file that cannot be looked at raises OSError, for the caller's own "cannot read" sentence.
    """
    path = Path(path)
    info = os.stat(path) if follow_links else os.lstat(path)
    kind = kind_of(info.st_mode)
    if kind is not None:
        raise not_a_file(path, kind, error)
    return info


def open_regular(
    path: str | os.PathLike[str], *, follow_links: bool = True, error: type[UserFacingError] = UserFacingError,
) -> BinaryIO:
    """Open a regular file for reading, never blocking on a pipe or device swapped in after a check."""
    path = Path(path)
    require_regular_file(path, follow_links=follow_links, error=error)
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    if not follow_links:
        flags |= os.O_NOFOLLOW
    fd = os.open(path, flags)
    try:
        kind = kind_of(os.fstat(fd).st_mode)
        if kind is not None:
            raise not_a_file(path, kind, error)
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_limited(
    path: str | os.PathLike[str], max_bytes: int, too_long: str, *,
    error: type[UserFacingError] = UserFacingError,
) -> bytes:
    """At most max_bytes of a regular file; ``error(too_long)`` as soon as the file turns out longer.

    The limit is checked while reading, so a file that grows, or never ends, is never held whole.
    OSError from opening or reading passes through for the caller's own sentence.
    """
    with open_regular(path, error=error) as f:
        data = f.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise error(too_long, detail=f"{path}: more than {max_bytes} bytes")
    return data


def regular_files(folder: Path, *, error: type[UserFacingError] = UserFacingError) -> list[Path]:
    """Every file under folder (sorted), after refusing any link, pipe, device or socket among them.

    Hidden files and folders (a name starting with ".") are skipped, as a copy of the folder skips them.
    Links are refused rather than skipped: a model folder whose file is a link is not the folder it
    claims to be, and copying the link's target could take a private file along.
    """
    found: list[Path] = []
    pending = [folder]
    while pending:
        current = pending.pop()
        with os.scandir(current) as entries:
            for entry in entries:
                if entry.name.startswith("."):
                    continue
                path = Path(entry.path)
                mode = entry.stat(follow_symlinks=False).st_mode
                if stat.S_ISDIR(mode):
                    pending.append(path)
                elif stat.S_ISLNK(mode):
                    raise error(
                        N_("Files", "“{name}” in the folder “{folder}” is a link to another place. Put the real "
                                    "file in the folder instead of the link.").format(
                            name=path.relative_to(folder), folder=folder.name),
                        detail=f"{path} -> {os.readlink(path)}",
                    )
                elif not stat.S_ISREG(mode):
                    raise not_a_file(path, kind_of(mode) or "", error)
                else:
                    found.append(path)
    return sorted(found)


def copy_regular_file(source: Path, target: Path, *, error: type[UserFacingError] = UserFacingError,
                      on_chunk: Callable[[int], None] | None = None) -> None:
    """Copy one regular file (never through a link) to the new file target, flushed to the disk; on_chunk(bytes)
    after each chunk."""
    with open_regular(source, follow_links=False, error=error) as src:
        write_synced(src, target, on_chunk)
    shutil.copystat(source, target, follow_symlinks=False)


def copy_tree(
    source: Path, target: Path, *, progress: ProgressCallback | None = None, cancelled: CancelCheck | None = None,
    error: type[UserFacingError] = UserFacingError,
) -> None:
    """Copy the regular files of source into target, following no links; anything else is refused first."""
    files = regular_files(source, error=error)
    total = sum(p.stat(follow_symlinks=False).st_size for p in files)
    done = 0

    def step(size: int) -> None:
        nonlocal done
        if cancelled is not None and cancelled():
            raise Cancelled()
        done += size
        if progress:
            progress(done, total)

    target.mkdir(parents=True, exist_ok=True)
    for path in files:
        destination = target / path.relative_to(source)
        destination.parent.mkdir(parents=True, exist_ok=True)
        copy_regular_file(path, destination, error=error, on_chunk=step)
