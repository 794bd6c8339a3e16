"""Atomic writes: the destination holds the old content or the complete new one, never a mix."""
from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from desktop.core.common import atomic
from desktop.core.common.atomic import ExportExists, atomic_write_bytes, atomic_write_text
from desktop.core.common.errors import ExportError, UserFacingError


def _leftovers(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def _fail_writes_in(folder, monkeypatch, name: str, code: int) -> None:
    """Make os.<name> fail with `code` for files under folder only, as a full or read-only disk would.

    Running as root, the tests cannot make a real folder read-only or fill a real disk, so the
    operating system's answer is simulated at the one call that would give it.
    """
    real = getattr(os, name)
    temp_fds: set[int] = set()
    real_open = os.open

    def tracking_open(path, flags, mode=0o777, *args, **kwargs):
        fd = real_open(path, flags, mode, *args, **kwargs)
        if str(path).startswith(str(folder)):
            temp_fds.add(fd)
        return fd

    def failing(*args, **kwargs):
        target = args[0]
        if (isinstance(target, int) and target in temp_fds) or str(target).startswith(str(folder)):
            raise OSError(code, os.strerror(code))
        return real(*args, **kwargs)

    if name != "open":
        monkeypatch.setattr(os, "open", tracking_open)
    monkeypatch.setattr(os, name, failing)


def test_text_is_written_as_utf8_and_the_path_is_returned(tmp_path):
    target = tmp_path / "会议 notes.txt"
    returned = atomic_write_text(target, "你好, world\n", overwrite=False)
    assert returned == target
    assert target.read_bytes() == "你好, world\n".encode("utf-8")
    assert _leftovers(tmp_path) == []


def test_bytes_replace_an_existing_file_when_overwrite_is_allowed(tmp_path):
    target = tmp_path / "out.bin"
    target.write_bytes(b"old")
    atomic_write_bytes(target, b"new content", overwrite=True)
    assert target.read_bytes() == b"new content"
    assert _leftovers(tmp_path) == []


def test_a_replaced_file_keeps_its_permissions(tmp_path):
    target = tmp_path / "shared.srt"
    target.write_text("old")
    target.chmod(0o640)
    atomic_write_text(target, "new", overwrite=True)
    assert target.stat().st_mode & 0o777 == 0o640


def test_a_new_file_gets_the_permissions_the_umask_allows(tmp_path):
    old_umask = os.umask(0o022)
    try:
        atomic_write_text(tmp_path / "new.srt", "text", overwrite=False)
    finally:
        os.umask(old_umask)
    assert (tmp_path / "new.srt").stat().st_mode & 0o777 == 0o644


def test_an_existing_file_is_refused_without_overwrite_and_left_untouched(tmp_path):
    target = tmp_path / "interview.srt"
    target.write_text("keep me")
    with pytest.raises(ExportExists) as caught:
        atomic_write_text(target, "new", overwrite=False)
    error = caught.value
    assert isinstance(error, FileExistsError)
    assert isinstance(error, ExportError)
    assert "interview.srt" in error.message
    assert "already exists" in error.message
    assert target.read_text() == "keep me"
    assert _leftovers(tmp_path) == []


def test_a_file_that_exists_in_the_current_folder_is_refused_naming_that_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("interview.srt").write_text("keep me")
    with pytest.raises(ExportExists) as caught:
        atomic_write_text(Path("interview.srt"), "new", overwrite=False)
    assert f"already exists in {tmp_path}." in caught.value.message  # not "in .."


def test_a_file_created_by_someone_else_during_the_write_is_not_replaced(tmp_path, monkeypatch):
    target = tmp_path / "race.txt"
    real_fsync = os.fsync

    def fsync_then_another_program_saves(fd):
        real_fsync(fd)
        if not target.exists():
            target.write_text("the other program's file")

    monkeypatch.setattr(os, "fsync", fsync_then_another_program_saves)
    with pytest.raises(ExportExists):
        atomic_write_text(target, "mine", overwrite=False)
    assert target.read_text() == "the other program's file"
    assert _leftovers(tmp_path) == []


def test_a_folder_that_does_not_exist_gives_a_plain_message(tmp_path):
    target = tmp_path / "missing folder" / "out.srt"
    with pytest.raises(ExportError) as caught:
        atomic_write_text(target, "text", overwrite=False)
    assert "does not exist" in caught.value.message
    assert "missing folder" in caught.value.message
    assert caught.value.detail


def test_a_path_under_a_regular_file_gives_a_plain_message(tmp_path):
    regular = tmp_path / "recording.wav"
    regular.write_bytes(b"RIFF")
    with pytest.raises(ExportError) as caught:
        atomic_write_text(regular / "out.srt", "text", overwrite=True)
    assert "not a folder" in caught.value.message
    assert regular.read_bytes() == b"RIFF"


def test_a_destination_that_is_a_folder_is_left_alone(tmp_path):
    folder = tmp_path / "notes.srt"
    folder.mkdir()
    with pytest.raises(ExportError) as caught:
        atomic_write_text(folder, "text", overwrite=True)
    assert "is a folder" in caught.value.message
    assert folder.is_dir()
    assert _leftovers(tmp_path) == []


@pytest.mark.parametrize("code", [errno.EACCES, errno.EROFS, errno.EPERM])
def test_a_read_only_folder_asks_for_another_folder(tmp_path, monkeypatch, code):
    _fail_writes_in(tmp_path, monkeypatch, "open", code)
    with pytest.raises(ExportError) as caught:
        atomic_write_text(tmp_path / "out.srt", "text", overwrite=False)
    assert caught.value.message == (
        f"VoxDesk cannot write to the folder {tmp_path}. "
        "Choose another folder, or ask for write permission."
    )
    monkeypatch.undo()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into any folder, so none is read-only")
def test_a_really_read_only_folder_asks_for_another_folder(tmp_path):
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        with pytest.raises(ExportError) as caught:
            atomic_write_text(folder / "out.srt", "text", overwrite=False)
        assert "cannot write to the folder" in caught.value.message
    finally:
        folder.chmod(0o755)


@pytest.mark.parametrize("failing_call", ["write", "fsync"])
def test_a_full_disk_leaves_the_old_file_and_no_temporary_file(tmp_path, monkeypatch, failing_call):
    target = tmp_path / "meeting.vtt"
    target.write_text("the previous export")
    _fail_writes_in(tmp_path, monkeypatch, failing_call, errno.ENOSPC)
    with pytest.raises(ExportError) as caught:
        atomic_write_text(target, "a much longer new export " * 1000, overwrite=True)
    monkeypatch.undo()
    assert caught.value.message.startswith("The disk is full")
    assert "meeting.vtt" in caught.value.message
    assert "No space" in caught.value.detail
    assert target.read_text() == "the previous export"
    assert _leftovers(tmp_path) == []


def test_a_failing_rename_leaves_the_old_file_and_no_temporary_file(tmp_path, monkeypatch):
    target = tmp_path / "meeting.srt"
    target.write_text("old")

    def failing_replace(src, dst):
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(ExportError) as caught:
        atomic_write_text(target, "new", overwrite=True)
    monkeypatch.undo()
    assert "could not save" in caught.value.message
    assert target.read_text() == "old"
    assert _leftovers(tmp_path) == []


def test_a_failure_message_is_a_plain_sentence_without_error_codes(tmp_path):
    with pytest.raises(UserFacingError) as caught:
        atomic_write_text(tmp_path / "no" / "such" / "folder.txt", "x", overwrite=False)
    message = caught.value.message
    assert message.endswith(".")
    assert "Errno" not in message and "Traceback" not in message


def test_a_destination_name_near_the_length_limit_still_gets_a_temporary_file(tmp_path):
    name = "会" * 80 + ".srt"  # 244 bytes in UTF-8, just under the usual 255-byte limit
    target = tmp_path / name
    atomic_write_text(target, "text", overwrite=False)
    assert target.read_text() == "text"
    assert len(atomic._shortened(name).encode("utf-8")) <= 200


def test_text_that_cannot_be_encoded_is_a_sentence_and_leaves_no_file(tmp_path):
    target = tmp_path / "meeting.srt"
    with pytest.raises(ExportError) as caught:
        atomic_write_text(target, "ask not\ud800 what", overwrite=False)
    assert "meeting.srt" in caught.value.message and caught.value.message.endswith(".")
    assert "surrogate" in caught.value.detail
    assert list(tmp_path.iterdir()) == []


FILE_SIZE_LIMIT = """
import resource, signal, sys
from pathlib import Path
from desktop.core.common.errors import ExportError
from desktop.core.transcription.subtitles import export
from desktop.core.transcription.transcript import Segment, Transcript

signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead
resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, 64 * 1024))
folder = Path(sys.argv[1])
transcript = Transcript([Segment(n, n + 0.9, f" line {n} of a long meeting") for n in range(20_000)], language="en")
for name in ("big.srt", "small.txt"):
    try:
        export(transcript if name == "big.srt" else Transcript([Segment(0, 1, " short")]), folder / name,
               name.rsplit(".", 1)[1])
        print("written", name)
    except ExportError as error:
        print("refused", name, error.message)
"""


def test_a_file_size_limit_stops_one_export_with_a_sentence_no_partial_file_and_the_next_goes_on(tmp_path):
    """A real limit (RLIMIT_FSIZE, as a quota or a FAT stick's 4 GB limit would be) in a child process."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    done = subprocess.run([sys.executable, "-c", FILE_SIZE_LIMIT, str(tmp_path)], capture_output=True, text=True,
                          cwd=root, timeout=120)
    assert done.returncode == 0, done.stderr
    refused, written = done.stdout.splitlines()
    assert refused.startswith("refused big.srt This disk cannot hold a file as large as “big.srt”")
    assert written == "written small.txt"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["small.txt"]


def test_atomic_output_publishes_the_file_its_writer_named_and_removes_it_on_failure(tmp_path):
    from desktop.core.common.atomic import atomic_output

    target = tmp_path / "video.mkv"
    with atomic_output(target, overwrite=False) as temp:
        assert temp.parent == tmp_path and temp.name.startswith(".video.mkv.")
        temp.write_bytes(b"complete")
    assert target.read_bytes() == b"complete" and os.listdir(tmp_path) == ["video.mkv"]
    with pytest.raises(ExportExists):
        with atomic_output(target, overwrite=False):
            pytest.fail("an existing file must be refused before anything is written")
    with pytest.raises(RuntimeError):
        with atomic_output(target, overwrite=True) as temp:
            temp.write_bytes(b"half")
            raise RuntimeError("the muxer failed")
    assert target.read_bytes() == b"complete" and os.listdir(tmp_path) == ["video.mkv"]
