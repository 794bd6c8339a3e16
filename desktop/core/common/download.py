"""Downloads that survive a flaky connection: resume, checksum, cancel, and never a half file.

Requests go through urllib with the proxies named in the environment (``https_proxy``, ``no_proxy``…)
and TLS checked against the operating system's certificate store (``truststore``), so a company's own
root certificate, installed the usual way, is trusted here too.

A download streams into ``<dest>.part`` beside the destination. When the file is complete and its
size and SHA-256 match, it is moved into place with ``os.replace``, so ``dest`` either does not exist
or holds the whole, verified file. A cancelled or interrupted download keeps its ``.part`` file and
the next call continues from there with an HTTP ``Range`` request.
"""
from __future__ import annotations

import hashlib
import http.client
import json
import os
import re
import ssl
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Callable

from desktop.core.common.atomic import fsync_dir
from desktop.core.common.errors import Cancelled, ModelError
from desktop.core.common.fs_errors import write_error_message
from desktop.core.common.i18n import N_

ProgressCallback = Callable[[int, int | None], None]
"""Called as ``progress(bytes_done, bytes_total)``; the total is None when the server does not say."""

CancelCheck = Callable[[], bool]
"""Returns True once the user has asked to stop."""

CHUNK_SIZE = 64 * 1024
USER_AGENT = "VoxDesk"

NETWORK_MESSAGE = N_(
    "Models",
    "VoxDesk could not reach the download server. Check the internet connection, or choose another download "
    "source in Settings → Downloads. Without internet, use File → Import model…, or ask your IT department "
    "for the shared model folder.",
)
UNTRUSTED_MESSAGE = N_(
    "Models",
    "The download server's certificate is not trusted by this computer, so VoxDesk did not download from it. "
    "If your company checks secure connections, ask your IT department to install its root certificate on this "
    "computer; or choose another download source in Settings → Downloads.",
)


class ServerUnreachable(ModelError):
    """No connection to the server (refused, timed out, no route, untrusted certificate): another
    source may work where this one does not."""


class ServerRefused(ModelError):
    """The server answered with an HTTP error (a firewall's block page, a file it no longer offers)."""


def open_url(request: urllib.request.Request | str, *, timeout: float) -> Any:
    """``urlopen`` through the environment's proxies, with TLS checked by the operating system's store."""
    return _opener().open(request, timeout=timeout)


def _opener() -> urllib.request.OpenerDirector:
    import truststore

    context = truststore.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    # build_opener adds a ProxyHandler that reads http_proxy, https_proxy and no_proxy.
    return urllib.request.build_opener(urllib.request.HTTPSHandler(context=context))


def unreachable_error(url: str, exc: BaseException) -> ServerUnreachable:
    """The sentence for a failed connection: a certificate problem gets its own."""
    reason = getattr(exc, "reason", exc)
    if isinstance(reason, ssl.SSLCertVerificationError) or isinstance(exc, ssl.SSLCertVerificationError):
        return ServerUnreachable(UNTRUSTED_MESSAGE, detail=f"{url}: {exc!r}")
    return ServerUnreachable(NETWORK_MESSAGE, detail=f"{url}: {exc!r}")


def part_path(dest: Path) -> Path:
    """Where the unfinished download of ``dest`` is kept."""
    return dest.with_name(dest.name + ".part")


def download_file(
    url: str,
    dest: Path,
    *,
    sha256: str | None = None,
    size: int | None = None,
    progress: ProgressCallback | None = None,
    cancelled: CancelCheck | None = None,
    timeout: float = 30,
    label: str | None = None,
) -> Path:
    """Download ``url`` to ``dest`` and return ``dest``.

    ``sha256`` and ``size``, when given, are checked before the file is moved into place.
    ``progress`` gets the bytes present so far (including those of a resumed ``.part``) and the total.
    ``cancelled`` is asked before every chunk; when it says yes, :class:`Cancelled` is raised and the
    ``.part`` file is kept for a later resume. ``label`` names the file in error messages
    (default: the file name).

    Raises :class:`ModelError` with a plain sentence for every failure the user can meet.
    """
    dest = Path(dest)
    label = label or dest.name
    part = part_path(dest)
    expected_sha = sha256.lower() if sha256 else None
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _save_error(exc, label, dest.parent) from exc
    _check_cancel(cancelled)

    offset = _usable_part_size(part, size)
    if size is not None and offset == size:
        # A previous run got every byte but stopped before the check; no request needed.
        _finish(part, dest, label, expected_sha, size, _hash_file(part, offset, cancelled), offset)
        return dest

    response, offset, total = _open_for_part(url, part, offset, size, timeout, label)
    with response:
        if total is not None and offset == total:
            # 416 answer: the .part already held the whole file.
            return _finish(part, dest, label, expected_sha, size, _hash_file(part, offset, cancelled), offset)
        hasher = _start_hash(part, offset, expected_sha, cancelled)
        done = _stream(response, part, offset, total, hasher, progress, cancelled, label, url)

    _check_complete(done, total, label, url)
    return _finish(part, dest, label, expected_sha, size, hasher, done)


def fetch_json(url: str, *, timeout: float = 30) -> Any:
    """GET ``url`` and parse its JSON body, with the same plain-language errors as downloads."""
    opened = _open(url, 0, timeout, N_("Models", "the model list"))
    assert opened is not None
    response = opened[0]
    try:
        with response:
            body = response.read()
    except (OSError, http.client.HTTPException) as exc:
        raise unreachable_error(url, exc) from exc
    try:
        return json.loads(body)
    except ValueError as exc:
        raise ModelError(
            N_("Models", "The download server sent an answer VoxDesk does not understand; please try again later."),
            detail=f"{url}: {exc}",
        ) from exc


# --- the steps ---------------------------------------------------------------------------------


def _usable_part_size(part: Path, size: int | None) -> int:
    """Bytes of an earlier ``.part`` worth resuming; a ``.part`` longer than the file is dropped."""
    try:
        present = part.stat().st_size
    except FileNotFoundError:
        return 0
    except OSError:
        present = -1
    if present < 0 or (size is not None and present > size):
        _remove(part)
        return 0
    return present


def _open_for_part(
    url: str, part: Path, offset: int, size: int | None, timeout: float, label: str
) -> tuple[Any, int, int | None]:
    """Start the request where ``part`` ends, or from 0 when the server cannot continue it.

    Returns ``(response, offset, total)`` like :func:`_open`, with ``total`` falling back on ``size``;
    a server offering a file of another size than ``size`` is refused and the ``.part`` dropped.
    """
    opened = _open(url, offset, timeout, label)
    if opened is None:
        # The server cannot continue this .part (it ended in a different place): start over.
        _remove(part)
        offset = 0
        opened = _open(url, 0, timeout, label)
        assert opened is not None  # a request without Range is never "unusable"
    response, offset, total = opened
    if size is not None and total is not None and total != size:
        response.close()
        _remove(part)
        raise ModelError(
            N_("Models", "The download server offered a different file than expected for {label}; please try again "
                         "later.").format(label=label),
            detail=f"{url}: expected {size} bytes, server has {total}",
        )
    if total is None:
        total = size
    return response, offset, total


def _start_hash(part: Path, offset: int, expected_sha: str | None, cancelled: CancelCheck | None) -> Any:
    """The SHA-256 object the streamed bytes go into, or None when there is no checksum to check."""
    if offset:
        return _hash_file(part, offset, cancelled)  # continue the checksum of the kept bytes
    return hashlib.sha256() if expected_sha else None


def _check_complete(done: int, total: int | None, label: str, url: str) -> None:
    """Refuse a body that ended before the size the server announced."""
    if total is not None and done < total:
        raise ModelError(
            N_("Models", "The download of {label} stopped before it was complete; check the internet connection and "
                         "try again to continue where it stopped.").format(label=label),
            detail=f"{url}: got {done} of {total} bytes",
        )


def _open(url: str, offset: int, timeout: float, label: str) -> tuple[Any, int, int | None] | None:
    """Start the request at ``offset``.

    Returns ``(response, offset, total)`` where ``offset`` is where the body starts (0 when the server
    ignored the Range header and sent the whole file), or None when the server refused the range.
    """
    headers = {"User-Agent": USER_AGENT}
    if offset:
        headers["Range"] = f"bytes={offset}-"
    try:
        response = open_url(urllib.request.Request(url, headers=headers), timeout=timeout)
    except urllib.error.HTTPError as exc:
        with exc:
            if exc.code == 416 and offset:
                total = _total_from_content_range(exc.headers.get("Content-Range"))
                if total == offset:
                    return _EmptyBody(), offset, total
                return None
        raise _http_error(exc, label, url) from exc
    except (OSError, http.client.HTTPException, ValueError) as exc:
        raise unreachable_error(url, exc) from exc

    if response.status == 206:
        match = re.fullmatch(r"bytes (\d+)-(\d+)/(\d+|\*)", response.headers.get("Content-Range", "").strip())
        if not match or int(match.group(1)) != offset:
            response.close()
            return None
        total = None if match.group(3) == "*" else int(match.group(3))
        return response, offset, total
    length = response.headers.get("Content-Length")
    return response, 0, int(length) if length and length.isdigit() else None


def _stream(
    response: Any,
    part: Path,
    offset: int,
    total: int | None,
    hasher: Any,
    progress: ProgressCallback | None,
    cancelled: CancelCheck | None,
    label: str,
    url: str,
) -> int:
    """Append the response body to ``part`` (or rewrite it from 0) and return the bytes present."""
    try:
        out = open(part, "ab" if offset else "wb")
    except OSError as exc:
        raise _save_error(exc, label, part.parent) from exc
    with out:
        done = offset
        if progress:
            progress(done, total)
        while True:
            _check_cancel(cancelled)
            try:
                chunk = response.read(CHUNK_SIZE)
            except (OSError, http.client.HTTPException) as exc:
                raise ModelError(
                    N_("Models", "The download of {label} stopped before it was complete; check the internet "
                                 "connection and try again to continue where it stopped.").format(label=label),
                    detail=f"{url}: {exc!r} after {done} bytes",
                ) from exc
            if not chunk:
                break
            try:
                out.write(chunk)
            except OSError as exc:
                raise _save_error(exc, label, part.parent) from exc
            if hasher is not None:
                hasher.update(chunk)
            done += len(chunk)
            if progress:
                progress(done, total)
        try:
            out.flush()
            os.fsync(out.fileno())
        except OSError as exc:
            raise _save_error(exc, label, part.parent) from exc
    return done


def _finish(
    part: Path, dest: Path, label: str, sha256: str | None, size: int | None, hasher: Any, done: int
) -> Path:
    """Check the finished ``.part`` and move it into place, or delete it when it is damaged."""
    if (size is not None and done != size) or (sha256 and hasher.hexdigest() != sha256):
        _remove(part)
        got = hasher.hexdigest() if hasher is not None else "not checked"
        raise ModelError(
            N_("Models", "The download of {label} was damaged on the way, so VoxDesk deleted it; please try "
                         "again.").format(label=label),
            detail=f"expected {size} bytes with SHA-256 {sha256}, got {done} bytes with SHA-256 {got}",
        )
    try:
        os.replace(part, dest)
    except OSError as exc:
        raise _save_error(exc, label, dest.parent) from exc
    fsync_dir(dest.parent)
    return dest


def _hash_file(path: Path, length: int, cancelled: CancelCheck | None) -> Any:
    """A SHA-256 object fed with the first ``length`` bytes of ``path`` (to continue a resume)."""
    hasher = hashlib.sha256()
    with open(path, "rb") as f:
        remaining = length
        while remaining:
            _check_cancel(cancelled)
            chunk = f.read(min(1024 * 1024, remaining))
            if not chunk:
                break
            hasher.update(chunk)
            remaining -= len(chunk)
    return hasher


# --- small helpers -----------------------------------------------------------------------------


class _EmptyBody:
    """Stands in for a response when there is nothing left to read."""

    def read(self, _n: int = -1) -> bytes:
        return b""

    def close(self) -> None:
        pass

    def __enter__(self) -> "_EmptyBody":
        return self

    def __exit__(self, *_exc: object) -> None:
        pass


def _total_from_content_range(value: str | None) -> int | None:
    match = re.fullmatch(r"bytes \*/(\d+)", (value or "").strip())
    return int(match.group(1)) if match else None


def _check_cancel(cancelled: CancelCheck | None) -> None:
    if cancelled is not None and cancelled():
        raise Cancelled()


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except FileNotFoundError:
        pass


def _http_error(exc: urllib.error.HTTPError, label: str, url: str) -> ServerRefused:
    if exc.code in (404, 410):
        message = (
            N_("Models", "The download server no longer offers {label}, so check for a VoxDesk update or import the "
                         "model from a file.").format(label=label)
        )
    else:
        message = N_("Models", "The download server refused to send {label} (error {code}); please try again "
                               "later.").format(label=label, code=exc.code)
    return ServerRefused(message, detail=f"{url}: HTTP {exc.code} {exc.reason}")


def _save_error(exc: OSError, label: str, folder: Path) -> ModelError:
    return ModelError(write_error_message(exc, label, folder), detail=repr(exc))
