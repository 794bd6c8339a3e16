"""In the window: the engine process on the GPU dies mid-file from a real SIGSEGV (the GPU label is
the one thing faked). The status bar gets its fallback entry, the file finishes on the CPU keeping the
segments already shown, and the next file goes straight to the CPU."""
import os
import signal
from pathlib import Path

import numpy as np
import pytest

from desktop.core.gpu.fallback import FallbackLog
from desktop.core.transcription.autosave import AutosaveStore
from desktop.core.transcription.whisper_models import ModelStore
from desktop.core.common.paths import models_dir
from desktop.ui.main_window import MainWindow
from desktop.workers.job import JobRunner
from desktop.workers.transcription_queue import ItemState
from tests.engines.transcription.test_isolated_recovery import TranscriberOnAFakeGpu
from tests.helpers.weights import DATA_DIR, normalize_english, reference, wer
from tests.ui.conftest import JOB_TIMEOUT_MS, write_wav

pytestmark = pytest.mark.slow

COUNTRY = "ask what you can do for your country"
TIMES = 9  # JFK nine times over (99 s): at least three 30-second windows to go when the first line shows


@pytest.fixture
def jfk_nine_times(tmp_path) -> Path:
    from desktop.core.common.audio import decode

    return write_wav(tmp_path / "jfk nine times.wav", np.concatenate([decode(DATA_DIR / "jfk.flac")] * TIMES))


def test_a_gpu_engine_crash_shows_a_fallback_and_the_files_finish_on_the_cpu(qtbot, settings, tiny_model,
                                                                            jfk_nine_times, jfk):
    settings.set("device/choice", "gpu")
    # One window after another: the first line shows while the rest of the file is still to decode, so
    # the crash, sent when it shows, finds the engine at work however fast this processor decodes.
    settings.set("engine/batch_size", 1)
    store = ModelStore(models_dir())
    log = FallbackLog()
    transcriber = TranscriberOnAFakeGpu(store, log)
    window = MainWindow(settings, store, transcriber, JobRunner(), log, autosave=AutosaveStore())
    qtbot.addWidget(window)
    window.show()
    tab = window.transcribe_tab
    tab.add_paths([jfk_nine_times, jfk])
    qtbot.waitUntil(lambda: len(tab.queue.items) == 2, timeout=JOB_TIMEOUT_MS)
    crashed, after = tab.queue.items
    qtbot.waitUntil(lambda: bool(crashed.segments), timeout=JOB_TIMEOUT_MS)
    first = crashed.segments[0]
    os.kill(transcriber.gpu_engines[0].pid, signal.SIGSEGV)

    qtbot.waitUntil(lambda: after.state is ItemState.DONE, timeout=JOB_TIMEOUT_MS)
    assert crashed.state is ItemState.DONE
    assert window.device_status.fallback_button.isVisible()
    assert window.device_status.fallback_button.text() == "⚠ 1 CPU fallback"
    assert first in crashed.transcript.segments
    words = normalize_english(crashed.transcript.text)
    assert words.count(COUNTRY) <= TIMES, "JFK says it once each time: more is a segment shown twice"
    assert wer(" ".join([normalize_english(reference("jfk.flac"))] * TIMES), words) <= 0.25, words
    assert COUNTRY in normalize_english(after.transcript.text)
    assert len(transcriber.gpu_engines) == 1, "the next file did not try the GPU again"

    window.close()
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=JOB_TIMEOUT_MS)
    assert transcriber.loaded is None, "closing the window ends the engine process"
