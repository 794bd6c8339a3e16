"""Opening the autosave database: schema, versions, and what happens when the file is bad.

Nothing here may stop the app. A file that is not a readable database of ours (damaged, garbage, a
newer release's) is moved aside under a name with the time and a fresh one is started; a folder VoxDesk
cannot write to gives a database in memory, so the session still works. Either way the caller gets a
sentence to show once.

Durability: WAL journal with synchronous=FULL. A commit returns only once the WAL is on the disk, so
a change reported saved survives a killed process and a power cut. NORMAL would survive a killed
process too but may lose the last commits in a power cut; an fsync per change costs a few
milliseconds, and changes come at the pace of typing.
"""
from __future__ import annotations

import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from desktop.core.common.atomic import fsync_dir
from desktop.core.common.i18n import Message, N_

SCHEMA_VERSION = 2  # PRAGMA user_version; a later release migrates from here in _create_or_migrate

_SCHEMA = """
CREATE TABLE items (
    id INTEGER PRIMARY KEY,
    source TEXT NOT NULL,
    size INTEGER,               -- the source's fingerprint when it was added (NULL: it could not be read)
    mtime_ns INTEGER,
    digest TEXT,
    status TEXT NOT NULL,
    message TEXT NOT NULL,      -- JSON: a plain string, or a Message with what translating it needs
    position INTEGER,           -- order in the queue (NULL: out of the queue, kept for Recent transcripts)
    changed REAL NOT NULL       -- time.time() of the last change to the item, its transcript or an edit
);
CREATE INDEX items_by_position ON items(position);
CREATE INDEX items_by_change ON items(changed);
CREATE TABLE transcripts (
    item_id INTEGER PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
    data TEXT NOT NULL,         -- Transcript.to_dict() as JSON, as transcribed
    revision INTEGER NOT NULL DEFAULT 0,          -- edits saved so far
    exported_revision INTEGER NOT NULL DEFAULT 0  -- the revision last exported
);
CREATE TABLE edits (
    item_id INTEGER NOT NULL REFERENCES transcripts(item_id) ON DELETE CASCADE,
    segment INTEGER NOT NULL,
    text TEXT,                  -- NULL: the text was not edited
    start_time REAL,            -- NULL: the times were not edited
    end_time REAL,
    PRIMARY KEY (item_id, segment)
);
CREATE TABLE speakers (         -- version 2: who speaks each line, and the names the user gave
    item_id INTEGER PRIMARY KEY REFERENCES transcripts(item_id) ON DELETE CASCADE,
    data TEXT NOT NULL          -- JSON: {"names": {"1": "Anna", …}, "lines": [1, 2, null, …]}
);
"""
_SPEAKERS_TABLE = _SCHEMA[_SCHEMA.index("CREATE TABLE speakers"):]

# SQLite's primary result codes that mean "this file is not a database we can read".
_DAMAGED = {sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_FORMAT}


class Unreadable(Exception):
    """The file is a database, but not one this release can use."""


@dataclass
class Opened:
    connection: sqlite3.Connection
    on_disk: bool  # False: in memory, nothing survives the session
    notice: Message | None  # a sentence for the user, once


def open_database(path: Path, timeout: float) -> Opened:
    try:
        return Opened(_connect(path, timeout), True, None)
    except (OSError, sqlite3.Error, Unreadable) as error:
        if not _is_damage(error):
            return _in_memory(path)
    try:
        kept = _move_aside(path)
        connection = _connect(path, timeout)
    except (OSError, sqlite3.Error, Unreadable):
        return _in_memory(path)
    notice = N_("Autosave", "The work VoxDesk saved earlier could not be read, so it starts afresh. "
                            "The old file was kept as {path}.").format(path=str(kept))
    return Opened(connection, True, notice)


def primary_code(error: sqlite3.Error) -> int | None:
    code = getattr(error, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF


def _connect(path: Path, timeout: float) -> sqlite3.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    connection = _configured(sqlite3.connect(path, timeout=timeout, isolation_level=None, check_same_thread=False))
    try:
        _check(connection)  # before anything writes, so a file that is not ours is kept as it was
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=FULL")
        _create_or_migrate(connection)
    except BaseException:
        connection.close()
        raise
    return connection


def _configured(connection: sqlite3.Connection) -> sqlite3.Connection:
    connection.execute("PRAGMA foreign_keys=ON")
    return connection


def _check(connection: sqlite3.Connection) -> None:
    if connection.execute("PRAGMA quick_check").fetchall() != [("ok",)]:
        raise Unreadable("quick_check found damage")
    version = connection.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise Unreadable(f"schema version {version} is newer than {SCHEMA_VERSION}")
    if version == 0 and connection.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
        raise Unreadable("a database, but not one of VoxDesk's")


def _create_or_migrate(connection: sqlite3.Connection) -> None:
    connection.execute("BEGIN IMMEDIATE")  # another process may be creating it at the same moment
    try:
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        if version == 0:
            for statement in _SCHEMA.split(";\n"):  # no ";" at a line end inside the statements
                if statement.strip():
                    connection.execute(statement)
            connection.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        elif version == 1:
            connection.execute(_SPEAKERS_TABLE)
            connection.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        connection.execute("COMMIT")
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise


def _is_damage(error: Exception) -> bool:
    return isinstance(error, Unreadable) or (isinstance(error, sqlite3.Error) and primary_code(error) in _DAMAGED)


def _move_aside(path: Path) -> Path:
    """Rename the database (and its journal files) to '<name>.unreadable-<time>'; return the new path."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    kept = path.with_name(f"{path.name}.unreadable-{stamp}")
    number = 2
    while os.path.lexists(kept):
        kept = path.with_name(f"{path.name}.unreadable-{stamp}-{number}")
        number += 1
    os.rename(path, kept)
    for suffix in ("-wal", "-shm"):  # kept beside it, so that SQLite can still read both together
        if os.path.lexists(f"{path}{suffix}"):
            os.rename(f"{path}{suffix}", f"{kept}{suffix}")
    fsync_dir(path.parent)
    return kept


def _in_memory(path: Path) -> Opened:
    """A database for this session only: a copy of the saved work where the file can still be read
    (so the queue and transcripts still show), else empty."""
    connection = _readable_copy(path) or sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    _configured(connection)
    _create_or_migrate(connection)
    if the_file_is_the_problem(path):
        notice = N_("Autosave", "VoxDesk cannot save your work as you go, because the file {path} cannot be "
                                "written (it is read-only, or not a file). Export your transcripts to keep them; "
                                "to save as you go again, make that file writable or move it away.").format(
            path=str(path))
    else:
        notice = N_("Autosave", "VoxDesk cannot save your work as you go, because it cannot write to {folder}. "
                                "Export your transcripts to keep them.").format(folder=str(path.parent))
    return Opened(connection, False, notice)


def the_file_is_the_problem(path: Path) -> bool:
    """Whether the database cannot be written because of the file itself (read-only, a folder, a
    device) while its folder is there and writable, so that the sentence names the right one."""
    folder = path.parent
    if not (folder.is_dir() and os.access(folder, os.W_OK | os.X_OK)):
        return False
    if not os.path.lexists(path):
        return False
    return not path.is_file() or not os.access(path, os.W_OK)


def _readable_copy(path: Path) -> sqlite3.Connection | None:
    if not path.is_file():
        return None
    # Read-only first; "immutable" also opens a file whose folder does not let SQLite add its
    # shared-memory file beside it (it then ignores a WAL not yet merged, but reads the rest).
    for option in ("mode=ro", "immutable=1"):
        memory = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        try:
            saved = sqlite3.connect(f"{path.resolve().as_uri()}?{option}", uri=True)
            try:
                _check(saved)
                saved.backup(memory)
            finally:
                saved.close()
            return memory
        except (OSError, sqlite3.Error, Unreadable):
            memory.close()
    return None
