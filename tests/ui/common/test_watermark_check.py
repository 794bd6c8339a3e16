"""Tools → Check for a VoxDesk watermark…: each file checked on a background job, one line per file."""
import numpy as np
import pytest
from PySide6.QtWidgets import QFileDialog

from desktop.core.common.audio import decode
from desktop.core.common.audio_out import encode
from desktop.ui.common.watermark_check import WatermarkCheckDialog
from desktop.workers.job import JobRunner
from tests.helpers.weights import DATA_DIR

WAIT_MS = 180_000  # PerTh on two shared cores
RATE = 24000


@pytest.fixture(scope="module")
def recordings(tmp_path_factory):
    """A marked recording (JFK's speech with the mark), an unmarked one, and a text file named .wav."""
    from desktop.engines.voices.watermark import apply_watermark

    folder = tmp_path_factory.mktemp("recordings")
    marked = folder / "jfk-marked.wav"
    marked.write_bytes(encode(apply_watermark(decode(DATA_DIR / "jfk.flac", sample_rate=RATE), RATE), RATE, "wav"))
    text = folder / "notes.wav"
    text.write_text("Buy milk. Call the plumber on Tuesday.\n", encoding="utf-8")
    return [marked, DATA_DIR / "lj050-0131.wav", text]


@pytest.fixture
def dialog(qtbot):
    runner = JobRunner()
    dialog = WatermarkCheckDialog(runner)
    qtbot.addWidget(dialog)
    yield dialog
    dialog.close()
    assert runner.shutdown(WAIT_MS)


def expect_answers(qtbot, dialog, recordings) -> None:
    qtbot.waitUntil(lambda: not dialog.checking(), timeout=WAIT_MS)
    marked, unmarked, text = dialog.lines()
    assert marked == "jfk-marked.wav: carries VoxDesk's watermark"
    assert unmarked == "lj050-0131.wav: does not carry VoxDesk's watermark"
    assert text == "notes.wav: VoxDesk cannot read “notes.wav” as audio or video. It may not be a recording, or it " \
                   "may be damaged."


def test_each_file_gets_its_answer_without_holding_up_the_window(qtbot, dialog, recordings):
    dialog.check(recordings)

    # check() returns at once: the files are read and checked on background jobs.
    assert dialog.checking()
    assert dialog.lines() == ["jfk-marked.wav: checking…", "lj050-0131.wav: checking…", "notes.wav: checking…"]
    expect_answers(qtbot, dialog, recordings)


def test_the_tools_menu_asks_for_recordings_and_checks_them(qtbot, window, recordings):
    assert window.check_recording_action.text() == "&Check for a VoxDesk watermark…"
    assert window.check_recording_action in window.tools_menu.actions()

    window.check_recording_action.trigger()
    dialog = window.findChild(WatermarkCheckDialog)
    chooser = dialog.findChild(QFileDialog)
    assert dialog.isVisible() and chooser.isVisible()
    chooser.selectFile(" ".join(f'"{path}"' for path in recordings))
    chooser.accept()

    expect_answers(qtbot, dialog, recordings)


def test_a_recording_too_short_to_tell_says_so(qtbot, dialog, tmp_path):
    blip = tmp_path / "blip.wav"
    blip.write_bytes(encode(np.full(RATE // 5, 0.3, dtype=np.float32), RATE, "wav"))

    dialog.check([blip])

    qtbot.waitUntil(lambda: not dialog.checking(), timeout=WAIT_MS)
    assert dialog.lines() == ["blip.wav: too short to tell (under half a second)"]
