"""Work saved as the user goes: the transcription queue, every transcript and every edit.

One SQLite database in the data folder (see autosave_file for how it is opened, and what happens when
it cannot be). Each change is one transaction, committed before the method returns, so once a method
returned the change survives the app being killed. Two windows may share the database: each change
waits up to `timeout` seconds for the other's to finish.

A transcript is kept as it was transcribed plus its edits per segment (text, times), so that saving
an edit writes one row, however long the recording. transcript() gives it back with the edits applied.
Items taken off the queue may keep their transcript: they are listed by recent() until removed for good.
"""
from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from desktop.core.common.errors import UserFacingError
from desktop.core.common.i18n import Message, N_
from desktop.core.common.paths import data_dir
from desktop.core.transcription.autosave_file import open_database, primary_code, the_file_is_the_problem
from desktop.core.transcription.source_fingerprint import Fingerprint, SourceState, fingerprint, source_state
from desktop.core.transcription.transcript import Segment, Transcript

FILE_NAME = "autosave.sqlite3"


def default_path() -> Path:
    """The autosave database in the data folder."""
    return data_dir() / FILE_NAME


class AutosaveError(UserFacingError):
    """A change could not be saved, or saved work could not be read."""


@dataclass(frozen=True)
class SavedItem:
    id: int
    source: Path
    status: str  # as the caller saved it (e.g. ItemState.value)
    message: str  # the status line; a Message again where one was saved
    in_queue: bool  # False: taken off the queue, its transcript kept for Recent transcripts
    source_state: SourceState  # the source now, compared with the file that was added
    has_transcript: bool
    revision: int  # edits saved so far; pass to mark_exported for the copy an export was made from
    unexported_edits: bool  # edits saved since the last export (or never exported)
    changed: float  # time.time() of the last change


class AutosaveStore:
    def __init__(self, path: str | os.PathLike[str] | None = None, *, timeout: float = 5.0):
        """path: the database file (default_path() when None). Never raises for a bad or unwritable
        file; see `notice` and `on_disk`."""
        self.path = Path(path) if path is not None else default_path()
        opened = open_database(self.path, timeout)
        self._db = opened.connection
        self.on_disk = opened.on_disk  # False: changes live in memory only, for this session
        self.notice: Message | None = opened.notice  # a sentence to show the user once, or None
        self._lock = threading.RLock()  # one connection, shared by the threads of this process
        self._encoder = _TranscriptEncoder()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- the queue -----------------------------------------------------------------------------

    def add_item(self, source: str | os.PathLike[str], status: str = "waiting") -> int:
        """Append source to the end of the queue; returns its id."""
        try:
            known = fingerprint(source)
            saved = (known.size, known.mtime_ns, known.digest)
        except OSError:
            saved = (None, None, None)  # unreadable now; the queue says so when it gets to it
        with self._write() as db:
            position = db.execute("SELECT coalesce(max(position), -1) + 1 FROM items").fetchone()[0]
            cursor = db.execute(
                "INSERT INTO items (source, size, mtime_ns, digest, status, message, position, changed)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (os.path.abspath(source), *saved, status, _encode_message(""), position, time.time()),
            )
            return int(cursor.lastrowid)

    def set_status(self, item_id: int, status: str, message: str = "") -> None:
        """message: the item's status line; a Message is given back as one, so it can be translated."""
        with self._write() as db:
            self._touch(db, item_id, "status = ?, message = ?", status, _encode_message(message))

    def enqueue(self, item_id: int) -> None:
        """Put an item taken off the queue (one of recent()) back at its end."""
        with self._write() as db:
            position = db.execute("SELECT coalesce(max(position), -1) + 1 FROM items").fetchone()[0]
            self._touch(db, item_id, "position = ?", position)

    def remove(self, item_id: int, keep_transcript: bool) -> None:
        """Take an item off the queue. keep_transcript: its transcript stays, for recent(); otherwise
        the item, its transcript and its edits are deleted."""
        with self._write() as db:
            has_transcript = db.execute("SELECT 1 FROM transcripts WHERE item_id = ?", (item_id,)).fetchone()
            if keep_transcript and has_transcript:
                self._touch(db, item_id, "position = NULL")
            else:
                db.execute("DELETE FROM items WHERE id = ?", (item_id,))

    def queue(self) -> list[SavedItem]:
        """The items of the queue, first to last."""
        return self._items("WHERE i.position IS NOT NULL ORDER BY i.position, i.id")

    # -- transcripts and edits -------------------------------------------------------------------

    def save_transcript(self, item_id: int, transcript: Transcript) -> None:
        """The item's transcript as transcribed; replaces an earlier one and its edits."""
        data = json.dumps(transcript.to_dict(), ensure_ascii=False)
        with self._write() as db:
            self._touch(db, item_id)
            db.execute("DELETE FROM edits WHERE item_id = ?", (item_id,))
            db.execute("DELETE FROM speakers WHERE item_id = ?", (item_id,))
            db.execute("INSERT OR REPLACE INTO transcripts (item_id, data) VALUES (?, ?)", (item_id, data))

    def save_edit(self, item_id: int, segment_index: int, text: str) -> None:
        """A segment's new text, as Transcript.edit_text takes it."""
        self._save_segment(item_id, segment_index, "text", text=text)

    def save_times(self, item_id: int, segment_index: int, start: float, end: float) -> None:
        """A segment's new start and end, in seconds."""
        self._save_segment(item_id, segment_index, "start_time, end_time", start_time=start, end_time=end)

    def save_speakers(self, item_id: int, transcript: Transcript) -> None:
        """The speaker of every line and the speakers' names, after the user renamed or changed one."""
        data = json.dumps({"names": {str(n): name for n, name in transcript.speaker_names.items()},
                           "lines": [segment.speaker for segment in transcript.segments]}, ensure_ascii=False)
        with self._write() as db:
            bumped = db.execute("UPDATE transcripts SET revision = revision + 1 WHERE item_id = ?", (item_id,))
            if bumped.rowcount != 1:
                raise KeyError(f"item {item_id} has no saved transcript")
            self._touch(db, item_id)
            db.execute("INSERT OR REPLACE INTO speakers (item_id, data) VALUES (?, ?)", (item_id, data))

    def save_edited_transcript(self, item_id: int, transcript: Transcript, edits: int = 1) -> None:
        """The whole transcript after edits that added, removed or reordered lines (or an undo): it
        replaces the saved one and the edits kept for single lines, and counts as `edits` more edits
        (several made while the one before was being saved are saved together)."""
        with self._lock:  # the encoder keeps what it wrote last, for the next save
            data = self._encoder.json(transcript)
        with self._write() as db:
            bumped = db.execute("UPDATE transcripts SET revision = revision + ?, data = ? WHERE item_id = ?",
                                (edits, data, item_id))
            if bumped.rowcount != 1:
                raise KeyError(f"item {item_id} has no saved transcript")
            self._touch(db, item_id)
            db.execute("DELETE FROM edits WHERE item_id = ?", (item_id,))
            db.execute("DELETE FROM speakers WHERE item_id = ?", (item_id,))

    def mark_exported(self, item_id: int, revision: int | None = None) -> None:
        """The transcript was exported as it was at revision (default: as it is now). An export counts
        no further than the edits saved: one that could not be saved is not in the revisions."""
        with self._write() as db:
            self._touch(db, item_id)
            db.execute(
                "UPDATE transcripts SET exported_revision = max(exported_revision, min(coalesce(?, revision), revision))"
                " WHERE item_id = ?", (revision, item_id))

    def transcript(self, item_id: int) -> Transcript | None:
        """The saved transcript with its edits applied; None when the item has none."""
        with self._read() as db:
            row = db.execute("SELECT data FROM transcripts WHERE item_id = ?", (item_id,)).fetchone()
            edits = db.execute("SELECT segment, text, start_time, end_time FROM edits WHERE item_id = ?"
                               " ORDER BY segment", (item_id,)).fetchall()
            speakers = db.execute("SELECT data FROM speakers WHERE item_id = ?", (item_id,)).fetchone()
        if row is None:
            return None
        transcript = Transcript.from_dict(json.loads(row[0]))
        for index, text, start, end in edits:
            if index >= len(transcript.segments):
                continue
            if text is not None:
                transcript.edit_text(index, text)
            if start is not None:
                segment = transcript.segments[index]
                segment.start, segment.end = start, end
                segment.words = []  # measured for the old stretch, as in the transcript table
        if speakers is not None:
            _apply_speakers(transcript, json.loads(speakers[0]))
        return transcript

    def recent(self, limit: int = 10) -> list[SavedItem]:
        """Items with a transcript, in the queue or not, the most recently changed first."""
        return self._items("WHERE t.item_id IS NOT NULL ORDER BY i.changed DESC, i.id DESC LIMIT ?", (limit,))

    def unexported_edits(self) -> list[SavedItem]:
        """Items whose transcript has edits saved since it was last exported, in queue order."""
        return self._items("WHERE t.revision > t.exported_revision ORDER BY i.position IS NULL, i.position, i.id")

    # -- inside --------------------------------------------------------------------------------

    def _save_segment(self, item_id: int, segment_index: int, columns: str, **values: Any) -> None:
        if segment_index < 0:
            raise IndexError(segment_index)
        names = ", ".join(values)
        updates = ", ".join(f"{name} = excluded.{name}" for name in values)
        with self._write() as db:
            bumped = db.execute("UPDATE transcripts SET revision = revision + 1 WHERE item_id = ?", (item_id,))
            if bumped.rowcount != 1:
                raise KeyError(f"item {item_id} has no saved transcript")
            self._touch(db, item_id)
            db.execute(
                f"INSERT INTO edits (item_id, segment, {names}) VALUES (?, ?, {', '.join('?' * len(values))})"
                f" ON CONFLICT (item_id, segment) DO UPDATE SET {updates}",
                (item_id, segment_index, *values.values()),
            )

    @staticmethod
    def _touch(db: sqlite3.Connection, item_id: int, assignments: str = "", *values: Any) -> None:
        """Set the item's columns (if any) and its time of last change; KeyError for an unknown item."""
        sets = f"{assignments}, changed = ?" if assignments else "changed = ?"
        cursor = db.execute(f"UPDATE items SET {sets} WHERE id = ?", (*values, time.time(), item_id))
        if cursor.rowcount != 1:
            raise KeyError(f"no saved item {item_id}")

    def _items(self, clause: str, parameters: tuple = ()) -> list[SavedItem]:
        query = (
            "SELECT i.id, i.source, i.size, i.mtime_ns, i.digest, i.status, i.message, i.position, i.changed,"
            " t.item_id IS NOT NULL, coalesce(t.revision, 0), coalesce(t.revision > t.exported_revision, 0)"
            " FROM items i LEFT JOIN transcripts t ON t.item_id = i.id " + clause
        )
        with self._read() as db:
            rows = db.execute(query, parameters).fetchall()
        return [_saved_item(row) for row in rows]

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One transaction: committed when the block ends, rolled back when it raises."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                yield self._db
                self._db.execute("COMMIT")
            except sqlite3.Error as error:
                self._rollback()
                raise _save_error(error, self.path) from error
            except BaseException:
                self._rollback()
                raise

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                yield self._db
            except sqlite3.Error as error:
                raise AutosaveError(
                    N_("Autosave", "VoxDesk could not read the work it saved in {path}.").format(path=str(self.path)),
                    detail=f"{type(error).__name__}: {error}",
                ) from error

    def _rollback(self) -> None:
        if self._db.in_transaction:
            try:
                self._db.execute("ROLLBACK")
            except sqlite3.Error:
                pass  # SQLite has rolled back already


class _TranscriptEncoder:
    """json.dumps(transcript.to_dict()) for a transcript saved again and again as it is edited: the
    text of each segment is kept from the last save, so only the lines an edit made are encoded again
    (an edit puts new Segment objects in and never changes one in place). Encoding one line at a time
    also lets the window's thread run between them, where one dumps of a long transcript would hold it
    up for as long as it takes."""

    def __init__(self) -> None:
        self._known: dict[int, tuple[Segment, str | None, str]] = {}  # id(Segment): (it, speaker name, JSON)

    def json(self, transcript: Transcript) -> str:
        head = replace(transcript, segments=[]).to_dict()
        if transcript.speakers:  # what to_dict lists from the segments, which the head has none of
            head["speakers"] = transcript.speaker_entries()
        del head["segments"]
        known, self._known = self._known, {}
        names = [transcript.speaker_name(s.speaker) if s.speaker is not None else None for s in transcript.segments]
        new = [row for row, segment in enumerate(transcript.segments)
               if (kept := known.get(id(segment))) is None or kept[0] is not segment or kept[1] != names[row]]
        # Many new lines (the first save): the plain data of all of them at once is quicker than one by one.
        whole = transcript.to_dict()["segments"] if len(new) > 50 else None
        for row in new:
            segment = transcript.segments[row]
            if whole is not None:
                data = whole[row]
            else:
                data = replace(transcript, segments=[segment], gaps=[], warnings=[], glossaries=[]).to_dict()["segments"][0]
            known[id(segment)] = (segment, names[row], json.dumps(data, ensure_ascii=False))
        lines = []
        for segment in transcript.segments:
            kept = self._known[id(segment)] = known[id(segment)]
            lines.append(kept[2])
        body = json.dumps(head, ensure_ascii=False)
        return f'{body[:-1]}, "segments": [{", ".join(lines)}]}}' if head else f'{{"segments": [{", ".join(lines)}]}}'


def _apply_speakers(transcript: Transcript, data: Any) -> None:
    """The saved speaker changes, when they are what save_speakers writes; anything else is left out
    (the transcript keeps its speakers as transcribed)."""
    try:
        lines = [int(number) if number is not None else None for number in data["lines"]]
        names = {int(number): str(name) for number, name in data["names"].items()}
    except (TypeError, KeyError, ValueError, AttributeError):
        return
    if len(lines) == len(transcript.segments):
        for segment, number in zip(transcript.segments, lines):
            segment.speaker = number
        transcript.speaker_names = names


def _saved_item(row: tuple) -> SavedItem:
    (item_id, source, size, mtime_ns, digest, status, message, position, changed,
     has_transcript, revision, unexported) = row
    saved = Fingerprint(size, mtime_ns, digest) if size is not None else None
    return SavedItem(
        id=item_id, source=Path(source), status=status, message=_decode_message(message),
        in_queue=position is not None, source_state=source_state(source, saved),
        has_transcript=bool(has_transcript), revision=revision, unexported_edits=bool(unexported), changed=changed,
    )


def _save_error(error: sqlite3.Error, path: Path) -> AutosaveError:
    code = primary_code(error)
    if code == sqlite3.SQLITE_FULL:
        message = N_("Autosave", "The disk is full, so your latest change could not be saved as you go. "
                                 "Free some space, or export the transcript to keep it.")
    elif code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        message = N_("Autosave", "Another VoxDesk window kept the saved work busy, so your latest change "
                                 "could not be saved as you go. Try again in a moment.")
    elif the_file_is_the_problem(path):
        message = N_("Autosave", "VoxDesk could not save your latest change as you go, because the file {path} "
                                 "cannot be written (it is read-only, or not a file). Export the transcript to keep "
                                 "it.").format(path=str(path))
    else:
        message = N_("Autosave", "VoxDesk could not save your latest change as you go in {folder}. "
                                 "Export the transcript to keep it.").format(folder=str(path.parent))
    return AutosaveError(message, detail=f"{type(error).__name__}: {error}")


def _encode_message(text: str) -> str:
    return json.dumps(_plain(text), ensure_ascii=False)


def _plain(value: Any) -> Any:
    if isinstance(value, Message):
        values = None if value.values is None else {k: _plain(v) for k, v in value.values.items()}
        return {"context": value.context, "template": value.template, "values": values}
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


def _decode_message(data: str) -> Any:
    return _rebuilt(json.loads(data))


def _rebuilt(value: Any) -> Any:
    if isinstance(value, dict):
        values = value["values"]
        values = None if values is None else {k: _rebuilt(v) for k, v in values.items()}
        return Message(value["context"], value["template"], values)
    return value
