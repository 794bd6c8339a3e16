"""Paths that come in are opened only when they are regular files, and read no further than needed."""
import os
import socket
import threading

import pytest

from desktop.core.common.errors import AudioError, UserFacingError
from desktop.core.common.safe_files import copy_tree, open_regular, read_limited, require_regular_file


def finishes(call, seconds: float = 10):
    """call() in a thread; the test fails (instead of hanging) when it has not returned in time."""
    outcome: dict = {}

    def run():
        try:
            outcome["value"] = call()
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            outcome["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "the call blocked"
    return outcome


def test_a_fifo_is_refused_without_being_opened(tmp_path):
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)

    outcome = finishes(lambda: open_regular(fifo))

    assert isinstance(outcome.get("error"), UserFacingError)
    assert "pipe.txt" in outcome["error"].message and "named pipe" in outcome["error"].message


def test_a_device_is_refused_with_the_callers_error_type():
    with pytest.raises(AudioError) as refused:
        require_regular_file("/dev/zero", error=AudioError)
    assert "“zero” is a device" in refused.value.message


def test_a_socket_is_refused(tmp_path):
    path = tmp_path / "s"
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(path))
        with pytest.raises(UserFacingError, match="socket"):
            open_regular(path)
    finally:
        server.close()


def test_a_link_is_followed_only_when_asked(tmp_path):
    target = tmp_path / "real.txt"
    target.write_text("hello", encoding="utf-8")
    link = tmp_path / "link.txt"
    os.symlink(target, link)

    with open_regular(link) as f:
        assert f.read() == b"hello"
    with pytest.raises(UserFacingError, match="link"):
        open_regular(link, follow_links=False)


def test_dev_zero_is_refused_before_any_byte_is_read():
    outcome = finishes(lambda: read_limited("/dev/zero", 100, "too long"))

    assert "device" in outcome["error"].message


def test_a_huge_sparse_file_is_refused_after_its_first_bytes(tmp_path):
    huge = tmp_path / "huge.txt"
    with open(huge, "wb") as f:
        f.truncate(20 * 1024**3)  # reading 20 GB whole would take minutes and all the memory

    outcome = finishes(lambda: read_limited(huge, 1000, "too long"), seconds=5)

    assert outcome["error"].message == "too long"


def test_a_file_within_the_limit_is_read_whole(tmp_path):
    path = tmp_path / "small.txt"
    path.write_bytes(b"12345")

    assert read_limited(path, 5, "too long") == b"12345"


def test_a_folder_copy_refuses_a_link_and_copies_nothing(tmp_path):
    source = tmp_path / "model"
    source.mkdir()
    (source / "config.json").write_text("{}", encoding="utf-8")
    os.symlink("/etc/passwd", source / "vocabulary.txt")
    target = tmp_path / "copy"

    with pytest.raises(UserFacingError) as refused:
        copy_tree(source, target)

    assert "vocabulary.txt" in refused.value.message and "link" in refused.value.message
    assert not target.exists()


def test_a_folder_copy_keeps_subfolders_and_skips_hidden_files(tmp_path):
    source = tmp_path / "model"
    (source / "sub").mkdir(parents=True)
    (source / "sub" / "a.bin").write_bytes(b"a" * 10)
    (source / ".cache").write_bytes(b"x")
    seen = []

    copy_tree(source, tmp_path / "copy", progress=lambda done, total: seen.append((done, total)))

    assert (tmp_path / "copy" / "sub" / "a.bin").read_bytes() == b"a" * 10
    assert not (tmp_path / "copy" / ".cache").exists()
    assert seen[-1] == (10, 10)
