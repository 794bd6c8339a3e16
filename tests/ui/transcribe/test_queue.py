"""The queue's worker side with the real Transcriber: retry, cancel all, remove, model release and
the download of a missing model from a local stand-in for the model hub."""
import hashlib
import json
import shutil
import time
from pathlib import Path

import pytest
from PySide6.QtWidgets import QDialog

from desktop.core.gpu.fallback import FallbackLog
from desktop.core.transcription.autosave import AutosaveStore
from desktop.core.transcription.whisper_models import ModelStore
from desktop.core.common.paths import models_dir
from desktop.engines.transcription.transcriber import TranscribeSettings, Transcriber
from desktop.ui.main_window import MainWindow
from desktop.ui.transcribe.model_dialogs import DownloadDialog
from desktop.core.transcription.stages import Stage
from desktop.ui.transcribe.queue_model import QueueModel, busy_block, format_clock
from desktop.workers.job import JobRunner
from desktop.workers.transcription_queue import ItemState, QueueItem, TranscriptionQueue
from tests.helpers.http_server import FileServer, closed_port_url
from tests.helpers.weights import DATA_DIR, tiny_en_dir
from tests.ui.conftest import JOB_TIMEOUT_MS

TINY_EN_REPO = "Systran/faster-whisper-tiny.en"

pytestmark = pytest.mark.slow


@pytest.fixture
def runner(qtbot):
    runner = JobRunner()
    yield runner
    assert runner.shutdown(30_000)
    qtbot.waitUntil(lambda: not runner.busy, timeout=10_000)


@pytest.fixture
def transcriber(tiny_model):
    transcriber = Transcriber(ModelStore(models_dir()), FallbackLog())
    yield transcriber
    transcriber.release()


@pytest.fixture
def queue(qtbot, transcriber, runner, tiny_model):
    settings = TranscribeSettings(model=tiny_model, engine="ct2", device="cpu", language="en")
    queue = TranscriptionQueue(transcriber, runner, lambda: settings)
    yield queue
    queue.shutdown()


def settled(queue: TranscriptionQueue, count: int):
    def check():
        assert len(queue.items) == count
        assert all(i.state not in (ItemState.WAITING, ItemState.RUNNING) for i in queue.items)
    return check


def test_a_failed_file_can_be_retried_once_it_is_fixed(qtbot, queue, tmp_path):
    broken = tmp_path / "interview.flac"
    broken.write_bytes(b"")
    queue.add([broken])
    qtbot.waitUntil(settled(queue, 1), timeout=JOB_TIMEOUT_MS)
    item = queue.items[0]
    assert item.state is ItemState.FAILED
    assert item.status == "The file “interview.flac” is empty (0 bytes), so there is nothing to transcribe."

    shutil.copy(DATA_DIR / "jfk.flac", broken)  # the full copy arrived
    queue.retry_failed()
    qtbot.waitUntil(lambda: item.state is ItemState.DONE, timeout=JOB_TIMEOUT_MS)
    assert "my fellow americans" in item.transcript.text.lower()


def test_cancel_all_stops_the_running_file_and_every_waiting_one(qtbot, queue, long_recording, jfk):
    queue.add([long_recording, jfk, DATA_DIR / "lj050-0131.wav"])
    running = queue.items[0]
    qtbot.waitUntil(lambda: bool(running.segments), timeout=JOB_TIMEOUT_MS)
    queue.cancel_all()
    qtbot.waitUntil(settled(queue, 3), timeout=JOB_TIMEOUT_MS)
    assert [i.state for i in queue.items] == [ItemState.CANCELLED] * 3
    # The job's last signal (finished) follows its outcome through the event loop.
    qtbot.waitUntil(lambda: not queue.busy, timeout=10_000)


def test_a_removed_file_leaves_the_list_and_is_never_transcribed(qtbot, queue, long_recording, jfk):
    started = []
    queue.item_changed.connect(lambda item: started.append(item.path) if item.state is ItemState.RUNNING else None)
    queue.add([long_recording, jfk])
    model = QueueModel(queue)
    waiting = queue.items[1]
    queue.remove([waiting])
    assert [i.path for i in queue.items] == [long_recording]
    assert model.rowCount() == 1
    queue.cancel_all()
    qtbot.waitUntil(settled(queue, 1), timeout=JOB_TIMEOUT_MS)
    assert jfk not in started


def test_the_model_stays_loaded_between_files_and_a_release_frees_it(qtbot, queue, transcriber, jfk):
    queue.add([jfk, DATA_DIR / "lj050-0131.wav"])
    qtbot.waitUntil(settled(queue, 2), timeout=JOB_TIMEOUT_MS)
    assert [i.state for i in queue.items] == [ItemState.DONE, ItemState.DONE]
    assert transcriber.loaded is not None
    with qtbot.waitSignal(queue.model_released, timeout=JOB_TIMEOUT_MS):
        queue.release_model()
    assert transcriber.loaded is None


def test_switching_the_model_in_the_tab_releases_the_loaded_one(qtbot, tab, jfk):
    from tests.ui.transcribe.test_transcribe_tab import drop

    drop(tab, jfk)
    qtbot.waitUntil(lambda: bool(tab.queue.items) and tab.queue.items[0].state is ItemState.DONE,
                    timeout=JOB_TIMEOUT_MS)
    transcriber = tab.queue._transcriber
    assert transcriber.loaded is not None
    qtbot.waitUntil(lambda: tab.model_combo.findData("base") >= 0, timeout=10_000)  # the list was read
    index = tab.model_combo.findData("base")
    with qtbot.waitSignal(tab.queue.model_released, timeout=JOB_TIMEOUT_MS):
        tab.model_combo.setCurrentIndex(index)
        tab.model_combo.activated.emit(index)
    assert transcriber.loaded is None
    assert tab.transcribe_settings().model == "base"


def test_a_short_file_names_its_stage_on_a_moving_bar_before_it_reaches_100_percent(qtbot, queue, jfk):
    """jfk.flac (11 s) is one window for Whisper: its measured progress goes from 0 straight to 100 %."""
    model = QueueModel(queue)
    shown = []  # (stage, progress, the progress column's text, whether its bar is a busy one)

    def look(item: QueueItem) -> None:
        row = model.row_of(item)
        if item.state is ItemState.RUNNING and row >= 0:
            cell = model.index(row, QueueModel.PROGRESS)
            shown.append((item.stage, item.progress, cell.data(), cell.data(QueueModel.BusyRole)))

    queue.item_changed.connect(look)
    queue.add([jfk])
    qtbot.waitUntil(settled(queue, 1), timeout=JOB_TIMEOUT_MS)
    assert queue.items[0].state is ItemState.DONE

    before_the_end = [(stage, text, busy) for stage, progress, text, busy in shown if progress < 1.0]
    # The first file loads the model; every stage is named while the bar is short of 100 %.
    stages = [stage for stage, _, _ in before_the_end if stage is not None]
    assert [stage for n, stage in enumerate(stages) if n == 0 or stages[n - 1] is not stage][:3] == [
        Stage.READING, Stage.LOADING, Stage.LISTENING]
    assert (Stage.LISTENING, "Listening", True) in before_the_end
    assert (Stage.LOADING, "Loading the model", True) in before_the_end
    # A row at 0 % is never a still bar saying "0 %": it moves and names what is happening.
    assert all(busy and text != "0 %" for _stage, progress, text, busy in shown if progress == 0.0)
    assert model.index(0, QueueModel.PROGRESS).data() == "100 %"
    assert not model.index(0, QueueModel.PROGRESS).data(QueueModel.BusyRole)


def test_a_busy_bar_is_redrawn_between_the_clock_s_ticks_and_its_block_moves(qtbot, queue):
    model = QueueModel(queue)
    item = QueueItem(path=Path("short.wav"), state=ItemState.RUNNING, stage=Stage.LOADING)
    queue.restore(item)
    with qtbot.waitSignal(model.dataChanged, timeout=10_000,
                          check_params_cb=lambda first, _last, roles: first.column() == QueueModel.PROGRESS
                          and QueueModel.BusyRole in roles):
        queue.item_changed.emit(item)
    positions = {busy_block(0, 200, moment)[0] for moment in (0.0, 0.4, 0.8, 1.2)}
    assert len(positions) == 4 and all(0 <= busy_block(0, 200, t)[0] <= 200 for t in (0.0, 0.79, 1.59))
    item.state = ItemState.DONE
    queue.item_changed.emit(item)
    assert not model._busy_frames.isActive()  # nothing busy: nothing redrawn for it


def test_elapsed_and_time_left_follow_the_pace_so_far():
    item = QueueItem(path=Path("meeting.mp3"), state=ItemState.RUNNING, progress=0.25)
    item.started = time.monotonic() - 30
    assert item.elapsed == pytest.approx(30, abs=1)
    assert item.time_left == pytest.approx(90, abs=3)
    assert QueueItem(path=Path("x.mp3"), state=ItemState.RUNNING, progress=0.0).time_left is None
    assert format_clock(3725) == "1:02:05" and format_clock(65) == "1:05" and format_clock(None) == "—"


# --- a model that is not on this computer yet --------------------------------------------------


@pytest.fixture(scope="module")
def hub():
    """A local stand-in for the Hugging Face hub holding the real tiny.en CTranslate2 files."""
    files = {p.name: p.read_bytes() for p in sorted(tiny_en_dir().iterdir()) if p.is_file()}
    served = {f"/{TINY_EN_REPO}/resolve/main/{name}": data for name, data in files.items()}
    tree = [{"type": "file", "path": name, "size": len(data), "oid": "0" * 40,
             **({"lfs": {"oid": hashlib.sha256(data).hexdigest(), "size": len(data)}} if name == "model.bin" else {})}
            for name, data in files.items()]
    served[f"/api/models/{TINY_EN_REPO}/tree/main"] = json.dumps(tree).encode()
    with FileServer(served) as server:
        yield server


def window_with_store(qtbot, settings, store: ModelStore) -> MainWindow:
    """The window composed as app.py does, around a store whose downloads come from `store`'s hub."""
    runner = JobRunner()
    fallback_log = FallbackLog()
    window = MainWindow(settings, store, Transcriber(store, fallback_log), runner, fallback_log,
                        autosave=AutosaveStore())
    qtbot.addWidget(window)
    window.show()
    return window


def close(qtbot, window):
    window.close()
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=JOB_TIMEOUT_MS)


def open_download_dialog(qtbot, window) -> DownloadDialog:
    qtbot.waitUntil(lambda: window.findChild(DownloadDialog) is not None, timeout=JOB_TIMEOUT_MS)
    return window.findChild(DownloadDialog)


def test_a_missing_model_is_downloaded_with_progress_and_then_the_file_is_transcribed(qtbot, settings, hub, jfk):
    settings.set("transcribe/model", "tiny.en")
    store = ModelStore(models_dir(), hf_endpoint=hub.base_url)
    window = window_with_store(qtbot, settings, store)
    tab = window.transcribe_tab
    tab.add_paths([jfk])

    dialog = open_download_dialog(qtbot, window)
    shown, results = [], []
    dialog.bar.valueChanged.connect(shown.append)
    dialog.finished.connect(results.append)
    qtbot.waitUntil(lambda: bool(tab.queue.items) and tab.queue.items[0].state is ItemState.DONE,
                    timeout=JOB_TIMEOUT_MS)
    assert results == [QDialog.DialogCode.Accepted]
    assert shown and shown[-1] == 1000  # the whole model
    assert [m.format for m in store.local("tiny.en")] == ["ct2"]
    assert "my fellow americans" in tab.queue.items[0].transcript.text.lower()
    close(qtbot, window)


def test_cancelling_the_download_cancels_the_waiting_files_and_keeps_no_half_model(qtbot, settings, hub, jfk):
    settings.set("transcribe/model", "tiny.en")
    store = ModelStore(models_dir(), hf_endpoint=hub.base_url)
    window = window_with_store(qtbot, settings, store)
    tab = window.transcribe_tab
    tab.add_paths([jfk])
    dialog = open_download_dialog(qtbot, window)
    dialog.reject()  # the Cancel button
    qtbot.waitUntil(lambda: tab.queue.items[0].state is ItemState.CANCELLED, timeout=JOB_TIMEOUT_MS)
    assert store.local("tiny.en") == []
    close(qtbot, window)


def test_a_download_that_cannot_reach_the_server_fails_the_file_with_the_reason(qtbot, settings, jfk):
    settings.set("transcribe/model", "tiny.en")
    store = ModelStore(models_dir(), hf_endpoint=closed_port_url("").rstrip("/"))
    window = window_with_store(qtbot, settings, store)
    tab = window.transcribe_tab
    tab.add_paths([jfk])
    qtbot.waitUntil(lambda: bool(tab.queue.items) and tab.queue.items[0].state is ItemState.FAILED,
                    timeout=JOB_TIMEOUT_MS)
    assert "internet connection" in tab.queue.items[0].status
    close(qtbot, window)


def test_a_file_that_failed_for_a_missing_model_starts_again_by_itself_once_the_model_is_brought_in(
        qtbot, settings, jfk):
    settings.set("transcribe/model", "tiny.en")
    store = ModelStore(models_dir(), hf_endpoint=closed_port_url("").rstrip("/"))  # offline
    window = window_with_store(qtbot, settings, store)
    tab = window.transcribe_tab
    messages = []
    tab.status_message.connect(messages.append)
    tab.add_paths([jfk])
    qtbot.waitUntil(lambda: bool(tab.queue.items) and tab.queue.items[0].state is ItemState.FAILED,
                    timeout=JOB_TIMEOUT_MS)

    # IT copies the model in by hand, as on a computer without internet (another program: no import
    # dialog of this window is involved).
    shutil.copytree(tiny_en_dir(), models_dir() / "ct2" / "tiny.en")
    qtbot.waitUntil(lambda: tab.queue.items[0].state is ItemState.DONE, timeout=JOB_TIMEOUT_MS)
    assert "my fellow americans" in tab.queue.items[0].transcript.text.lower()
    assert any("“tiny.en” is on this computer now" in message for message in messages)
    close(qtbot, window)


def test_a_model_imported_from_the_command_line_appears_in_the_open_window(qtbot, settings):
    from tests.helpers.cli import voxdesk

    store = ModelStore(models_dir())
    window = window_with_store(qtbot, settings, store)
    combo = window.transcribe_tab.model_combo
    names = lambda: [combo.itemData(i) for i in range(combo.count())]  # noqa: E731
    qtbot.waitUntil(lambda: combo.count() > 0, timeout=JOB_TIMEOUT_MS)
    assert "office-tiny" not in names()
    assert voxdesk("models", "import", str(tiny_en_dir()), "--name", "office-tiny") == 0
    qtbot.waitUntil(lambda: "office-tiny" in names(), timeout=JOB_TIMEOUT_MS)
    close(qtbot, window)


def test_live_captions_with_a_model_not_on_this_computer_offer_to_download_it(qtbot, settings, hub):
    from desktop.engines.transcription.live.captioner import LiveOptions

    settings.set("transcribe/model", "tiny.en")
    store = ModelStore(models_dir(), hf_endpoint=hub.base_url)
    window = window_with_store(qtbot, settings, store)
    tab = window.transcribe_tab
    # The list is read: tiny.en is offered as a download.
    qtbot.waitUntil(lambda: "download" in tab.model_combo.itemText(tab.model_combo.findData("tiny.en")), timeout=10_000)
    tab.live.button.click()
    panel = tab.live.panel
    panel.captions.start(tab.transcribe_settings(), "no-such-microphone", LiveOptions(language="en"))

    qtbot.waitUntil(lambda: panel.findChild(DownloadDialog) is not None, timeout=JOB_TIMEOUT_MS)
    dialog = panel.findChild(DownloadDialog)
    assert "tiny.en" in dialog.explanation.text()
    qtbot.waitUntil(lambda: panel.message.text() == "The model was downloaded.", timeout=JOB_TIMEOUT_MS)
    assert [m.format for m in store.local("tiny.en")] == ["ct2"]
    index = tab.model_combo.findData("tiny.en")
    assert index >= 0
    qtbot.waitUntil(lambda: "download" not in tab.model_combo.itemText(index), timeout=10_000)  # listed as here
    panel.close()
    close(qtbot, window)
