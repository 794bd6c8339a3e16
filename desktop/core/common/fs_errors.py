"""The one place that says why a file could not be saved: a full disk, a folder without write
permission, a missing folder… in a sentence the user can act on.

    raise ModelError(write_error_message(exc, label, folder), detail=repr(exc))

`what` names the thing being saved in the caller's words (“notes.srt”, the voice “Ann”, the "base"
model). `user_folder` says the user picked the folder (an export), so choosing another is advice;
VoxDesk's own folders (models, voices) get advice without it.
"""
from __future__ import annotations

import errno
from pathlib import Path

from desktop.core.common.i18n import N_, Message

_NO_PERMISSION = frozenset({errno.EACCES, errno.EPERM, errno.EROFS})
_NO_SPACE = frozenset({errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)})
_TOO_LARGE = frozenset({errno.EFBIG})  # larger than the disk (FAT32: 4 GB) or the file-size limit allows
DISK_FULL_ERRNOS = _NO_SPACE | _TOO_LARGE
"""Errors after which a partly written file is of no use and should be removed."""


def write_error_message(exc: BaseException, what: str, folder: Path, *, user_folder: bool = False) -> Message:
    """Why `what` could not be saved in `folder`, from the OSError behind `exc` (itself or its cause)."""
    cause = _os_error(exc)
    code = cause.errno if cause is not None else None
    if code in _NO_SPACE:
        if user_folder:
            return N_("Files", "The disk is full, so {what} could not be saved. Free some space or choose another "
                               "folder, then try again.").format(what=what)
        return N_("Files", "The disk is full, so {what} could not be saved. Free some space, then try "
                           "again.").format(what=what)
    if code in _TOO_LARGE:
        return N_("Files", "This disk cannot hold a file as large as {what}, so it could not be saved. Free some "
                           "space or ask your IT department for room on another disk, then try again.").format(what=what)
    if code in _NO_PERMISSION:
        if user_folder:
            return N_("Files", "VoxDesk cannot write to the folder {folder}. Choose another folder, or ask for write "
                               "permission.").format(folder=folder)
        return N_("Files", "VoxDesk cannot write to the folder {folder}, so {what} could not be saved. Ask for "
                           "write permission, then try again.").format(folder=folder, what=what)
    if user_folder and code == errno.ENOENT:
        return N_("Files", "The folder {folder} does not exist. Choose another folder.").format(folder=folder)
    if user_folder and code == errno.ENOTDIR:
        return N_("Files", "VoxDesk cannot save into {folder} because it is not a folder. Choose another "
                           "folder.").format(folder=folder)
    if user_folder and code == errno.EISDIR:
        return N_("Files", "{what} is a folder, so VoxDesk cannot save the file under that name. Choose another "
                           "name.").format(what=what)
    if user_folder and code == errno.ENAMETOOLONG:
        return N_("Files", "The file name is too long for this disk. Choose a shorter name.")
    return N_("Files", "VoxDesk could not save {what} in {folder}. Check that the folder is still available, then "
                       "try again.").format(what=what, folder=folder)


def _os_error(exc: BaseException) -> OSError | None:
    """The OSError itself, or the one an ExportError (or the like) was raised from."""
    if isinstance(exc, OSError):
        return exc
    return exc.__cause__ if isinstance(exc.__cause__, OSError) else None
