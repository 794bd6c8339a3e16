"""The transcription server the office shares: its address, model and use, and where its API key is kept.

The key never goes into QSettings' plain file: it lives in the desktop keyring when the `keyring`
package finds a real one, otherwise in a file only the user can read (mode 0600) in VoxDesk's config
folder, one key per server address. No network here; the engine (``whisper_server``) talks to the server.
"""
from __future__ import annotations

import json
import logging
import os
import secrets
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from desktop.core.common.errors import UserFacingError
from desktop.core.common.i18n import N_
from desktop.core.common.secrets_place import config_folder, usable_keyring

log = logging.getLogger(__name__)

USE_CHOICES = ("always", "no_gpu")  # every file, or only when this computer has no working GPU
DEFAULT_CONCURRENCY = 4
MAX_CONCURRENCY = 16
KEYRING_SERVICE = "VoxDesk transcription server"
KEY_FILE = "transcription-server.keys"
_MAX_KEY_FILE = 64 * 1024


class ServerSettingsError(UserFacingError):
    """The server's address or its key cannot be used as given."""


@dataclass(frozen=True)
class ServerConfig:
    url: str  # normalised by server_url(): scheme, host, port and path, without a trailing /v1
    model: str = ""  # the name the server knows its Whisper model by; empty: the server's default
    use: str = "always"  # always | no_gpu
    concurrency: int = DEFAULT_CONCURRENCY  # pieces of audio in flight at once
    timeout: float = 120.0  # seconds to wait for one piece's answer
    api_key: str | None = None  # None: the key stored for this address (ServerKeyStore), if any

    def __post_init__(self) -> None:
        if self.use not in USE_CHOICES:
            raise ValueError(f"unknown server use {self.use!r}")
        if not 1 <= self.concurrency <= MAX_CONCURRENCY:
            raise ValueError(f"concurrency must be 1 to {MAX_CONCURRENCY}, not {self.concurrency}")
        if not self.timeout > 0:
            raise ValueError(f"timeout must be positive, not {self.timeout}")

    @property
    def host(self) -> str:
        return host_of(self.url)

    def label(self) -> str:
        """What the status bar shows after "Server:": host · model."""
        return f"{self.host} · {self.model}" if self.model else self.host


def server_url(text: str) -> str:
    """The server's base address from what the user typed, or a ServerSettingsError that says what is wrong.

    "gpu-box:8000", "http://gpu-box:8000/", "https://asr.example.org/v1" all work: http is assumed
    when no scheme is given, and a trailing /v1 (as in OpenAI client settings) is dropped.
    """
    text = (text or "").strip()
    if not text:
        raise ServerSettingsError(N_("Server", "Enter the address of the transcription server, for example "
                                               "http://gpu-server:8000."))
    if "://" not in text:
        text = "http://" + text
    parts = urlsplit(text)
    try:
        port = parts.port
    except ValueError:
        port = -1
    if parts.scheme not in ("http", "https") or not parts.hostname or port == -1 or parts.query or parts.fragment:
        raise ServerSettingsError(
            N_("Server", "“{address}” is not a server address; write it like http://gpu-server:8000 or "
                         "https://asr.example.org.").format(address=text))
    path = parts.path.rstrip("/")
    if path.endswith("/v1"):
        path = path[: -len("/v1")]
    return f"{parts.scheme}://{parts.netloc}{path}"


def host_of(url: str) -> str:
    parts = urlsplit(url)
    return parts.netloc or url


class ServerKeyStore:
    """API keys by server address: in the desktop keyring when there is one, else in a 0600 file."""

    def __init__(self, folder: Path | None = None, keyring: Any = None):
        self.folder = Path(folder) if folder is not None else config_folder()
        self._keyring = keyring if keyring is not None else usable_keyring()

    @property
    def key_file(self) -> Path:
        return self.folder / KEY_FILE

    def load(self, url: str) -> str:
        """The key stored for this address; empty when there is none."""
        if self._keyring is not None:
            try:
                stored = self._keyring.get_password(KEYRING_SERVICE, url)
                if stored is not None:
                    return stored
            except Exception:  # noqa: BLE001 - a locked or broken keyring: the file may still hold it
                log.warning("The desktop keyring could not be read for the server key", exc_info=True)
        return self._read_file().get(url, "")

    def save(self, url: str, key: str) -> None:
        """Keep key for this address (an empty key removes it)."""
        if self._keyring is not None:
            try:
                if key:
                    self._keyring.set_password(KEYRING_SERVICE, url, key)
                elif self._keyring.get_password(KEYRING_SERVICE, url) is not None:
                    self._keyring.delete_password(KEYRING_SERVICE, url)
                self._write_file_without(url)  # an older copy in the file must not outlive it
                return
            except Exception:  # noqa: BLE001 - a locked or broken keyring: the file still works
                log.warning("The desktop keyring could not keep the server key; using %s", self.key_file,
                            exc_info=True)
        keys = self._read_file()
        if key:
            keys[url] = key
        else:
            keys.pop(url, None)
        self._write_file(keys)

    def _write_file_without(self, url: str) -> None:
        keys = self._read_file()
        if url in keys:
            del keys[url]
            self._write_file(keys)

    def _read_file(self) -> dict[str, str]:
        try:
            fd = os.open(self.key_file, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except FileNotFoundError:
            return {}
        except OSError as exc:
            raise _unusable(self.key_file, exc) from exc
        with os.fdopen(fd, "rb") as stream:
            info = os.fstat(stream.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise _unusable(self.key_file, "not a regular file")
            if info.st_mode & 0o077:
                os.fchmod(stream.fileno(), 0o600)  # nobody else may read it
            data = stream.read(_MAX_KEY_FILE + 1)
        try:
            keys = json.loads(data.decode("utf-8")) if len(data) <= _MAX_KEY_FILE else None
        except (UnicodeDecodeError, ValueError):
            keys = None
        if not isinstance(keys, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in keys.items()):
            log.warning("Ignoring a damaged server key file %s", self.key_file)
            return {}
        return keys

    def _write_file(self, keys: dict[str, str]) -> None:
        """Written under a private name with mode 0600 from the start, then moved into place."""
        temp = self.folder / f".{KEY_FILE}.{os.getpid()}.{secrets.token_hex(4)}"
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
            with os.fdopen(fd, "wb") as stream:
                stream.write(json.dumps(keys, sort_keys=True).encode("utf-8"))
                stream.flush()
                os.fsync(stream.fileno())
            os.replace(temp, self.key_file)
        except OSError as exc:
            raise _unusable(self.key_file, exc) from exc
        finally:
            temp.unlink(missing_ok=True)


def _unusable(path: Path, exc: object) -> ServerSettingsError:
    return ServerSettingsError(
        N_("Server", "VoxDesk cannot read or save the server's API key in {folder}. Check that the folder is yours "
                     "and writable, then try again.").format(folder=path.parent),
        detail=f"{path}: {exc}",
    )
