"""The voice library: saved voices with their samples and consent, one folder per voice.

    <voices_dir()>/<id>/voice.json     name, language, created date, sample file names, consent record,
                                       and the seal over them (desktop.core.voices.sealed)
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

import io
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

from desktop.core.common.atomic import atomic_write_bytes, atomic_write_text, fsync_dir, write_synced
from desktop.core.voices.codes import CODE_DAYS, IssuedCodes
from desktop.core.voices.consent import LANGUAGES, ConsentError, ConsentPrompt, ConsentRecord, sha256_bytes
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
PROMPT_DAYS = CODE_DAYS  # an issued code is valid this long


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
        """Raise unless the voice is sealed by this install and its files are exactly the consented ones."""
        open_checked(self)


def open_checked(voice: Voice):
    """The voice's sealed record and recordings (desktop.core.voices.sealed.SealedVoice), read once and
    checked; VoiceNotFound when its folder is gone, ConsentError for anything else."""
    from desktop.core.voices.sealed import open_sealed

    problem = voice.problem()
    if problem:
        raise (VoiceNotFound if not voice.folder.is_dir() else ConsentError)(problem)
    return open_sealed(voice, CONSENT_FILE, VOICE_FILE)


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
        sample_files: Mapping[str, Path | bytes],
        consent_file: Path | bytes,
        consent: ConsentRecord,
    ) -> Voice:
        """Save a new voice from its verified recordings, seal it, and return it.

        sample_files maps the names the samples get in the voice folder (sample-1.wav, …) to their
        bytes (or files, read here once). The consent record must have been verified for exactly
        these bytes, and its code must be one this library issued and nobody used yet; saving uses it.
        """
        name = check_name(name)
        if language not in LANGUAGES:
            raise VoiceError(N_("Voices", "A voice can be saved for English or Chinese."),
                             detail=f"language {language!r}")
        if not sample_files:
            raise VoiceError(N_("Voices", "Record or import a voice sample first."))
        self._ensure_unique(name)
        audio = _checked_audio({**sample_files, CONSENT_FILE: consent_file}, consent)
        self.codes.pending(consent.code)  # refused before anything is written
        voice_id = secrets.token_hex(6)
        staging = self.root / f"{_STAGING_PREFIX}{voice_id}"
        try:
            staging.mkdir(parents=True)
            for file_name, data in audio.items():
                write_synced(io.BytesIO(data), staging / file_name)
            atomic_write_text(staging / VOICE_FILE, json.dumps(
                _metadata_for(voice_id, name, language, list(sample_files), consent), indent=2, ensure_ascii=False),
                overwrite=False)
            fsync_dir(staging)
            self.codes.use(consent)
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

    @property
    def codes(self) -> IssuedCodes:
        return IssuedCodes(self.root)

    def issue_prompt(self, name: str, language: str) -> ConsentPrompt:
        """A consent sentence with a fresh code (see desktop.core.voices.codes)."""
        return self.codes.issue(name, language)

    def pending_prompt(self, code: str) -> ConsentPrompt:
        """The sentence issued with this code; ConsentError when VoxDesk never issued it, or it is used or expired."""
        return self.codes.pending(code)

    def forget_prompt(self, code: str) -> None:
        """A used code cannot be used again (saving a voice already marks its code used)."""
        self.codes.forget(code)

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


def _checked_audio(files: Mapping[str, Path | bytes], consent: ConsentRecord) -> dict[str, bytes]:
    """Each recording's bytes (a file read once), after checking they are the ones consent covers."""
    from desktop.core.voices.sealed import read_regular_file

    audio = {}
    for file_name, source in files.items():
        if Path(file_name).name != file_name or file_name == VOICE_FILE:
            raise ValueError(f"not a plain file name: {file_name!r}")
        try:
            audio[file_name] = source if isinstance(source, bytes) else read_regular_file(Path(source))
        except OSError:
            audio[file_name] = None
        if audio[file_name] is None or consent.audio_sha256.get(file_name) != sha256_bytes(audio[file_name]):
            raise ConsentError(
                N_("Voices", "The consent recording was checked for other recordings than the ones being saved. "
                             "Check the consent again, then save."),
                detail=f"{file_name} does not match the consent record",
            )
    if set(consent.audio_sha256) != set(audio):
        raise ConsentError(N_("Voices", "The consent record does not cover exactly these recordings. Check the "
                                        "consent again, then save."))
    return audio


def _metadata_for(voice_id: str, name: str, language: str, samples: list[str], consent: ConsentRecord) -> dict:
    from desktop.core.voices.sealed import voice_seal

    record = consent.to_dict()
    return {
        "name": name,
        "language": language,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "samples": samples,
        "consent": record,
        "seal": voice_seal(voice_id, language, samples, record),
    }


def _save_error(exc: OSError, name: str, root: Path) -> VoiceError:
    what = N_("Voices", "the voice “{name}”").format(name=name)
    return VoiceError(write_error_message(exc, what, root), detail=f"{type(exc).__name__}: {exc}")
