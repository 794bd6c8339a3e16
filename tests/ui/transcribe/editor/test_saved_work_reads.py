"""Reading the saved work never holds up the window: the saved queue, Recent transcripts and a reopened
transcript arrive when the disk answers, while the window goes on."""
from __future__ import annotations

import threading

from desktop.core.transcription.autosave import AutosaveStore
from desktop.ui.transcribe.editor.saved_work import SavedWork
from desktop.workers.job import JobRunner
from desktop.workers.transcription_queue import ItemState, TranscriptionQueue
from tests.ui.transcribe.editor.test_autosave_window import copy_of, saved_done


def unstarted_queue(runner: JobRunner) -> TranscriptionQueue:
    """A queue nothing is transcribed from: these tests only list saved work. Its runner still reads
    the restored files' lengths on a thread, so each test shuts it down, as the window does on closing
    (a QThread destroyed while it runs ends the process)."""
    return TranscriptionQueue(transcriber=None, runner=runner, next_settings=lambda: None)


class SlowDisk(AutosaveStore):
    """The real store, whose reads wait until the test lets the disk answer (at most 10 s)."""

    def __init__(self, path):
        super().__init__(path)
        self.disk_answers = threading.Event()

    def queue(self):
        self.disk_answers.wait(10)
        return super().queue()

    def transcript(self, item_id):
        self.disk_answers.wait(10)
        return super().transcript(item_id)


def test_the_saved_queue_comes_back_without_holding_up_the_window(qtbot, tmp_path):
    path = tmp_path / "autosave.sqlite3"
    first = AutosaveStore(path)
    saved_done(first, copy_of("jfk.flac", tmp_path / "in"))
    first.close()
    runner = JobRunner()
    store, queue = SlowDisk(path), unstarted_queue(runner)
    saved = SavedWork(store, queue)
    restored = []
    saved.restored.connect(restored.append)
    try:
        saved.restore()
        assert queue.items == [] and not saved.is_restored  # the window is free while the disk is slow
        store.disk_answers.set()
        qtbot.waitUntil(lambda: saved.is_restored)
        assert [item.state for item in queue.items] == [ItemState.DONE]
        assert restored == [[]]  # no unexported corrections
        qtbot.waitUntil(lambda: [s.source.name for s in saved.recent()] == ["jfk.flac"])
    finally:
        saved.stop()
        assert runner.shutdown()
        store.close()


def test_a_transcript_reopened_from_recent_is_listed_when_read(qtbot, tmp_path):
    path = tmp_path / "autosave.sqlite3"
    first = AutosaveStore(path)
    item_id = saved_done(first, copy_of("jfk.flac", tmp_path / "in"))
    first.remove(item_id, True)  # taken off the list, kept for Recent transcripts
    first.close()
    runner = JobRunner()
    store, queue = SlowDisk(path), unstarted_queue(runner)
    store.disk_answers.set()
    saved = SavedWork(store, queue)
    try:
        saved.restore()
        qtbot.waitUntil(lambda: saved.is_restored and len(saved.recent()) == 1)
        assert queue.items == []
        store.disk_answers.clear()
        shown = []
        saved.reopen(saved.recent()[0], shown.append)
        assert shown == [] and queue.items == []
        store.disk_answers.set()
        qtbot.waitUntil(lambda: len(shown) == 1)
        assert queue.items == shown and shown[0].transcript.text.startswith("And so my fellow Americans")
    finally:
        saved.stop()
        assert runner.shutdown()
        store.close()
