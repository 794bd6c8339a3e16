"""One sentence per kind of failed write, naming what was being saved and where."""
import errno
from pathlib import Path

import pytest

from desktop.core.common.errors import ExportError
from desktop.core.common.fs_errors import write_error_message

FOLDER = Path("/data/models")


def os_error(code: int) -> OSError:
    return OSError(code, "failed")


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EDQUOT])
def test_a_full_disk_names_what_could_not_be_saved(code):
    message = write_error_message(os_error(code), 'the "base" model', FOLDER)
    assert message == 'The disk is full, so the "base" model could not be saved. Free some space, then try again.'


@pytest.mark.parametrize("code", [errno.EACCES, errno.EPERM, errno.EROFS])
def test_no_permission_in_a_folder_of_voxdesk_asks_for_permission(code):
    message = write_error_message(os_error(code), "the recordings", FOLDER)
    assert message == ("VoxDesk cannot write to the folder /data/models, so the recordings could not be saved. "
                       "Ask for write permission, then try again.")


def test_a_folder_the_user_chose_can_be_swapped_for_another():
    full = write_error_message(os_error(errno.ENOSPC), "“notes.srt”", FOLDER, user_folder=True)
    locked = write_error_message(os_error(errno.EROFS), "“notes.srt”", FOLDER, user_folder=True)
    missing = write_error_message(os_error(errno.ENOENT), "“notes.srt”", FOLDER, user_folder=True)
    assert "choose another folder" in full
    assert locked == "VoxDesk cannot write to the folder /data/models. Choose another folder, or ask for write permission."
    assert missing == "The folder /data/models does not exist. Choose another folder."


def test_anything_else_says_what_and_where_and_is_translatable():
    message = write_error_message(os_error(errno.EIO), "the voice model", FOLDER)
    assert message == ("VoxDesk could not save the voice model in /data/models. Check that the folder is still "
                       "available, then try again.")
    assert message.context == "Files"


def test_an_error_raised_from_an_os_error_is_read_through_its_cause():
    try:
        try:
            raise os_error(errno.ENOSPC)
        except OSError as exc:
            raise ExportError("export wording") from exc
    except ExportError as wrapped:
        message = write_error_message(wrapped, "the voice model", FOLDER)
    assert message.startswith("The disk is full, so the voice model")
