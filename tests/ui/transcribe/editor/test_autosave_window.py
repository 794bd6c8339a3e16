"""Nothing typed is lost: the queue, its transcripts and every correction come back in a new window,
after a close and after the app was killed; old transcripts reopen; exports never overwrite each other."""
import shutil
import sqlite3
from pathlib import Path

import pytest
import srt
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from desktop.core.transcription.autosave import AutosaveStore, default_path
from desktop.core.transcription.transcript import Segment, Transcript
from desktop.ui.transcribe import export_bar
from desktop.ui.transcribe.queue_model import QueueModel
from desktop.ui.transcribe.editor.segments_model import SegmentsModel
from desktop.workers.transcription_queue import ItemState
from tests.helpers.closing import close_answering, close_window
from tests.helpers.killed_app import kill_while_typing
from tests.helpers.weights import DATA_DIR
from tests.ui.conftest import JOB_TIMEOUT_MS
from tests.ui.transcribe.test_transcribe_tab import drop, wait_until_settled

pytestmark = pytest.mark.slow


def open_window(qtbot, settings):
    """A window as the app builds it, on this test's data folder."""
    from desktop.app import create_app

    _app, window = create_app([], settings=settings)
    qtbot.addWidget(window, before_close_func=close_answering)
    window.show()
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: window.transcribe_tab.saved_work.is_restored)  # read off the window's thread
    return window


def recent_menu_texts(window) -> list[str]:
    """What File → Recent transcripts lists when opened."""
    window.recent_menu.aboutToShow.emit()
    return [action.text() for action in window.recent_menu.actions() if action.text()]


def close(qtbot, window) -> None:
    close_window(qtbot, window, timeout=JOB_TIMEOUT_MS)


def reopened(qtbot, window, settings):
    """Close the window and start a new one, as the user does the next day."""
    close(qtbot, window)
    return open_window(qtbot, settings)


def copy_of(source: str, folder: Path, name: str | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return Path(shutil.copy(DATA_DIR / source, folder / (name or source)))


def jfk_transcript(source: Path) -> Transcript:
    return Transcript(
        segments=[
            Segment(0.0, 3.0, " And so my fellow Americans,"),
            Segment(3.0, 5.5, " ask not what your country can do for you,"),
            Segment(5.5, 8.0, " ask what you can do"),
            Segment(8.0, 11.0, " for your country."),
        ],
        language="en", duration=11.0, source=str(source),
    )


def saved_done(store: AutosaveStore, source: Path) -> int:
    """A file saved as done with its transcript, as a session that transcribed it leaves it."""
    item_id = store.add_item(source)
    store.save_transcript(item_id, jfk_transcript(source))
    store.set_status(item_id, "done")
    return item_id


def texts(tab) -> list[str]:
    model = tab.transcript_panel.segments_model
    return [model.index(row, SegmentsModel.TEXT).data() for row in range(model.rowCount())]


def answer_next_question(qtbot, button_text: str) -> list[str]:
    """Click `button_text` in the next question box that opens; returns the questions' texts."""
    asked = []

    def click():
        # The box that asks it: the message after an export may be open too.
        box = next((w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()
                    and any(b.text() == button_text for b in w.buttons())), None)
        if box is None:
            QTimer.singleShot(50, click)
            return
        asked.append(box.text())
        next(b for b in box.buttons() if b.text() == button_text).click()

    QTimer.singleShot(0, click)
    return asked


def test_the_queue_its_transcripts_and_corrections_come_back_in_a_new_window(qtbot, window, settings, tmp_path):
    first = copy_of("jfk.flac", tmp_path / "in")
    second = copy_of("lj050-0131.wav", tmp_path / "in")
    tab = window.transcribe_tab
    drop(tab, first, second)
    wait_until_settled(qtbot, tab, 2)
    tab.queue_view.selectRow(0)
    segments = tab.queue.items[0].transcript.segments
    model = tab.transcript_panel.view.model()
    assert model.setData(model.index(0, SegmentsModel.TEXT), "And so, my fellow Americans,")
    new_end = round(segments[1].start - 0.25, 3)
    assert model.setData(model.index(0, SegmentsModel.END), f"{new_end:.3f}")
    expected = texts(tab)
    second_text = tab.queue.items[1].transcript.text

    window = reopened(qtbot, window, settings)
    tab = window.transcribe_tab
    items = tab.queue.items
    assert [item.path for item in items] == [first, second]
    assert [item.state for item in items] == [ItemState.DONE, ItemState.DONE]
    assert tab.queue_model.index(0, QueueModel.STATUS).data() == "Done"
    tab.queue_view.selectRow(0)
    assert texts(tab) == expected and expected[0] == "And so, my fellow Americans,"
    assert items[0].transcript.segments[0].end == pytest.approx(new_end)
    assert items[1].transcript.text == second_text
    # Closing did not ask anything; the new window says the corrections were kept.
    note = window.statusBar().currentMessage()
    assert "Corrections you had not exported were kept" in note and "“jfk.flac”" in note
    assert "lj050-0131.wav" not in note, "a file without corrections is not named"


def test_killing_the_app_while_editing_loses_no_correction(qtbot, settings, tmp_path):
    source = copy_of("jfk.flac", tmp_path / "in")
    store = AutosaveStore(default_path())
    saved_done(store, source)
    store.close()
    kill_while_typing(qtbot, tmp_path, """
        model = panel.view.model()
        assert model.setData(model.index(0, SegmentsModel.TEXT), "And so, my fellow Americans:")
        assert model.setData(model.index(1, SegmentsModel.TEXT), "ask not what your country can do for you;")
        assert model.setData(model.index(2, SegmentsModel.END), "00:00:07.750")
    """, typing_row=3)

    window = open_window(qtbot, settings)
    tab = window.transcribe_tab
    assert [item.state for item in tab.queue.items] == [ItemState.DONE]
    tab.queue_view.selectRow(0)
    shown = texts(tab)
    assert shown[:3] == ["And so, my fellow Americans:", "ask not what your country can do for you;",
                         "ask what you can do"]
    assert shown[3].startswith("for your countryx")
    assert tab.transcript_panel.segments_model.index(2, SegmentsModel.END).data() == "00:00:07.750"
    close(qtbot, window)


def test_a_file_still_waiting_at_closing_comes_back_waiting_and_starts_when_asked(qtbot, settings, tiny_model,
                                                                                 tmp_path):
    source = copy_of("jfk.flac", tmp_path / "in")
    store = AutosaveStore(default_path())
    store.set_status(store.add_item(source), "running", "Transcribing…")
    store.close()

    window = open_window(qtbot, settings)
    tab = window.transcribe_tab
    item = tab.queue.items[0]
    qtbot.wait(500)
    assert item.state is ItemState.WAITING, "nothing starts behind the user's back"
    assert tab.queue_model.index(0, QueueModel.STATUS).data() == "Waiting: press Start to transcribe it"
    assert tab.queue_panel.start_button.isVisibleTo(tab)
    tab.queue_panel.start_button.click()
    qtbot.waitUntil(lambda: item.state is ItemState.DONE, timeout=JOB_TIMEOUT_MS)
    assert "my fellow americans" in item.transcript.text.lower()
    assert not tab.queue_panel.start_button.isVisibleTo(tab)

    window = reopened(qtbot, window, settings)
    restored = window.transcribe_tab.queue.items[0]
    assert restored.state is ItemState.DONE and restored.transcript.text == item.transcript.text
    close(qtbot, window)


def test_a_moved_or_replaced_recording_is_marked_and_its_transcript_still_shown_and_exported(qtbot, settings,
                                                                                            tmp_path):
    moved = copy_of("jfk.flac", tmp_path / "in", "interview.flac")
    replaced = copy_of("jfk.flac", tmp_path / "in", "speech.flac")
    store = AutosaveStore(default_path())
    saved_done(store, moved)
    saved_done(store, replaced)
    store.close()
    moved.unlink()
    shutil.copy(DATA_DIR / "lj050-0131.wav", replaced)

    window = open_window(qtbot, settings)
    tab = window.transcribe_tab
    assert tab.queue_model.index(0, QueueModel.STATUS).data() == (
        f"The recording is no longer at {moved}; its saved transcript is still here.")
    assert tab.queue_model.index(1, QueueModel.STATUS).data().startswith("The recording has changed since")
    tab.queue_view.selectRow(0)
    assert texts(tab)[0] == "And so my fellow Americans,"

    out = tmp_path / "out"
    out.mkdir()
    tab.set_export_folder(out)
    for fmt, box in tab.format_boxes.items():
        box.setChecked(fmt == "txt")
    tab.export_selected()
    qtbot.waitUntil(lambda: (out / "interview.txt").is_file(), timeout=30_000)
    assert "ask not what your country can do for you" in (out / "interview.txt").read_text(encoding="utf-8")
    close(qtbot, window)


def test_recent_transcripts_reopens_one_that_was_taken_off_the_list(qtbot, settings, tmp_path):
    source = copy_of("jfk.flac", tmp_path / "in")
    store = AutosaveStore(default_path())
    item_id = saved_done(store, source)
    store.save_edit(item_id, 2, " ask what YOU can do")
    store.close()

    window = open_window(qtbot, settings)
    tab = window.transcribe_tab
    tab.queue_view.selectRow(0)
    asked = answer_next_question(qtbot, "Keep")
    tab.queue_panel.remove_button.click()
    assert asked and "jfk.flac" in asked[0] and "Recent transcripts" in asked[0]
    assert tab.queue.items == []

    qtbot.waitUntil(lambda: recent_menu_texts(window) == ["jfk.flac"])
    next(action for action in window.recent_menu.actions() if action.text() == "jfk.flac").trigger()
    qtbot.waitUntil(lambda: len(tab.queue.items) == 1)
    assert [item.state for item in tab.queue.items] == [ItemState.DONE]
    assert tab.selected_item() is tab.queue.items[0]
    assert texts(tab)[2] == "ask what YOU can do"

    window = reopened(qtbot, window, settings)
    assert [item.path for item in window.transcribe_tab.queue.items] == [source], "it is on the list again"
    close(qtbot, window)


def test_removing_a_file_asks_and_delete_forgets_its_transcript_while_cancel_keeps_the_row(qtbot, settings,
                                                                                        tmp_path):
    source = copy_of("jfk.flac", tmp_path / "in")
    store = AutosaveStore(default_path())
    saved_done(store, source)
    store.close()

    window = open_window(qtbot, settings)
    tab = window.transcribe_tab
    tab.queue_view.selectRow(0)
    asked = answer_next_question(qtbot, "Cancel")
    tab.queue_panel.remove_button.click()
    assert asked and len(tab.queue.items) == 1

    answer_next_question(qtbot, "Delete")
    tab.queue_panel.remove_button.click()
    assert tab.queue.items == []
    qtbot.waitUntil(lambda: recent_menu_texts(window) == ["No saved transcripts yet"])

    window = reopened(qtbot, window, settings)
    assert window.transcribe_tab.queue.items == []
    close(qtbot, window)


def test_export_all_of_two_recordings_with_one_name_writes_both_and_says_where(qtbot, window, settings,
                                                                              tmp_path, monkeypatch):
    asked = []
    monkeypatch.setattr(export_bar, "ask_replace", lambda parent, paths: asked.append(paths) or False)
    first = copy_of("jfk.flac", tmp_path / "a", "talk.flac")
    second = copy_of("lj050-0131.wav", tmp_path / "b", "talk.wav")
    tab = window.transcribe_tab
    drop(tab, first, second)
    wait_until_settled(qtbot, tab, 2)
    tab.queue_view.selectRow(0)
    model = tab.transcript_panel.view.model()
    assert model.setData(model.index(0, SegmentsModel.TEXT), "And so, my fellow Americans,")

    out = tmp_path / "out"
    out.mkdir()
    tab.set_export_folder(out)
    for fmt, box in tab.format_boxes.items():
        box.setChecked(fmt == "srt")
    tab.export_all()
    qtbot.waitUntil(lambda: tab.export_bar.export_all_button.isEnabled()
                    and "Saving" not in tab.export_bar.note.text(), timeout=30_000)

    assert asked == [], "nothing of this export stands in another's way"
    assert sorted(p.name for p in out.iterdir()) == ["talk (2).srt", "talk.srt"]
    jfk = " ".join(c.content for c in srt.parse((out / "talk.srt").read_text(encoding="utf-8")))
    lj = " ".join(c.content for c in srt.parse((out / "talk (2).srt").read_text(encoding="utf-8")))
    assert jfk.startswith("And so, my fellow Americans,")
    assert "fellow americans" not in lj.lower() and lj.strip()
    note = tab.export_bar.note.text()
    assert f"Saved 2 files in {out}." in note
    assert "“talk.wav” was saved as “talk (2).srt”" in note

    # The corrections are exported now: the next start has nothing to say about them.
    window = reopened(qtbot, window, settings)
    assert "Corrections you had not exported" not in window.statusBar().currentMessage()
    close(qtbot, window)


def test_saved_work_that_cannot_be_read_is_kept_aside_and_said_once(qtbot, settings):
    damaged = default_path()
    damaged.parent.mkdir(parents=True, exist_ok=True)
    damaged.write_bytes(b"not a database " * 100)
    window = open_window(qtbot, settings)
    note = window.statusBar().currentMessage()
    assert "could not be read, so it starts afresh" in note
    kept = [p for p in damaged.parent.iterdir() if p.name.startswith("autosave.sqlite3.unreadable-")]
    assert len(kept) == 1 and kept[0].read_bytes() == b"not a database " * 100
    assert str(kept[0]) in note
    close(qtbot, window)


def test_a_correction_that_cannot_be_saved_is_said_and_stays_in_the_table(qtbot, settings, tmp_path):
    source = copy_of("jfk.flac", tmp_path / "in")
    store = AutosaveStore(default_path())
    saved_done(store, source)
    store.close()
    window = open_window(qtbot, settings)
    tab = window.transcribe_tab
    tab.queue_view.selectRow(0)
    model = tab.transcript_panel.view.model()

    other = sqlite3.connect(default_path(), timeout=0)  # another window holds the saved work
    other.execute("BEGIN IMMEDIATE")
    try:
        assert model.setData(model.index(0, SegmentsModel.TEXT), "And so, my dear Americans,")
        # The table did not wait for the saved work: the sentence comes when the save gives up.
        assert "Another VoxDesk window kept the saved work busy" not in window.statusBar().currentMessage()
        qtbot.waitUntil(lambda: "Another VoxDesk window kept the saved work busy"
                        in window.statusBar().currentMessage(), timeout=15_000)
    finally:
        other.rollback()
        other.close()
    assert texts(tab)[0] == "And so, my dear Americans,"
    assert model.setData(model.index(1, SegmentsModel.TEXT), "ask not what your country can do for you!")
    close(qtbot, window)
