"""The Synthesize tab's "Open text file" refuses a pipe or an endless device at once."""
import os

import pytest

from desktop.core.common.errors import UserFacingError
from desktop.core.speech.sentences import read_text_file


def test_a_named_pipe_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "notice.txt"
    os.mkfifo(fifo)
    with pytest.raises(UserFacingError) as refused:
        read_text_file(fifo)  # before: blocked for ever in open()
    assert "notice.txt" in refused.value.message


def test_an_endless_device_is_refused_without_reading_it_whole():
    with pytest.raises(UserFacingError):
        read_text_file("/dev/zero")  # before: read until the memory ran out


def test_a_long_file_is_refused_while_reading(tmp_path):
    long_text = tmp_path / "book.txt"
    long_text.write_text("字" * 300_000, encoding="utf-8")
    with pytest.raises(UserFacingError, match="too long"):
        read_text_file(long_text)
