"""A recording path that names a pipe or a device is refused at once, never handed to the decoder."""
import os

import pytest

from desktop.core.common.audio import decode, iter_chunks, probe
from desktop.core.common.errors import AudioError
from tests.core.common.test_safe_files import finishes


@pytest.mark.parametrize("read", [probe, decode, lambda path: next(iter_chunks(path))])
def test_a_fifo_is_refused_at_once(tmp_path, read):
    fifo = tmp_path / "meeting.wav"
    os.mkfifo(fifo)

    outcome = finishes(lambda: read(fifo))

    assert isinstance(outcome.get("error"), AudioError)
    assert "meeting.wav" in outcome["error"].message and "named pipe" in outcome["error"].message


def test_a_device_is_refused_at_once():
    outcome = finishes(lambda: decode("/dev/zero"))

    assert isinstance(outcome.get("error"), AudioError)
    assert "device" in outcome["error"].message
