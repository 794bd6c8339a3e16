"""Downloads that survive a flaky connection: resume, checksum, cancel, and never a half file.

Requests go through the one bounded reader (``bounded_http``): the environment's proxies, TLS checked
against the operating system's certificate store, a deadline for the server to start answering, and
never more bytes than the file is expected to have, so an endless body cannot fill the disk.

A download streams into ``<dest>.part`` beside the destination. When the file is complete and its
size and SHA-256 match, it is moved into place with ``os.replace``, so ``dest`` either does not exist
or holds the whole, verified file. A cancelled or interrupted download keeps its ``.part`` file and
the next call continues from there with an HTTP ``Range`` request; a full disk removes it.
"""
from __future__ import annotations

import hashlib
import os
import re
import unicodedata
from pathlib import Path
from typing import Any, Callable

from desktop.core.common import bounded_http, connection_problems
from desktop.core.common.atomic import fsync_dir
from desktop.core.common.errors import Cancelled, ModelError
from desktop.core.common.fs_errors import DISK_FULL_ERRNOS, write_error_message
from desktop.core.common.i18n import N_, Message

ProgressCallback = Callable[[int, int | None], None]
"""Called as ``progress(bytes_done, bytes_total)``; the total is None when the server does not say."""

CancelCheck = Callable[[], bool]
"""Returns True once the user has asked to stop."""

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
TOO_SLOW_MESSAGE = N_(
    "Models",
    "The download server did not answer within {seconds} seconds. Check the internet connection and try again, "
    "or choose another download source in Settings → Downloads.",
)

SLOWER_THAN_MINIMUM_MESSAGE = N_(
    "Models",
    "The download of {label} stayed slower than {rate} a second, so VoxDesk stopped it; what arrived is kept, "
    "and the next try continues from there. Check the internet connection, or choose another download source "
    "in Settings → Downloads.",
)

# A model file's body has no deadline (it takes as long as the line needs), but it must keep moving:
# at least 4 KB a second (slower than a dial-up modem) over each minute, the first minute included.
DOWNLOAD_MINIMUM_RATE = bounded_http.MinimumRate(bytes_per_second=4000, seconds=60)

# The most any model file may have when neither the catalogue nor the listing gives its size (the
# largest official file, large-v3's model.pt, is 3.1 GB).
LARGEST_MODEL_FILE = 8 * 1024**3


class ServerUnreachable(ModelError):
    """No connection to the server (refused, timed out, no route, untrusted certificate): another
    source may work where this one does not."""


class NoConnection(ServerUnreachable):
    """No connection at all (refused, no route, no name): as without internet. Its sentence points to
    File → Import model…; a caller for whom another control does that job says so (tts_models)."""


class ServerRefused(ModelError):
    """The server answered with an HTTP error (a firewall's block page, a file it no longer offers)."""


WRONG_ADDRESS_MESSAGE = N_(
    "Models",
    "{problem} Check the download source's address in Settings → Downloads, or choose another download source "
    "there.",
)


def unreachable_error(url: str, exc: BaseException) -> ServerUnreachable:
    """The sentence for a failed connection: a certificate problem, http:// and https:// mixed up and
    redirects in a loop get their own (:mod:`connection_problems`)."""
    if bounded_http.untrusted_certificate(exc):
        return ServerUnreachable(UNTRUSTED_MESSAGE, detail=f"{url}: {exc!r}")
    problem = connection_problems.problem_of(exc, url)
    if problem is not None:
        return ServerUnreachable(wrong_address_message(problem, url), detail=f"{url}: {exc!r}")
    return NoConnection(NETWORK_MESSAGE, detail=f"{url}: {exc!r}")


def wrong_address_message(problem: str, url: str) -> Message:
    """The sentence for a :mod:`connection_problems` problem of a download source, with what to do."""
    return WRONG_ADDRESS_MESSAGE.format(problem=connection_problems.sentence(problem, connection_problems.host_of(url)))


def too_slow_error(url: str, exc: bounded_http.TooSlow, seconds: float) -> ServerUnreachable:
    return ServerUnreachable(TOO_SLOW_MESSAGE.format(seconds=f"{seconds:g}"), detail=f"{url}: {exc.detail}")


def reachable(url: str, timeout: float) -> bool:
    """Whether a server answers at ``url`` within ``timeout`` seconds (headers and all), through the
    proxies and trust store downloads use. Any HTTP status counts; a refused connection, a timeout, an
    untrusted certificate, http:// and https:// mixed up, or redirects in a loop do not."""
    return probe(url, timeout)[0]


def probe(url: str, timeout: float) -> tuple[bool, Message | None]:
    """Whether a server answers at ``url`` (as :func:`reachable`), and when it does not because of a
    mistake :mod:`connection_problems` tells apart, its sentence (None: it cannot be reached).
    Redirects are followed (HEAD requests, within the one deadline), so a loop is seen."""
    import httpx

    try:
        with bounded_http.fetch(url, method="HEAD", deadline=bounded_http.Deadline(timeout), connect_seconds=timeout,
                                read_seconds=timeout):
            return True, None  # any answer counts, an error page too
    except (httpx.HTTPError, httpx.InvalidURL) as exc:
        problem = None if bounded_http.untrusted_certificate(exc) else connection_problems.problem_of(
            exc, url, probe_seconds=min(timeout, connection_problems.TLS_PROBE_SECONDS))
        return False, None if problem is None else connection_problems.sentence(
            problem, connection_problems.host_of(url))
    except (bounded_http.LimitExceeded, ValueError):
        return False, None


def listed_path_is_safe(name: object) -> bool:
    """Whether a file name from a server's listing may become a path here: a relative path of plain
    parts, without control or format characters (NUL, newlines, bidirectional overrides), ``..`` or
    backslashes."""
    if not isinstance(name, str) or not 0 < len(name) <= 1024 or "\\" in name or name.startswith("/"):
        return False
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Zl", "Zp") for c in name):
        return False
    return all(part not in ("", ".", "..") and len(part.encode("utf-8", "surrogatepass")) <= 255
               for part in name.split("/"))


def bad_listing_error(url: str, name: object) -> ModelError:
    return ModelError(
        N_("Models", "The download server listed a file under a name VoxDesk does not accept, so VoxDesk did not "
                     "download from it. Please try again later, or choose another download source in Settings → "
                     "Downloads."),
        detail=f"{url}: {name!r}"[:500],
    )


def part_path(dest: Path) -> Path:
    """Where the unfinished download of ``dest`` is kept."""
    return dest.with_name(dest.name + ".part")


def download_file(
    url: str,
    dest: Path,
    *,
    sha256: str | None = None,
    size: int | None = None,
    max_size: int = LARGEST_MODEL_FILE,
    progress: ProgressCallback | None = None,
    cancelled: CancelCheck | None = None,
    timeout: float = 30,
    label: str | None = None,
    minimum_rate: bounded_http.MinimumRate = DOWNLOAD_MINIMUM_RATE,
) -> Path:
    """Download ``url`` to ``dest`` and return ``dest``.

    ``sha256`` and ``size``, when given, are checked before the file is moved into place. No more
    than ``size`` bytes are read (or ``max_size``, the most a file of unknown size may have), so a
    server sending without end is stopped there and the ``.part`` removed.
    ``progress`` gets the bytes present so far (including those of a resumed ``.part``) and the total.
    ``cancelled`` is asked before every chunk; when it says yes, :class:`Cancelled` is raised and the
    ``.part`` file is kept for a later resume. ``timeout``: how long the server may take to start
    answering, and the longest gap between two reads. ``label`` names the file in error messages
    (default: the file name). ``minimum_rate``: the body is stopped when it stays slower than this;
    its ``.part`` is kept for a resume.

    Raises :class:`ModelError` with a plain sentence for every failure the user can meet.
    """
    import httpx

    dest = Path(dest)
    label = label or dest.name
    part = part_path(dest)
    expected_sha = sha256.lower() if sha256 else None
    limit = size if size is not None else max_size
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _save_error(exc, label, dest.parent) from exc
    _check_cancel(cancelled)

    offset = _usable_part_size(part, limit)
    if size is not None and offset == size:
        # A previous run got every byte but stopped before the check; no request needed.
        return _finish(part, dest, label, expected_sha, size, _hash_file(part, offset, cancelled), offset)

    try:
        return _download(url, part, dest, offset, size, limit, expected_sha, progress, cancelled, timeout, label,
                         minimum_rate)
    except bounded_http.TooLarge as exc:
        _remove(part)
        raise ModelError(
            N_("Models", "The download server sent more than {label} can hold, so VoxDesk stopped and deleted the "
                         "download; please try again later, or choose another download source in Settings → "
                         "Downloads.").format(label=label),
            detail=exc.detail,
        ) from exc
    except bounded_http.RateTooLow as exc:
        raise ServerUnreachable(SLOWER_THAN_MINIMUM_MESSAGE.format(label=label, rate=_bytes_shown(
            minimum_rate.bytes_per_second)), detail=f"{url}: {exc.detail}") from exc
    except bounded_http.TooSlow as exc:
        raise too_slow_error(url, exc, timeout) from exc
    except bounded_http.Undecodable as exc:
        _remove(part)
        raise _damaged(label, exc.detail) from exc
    except httpx.InvalidURL as exc:
        raise unreachable_error(url, exc) from exc


def fetch_json(url: str, *, timeout: float = 30, limit: int = bounded_http.LISTING_LIMIT) -> Any:
    """GET ``url`` and parse its JSON body, with the same plain-language errors as downloads: at most
    ``limit`` bytes, the whole answer within ``timeout`` seconds, nesting refused past a few levels."""
    import httpx

    what = N_("Models", "the model list")
    try:
        with bounded_http.fetch(url, deadline=bounded_http.Deadline(timeout), connect_seconds=timeout,
                                read_seconds=timeout) as response:
            if response.status_code >= 300:
                raise _refusal(response, what, url)
            body = bounded_http.read_body(response, limit, url)
    except bounded_http.TooSlow as exc:
        raise too_slow_error(url, exc, timeout) from exc
    except (bounded_http.TooLarge, bounded_http.Undecodable) as exc:
        raise _not_understood(url, exc.detail) from exc
    except (httpx.HTTPError, httpx.InvalidURL) as exc:
        raise unreachable_error(url, exc) from exc
    try:
        return bounded_http.parse_json(body)
    except ValueError as exc:  # not JSON, or nested deeper than any real listing
        raise _not_understood(url, str(exc)) from exc


def _not_understood(url: str, detail: str) -> ModelError:
    return ModelError(
        N_("Models", "The download server sent an answer VoxDesk does not understand; please try again later."),
        detail=f"{url}: {detail}",
    )


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


def _download(
    url: str, part: Path, dest: Path, offset: int, size: int | None, limit: int,
    expected_sha: str | None, progress: ProgressCallback | None, cancelled: CancelCheck | None, timeout: float,
    label: str, minimum_rate: bounded_http.MinimumRate,
) -> Path:
    """Ask for the bytes after ``offset`` (or the whole file, when the server cannot continue the
    ``.part``), stream them in and move the checked file into place."""
    import httpx

    while True:
        headers = {"Accept-Encoding": "identity"}  # the checksum is of the file's own bytes
        if offset:
            headers["Range"] = f"bytes={offset}-"
        # The server must start answering within the timeout; the body then has the size as its
        # limit (and the timeout between two reads), since a large file takes as long as it takes.
        deadline = bounded_http.Deadline(timeout)
        try:
            with bounded_http.fetch(url, deadline=deadline, connect_seconds=timeout, read_seconds=timeout,
                                    headers=headers) as response:
                deadline.lift()
                start, total = _body_range(response, offset, label, url)
                if start is None:
                    if not offset:  # not even the whole file from its start: nothing to retry
                        raise _stopped(label, url, ValueError(f"HTTP {response.status_code} for the whole file, "
                                                              f"{response.headers.get('Content-Range')!r}"))
                    # The server cannot continue this .part (it ended in a different place): start over.
                    _remove(part)
                    offset = 0
                    continue
                if size is not None and total is not None and total != size:
                    _remove(part)
                    raise ModelError(
                        N_("Models", "The download server offered a different file than expected for {label}; "
                                     "please try again later.").format(label=label),
                        detail=f"{url}: expected {size} bytes, server has {total}",
                    )
                if total is None:
                    total = size
                if total is not None and start == total:  # 416: the .part already held the whole file
                    return _finish(part, dest, label, expected_sha, size, _hash_file(part, start, cancelled), start)
                hasher = _start_hash(part, start, expected_sha, cancelled)
                done = _stream(response, part, start, total, limit, hasher, progress, cancelled, label, url,
                               minimum_rate)
        except httpx.HTTPError as exc:
            if deadline.lifted:  # the answer had begun: a broken line, which a resume can continue
                raise _stopped(label, url, exc) from exc
            raise unreachable_error(url, exc) from exc
        _check_complete(done, total, label, url)
        return _finish(part, dest, label, expected_sha, size, hasher, done)


def _body_range(response: Any, offset: int, label: str, url: str) -> tuple[int | None, int | None]:
    """Where the body starts in the file (0 when the server ignored the Range and sends it all, None
    when it cannot continue at ``offset``) and the file's total size when the server says it."""
    status = response.status_code
    if status == 416 and offset:
        total = _total_from_content_range(response.headers.get("Content-Range"))
        return (offset, total) if total == offset else (None, None)
    if status >= 300:
        raise _refusal(response, label, url)
    if status == 206:
        match = re.fullmatch(r"bytes (\d+)-(\d+)/(\d+|\*)", response.headers.get("Content-Range", "").strip())
        if not match or int(match.group(1)) != offset:
            return None, None
        return offset, None if match.group(3) == "*" else int(match.group(3))
    length = response.headers.get("Content-Length")
    return 0, int(length) if length and length.isdigit() else None


def _stream(
    response: Any,
    part: Path,
    offset: int,
    total: int | None,
    limit: int,
    hasher: Any,
    progress: ProgressCallback | None,
    cancelled: CancelCheck | None,
    label: str,
    url: str,
    minimum_rate: bounded_http.MinimumRate,
) -> int:
    """Append the response body to ``part`` (or rewrite it from 0) and return the bytes present.

    No more than ``limit`` bytes in all (:class:`bounded_http.TooLarge` past it). A full disk removes
    the ``.part``: its bytes are no use without room for the rest.
    """
    try:
        # Unbuffered: every write reaches the disk here, where its failure is caught, not at close.
        out = open(part, "ab" if offset else "wb", buffering=0)
    except OSError as exc:
        raise _save_error(exc, label, part.parent) from exc
    done = offset
    try:
        if progress:
            progress(done, total)
        for chunk in bounded_http.body_chunks(response, limit - offset, url, minimum_rate=minimum_rate):
            _check_cancel(cancelled)
            _write_all(out, chunk)
            if hasher is not None:
                hasher.update(chunk)
            done += len(chunk)
            if progress:
                progress(done, total)
        _check_cancel(cancelled)
        os.fsync(out.fileno())
    except OSError as exc:
        _close_quietly(out)
        if _disk_full(exc):
            _remove(part)
        raise _save_error(exc, label, part.parent) from exc
    except BaseException:
        _close_quietly(out)
        raise
    try:
        out.close()
    except OSError as exc:
        _remove(part)
        raise _save_error(exc, label, part.parent) from exc
    return done


def _bytes_shown(count: float) -> str:
    """A rate's bytes as people read them: "4 KB", "500 bytes"."""
    return f"{count / 1000:g} KB" if count >= 1000 else f"{count:g} bytes"


def _write_all(out: Any, chunk: bytes) -> None:
    view = memoryview(chunk)
    while view:
        written = out.write(view)
        view = view[written:]


def _close_quietly(out: Any) -> None:
    try:
        out.close()
    except OSError:
        pass


def _disk_full(exc: OSError) -> bool:
    return exc.errno in DISK_FULL_ERRNOS


def _stopped(label: str, url: str, exc: BaseException) -> ModelError:
    return ModelError(
        N_("Models", "The download of {label} stopped before it was complete; check the internet connection and "
                     "try again to continue where it stopped.").format(label=label),
        detail=f"{url}: {exc!r}",
    )


def _finish(
    part: Path, dest: Path, label: str, sha256: str | None, size: int | None, hasher: Any, done: int
) -> Path:
    """Check the finished ``.part`` and move it into place, or delete it when it is damaged."""
    if (size is not None and done != size) or (sha256 and hasher.hexdigest() != sha256):
        _remove(part)
        got = hasher.hexdigest() if hasher is not None else "not checked"
        raise _damaged(label, f"expected {size} bytes with SHA-256 {sha256}, got {done} bytes with SHA-256 {got}")
    try:
        os.replace(part, dest)
    except OSError as exc:
        raise _save_error(exc, label, dest.parent) from exc
    fsync_dir(dest.parent)
    return dest


def _damaged(label: str, detail: str) -> ModelError:
    return ModelError(
        N_("Models", "The download of {label} was damaged on the way, so VoxDesk deleted it; please try "
                     "again.").format(label=label),
        detail=detail,
    )


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


def _refusal(response: Any, label: str, url: str) -> ModelError:
    """The error for an HTTP error answer. A web server's 400 for plain HTTP on its TLS port is the
    address's mistake, and says so (its start is read, a few kB at most)."""
    import httpx

    if response.status_code == 400:
        try:
            # Its own few seconds: a download's deadline is lifted once the headers are in.
            with bounded_http.deadline_on_this_thread(bounded_http.Deadline(5.0)):
                start = bounded_http.read_body(response, 4096, url)
        except (bounded_http.LimitExceeded, httpx.HTTPError):
            start = b""  # too long or broken off: not the short page that says so
        problem = connection_problems.problem_of_answer(str(response.url), 400, start)
        if problem is not None:
            return ServerUnreachable(wrong_address_message(problem, str(response.url)), detail=f"{url}: HTTP 400")
    return _http_error(response.status_code, response.reason_phrase, label, url)


def _http_error(status: int, reason: str, label: str, url: str) -> ServerRefused:
    if status in (404, 410):
        message = (
            N_("Models", "The download server no longer offers {label}, so check for a VoxDesk update or import the "
                         "model from a file.").format(label=label)
        )
    else:
        message = N_("Models", "The download server refused to send {label} (error {code}); please try again "
                               "later.").format(label=label, code=status)
    return ServerRefused(message, detail=f"{url}: HTTP {status} {reason}")


def _save_error(exc: OSError, label: str, folder: Path) -> ModelError:
    return ModelError(write_error_message(exc, label, folder), detail=repr(exc))
