"""Autosave keeps speakers: who speaks each line and the names the user gave, across a restart, and a
database of the release before speakers opens with its work intact."""
from __future__ import annotations

import sqlite3

import pytest

from desktop.core.transcription.autosave import AutosaveStore
from desktop.core.transcription.autosave_file import _SCHEMA, SCHEMA_VERSION
from desktop.core.transcription.transcript import Segment, Transcript, Word
from tests.core.transcription.test_autosave import recording


def labelled(source) -> Transcript:
    return Transcript(segments=[Segment(0.0, 2.0, " Shall we start?", [Word(0.0, 2.0, " Shall we start?")], speaker=1),
                                Segment(2.5, 4.0, " Yes.", speaker=2),
                                Segment(4.5, 6.0, " Good.", speaker=1)],
                      language="en", duration=6.0, source=str(source))


def test_renamed_speakers_and_a_changed_line_survive_a_restart(tmp_path):
    path = tmp_path / "autosave.sqlite3"
    source = recording(tmp_path / "in")
    store = AutosaveStore(path)
    item = store.add_item(source)
    transcript = labelled(source)
    store.save_transcript(item, transcript)
    transcript.rename_speaker(1, "张伟")
    transcript.rename_speaker(2, "Anna")
    transcript.set_speaker(2, 2)
    store.save_speakers(item, transcript)
    store.save_edit(item, 1, " Yes, let's.")
    store.close()

    reopened = AutosaveStore(path)
    try:
        again = reopened.transcript(item)
        assert [(s.text, again.speaker_name(s.speaker)) for s in again.segments] == [
            (" Shall we start?", "张伟"), (" Yes, let's.", "Anna"), (" Good.", "Anna")]
        assert [saved.revision for saved in reopened.recent()] == [2]
    finally:
        reopened.close()


def test_a_new_transcript_of_the_item_drops_the_old_speaker_changes(tmp_path):
    source = recording(tmp_path / "in")
    store = AutosaveStore(tmp_path / "autosave.sqlite3")
    try:
        item = store.add_item(source)
        transcript = labelled(source)
        store.save_transcript(item, transcript)
        transcript.rename_speaker(1, "Anna")
        store.save_speakers(item, transcript)
        store.save_transcript(item, labelled(source))
        assert store.transcript(item).speaker_name(1) == "Speaker 1"
    finally:
        store.close()


def test_a_database_from_before_speakers_is_migrated_with_its_transcripts(tmp_path):
    path = tmp_path / "autosave.sqlite3"
    old = sqlite3.connect(path)
    old_schema = _SCHEMA[:_SCHEMA.index("CREATE TABLE speakers")]
    for statement in old_schema.split(";\n"):
        if statement.strip():
            old.execute(statement)
    old.execute("PRAGMA user_version=1")
    old.execute("INSERT INTO items (id, source, status, message, position, changed) "
                "VALUES (1, '/x/meeting.wav', 'done', '\"\"', 0, 0)")
    old.execute("INSERT INTO transcripts (item_id, data) VALUES (1, ?)",
                ('{"segments": [{"start": 0, "end": 1, "text": " Hi."}], "language": "en"}',))
    old.commit()
    old.close()

    store = AutosaveStore(path)
    try:
        assert store.notice is None
        transcript = store.transcript(1)
        assert transcript.text == "Hi." and transcript.speakers == []
        transcript.segments[0].speaker = 1
        transcript.rename_speaker(1, "Anna")
        store.save_speakers(1, transcript)
        assert store.transcript(1).speaker_name(1) == "Anna"
    finally:
        store.close()
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2


@pytest.mark.parametrize("garbage", ['[1, 2]', '{"lines": "abc", "names": {}}', '{"lines": [1, "x", 2]}',
                                     '{"names": {"one": "Anna"}, "lines": [1, 2, 1]}', 'null'])
def test_damaged_speaker_changes_leave_the_transcript_as_transcribed(tmp_path, garbage):
    path = tmp_path / "autosave.sqlite3"
    source = recording(tmp_path / "in")
    store = AutosaveStore(path)
    try:
        item = store.add_item(source)
        store.save_transcript(item, labelled(source))
        with sqlite3.connect(path) as db:
            db.execute("INSERT INTO speakers (item_id, data) VALUES (?, ?)", (item, garbage))
        again = store.transcript(item)
        assert [s.speaker for s in again.segments] == [1, 2, 1]
        assert again.speaker_names == {}
    finally:
        store.close()
