"""Cancel in the queue with the real Transcriber and its engine process: a file stops within about a
second even while the engine is stuck inside a library call, and the next file still runs."""
import os
import signal
import time

import pytest

from desktop.core.gpu.fallback import FallbackLog
from desktop.core.transcription.whisper_models import ModelStore
from desktop.core.common.paths import models_dir
from desktop.engines.transcription.transcriber import TranscribeSettings, Transcriber
from desktop.workers.job import JobRunner
from desktop.workers.transcription_queue import ItemState, TranscriptionQueue
from tests.engines.transcription.test_isolated import is_running
from tests.ui.conftest import JOB_TIMEOUT_MS

pytestmark = pytest.mark.slow


@pytest.fixture
def transcriber(tiny_model):
    transcriber = Transcriber(ModelStore(models_dir()), FallbackLog())
    yield transcriber
    transcriber.release()


@pytest.fixture
def queue(qtbot, transcriber, tiny_model):
    runner = JobRunner()
    # One window after another, so the first lines show while the file is still being decoded.
    settings = TranscribeSettings(model=tiny_model, engine="ct2", device="cpu", language="en", batch_size=1)
    queue = TranscriptionQueue(transcriber, runner, lambda: settings)
    yield queue
    queue.shutdown()
    assert runner.shutdown(30_000)
    qtbot.waitUntil(lambda: not runner.busy, timeout=10_000)


def test_cancel_stops_a_file_whose_engine_is_stuck_and_the_next_file_runs(qtbot, queue, transcriber,
                                                                        long_recording, jfk):
    queue.add([long_recording, jfk])
    running, waiting = queue.items
    qtbot.waitUntil(lambda: bool(running.segments), timeout=JOB_TIMEOUT_MS)
    stuck = transcriber._engine.pid
    os.kill(stuck, signal.SIGSTOP)  # as a driver call that never returns would leave it

    asked = time.monotonic()
    queue.cancel([running])
    qtbot.waitUntil(lambda: running.state is ItemState.CANCELLED, timeout=5_000)
    assert time.monotonic() - asked < 5.0
    assert not is_running(stuck)

    qtbot.waitUntil(lambda: waiting.state is ItemState.DONE, timeout=JOB_TIMEOUT_MS)
    assert "ask what you can do for your country" in waiting.transcript.text.lower()
