"""Consent codes VoxDesk gave out: each good for one voice, for 7 days, and kept under a seal.

The command line needs them: the sentence is printed in one run and its recording added in another.
The window uses them too, so both follow the same rule. A code stays in the file, marked used, until
it expires, so putting it back by hand, or a list written by hand, counts for nothing: the file is
sealed with the install's key (desktop.core.voices.seal) and a file without a valid seal is empty.
"""
from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import time
from pathlib import Path

from desktop.core.common.atomic import atomic_write_text
from desktop.core.common.errors import UserFacingError
from desktop.core.common.i18n import N_
from desktop.core.voices.consent import ConsentError, ConsentPrompt, ConsentRecord, new_prompt
from desktop.core.voices.seal import install_key, is_sealed, seal

log = logging.getLogger(__name__)

CODES_FILE = ".consent-prompts.json"
CODE_DAYS = 7  # an issued code is valid this long
_SEAL_PURPOSE = "codes"
_FRESH_CODE_TRIES = 100


class IssuedCodes:
    """The codes file of one voice library."""

    def __init__(self, root: Path):
        self.path = Path(root) / CODES_FILE

    def issue(self, name: str, language: str) -> ConsentPrompt:
        """A consent sentence with a fresh code, remembered so that only codes VoxDesk issued count."""
        entries = self._read()
        for _ in range(_FRESH_CODE_TRIES):
            prompt = new_prompt(name, language)
            if prompt.code not in entries:
                break
        if prompt.code in entries and entries[prompt.code].get("used") is not None:
            raise ConsentError(N_("Voices", "VoxDesk could not find an unused code. Try again tomorrow."))
        entries[prompt.code] = {"name": prompt.name, "language": prompt.language, "date": prompt.date,
                                "issued": time.time(), "used": None}
        self._write(entries)
        return prompt

    def pending(self, code: str) -> ConsentPrompt:
        """The sentence issued with this code; ConsentError when it was never issued, is used or expired."""
        code = code.strip()
        entry = self._read().get(code)
        if entry is None:
            raise not_issued(code)
        if entry.get("used") is not None:
            raise already_used(code)
        return ConsentPrompt(entry["name"], entry["language"], entry["date"], code)

    def use(self, record: ConsentRecord) -> None:
        """Mark the record's code used; ConsentError unless it is pending for this very sentence.

        Another window or command may be saving a voice with the same code at the same moment: the
        check and the mark are made under a lock, so exactly one of them gets the code."""
        with self._locked():
            entries = self._read()
            entry = entries.get(record.code)
            if entry is None or \
                    (entry["name"], entry["language"], entry["date"]) != (record.name, record.language, record.date):
                raise not_issued(record.code)
            if entry.get("used") is not None:
                raise already_used(record.code)
            entry["used"] = time.time()
            self._write(entries)

    @contextlib.contextmanager
    def _locked(self):
        """The codes file to this process alone while the block runs (an advisory lock beside it)."""
        self._ensure_folder()
        try:
            lock = open(self.path.with_name(self.path.name + ".lock"), "a+b")
        except OSError:  # a read-only folder: _write says so in a sentence
            yield
            return
        with lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def forget(self, code: str) -> None:
        """A code given up on (or used) cannot be used again."""
        entries = self._read()
        entry = entries.get(code.strip())
        if entry is not None and entry.get("used") is None:
            entry["used"] = time.time()
            self._write(entries)

    def _read(self) -> dict[str, dict]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError):
            log.warning("The issued consent codes in %s cannot be read; none counts", self.path)
            return {}
        codes = data.get("codes") if isinstance(data, dict) else None
        if not isinstance(codes, dict) or not is_sealed(install_key(), _SEAL_PURPOSE, codes, data.get("seal")):
            log.warning("The issued consent codes in %s are not sealed by this install; none counts", self.path)
            return {}
        oldest = time.time() - CODE_DAYS * 86400
        return {code: entry for code, entry in codes.items() if _valid_entry(entry) and entry["issued"] >= oldest}

    def _write(self, entries: dict[str, dict]) -> None:
        self._ensure_folder()
        document = {"codes": entries, "seal": seal(install_key(), _SEAL_PURPOSE, entries)}
        atomic_write_text(self.path, json.dumps(document, indent=2, ensure_ascii=False), overwrite=True)

    def _ensure_folder(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UserFacingError(N_("Voices", "VoxDesk cannot write to its voice folder {root}. Check that it is "
                                               "available and writable, then try again.").format(
                root=self.path.parent), detail=str(exc)) from exc


def _valid_entry(entry: object) -> bool:
    return (isinstance(entry, dict) and all(isinstance(entry.get(k), str) for k in ("name", "language", "date"))
            and isinstance(entry.get("issued"), (int, float)))


def not_issued(code: str) -> ConsentError:
    return ConsentError(
        N_("Voices", "VoxDesk did not give out the code {code} (or it is older than {days} days). Ask "
                     "for a new consent sentence, record it, and use the code it shows.").format(
            code=code, days=CODE_DAYS),
    )


def already_used(code: str) -> ConsentError:
    """The code was issued, but a voice was saved with it first (perhaps a moment ago, in another window)."""
    return ConsentError(
        N_("Voices", "The code {code} has already been used, perhaps a moment ago from another window or command; "
                     "each code is good for one voice only. Ask for a new consent sentence, record it, and use "
                     "the code it shows.").format(
            code=code),
    )
