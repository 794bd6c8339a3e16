"""The voice library: saved voices with their samples and consent, one folder per voice.

    <voices_dir()>/<id>/voice.json     name, language, created date, sample file names, consent record
                       sample-1.wav    the sample(s): mono 16-bit WAV at the microphone's rate or higher
                       consent.wav     the consent recording the record was verified against

A voice appears only by one rename of a complete folder: everything is written and flushed to disk
in a hidden ``.new-…`` folder first, so a crash mid-save leaves no half voice, and never touches an
existing one. Renaming rewrites voice.json atomically; deleting first renames the folder to a hidden
``.trash-…`` name, so a crash mid-delete does not leave a broken voice in the list either. Hidden
leftovers of such crashes are swept away the next time the library is read.

The folder id is random; the name the user sees lives in voice.json, so names may use any
characters and can be changed without moving files. A voice folder that someone deleted or damaged
outside VoxDesk simply drops out of the list, and using it gives a sentence saying so.
"""
from __future__ import annotations

import json
import logging
import os
import secrets
import shutil
import time
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from desktop.core.common.atomic import atomic_write_bytes, atomic_write_text, copy_synced, fsync_dir
from desktop.core.voices.consent import LANGUAGES, ConsentError, ConsentPrompt, ConsentRecord, new_prompt, sha256_file
from desktop.core.common.errors import UserFacingError
from desktop.core.common.fs_errors import write_error_message
from desktop.core.common.i18n import N_

log = logging.getLogger(__name__)

VOICE_FILE = "voice.json"
CONSENT_FILE = "consent.wav"
MAX_NAME_LENGTH = 60
_STAGING_PREFIX = ".new-"
_TRASH_PREFIX = ".trash-"
_STALE_STAGING_SECONDS = 3600  # an unfinished save older than this belongs to a process that died
PROMPTS_FILE = ".consent-prompts.json"  # consent sentences issued and not used yet
PROMPT_DAYS = 7  # an issued code is valid this long


class VoiceError(UserFacingError):
    """A voice could not be saved, found, renamed or deleted."""


class VoiceNotFound(VoiceError):
    """The voice is no longer in the library (often: its folder was deleted outside VoxDesk)."""


@dataclass(frozen=True)
class Voice:
    id: str  # the folder name
    name: str
    language: str
    created: str  # ISO timestamp (UTC)
    samples: tuple[str, ...]  # file names inside the folder
    consent: ConsentRecord
    folder: Path

    @property
    def sample_paths(self) -> list[Path]:
        return [self.folder / name for name in self.samples]

    @property
    def consent_path(self) -> Path:
        return self.folder / CONSENT_FILE

    def audio_files(self) -> dict[str, Path]:
        files = {name: self.folder / name for name in self.samples}
        files[CONSENT_FILE] = self.consent_path
        return files

    def problem(self) -> str | None:
        """Why the voice cannot be used right now (a file gone missing), or None."""
        if not self.folder.is_dir():
            return _gone_message(self.name)
        missing = [name for name, path in self.audio_files().items() if not path.is_file()]
        if missing:
            return (N_("Voices", "A recording of the voice “{name}” is missing, so the voice cannot be used. Delete "
                                 "the voice and add it again.").format(name=self.name))
        return None

    def require_consent(self) -> None:
        """Raise unless the voice's consent record verifies its audio files exactly as they are now."""
        problem = self.problem()
        if problem:
            raise (VoiceNotFound if not self.folder.is_dir() else ConsentError)(problem)
        self.consent.ensure_valid_for(self.audio_files(), self.name)


def save_wav(path: str | os.PathLike[str], samples: np.ndarray, sample_rate: int) -> Path:
    """Write samples as a mono 16-bit WAV atomically (replacing path if it exists)."""
    from desktop.core.common.audio_out import encode

    return atomic_write_bytes(path, encode(samples, sample_rate, "wav"), overwrite=True)


def check_name(name: str) -> str:
    """The name as it will be stored (spaces tidied), or VoiceError saying what is wrong with it."""
    name = " ".join(unicodedata.normalize("NFC", name).split())
    if not name:
        raise VoiceError(N_("Voices", "Give the voice a name, for example the speaker's name."))
    if len(name) > MAX_NAME_LENGTH:
        raise VoiceError(N_("Voices", "The name is too long. Use at most {count} characters.").format(
            count=MAX_NAME_LENGTH))
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise VoiceError(N_("Voices", "The name contains characters that cannot be shown. Type it again."))
    return name


class VoiceLibrary:
    """The voices saved on this computer."""

    def __init__(self, root: Path | None = None):
        if root is None:
            from desktop.core.common.paths import voices_dir

            root = voices_dir()
        self.root = Path(root)

    # -- reading ------------------------------------------------------------------------------

    def list(self) -> list[Voice]:
        """Every readable voice, sorted by name. Damaged folders are left out (and logged)."""
        if not self.root.is_dir():
            return []
        self._sweep()
        voices = []
        for folder in self.root.iterdir():
            if folder.name.startswith(".") or not folder.is_dir():
                continue
            try:
                voices.append(self._read(folder))
            except VoiceError as error:
                log.warning("skipping voice folder %s: %s", folder, error.detail or error.message)
        return sorted(voices, key=lambda v: (v.name.casefold(), v.created))

    def get(self, name_or_id: str) -> Voice:
        """The voice with this id or (case-insensitively) this name."""
        folder = self.root / name_or_id
        if _is_voice_id(name_or_id) and (folder / VOICE_FILE).is_file():
            return self._read(folder)
        wanted = " ".join(name_or_id.split()).casefold()
        for voice in self.list():
            if voice.name.casefold() == wanted:
                return voice
        raise VoiceNotFound(_gone_message(name_or_id), detail=f"no voice {name_or_id!r} in {self.root}")

    def names(self) -> list[str]:
        return [voice.name for voice in self.list()]

    # -- changing -----------------------------------------------------------------------------

    def add(
        self,
        name: str,
        language: str,
        sample_files: Mapping[str, Path],
        consent_file: Path,
        consent: ConsentRecord,
    ) -> Voice:
        """Save a new voice from its verified files and return it.

        sample_files maps the names the samples get in the voice folder (sample-1.wav, …) to the
        files now. The consent record must have been verified for exactly these files: their hashes
        are compared before anything is saved.
        """
        name = check_name(name)
        if language not in LANGUAGES:
            raise VoiceError(N_("Voices", "A voice can be saved for English or Chinese."),
                             detail=f"language {language!r}")
        if not sample_files:
            raise VoiceError(N_("Voices", "Record or import a voice sample first."))
        self._ensure_unique(name)
        files = {**{n: Path(p) for n, p in sample_files.items()}, CONSENT_FILE: Path(consent_file)}
        for file_name, path in files.items():
            if Path(file_name).name != file_name or file_name == VOICE_FILE:
                raise ValueError(f"not a plain file name: {file_name!r}")
            if consent.audio_sha256.get(file_name) != _hash_or_none(path):
                raise ConsentError(
                    N_("Voices", "The consent recording was checked for other recordings than the ones being saved. "
                                 "Check the consent again, then save."),
                    detail=f"{file_name} does not match the consent record",
                )
        if set(consent.audio_sha256) != set(files):
            raise ConsentError(N_("Voices", "The consent record does not cover exactly these recordings. Check the "
                                            "consent again, then save."))

        voice_id = secrets.token_hex(6)
        staging = self.root / f"{_STAGING_PREFIX}{voice_id}"
        try:
            staging.mkdir(parents=True)
            for file_name, path in files.items():
                copy_synced(path, staging / file_name)
            metadata = {
                "name": name,
                "language": language,
                "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                "samples": list(sample_files),
                "consent": consent.to_dict(),
            }
            atomic_write_text(staging / VOICE_FILE, json.dumps(metadata, indent=2, ensure_ascii=False),
                              overwrite=False)
            fsync_dir(staging)
            os.rename(staging, self.root / voice_id)  # the one step that makes the voice exist
            fsync_dir(self.root)
        except OSError as exc:
            shutil.rmtree(staging, ignore_errors=True)
            raise _save_error(exc, name, self.root) from exc
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        return self._read(self.root / voice_id)

    def rename(self, voice: Voice | str, new_name: str) -> Voice:
        current = self._current(voice)
        new_name = check_name(new_name)
        if new_name == current.name:
            return current
        if new_name.casefold() != current.name.casefold():
            self._ensure_unique(new_name)
        metadata = self._metadata(current.folder)
        metadata["name"] = new_name
        try:
            atomic_write_text(current.folder / VOICE_FILE, json.dumps(metadata, indent=2, ensure_ascii=False),
                              overwrite=True)
        except UserFacingError as error:
            if not current.folder.is_dir():
                raise VoiceNotFound(_gone_message(current.name)) from error
            raise
        return self._read(current.folder)

    def delete(self, voice: Voice | str) -> None:
        current = self._current(voice)
        trash = self.root / f"{_TRASH_PREFIX}{current.id}-{secrets.token_hex(3)}"
        try:
            os.rename(current.folder, trash)
        except FileNotFoundError:
            return  # already gone: what the user wanted
        except OSError as exc:
            raise VoiceError(
                N_("Voices", "VoxDesk could not delete the voice “{name}”. Check that the voice folder {root} is "
                             "still available and writable, then try again.").format(name=current.name, root=self.root),
                detail=f"{type(exc).__name__}: {exc}",
            ) from exc
        fsync_dir(self.root)
        shutil.rmtree(trash, ignore_errors=True)

    # -- consent sentences --------------------------------------------------------------------------

    def issue_prompt(self, name: str, language: str) -> ConsentPrompt:
        """A consent sentence with a fresh code, remembered so that only codes VoxDesk issued count.

        The command line needs this: the sentence is printed in one run and the recording of it
        added in another. The window uses it too, so both follow the same rule.
        """
        prompt = new_prompt(name, language)
        pending = self._pending()
        pending[prompt.code] = {"name": prompt.name, "language": prompt.language, "date": prompt.date,
                                "issued": time.time()}
        self._write_pending(pending)
        return prompt

    def pending_prompt(self, code: str) -> ConsentPrompt:
        """The sentence issued with this code; ConsentError when VoxDesk never issued it or it expired."""
        entry = self._pending().get(code.strip())
        if entry is None:
            raise ConsentError(
                N_("Voices", "VoxDesk did not give out the code {code} (or it is older than {days} days). Ask "
                             "for a new consent sentence, record it, and use the code it shows.").format(
                    code=code.strip(), days=PROMPT_DAYS),
            )
        return ConsentPrompt(entry["name"], entry["language"], entry["date"], code.strip())

    def forget_prompt(self, code: str) -> None:
        """A used code cannot be used again."""
        pending = self._pending()
        if pending.pop(code, None) is not None:
            self._write_pending(pending)

    def _pending(self) -> dict:
        try:
            data = json.loads((self.root / PROMPTS_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        oldest = time.time() - PROMPT_DAYS * 86400
        return {code: entry for code, entry in data.items()
                if isinstance(entry, dict) and float(entry.get("issued", 0)) >= oldest}

    def _write_pending(self, pending: dict) -> None:
        try:
            self.root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise VoiceError(N_("Voices", "VoxDesk cannot write to its voice folder {root}. Check that it is "
                                          "available and writable, then try again.").format(
                root=self.root), detail=str(exc)) from exc
        atomic_write_text(self.root / PROMPTS_FILE, json.dumps(pending, indent=2, ensure_ascii=False), overwrite=True)

    # -- internals ----------------------------------------------------------------------------

    def _current(self, voice: Voice | str) -> Voice:
        if isinstance(voice, Voice):
            if not (voice.folder / VOICE_FILE).is_file():
                raise VoiceNotFound(_gone_message(voice.name), detail=f"{voice.folder} is gone")
            return self._read(voice.folder)
        return self.get(voice)

    def _ensure_unique(self, name: str) -> None:
        if any(existing.casefold() == name.casefold() for existing in self.names()):
            raise VoiceError(N_("Voices", "A voice called “{name}” already exists. Choose another name.").format(
                name=name))

    def _metadata(self, folder: Path) -> dict:
        path = folder / VOICE_FILE
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError as exc:
            raise VoiceNotFound(_gone_message(folder.name), detail=str(exc)) from exc
        except (OSError, ValueError) as exc:
            raise VoiceError(
                N_("Voices", "A saved voice is damaged and cannot be read. Delete it and add it again."),
                detail=f"{path}: {exc}",
            ) from exc
        if not isinstance(data, dict):
            raise VoiceError(N_("Voices", "A saved voice is damaged and cannot be read. Delete it and add it again."),
                             detail=f"{path}: not an object")
        return data

    def _read(self, folder: Path) -> Voice:
        data = self._metadata(folder)
        try:
            samples = tuple(str(s) for s in data["samples"])
            if not samples or any(Path(s).name != s for s in samples):
                raise ValueError("bad sample list")
            return Voice(
                id=folder.name,
                name=str(data["name"]),
                language=str(data["language"]),
                created=str(data["created"]),
                samples=samples,
                consent=ConsentRecord.from_dict(data["consent"]),
                folder=folder,
            )
        except (KeyError, TypeError, ValueError, ConsentError) as exc:
            raise VoiceError(
                N_("Voices", "A saved voice is damaged and cannot be read. Delete it and add it again."),
                detail=f"{folder / VOICE_FILE}: {exc}",
            ) from exc

    def _sweep(self) -> None:
        """Remove what crashed saves and deletes left behind."""
        now = time.time()
        for entry in self.root.iterdir():
            try:
                if entry.name.startswith(_TRASH_PREFIX) or (
                    entry.name.startswith(_STAGING_PREFIX) and now - entry.stat().st_mtime > _STALE_STAGING_SECONDS
                ):
                    shutil.rmtree(entry, ignore_errors=True)
            except OSError:
                continue


def _is_voice_id(text: str) -> bool:
    return len(text) == 12 and all(ch in "0123456789abcdef" for ch in text)


def _gone_message(name: str) -> str:
    return (N_("Voices", "The voice “{name}” is no longer in the voice library; it may have been deleted outside "
                         "VoxDesk. Choose another voice, or add it again.").format(name=name))


def _hash_or_none(path: Path) -> str | None:
    try:
        return sha256_file(path)
    except OSError:
        return None


def _save_error(exc: OSError, name: str, root: Path) -> VoiceError:
    what = N_("Voices", "the voice “{name}”").format(name=name)
    return VoiceError(write_error_message(exc, what, root), detail=f"{type(exc).__name__}: {exc}")
