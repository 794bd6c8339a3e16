"""The autosave store: the queue, transcripts and edits survive a restart, a kill, and a bad file."""
from __future__ import annotations

import errno
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from desktop.core.common.i18n import Message, N_
from desktop.core.transcription.autosave import AutosaveError, AutosaveStore, default_path
from desktop.core.transcription.source_fingerprint import SourceState
from desktop.core.transcription.transcript import Segment, Transcript, Word
from tests.helpers.weights import DATA_DIR, TESTS_DIR


def recording(folder: Path, name: str = "meeting.flac", original: str = "jfk.flac") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return Path(shutil.copy(DATA_DIR / original, folder / name))


def transcript_of(source: Path) -> Transcript:
    return Transcript(
        segments=[
            Segment(0.0, 2.5, " And so my fellow Americans,", [Word(0.0, 0.4, " And"), Word(0.4, 2.5, " so")]),
            Segment(2.5, 6.0, "甚至出现交易几乎停滞的情况", text_original="甚至出現交易幾乎停滯的情況"),
            Segment(6.0, 11.0, " ask what you can do for your country."),
        ],
        language="en", duration=11.0, source=str(source),
    )


@pytest.fixture
def store(tmp_path):
    opened = AutosaveStore(tmp_path / "data" / "autosave.sqlite3")
    yield opened
    opened.close()


def test_the_database_lives_in_the_data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("VOXDESK_DATA_DIR", str(tmp_path / "portable"))
    assert default_path() == tmp_path / "portable" / "autosave.sqlite3"
    store = AutosaveStore()
    try:
        assert store.on_disk and store.notice is None
        assert store.path.is_file()
    finally:
        store.close()


def test_the_queue_and_a_transcript_with_its_edits_come_back_after_a_restart(tmp_path, store):
    first, second = recording(tmp_path / "in", "first.flac"), recording(tmp_path / "in", "second.wav")
    a, b = store.add_item(first), store.add_item(second)
    store.set_status(a, "done", "Done in 3 s")
    store.save_transcript(a, transcript_of(first))
    store.save_edit(a, 0, " And so, my fellow Americans,")
    store.save_edit(a, 1, "甚至出现交易几乎停止的情况")
    store.save_times(a, 2, 6.2, 10.5)
    store.save_edit(a, 2, " ask what you can do for your country!")
    store.close()

    reopened = AutosaveStore(store.path)
    try:
        assert reopened.notice is None
        queue = reopened.queue()
        assert [(item.id, item.source, item.status) for item in queue] == [(a, first, "done"), (b, second, "waiting")]
        assert queue[0].message == "Done in 3 s" and queue[0].has_transcript and not queue[1].has_transcript
        restored = reopened.transcript(a)
        assert [s.text for s in restored.segments] == [
            " And so, my fellow Americans,", "甚至出现交易几乎停止的情况", " ask what you can do for your country!"]
        assert restored.segments[0].words == [], "word timings no longer match an edited text"
        assert restored.segments[1].text_original is None
        assert (restored.segments[2].start, restored.segments[2].end) == (6.2, 10.5)
        assert (restored.language, restored.duration, restored.source) == ("en", 11.0, str(first))
        assert reopened.transcript(b) is None
    finally:
        reopened.close()


def test_an_unedited_transcript_comes_back_exactly(tmp_path, store):
    source = recording(tmp_path)
    item = store.add_item(source)
    store.save_transcript(item, transcript_of(source))
    assert store.transcript(item).to_dict() == transcript_of(source).to_dict()


def test_a_status_sentence_comes_back_translatable(tmp_path, store):
    item = store.add_item(recording(tmp_path))
    inner = N_("Audio", "no sound track")
    sentence = N_("Audio", "“{name}” could not be read: {reason}.").format(name="meeting.flac", reason=inner)
    store.set_status(item, "failed", sentence)

    message = store.queue()[0].message
    assert isinstance(message, Message)
    assert message == "“meeting.flac” could not be read: no sound track."
    chinese = {"no sound track": "没有音轨", "“{name}” could not be read: {reason}.": "无法读取“{name}”：{reason}。"}
    assert message.localized(lambda context, text: chinese[text]) == "无法读取“meeting.flac”：没有音轨。"


def test_a_new_transcript_replaces_the_old_one_and_its_edits(tmp_path, store):
    source = recording(tmp_path)
    item = store.add_item(source)
    store.save_transcript(item, transcript_of(source))
    store.save_edit(item, 0, " edited")
    store.save_transcript(item, Transcript(segments=[Segment(0.0, 1.0, " again")]))
    assert [s.text for s in store.transcript(item).segments] == [" again"]
    assert store.unexported_edits() == []


def test_the_queue_keeps_its_order_and_removed_items_leave_it(tmp_path, store):
    ids = [store.add_item(recording(tmp_path, f"part {n}.flac")) for n in range(4)]
    store.remove(ids[1], keep_transcript=False)
    store.save_transcript(ids[2], transcript_of(tmp_path / "part 2.flac"))
    store.remove(ids[2], keep_transcript=True)
    later = store.add_item(recording(tmp_path, "later.flac"))
    assert [item.id for item in store.queue()] == [ids[0], ids[3], later]
    assert [item.id for item in store.recent()] == [ids[2]]
    assert not store.recent()[0].in_queue

    store.enqueue(ids[2])
    assert [item.id for item in store.queue()] == [ids[0], ids[3], later, ids[2]]


def test_removing_without_keeping_deletes_the_transcript_and_its_edits(tmp_path, store):
    source = recording(tmp_path)
    item = store.add_item(source)
    store.save_transcript(item, transcript_of(source))
    store.save_edit(item, 0, " edited")
    store.remove(item, keep_transcript=False)
    assert store.queue() == [] and store.recent() == [] and store.unexported_edits() == []
    assert store.transcript(item) is None
    with pytest.raises(KeyError):
        store.save_edit(item, 0, " too late")


def test_recent_transcripts_come_most_recently_changed_first(tmp_path, store):
    ids = []
    for n in range(3):
        source = recording(tmp_path, f"talk {n}.flac")
        ids.append(store.add_item(source))
        store.save_transcript(ids[-1], transcript_of(source))
    store.add_item(recording(tmp_path, "not transcribed.flac"))
    store.save_edit(ids[0], 1, "改过的")
    assert [item.id for item in store.recent()] == [ids[0], ids[2], ids[1]]
    assert [item.id for item in store.recent(limit=2)] == [ids[0], ids[2]]


def test_edits_count_as_unexported_until_the_copy_they_are_in_is_exported(tmp_path, store):
    source = recording(tmp_path)
    item = store.add_item(source)
    store.save_transcript(item, transcript_of(source))
    assert store.unexported_edits() == [], "a transcript nobody edited loses nothing"

    store.save_edit(item, 0, " first edit")
    (pending,) = store.unexported_edits()
    assert pending.id == item and pending.unexported_edits and pending.revision == 1

    store.save_edit(item, 1, "第二处")  # typed while the export of revision 1 was being written
    store.mark_exported(item, revision=pending.revision)
    assert [i.revision for i in store.unexported_edits()] == [2]

    store.mark_exported(item)
    assert store.unexported_edits() == []
    store.mark_exported(item, revision=1)  # a slow, older export finishing late changes nothing
    assert store.unexported_edits() == []


def test_an_export_counts_no_further_than_the_edits_that_were_saved(tmp_path, store):
    # The window counts the edits it asked to save; one of them could not be saved.
    source = recording(tmp_path)
    item = store.add_item(source)
    store.save_transcript(item, transcript_of(source))
    store.save_edit(item, 0, " first edit")
    store.mark_exported(item, revision=2)  # exported with the edit that was lost as well
    assert store.unexported_edits() == []

    store.save_edit(item, 1, " an edit after the export")
    assert [i.revision for i in store.unexported_edits()] == [2]


def test_an_edit_needs_a_saved_transcript_and_a_real_segment(tmp_path, store):
    item = store.add_item(recording(tmp_path))
    with pytest.raises(KeyError):
        store.save_edit(item, 0, "no transcript yet")
    with pytest.raises(KeyError):
        store.set_status(item + 100, "done")
    store.save_transcript(item, transcript_of(tmp_path / "meeting.flac"))
    with pytest.raises(IndexError):
        store.save_edit(item, -1, "before the first")
    assert store.unexported_edits() == [], "a refused edit leaves nothing behind"


# -- the source files ------------------------------------------------------------------------------


def test_a_moved_or_deleted_source_is_missing(tmp_path, store):
    source = recording(tmp_path)
    item = store.add_item(source)
    source.rename(tmp_path / "elsewhere.flac")
    (saved,) = store.queue()
    assert saved.id == item and saved.source_state is SourceState.MISSING


def test_a_different_recording_under_the_same_name_is_changed(tmp_path, store):
    source = recording(tmp_path, "talk.wav", "BAC009S0764W0121.wav")
    store.add_item(source)
    shutil.copy(DATA_DIR / "BAC009S0764W0122.wav", source)
    assert store.queue()[0].source_state is SourceState.CHANGED


def test_same_size_and_new_time_is_changed_only_when_the_content_is(tmp_path, store):
    source = recording(tmp_path)
    store.add_item(source)
    stat = source.stat()
    os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns + 5_000_000_000))  # touched, or copied back
    assert store.queue()[0].source_state is SourceState.SAME

    data = bytearray(source.read_bytes())
    data[100] ^= 0xFF  # the same length, different sound
    source.write_bytes(bytes(data))
    os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns + 9_000_000_000))
    assert store.queue()[0].source_state is SourceState.CHANGED


def test_a_big_file_is_compared_by_its_start_its_end_and_its_size(tmp_path, store):
    big = tmp_path / "lecture.mkv"
    big.write_bytes(os.urandom(5 * 1024 * 1024))
    store.add_item(big)
    stat = big.stat()
    with open(big, "r+b") as stream:
        stream.seek(-10, os.SEEK_END)
        stream.write(b"0123456789")
    os.utime(big, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert store.queue()[0].source_state is SourceState.CHANGED


def test_a_source_unreadable_when_added_is_still_queued(tmp_path, store):
    item = store.add_item(tmp_path / "not there yet.flac")
    (saved,) = store.queue()
    assert saved.id == item and saved.source_state is SourceState.MISSING
    recording(tmp_path, "not there yet.flac")
    assert store.queue()[0].source_state is SourceState.SAME


def test_a_relative_source_is_saved_as_an_absolute_path(tmp_path, store, monkeypatch):
    recording(tmp_path / "in")
    monkeypatch.chdir(tmp_path / "in")
    store.add_item("meeting.flac")
    monkeypatch.chdir(tmp_path)
    saved = store.queue()[0]
    assert saved.source == tmp_path / "in" / "meeting.flac" and saved.source_state is SourceState.SAME


# -- a bad database file, an unwritable folder ------------------------------------------------------


def test_a_database_of_garbage_bytes_is_kept_aside_and_a_fresh_one_started(tmp_path):
    path = tmp_path / "autosave.sqlite3"
    garbage = os.urandom(8192)
    path.write_bytes(garbage)

    store = AutosaveStore(path)
    try:
        assert store.on_disk
        assert isinstance(store.notice, Message)
        (kept,) = [p for p in tmp_path.iterdir() if p.name.startswith("autosave.sqlite3.unreadable-")]
        assert kept.read_bytes() == garbage
        assert store.notice == (f"The work VoxDesk saved earlier could not be read, so it starts afresh. "
                                f"The old file was kept as {kept}.")
        item = store.add_item(recording(tmp_path / "in"))
        assert [i.id for i in store.queue()] == [item]
    finally:
        store.close()
    reopened = AutosaveStore(path)
    assert reopened.notice is None and len(reopened.queue()) == 1
    reopened.close()


def test_a_database_damaged_inside_is_kept_aside(tmp_path):
    path = tmp_path / "autosave.sqlite3"
    store = AutosaveStore(path)
    source = recording(tmp_path / "in")
    for _ in range(30):
        item = store.add_item(source)
        store.save_transcript(item, transcript_of(source))
    store.close()
    data = bytearray(path.read_bytes())
    page = 4096
    data[page: 3 * page] = os.urandom(2 * page)  # two pages of the tables overwritten
    path.write_bytes(bytes(data))

    reopened = AutosaveStore(path)
    try:
        assert reopened.notice is not None and "could not be read" in reopened.notice
        assert reopened.queue() == []
        assert len([p for p in tmp_path.iterdir() if ".unreadable-" in p.name]) == 1
    finally:
        reopened.close()


def test_a_database_from_a_newer_release_is_kept_aside_not_changed(tmp_path):
    path = tmp_path / "autosave.sqlite3"
    newer = sqlite3.connect(path)
    newer.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, shape_of_the_future TEXT)")
    newer.execute("PRAGMA user_version = 99")
    newer.commit()
    newer.close()
    before = path.read_bytes()

    store = AutosaveStore(path)
    try:
        assert store.notice is not None
        (kept,) = tmp_path.glob("autosave.sqlite3.unreadable-*")
        assert kept.read_bytes() == before
        assert store.queue() == []
    finally:
        store.close()


def test_another_programs_database_is_not_used(tmp_path):
    path = tmp_path / "autosave.sqlite3"
    other = sqlite3.connect(path)
    other.execute("CREATE TABLE contacts (name TEXT)")
    other.commit()
    other.close()
    store = AutosaveStore(path)
    try:
        assert store.notice is not None and list(tmp_path.glob("autosave.sqlite3.unreadable-*"))
    finally:
        store.close()


def _assert_works_in_memory(store: AutosaveStore, folder: Path, tmp_path: Path) -> None:
    assert not store.on_disk
    assert store.notice == (f"VoxDesk cannot save your work as you go, because it cannot write to {folder}. "
                            "Export your transcripts to keep them.")
    source = recording(tmp_path / "in")
    item = store.add_item(source)
    store.save_transcript(item, transcript_of(source))
    store.save_edit(item, 0, " still editable")
    assert store.transcript(item).segments[0].text == " still editable"


@pytest.mark.parametrize("code", [errno.EROFS, errno.EACCES, errno.ENOSPC])
def test_a_data_folder_that_cannot_be_created_gives_a_session_in_memory(tmp_path, monkeypatch, code):
    folder = tmp_path / "data"
    real_mkdir = Path.mkdir

    def failing_mkdir(self, *args, **kwargs):
        if self == folder:
            raise OSError(code, os.strerror(code), str(self))
        return real_mkdir(self, *args, **kwargs)

    monkeypatch.setattr(Path, "mkdir", failing_mkdir)
    store = AutosaveStore(folder / "autosave.sqlite3")
    try:
        _assert_works_in_memory(store, folder, tmp_path)
    finally:
        store.close()


def test_a_data_folder_under_a_regular_file_gives_a_session_in_memory(tmp_path):
    blocker = tmp_path / "VoxDesk"
    blocker.write_text("a file where the data folder should be")
    store = AutosaveStore(blocker / "autosave.sqlite3")
    try:
        _assert_works_in_memory(store, blocker, tmp_path)
        assert blocker.read_text() == "a file where the data folder should be"
    finally:
        store.close()


def test_a_database_name_taken_by_a_folder_gives_a_session_in_memory_and_names_the_file(tmp_path):
    # The data folder is fine; what is in the way is the "file", so that is what the sentence names.
    path = tmp_path / "autosave.sqlite3"
    path.mkdir()
    store = AutosaveStore(path)
    try:
        assert not store.on_disk
        assert store.notice == (f"VoxDesk cannot save your work as you go, because the file {path} cannot be "
                                "written (it is read-only, or not a file). Export your transcripts to keep them; to "
                                "save as you go again, make that file writable or move it away.")
        assert "cannot write to" not in store.notice
        source = recording(tmp_path / "in")
        item = store.add_item(source)
        store.save_transcript(item, transcript_of(source))
        assert store.transcript(item) is not None
        assert path.is_dir()
    finally:
        store.close()


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into any file, so none is read-only")
def test_a_read_only_database_file_in_a_writable_folder_is_named_not_the_folder(tmp_path):
    path = tmp_path / "autosave.sqlite3"
    AutosaveStore(path).close()
    path.chmod(0o444)
    try:
        store = AutosaveStore(path)
        try:
            assert not store.on_disk and f"the file {path} cannot be written" in store.notice
        finally:
            store.close()
    finally:
        path.chmod(0o644)


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into any folder, so none is read-only")
def test_a_really_read_only_folder_gives_a_session_in_memory_and_leaves_the_file(tmp_path):
    folder = tmp_path / "locked"
    folder.mkdir()
    (folder / "autosave.sqlite3").write_bytes(b"damaged, and in a folder nobody may write to")
    folder.chmod(0o555)
    try:
        store = AutosaveStore(folder / "autosave.sqlite3")
        _assert_works_in_memory(store, folder, tmp_path)
        store.close()
        assert [p.name for p in folder.iterdir()] == ["autosave.sqlite3"]
    finally:
        folder.chmod(0o755)


# -- two windows, a kill ------------------------------------------------------------------------------


def test_two_connections_see_each_others_changes(tmp_path):
    path = tmp_path / "autosave.sqlite3"
    one, two = AutosaveStore(path), AutosaveStore(path)
    try:
        source = recording(tmp_path / "in")
        item = one.add_item(source)
        assert [i.id for i in two.queue()] == [item]
        two.save_transcript(item, transcript_of(source))
        two.save_edit(item, 2, " edited in the other window")
        assert one.transcript(item).segments[2].text == " edited in the other window"
        assert [i.id for i in one.unexported_edits()] == [item]
    finally:
        one.close()
        two.close()


def test_two_connections_adding_at_once_keep_every_item_in_one_order(tmp_path):
    path = tmp_path / "autosave.sqlite3"
    stores = [AutosaveStore(path), AutosaveStore(path)]
    source = recording(tmp_path / "in")
    added: list[int] = []

    def add_many(store):
        for _ in range(25):
            added.append(store.add_item(source))

    threads = [threading.Thread(target=add_many, args=(store,)) for store in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        queue = stores[0].queue()
        assert sorted(i.id for i in queue) == sorted(added) and len(added) == 50
        assert [i.id for i in queue] == sorted(added), "the queue is in the order the items were added"
    finally:
        for store in stores:
            store.close()


def test_a_change_blocked_by_another_window_is_a_sentence_and_saves_later(tmp_path):
    path = tmp_path / "autosave.sqlite3"
    store = AutosaveStore(path, timeout=0.2)
    source = recording(tmp_path / "in")
    item = store.add_item(source)
    store.save_transcript(item, transcript_of(source))
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(AutosaveError) as caught:
            store.save_edit(item, 0, " blocked")
        assert caught.value.message.startswith("Another VoxDesk window kept the saved work busy")
        assert caught.value.detail
    finally:
        other.execute("ROLLBACK")
        other.close()
    store.save_edit(item, 0, " saved after all")
    assert store.transcript(item).segments[0].text == " saved after all"
    assert store.unexported_edits()[0].revision == 1, "the blocked edit left nothing half-saved"
    store.close()


CHILD = """
import sys
from desktop.core.transcription.autosave import AutosaveStore
from desktop.core.transcription.transcript import Segment, Transcript

store = AutosaveStore(sys.argv[1])
item = store.add_item(sys.argv[2])
store.save_transcript(item, Transcript(segments=[Segment(0.0, 1.0, " first"), Segment(1.0, 2.0, " second")]))
store.save_times(item, 1, 1.25, 2.0)
number = 0
while True:  # a user typing correction after correction, until the app is killed
    number += 1
    store.save_edit(item, 0, f" correction {number}")
    print("saved", item, number, flush=True)
"""


def test_a_killed_app_loses_no_edit_it_reported_saved(tmp_path):
    path = tmp_path / "data" / "autosave.sqlite3"
    source = recording(tmp_path / "in")
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(path), str(source)], cwd=TESTS_DIR.parent,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        reported = [child.stdout.readline().split() for _ in range(20)]
        child.send_signal(signal.SIGKILL)
    finally:
        child.kill()
        child.wait(timeout=60)
    assert child.returncode == -signal.SIGKILL
    assert all(line[0] == "saved" for line in reported), child.stderr.read()
    item, last = int(reported[-1][1]), int(reported[-1][2])

    store = AutosaveStore(path)
    try:
        assert store.notice is None
        assert [i.id for i in store.queue()] == [item]
        segments = store.transcript(item).segments
        saved_number = int(segments[0].text.split()[-1])
        assert saved_number >= last, "every edit reported saved is there (a later one may be too)"
        assert (segments[1].start, segments[1].text) == (1.25, " second")
        assert [i.id for i in store.unexported_edits()] == [item]
    finally:
        store.close()


def test_saved_work_still_shows_when_the_folder_became_read_only(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    path = folder / "autosave.sqlite3"
    source = recording(tmp_path / "in")
    store = AutosaveStore(path)
    item = store.add_item(source)
    store.save_transcript(item, transcript_of(source))
    store.save_edit(item, 0, " edited yesterday")
    store.close()
    before = path.read_bytes()
    real_mkdir = Path.mkdir

    def read_only_mkdir(self, *args, **kwargs):
        if self == folder:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(self))
        return real_mkdir(self, *args, **kwargs)

    monkeypatch.setattr(Path, "mkdir", read_only_mkdir)
    readonly = AutosaveStore(path)
    try:
        assert not readonly.on_disk and "cannot write to" in readonly.notice
        assert [i.id for i in readonly.queue()] == [item]
        assert readonly.transcript(item).segments[0].text == " edited yesterday"
        readonly.save_edit(item, 0, " edited today, in memory")
        assert readonly.transcript(item).segments[0].text == " edited today, in memory"
    finally:
        readonly.close()
    assert path.read_bytes() == before


def test_a_transcript_saved_again_after_each_edit_comes_back_as_it_was_each_time(tmp_path, store):
    """The whole transcript saved after edits (new lines, a renamed speaker, words, corrections, gaps)
    reads back the same after each save, however much of it the save before had already written."""
    from dataclasses import replace

    from desktop.core.transcription.transcript import Correction, Gap

    source = recording(tmp_path / "in")
    transcript = transcript_of(source)
    transcript.segments[0].speaker = 1
    transcript.segments[2].speaker = 2
    transcript.segments[2].corrections = [Correction(10, 13, "yu", "you")]
    transcript.gaps = [Gap(11.0, 12.0)]
    transcript.glossaries = ["Office"]
    item = store.add_item(source)
    store.save_transcript(item, transcript)
    versions = [transcript]
    edited = replace(transcript, segments=[*transcript.segments[:2], Segment(6.0, 8.0, " ask what"),
                                           Segment(8.0, 11.0, " you can do.", speaker=2)])
    versions.append(edited)
    versions.append(replace(edited, speaker_names={1: "Anna", 2: "Li Wei"}))  # the same lines, renamed
    versions.append(replace(versions[-1], segments=versions[-1].segments[1:]))
    for number, version in enumerate(versions, start=1):
        store.save_edited_transcript(item, version, edits=2)
        assert store.transcript(item).to_dict() == version.to_dict(), number
    assert store.queue()[0].revision == 2 * len(versions), "each save counts the edits it holds"
