"""Known voices: colleagues VoxDesk names in later recordings, each with their agreement.

One folder per voice, plain data another VoxDesk can read:

    <known_voices_dir()>/<id>/voice.json            name, agreement, speech heard, recordings heard in, seal
                             /voice-<hash>.npy       the voice's embeddings (windows × 256, float32)

What is kept is the voice embeddings and the agreement, never a recording. An entry appears by one
rename of a complete hidden ``.new-…`` folder; a change writes a new embeddings file first and then
voice.json atomically (which names it), so a crash leaves the old entry or the new one. Remove
renames the folder to a hidden ``.trash-…`` name first: everything kept for the voice goes at once.
voice.json is sealed with this install's key (desktop.core.voices.seal) over the name, the agreement
and the embeddings' hash: an entry edited by hand, or whose agreement was taken out, is refused with a
sentence while the other voices still work. Embeddings are read with allow_pickle=False.

Export writes one JSON file with the embeddings and the agreement, sealed for the export format (a
file another VoxDesk must read, so not with this install's key): an altered file, or one without an
agreement, is refused on import. The export's seal shows the file is as VoxDesk wrote it; the
agreement inside is checked again from its facts (the sentence and what Whisper heard).
"""
from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import secrets
import shutil
import unicodedata
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from desktop.core.common.atomic import atomic_write_bytes, atomic_write_text, fsync_dir, write_synced
from desktop.core.common.bounded_http import parse_json
from desktop.core.common.errors import UserFacingError
from desktop.core.common.fs_errors import write_error_message
from desktop.core.common.i18n import N_
from desktop.core.common.safe_files import read_limited
from desktop.core.speakers.agreement import Agreement, AgreementError
from desktop.core.voices.seal import install_key, is_sealed, seal

VOICE_FILE = "voice.json"
EMBEDDING_DIM = 256
MAX_NAME_CHARS = 60
MAX_WINDOWS = 2000  # about half an hour of speech: far more than any entry needs
FORMAT = "voxdesk-known-voice"
VERSION = 1
_ENTRY_SEAL = "known-voice"
_EXPORT_SEAL = "known-voice-export"
# The export format's own key: an export must open on another computer, which has another install key.
_EXPORT_KEY = hashlib.sha256(b"VoxDesk known voice export, format 1").digest()
_MAX_ENTRY_BYTES = 1 << 20
_MAX_EXPORT_BYTES = 16 << 20
_STAGING = ".new-"
_TRASH = ".trash-"
EXPORT_SUFFIX = ".voxvoice"


class KnownVoiceError(UserFacingError):
    """A known voice could not be saved, read, found, renamed, removed, exported or imported."""


@dataclass(frozen=True)
class KnownVoice:
    id: str
    name: str
    agreement: Agreement
    embeddings: np.ndarray  # (windows, 256), unit rows
    speech_seconds: float
    recordings: int  # recordings it was heard in (enrolment and named since)
    added_at: str

    @property
    def folder_name(self) -> str:
        return self.id


@dataclass(frozen=True)
class DamagedEntry:
    """An entry that cannot be used, and the sentence saying so."""

    folder: str
    message: str


def damaged(folder: str) -> str:
    return N_("KnownVoices", "One known voice (folder “{folder}”) is damaged or was changed outside VoxDesk, so it "
                             "is not used. Remove it, and add the person again with their agreement.").format(
        folder=folder)


def check_name(name: str) -> str:
    """The name as stored (spaces tidied), or KnownVoiceError saying what is wrong with it."""
    raw = unicodedata.normalize("NFC", str(name))
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in raw if ch != " "):
        raise KnownVoiceError(N_("KnownVoices", "The name contains characters that cannot be shown (such as a line "
                                                "break or a control character). Type the name again."),
                              detail=repr(name))
    tidy = " ".join(raw.split())
    if not tidy:
        raise KnownVoiceError(N_("KnownVoices", "Type the person's name."))
    if len(tidy) > MAX_NAME_CHARS:
        raise KnownVoiceError(N_("KnownVoices", "The name is too long. Use at most {count} characters.").format(
            count=MAX_NAME_CHARS))
    if "<" in tidy or ">" in tidy:
        raise KnownVoiceError(N_("KnownVoices", "A name cannot contain the characters < or >. Type the name "
                                                "without them."))
    return tidy


def checked_embeddings(array: object) -> np.ndarray:
    """Embeddings fit to keep: a (windows, 256) array of finite numbers, rows made unit length."""
    if not isinstance(array, np.ndarray) or array.ndim != 2 or array.shape[1] != EMBEDDING_DIM \
            or not 1 <= array.shape[0] <= MAX_WINDOWS or array.dtype.kind != "f":
        raise ValueError(f"not a (windows, {EMBEDDING_DIM}) float array: {getattr(array, 'shape', None)}")
    array = np.asarray(array, dtype=np.float32)
    norms = np.linalg.norm(array, axis=1, keepdims=True)
    if not np.all(np.isfinite(array)) or np.any(norms < 1e-6):
        raise ValueError("embeddings with non-finite or empty rows")
    return array / norms


def _npy_bytes(embeddings: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, embeddings.astype(np.float32), allow_pickle=False)
    return buffer.getvalue()


def _npy_loaded(data: bytes) -> np.ndarray:
    return checked_embeddings(np.load(io.BytesIO(data), allow_pickle=False))


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class KnownVoiceStore:
    """The known voices kept on this computer."""

    def __init__(self, root: Path | None = None, key: bytes | None = None):
        if root is None:
            from desktop.core.common.paths import known_voices_dir

            root = known_voices_dir()
        self.root = Path(root)
        self._key = key

    @property
    def key(self) -> bytes:
        if self._key is None:
            self._key = install_key()
        return self._key

    # -- reading -----------------------------------------------------------------------------

    def read(self) -> tuple[list[KnownVoice], list[DamagedEntry]]:
        """The usable voices, by name, and the damaged entries with their sentences."""
        voices, problems = [], []
        for folder in self._folders():
            try:
                voices.append(self._load(folder))
            except KnownVoiceError as error:
                problems.append(DamagedEntry(folder.name, error.message))
        return sorted(voices, key=lambda voice: voice.name.casefold()), problems

    def list(self) -> list[KnownVoice]:
        return self.read()[0]

    def get(self, name: str) -> KnownVoice:
        wanted = " ".join(str(name).split()).casefold()
        for voice in self.list():
            if voice.name.casefold() == wanted:
                return voice
        raise KnownVoiceError(N_("KnownVoices", "There is no known voice named “{name}”. Run `voxdesk speakers list` "
                                                "or open Tools → Known voices… to see the names.").format(name=name))

    def _folders(self) -> list[Path]:
        try:
            entries = sorted(self.root.iterdir())
        except FileNotFoundError:
            return []
        except OSError as exc:
            raise KnownVoiceError(N_("KnownVoices", "VoxDesk cannot read its known voices in {folder}. Check that the "
                                                    "folder is yours and readable.").format(folder=self.root),
                                  detail=str(exc)) from exc
        return [entry for entry in entries if not entry.name.startswith(".") and entry.is_dir()
                and not entry.is_symlink()]

    def _load(self, folder: Path) -> KnownVoice:
        problem = damaged(folder.name)
        try:
            data = parse_json(read_limited(folder / VOICE_FILE, _MAX_ENTRY_BYTES, problem, error=KnownVoiceError))
            if not isinstance(data, dict) or data.get("format") != FORMAT:
                raise ValueError("not a known-voice entry")
            payload = _entry_payload(folder.name, data)
            if not is_sealed(self.key, _ENTRY_SEAL, payload, data.get("seal")):
                raise ValueError("no valid seal of this install")
            agreement = Agreement.from_dict(data["agreement"])
            npy = read_limited(folder / str(data["embeddings_file"]), _MAX_EXPORT_BYTES, problem,
                               error=KnownVoiceError)
            if Path(str(data["embeddings_file"])).name != data["embeddings_file"] or _sha(npy) != data["embeddings_sha256"]:
                raise ValueError("the embeddings do not match the entry")
            return KnownVoice(id=folder.name, name=check_name(data["name"]), agreement=agreement,
                              embeddings=_npy_loaded(npy), speech_seconds=float(data["speech_seconds"]),
                              recordings=max(0, int(data.get("recordings", 1))), added_at=str(data["added_at"]))
        except (OSError, ValueError, TypeError, KeyError, UserFacingError) as exc:
            raise KnownVoiceError(problem, detail=f"{folder}: {type(exc).__name__}: {exc}") from exc

    # -- writing -----------------------------------------------------------------------------

    def add(self, name: str, embeddings: np.ndarray, speech_seconds: float, agreement: Agreement | None,
            recordings: int = 1) -> KnownVoice:
        """A new known voice, written whole or not at all."""
        if agreement is None:
            raise AgreementError(N_("KnownVoices", "VoxDesk keeps a voice only with the person's agreement to be "
                                                   "recognised. Confirm that they agreed, or let them read the "
                                                   "agreement sentence."))
        agreement.check()
        name = self.free_name(check_name(name))
        voice = KnownVoice(id=secrets.token_hex(8), name=name, agreement=agreement,
                           embeddings=checked_embeddings(embeddings), speech_seconds=round(float(speech_seconds), 2),
                           recordings=int(recordings), added_at=agreement.agreed_at)
        self._publish(voice)
        return voice

    def rename(self, voice: KnownVoice, new_name: str) -> KnownVoice:
        new_name = check_name(new_name)
        if new_name.casefold() != voice.name.casefold():
            new_name = self.free_name(new_name)
        return self._rewrite(replace(self._current(voice), name=new_name))

    def heard_again(self, voice: KnownVoice, embeddings: np.ndarray | None = None,
                    speech_seconds: float = 0.0) -> KnownVoice:
        """One more recording the voice was named in; with embeddings, what was heard there teaches it."""
        current = self._current(voice)
        if embeddings is not None:
            joined = np.concatenate([current.embeddings, checked_embeddings(embeddings)])[-MAX_WINDOWS:]
            current = replace(current, embeddings=joined,
                              speech_seconds=round(current.speech_seconds + float(speech_seconds), 2))
        return self._rewrite(replace(current, recordings=current.recordings + 1))

    def remove(self, voice: KnownVoice) -> None:
        """Delete everything kept for the voice, at once (one rename, then the files)."""
        folder = self.root / voice.id
        trash = self.root / f"{_TRASH}{voice.id}-{secrets.token_hex(4)}"
        try:
            os.rename(folder, trash)
        except FileNotFoundError:
            return
        except OSError as exc:
            raise self._write_error(exc) from exc
        fsync_dir(self.root)
        shutil.rmtree(trash, ignore_errors=True)

    def remove_damaged(self, folder: str) -> None:
        if Path(folder).name != folder or folder.startswith("."):
            raise ValueError(f"not an entry folder: {folder!r}")
        self.remove(KnownVoice(folder, "", None, np.zeros((0, EMBEDDING_DIM)), 0.0, 0, ""))  # type: ignore[arg-type]

    def _current(self, voice: KnownVoice) -> KnownVoice:
        try:
            return self._load(self.root / voice.id)
        except KnownVoiceError:
            if not (self.root / voice.id).exists():
                raise KnownVoiceError(N_("KnownVoices", "The known voice “{name}” has been removed.").format(
                    name=voice.name)) from None
            raise

    def free_name(self, name: str) -> str:
        if any(other.name.casefold() == name.casefold() for other in self.list()):
            raise KnownVoiceError(N_("KnownVoices", "A known voice named “{name}” already exists. Choose another "
                                                    "name, or remove that voice first.").format(name=name))
        return name

    def _entry(self, voice: KnownVoice, npy_name: str, npy: bytes) -> dict:
        data = {"format": FORMAT, "version": VERSION, "name": voice.name, "agreement": voice.agreement.to_dict(),
                "speech_seconds": voice.speech_seconds, "added_at": voice.added_at, "recordings": voice.recordings,
                "embeddings_file": npy_name, "embeddings_sha256": _sha(npy)}
        data["seal"] = seal(self.key, _ENTRY_SEAL, _entry_payload(voice.id, data))
        return data

    def _publish(self, voice: KnownVoice) -> None:
        staging = self.root / f"{_STAGING}{voice.id}"
        npy = _npy_bytes(voice.embeddings)
        npy_name = f"voice-{_sha(npy)[:12]}.npy"
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            staging.mkdir()
            write_synced(io.BytesIO(npy), staging / npy_name)
            write_synced(io.BytesIO(_json_bytes(self._entry(voice, npy_name, npy))), staging / VOICE_FILE)
            fsync_dir(staging)
            os.rename(staging, self.root / voice.id)  # the one step that makes the voice exist
            fsync_dir(self.root)
        except OSError as exc:
            shutil.rmtree(staging, ignore_errors=True)
            raise self._write_error(exc) from exc
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise

    def _rewrite(self, voice: KnownVoice) -> KnownVoice:
        folder = self.root / voice.id
        npy = _npy_bytes(voice.embeddings)
        npy_name = f"voice-{_sha(npy)[:12]}.npy"
        try:
            old = [path for path in folder.glob("voice-*.npy") if path.name != npy_name]
            if not (folder / npy_name).exists():
                atomic_write_bytes(folder / npy_name, npy, overwrite=False)
            atomic_write_text(folder / VOICE_FILE, _json_bytes(self._entry(voice, npy_name, npy)).decode("utf-8"),
                              overwrite=True)
        except OSError as exc:
            raise self._write_error(exc) from exc
        for path in old:  # voice.json no longer names them
            path.unlink(missing_ok=True)
        return voice

    def _write_error(self, exc: OSError) -> KnownVoiceError:
        return KnownVoiceError(write_error_message(exc, N_("KnownVoices", "the known voices"), self.root),
                               detail=f"{type(exc).__name__}: {exc}")

    # -- moving to another computer ------------------------------------------------------------

    def export(self, voice: KnownVoice, target: Path, *, overwrite: bool = False) -> Path:
        """One file carrying the voice and its agreement."""
        current = self._current(voice)
        payload = {"format": FORMAT, "version": VERSION, "name": current.name,
                   "agreement": current.agreement.to_dict(), "speech_seconds": current.speech_seconds,
                   "added_at": current.added_at,
                   "embeddings_npy": base64.b64encode(_npy_bytes(current.embeddings)).decode("ascii")}
        payload["seal"] = seal(_EXPORT_KEY, _EXPORT_SEAL, _without_seal(payload))
        return atomic_write_text(Path(target), json.dumps(payload, ensure_ascii=False, indent=1), overwrite=overwrite)

    def import_file(self, path: Path, name: str | None = None) -> KnownVoice:
        """The voice of an exported file, added here; KnownVoiceError or AgreementError, and nothing
        kept, when the file was altered, carries no agreement, or its name is taken."""
        path = Path(path)
        altered = N_("KnownVoices", "“{name}” is not a known-voice file exported by VoxDesk, or it was changed after "
                                    "it was exported, so VoxDesk will not import it. Export the voice again on the "
                                    "other computer.").format(name=path.name)
        try:
            data = parse_json(read_limited(path, _MAX_EXPORT_BYTES, altered, error=KnownVoiceError))
            if not isinstance(data, dict) or data.get("format") != FORMAT:
                raise ValueError("not a known-voice export")
            if not is_sealed(_EXPORT_KEY, _EXPORT_SEAL, _without_seal(data), data.get("seal")):
                raise ValueError("the seal does not match")
            embeddings = _npy_loaded(base64.b64decode(str(data["embeddings_npy"]), validate=True))
            speech_seconds = float(data["speech_seconds"])
            stored_name = str(data["name"])
        except OSError as exc:
            raise KnownVoiceError(N_("KnownVoices", "VoxDesk cannot read “{name}”. Check that the file is there and "
                                                    "readable.").format(name=path.name), detail=str(exc)) from exc
        except (ValueError, TypeError, KeyError) as exc:
            raise KnownVoiceError(altered, detail=f"{type(exc).__name__}: {exc}") from exc
        agreement = Agreement.from_dict(data.get("agreement"))
        return self.add(name or stored_name, embeddings, speech_seconds, agreement)


def _entry_payload(voice_id: str, data: dict) -> dict:
    return {"id": voice_id, "name": data["name"], "agreement": data["agreement"],
            "speech_seconds": data["speech_seconds"], "added_at": data["added_at"],
            "embeddings_file": data["embeddings_file"], "embeddings_sha256": data["embeddings_sha256"]}


def _without_seal(data: dict) -> dict:
    return {key: value for key, value in data.items() if key != "seal"}


def _json_bytes(data: dict) -> bytes:
    return json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8")
