"""The install's secret key, and the seals (HMAC-SHA256) it puts on consent records and issued codes.

A seal proves that VoxDesk wrote what it covers: a voice.json or a list of issued codes written or
edited by hand, or copied from another computer, has no valid seal. The key lives outside the voice
library: in the desktop keyring when the `keyring` package finds a real one, otherwise in a file
readable only by the user (mode 0600) in VoxDesk's config folder. Once a key exists it stays where
it is, so installing or removing a keyring later does not invalidate the saved voices.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import secrets
import stat
import threading
from pathlib import Path
from typing import Any

from desktop.core.common.errors import UserFacingError
from desktop.core.common.i18n import N_
from desktop.core.common.secrets_place import config_folder, usable_keyring

log = logging.getLogger(__name__)

KEY_FILE = "consent-seal.key"
KEYRING_SERVICE = "VoxDesk consent seal"
_KEY_BYTES = 32


class SealKeyError(UserFacingError):
    """The install's key cannot be read or made."""


def seal(key: bytes, purpose: str, payload: Any) -> str:
    """The seal of payload (anything JSON can hold) for one purpose ("voice", "codes")."""
    message = purpose.encode("utf-8") + b"\0" + _canonical(payload)
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def is_sealed(key: bytes, purpose: str, payload: Any, claimed: object) -> bool:
    """Whether claimed is the seal of payload under key."""
    if not isinstance(claimed, str):
        return False
    try:
        expected = seal(key, purpose, payload)
    except (TypeError, ValueError):
        return False
    return hmac.compare_digest(expected, claimed)


def _canonical(payload: Any) -> bytes:
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


# --- the key ----------------------------------------------------------------------------------------


class KeyStore:
    """Where this install's key is kept: an existing key file, else the keyring, else a new key file."""

    def __init__(self, folder: Path | None = None, keyring: Any = None):
        self.folder = Path(folder) if folder is not None else config_folder()
        self._keyring = keyring if keyring is not None else usable_keyring()

    @property
    def key_file(self) -> Path:
        return self.folder / KEY_FILE

    def load(self) -> bytes:
        """The key, made on first use."""
        if self.key_file.exists() or self._keyring is None:
            return self._file_key()
        try:
            return self._keyring_key()
        except Exception:  # noqa: BLE001 - a locked or broken keyring: the file still works
            log.warning("The desktop keyring could not be used for the consent key; using %s", self.key_file,
                        exc_info=True)
            return self._file_key()

    def _keyring_key(self) -> bytes:
        account = str(self.folder)  # one key per config folder, like the file
        stored = self._keyring.get_password(KEYRING_SERVICE, account)
        if stored is None:
            self._keyring.set_password(KEYRING_SERVICE, account, secrets.token_hex(_KEY_BYTES))
            stored = self._keyring.get_password(KEYRING_SERVICE, account)
        return _parsed(stored, f"keyring {KEYRING_SERVICE}/{account}")

    def _file_key(self) -> bytes:
        try:
            return self._read_file()
        except FileNotFoundError:
            pass
        self._create_file()
        return self._read_file()

    def _read_file(self) -> bytes:
        try:
            fd = os.open(self.key_file, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except FileNotFoundError:
            raise
        except OSError as exc:
            raise _unreadable(self.key_file, exc) from exc
        with os.fdopen(fd, "rb") as stream:
            info = os.fstat(stream.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise _unreadable(self.key_file, "not a regular file")
            if info.st_mode & 0o077:
                os.fchmod(stream.fileno(), 0o600)  # nobody else may read it
            return _parsed(stream.read(256).decode("ascii", "replace"), str(self.key_file))

    def _create_file(self) -> None:
        """Write a new key under a private name, then link it into place: never half a key, never a replaced one."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            temp = self.folder / f".{KEY_FILE}.{os.getpid()}.{secrets.token_hex(4)}"
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
            try:
                with os.fdopen(fd, "wb") as stream:
                    stream.write(secrets.token_hex(_KEY_BYTES).encode("ascii"))
                    stream.flush()
                    os.fsync(stream.fileno())
                os.link(temp, self.key_file)
            except FileExistsError:
                pass  # another VoxDesk made it first: use theirs
            finally:
                temp.unlink(missing_ok=True)
        except OSError as exc:
            raise _unreadable(self.key_file, exc) from exc


_cached: bytes | None = None
_cache_lock = threading.Lock()


def install_key() -> bytes:
    """This install's key, read once per process."""
    global _cached
    with _cache_lock:
        if _cached is None:
            _cached = KeyStore().load()
        return _cached


def _parsed(text: str | None, where: str) -> bytes:
    try:
        key = bytes.fromhex((text or "").strip())
    except ValueError:
        key = b""
    if len(key) != _KEY_BYTES:
        raise SealKeyError(
            N_("Consent", "VoxDesk's consent key is damaged, so no saved voice can be used. Delete the voices and "
                          "add them again with new consent recordings."),
            detail=f"{where}: not a {_KEY_BYTES}-byte key",
        )
    return key


def _unreadable(path: Path, exc: object) -> SealKeyError:
    return SealKeyError(
        N_("Consent", "VoxDesk cannot read or create its consent key in {folder}. Check that the folder is yours "
                      "and writable, then try again.").format(folder=path.parent),
        detail=f"{path}: {exc}",
    )
