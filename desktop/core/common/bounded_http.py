"""The one way VoxDesk reads from another computer: every exchange has a byte limit, a deadline and a
JSON depth limit, so no server, mirror or proxy can fill the memory or the disk, or keep a job waiting.

- Bytes are counted as they arrive, *after* decompression, and reading stops at the limit chosen for
  what is read (a model file: its expected size; a listing or a server's answer: a few MB), so a
  gzip bomb or an endless body costs no more than the limit.
- The deadline is for the whole exchange, headers and body together: every read and write on the
  connection waits at most until the deadline, not only a fixed time between two reads, so a server
  sending one byte every few seconds is stopped in time.
- A body with no deadline (a large model file, which takes as long as the line needs) has a minimum
  rate instead (:class:`MinimumRate`): after a grace period, a body that stays slower than it, such
  as a few bytes a second sent for ever, is cut.
- JSON is parsed only after a linear scan has checked its nesting, so a deep answer is refused with
  a sentence instead of a RecursionError.
- TLS is checked against the operating system's certificate store (``truststore``), so a company's
  own root certificate, installed the usual way, is trusted; proxies come from the environment
  (``https_proxy``, ``no_proxy``…), as everywhere on Linux.

Callers turn :class:`TooLarge`, :class:`TooSlow` (:class:`RateTooLow`), :class:`TooDeep` and :class:`Undecodable` into the sentence that fits
what they were reading. httpx is imported inside functions, like every library not needed at start.
"""
from __future__ import annotations

import json
import re
import ssl
import threading
import time
import urllib.parse
import urllib.request
import zlib
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterator

USER_AGENT = "VoxDesk"
LISTING_LIMIT = 8 * 1024 * 1024  # a model listing of a few thousand files is well under 1 MB
JSON_DEPTH_LIMIT = 64  # every answer VoxDesk reads nests fewer than 10 levels


class LimitExceeded(Exception):
    """An exchange went past one of its limits; ``detail`` says which, for the log."""

    def __init__(self, detail: str):
        super().__init__(detail)
        self.detail = detail


class TooLarge(LimitExceeded):
    """The body (decompressed) is longer than the limit chosen for it."""


class TooSlow(LimitExceeded):
    """The exchange did not finish before its deadline."""


class RateTooLow(TooSlow):
    """A body stayed slower than its :class:`MinimumRate`."""


class TooDeep(LimitExceeded, ValueError):
    """JSON nested deeper than :data:`JSON_DEPTH_LIMIT` (a ValueError, like any JSON that cannot be read)."""


# --- the deadline ------------------------------------------------------------------------------

_exchange = threading.local()  # the deadline of the exchange running on this thread, if any


class Deadline:
    """The moment by which an exchange must be over."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.at = time.monotonic() + seconds

    def remaining(self) -> float:
        return self.at - time.monotonic()

    def lift(self) -> None:
        """No deadline from now on (a large file's body: its size is its limit, and the gap between reads)."""
        self.at = float("inf")

    @property
    def lifted(self) -> bool:
        return self.at == float("inf")

    def passed(self) -> bool:
        return self.remaining() <= 0


@dataclass(frozen=True)
class MinimumRate:
    """At least ``bytes_per_second``, measured over each period of ``seconds``; the first period is the
    grace a connection gets to get going."""

    bytes_per_second: float
    seconds: float

    def start(self, clock: Any = time.monotonic) -> "RateMeter":
        return RateMeter(self, clock)


class RateMeter:
    """Counts a body's bytes as they arrive and raises :class:`RateTooLow` at the end of a period that
    fell short. Each period is judged on its own: a download that was fast and then trickles is cut
    as well, which an average since the start would not do for hours."""

    def __init__(self, rate: MinimumRate, clock: Any = time.monotonic):
        self.rate = rate
        self._clock = clock
        self._period_start = clock()
        self._period_bytes = 0

    def received(self, count: int) -> None:
        self._period_bytes += count
        now = self._clock()
        elapsed = now - self._period_start
        if elapsed < self.rate.seconds:
            return
        if self._period_bytes < self.rate.bytes_per_second * elapsed:
            raise RateTooLow(f"{self._period_bytes} bytes in {elapsed:.1f} s, at least "
                             f"{self.rate.bytes_per_second:g} a second expected")
        self._period_start, self._period_bytes = now, 0


@contextmanager
def deadline_on_this_thread(deadline: Deadline | None) -> Iterator[None]:
    """Every read and write this thread makes on a connection of :func:`client` ends by ``deadline``."""
    previous = getattr(_exchange, "deadline", None)
    _exchange.deadline = deadline
    try:
        yield
    finally:
        _exchange.deadline = previous


def _clipped(timeout: float | None) -> float | None:
    """``timeout`` shortened to what is left of this thread's deadline."""
    deadline: Deadline | None = getattr(_exchange, "deadline", None)
    if deadline is None:
        return timeout
    left = deadline.remaining()
    if left <= 0:
        import httpcore

        raise httpcore.ReadTimeout(f"the deadline of {deadline.seconds:g} s has passed")
    return left if timeout is None else min(timeout, left)


def _deadline_backend(inner: Any) -> Any:
    """An httpcore network backend whose connections wait no longer than the thread's deadline."""
    import httpcore

    class DeadlineStream(httpcore.NetworkStream):
        def __init__(self, stream: Any):
            self._stream = stream

        def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
            return self._stream.read(max_bytes, _clipped(timeout))

        def write(self, buffer: bytes, timeout: float | None = None) -> None:
            self._stream.write(buffer, _clipped(timeout))

        def close(self) -> None:
            self._stream.close()

        def start_tls(self, ssl_context: ssl.SSLContext, server_hostname: str | None = None,
                      timeout: float | None = None) -> Any:
            return DeadlineStream(self._stream.start_tls(ssl_context, server_hostname, _clipped(timeout)))

        def get_extra_info(self, info: str) -> Any:
            return self._stream.get_extra_info(info)

    class DeadlineBackend(httpcore.NetworkBackend):
        def connect_tcp(self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
                        socket_options: Any = None) -> Any:
            return DeadlineStream(inner.connect_tcp(host, port, _clipped(timeout), local_address, socket_options))

        def connect_unix_socket(self, path: str, timeout: float | None = None, socket_options: Any = None) -> Any:
            return DeadlineStream(inner.connect_unix_socket(path, _clipped(timeout), socket_options))

        def sleep(self, seconds: float) -> None:
            inner.sleep(seconds)

    return DeadlineBackend()


# --- the client --------------------------------------------------------------------------------


def trusted_context() -> ssl.SSLContext:
    """TLS checked against the operating system's store, where IT installs a company's root certificate."""
    import truststore

    return truststore.SSLContext(ssl.PROTOCOL_TLS_CLIENT)


def proxy_for(url: str) -> str | None:
    """The proxy the environment names for ``url`` (``http_proxy``, ``https_proxy``, ``no_proxy``), or None."""
    parts = urllib.parse.urlsplit(url)
    proxies = urllib.request.getproxies()
    proxy = proxies.get(parts.scheme) or proxies.get("all")
    if not proxy or (parts.hostname and urllib.request.proxy_bypass(parts.hostname)):
        return None
    return proxy


def client(url: str, *, connect_seconds: float, read_seconds: float, follow_redirects: bool,
           headers: dict[str, str] | None = None, base_url: str = "", max_connections: int = 4) -> Any:
    """An ``httpx.Client`` for the host of ``url`` whose connections keep this thread's deadline.

    Use it through :func:`exchange` and :func:`read_body`, never ``.get()`` or ``.json()`` directly:
    those read a body whole.
    """
    import httpx

    transport = httpx.HTTPTransport(verify=trusted_context(), proxy=proxy_for(url), trust_env=False,
                                    limits=httpx.Limits(max_connections=max_connections,
                                                        max_keepalive_connections=max_connections))
    _wrap_network_backend(transport)
    return httpx.Client(base_url=base_url,
                        headers={"User-Agent": USER_AGENT, "Accept-Encoding": ACCEPTED_ENCODINGS, **(headers or {})},
                        transport=transport, trust_env=False, follow_redirects=follow_redirects,
                        timeout=httpx.Timeout(read_seconds, connect=min(connect_seconds, read_seconds)))


def _wrap_network_backend(transport: Any) -> None:
    """Give the transport's connection pool the deadline backend (:func:`_deadline_backend`).

    The one private API VoxDesk uses, on purpose. httpcore's network backend is public (a
    ``ConnectionPool(network_backend=…)``), but httpx's ``HTTPTransport`` does not pass one through
    (encode/httpx pull request 3749 proposes it), and nothing public reaches every read: the per-request
    ``timeout`` extension is read once per phase (a trickle of headers resets no clock), the
    ``network_stream`` extension comes only with the headers, and socket options time single reads. A
    transport of VoxDesk's own over the public ``ConnectionPool`` would copy far more of httpx's
    private behaviour (its request and response conversion, its exception mapping, its proxies).
    So the pool httpx built is reached here, pyproject.toml keeps httpx to the versions that have it,
    and a version without it fails here, loudly, instead of reading without a deadline.
    """
    pool = getattr(transport, "_pool", None)
    if pool is None or not hasattr(pool, "_network_backend"):
        import httpx

        raise RuntimeError(f"httpx {httpx.__version__}: the transport has no connection pool with a network "
                           "backend to keep the deadline; bounded_http.client needs updating")
    pool._network_backend = _deadline_backend(pool._network_backend)


@contextmanager
def exchange(http: Any, method: str, url: str, *, deadline: Deadline | None, **kwargs: Any) -> Iterator[Any]:
    """The streamed response of one request, its headers and body read by ``deadline``.

    Raises :class:`TooSlow` when the deadline passes, and httpx's own errors for everything else.
    """
    import httpx

    with deadline_on_this_thread(deadline):
        try:
            with http.stream(method, url, **kwargs) as response:
                yield response
        except httpx.TimeoutException as exc:
            if deadline is not None and deadline.passed():
                raise TooSlow(f"{url}: no complete answer within {deadline.seconds:g} s") from exc
            raise


class Undecodable(LimitExceeded, ValueError):
    """A compressed body that does not decompress, or in an encoding VoxDesk did not ask for."""


CHUNK = 64 * 1024
ACCEPTED_ENCODINGS = "gzip, deflate"  # decompressed here, a chunk at a time


REDIRECT_STATUSES = (301, 302, 303, 307, 308)
MAX_REDIRECTS = 10


@contextmanager
def fetch(url: str, *, deadline: Deadline | None, connect_seconds: float, read_seconds: float,
          method: str = "GET", headers: dict[str, str] | None = None, came_from: tuple[str, ...] = ()) -> Iterator[Any]:
    """The streamed response for ``url`` (a GET or HEAD), redirects followed one hop at a time, each
    through the proxy the environment names for its own host, as urllib does; at most
    :data:`MAX_REDIRECTS` of them, to http or https only. A redirect back to an address already asked
    (or to one of ``came_from``, those asked before ``url``) is a loop: ``httpx.TooManyRedirects`` at
    once, not after ten more requests. Raises like :func:`exchange`."""
    import httpx

    visited = {*came_from}
    for _ in range(MAX_REDIRECTS + 1):
        if url in visited:
            raise httpx.TooManyRedirects(f"redirected in a loop, back to {url[:300]!r}")
        visited.add(url)
        with client(url, connect_seconds=connect_seconds, read_seconds=read_seconds, follow_redirects=False,
                    headers=headers) as http:
            with exchange(http, method, url, deadline=deadline) as response:
                location = response.headers.get("Location")
                if response.status_code not in REDIRECT_STATUSES or not location:
                    yield response
                    return
                url = urllib.parse.urljoin(str(response.url), location)
                if urllib.parse.urlsplit(url).scheme not in ("http", "https"):
                    raise httpx.UnsupportedProtocol(f"redirected to {location[:300]!r}")
    raise httpx.TooManyRedirects(f"more than {MAX_REDIRECTS} redirects, the last to {url[:300]!r}")


def body_chunks(response: Any, limit: int, what: str = "", *,
                minimum_rate: MinimumRate | None = None) -> Iterator[bytes]:
    """The body as it arrives, decompressed, with :class:`TooLarge` raised once it passes ``limit`` bytes.

    Decompression gives out at most a chunk at a time, so a small body that would inflate to
    gigabytes costs no more than ``limit`` and a chunk. ``minimum_rate``: :class:`RateTooLow` once
    the bytes arriving (before decompression) stay slower than it, from the first chunk asked for.
    """
    what = what or str(response.url)
    encoding = response.headers.get("Content-Encoding", "identity").strip().lower()
    announced = response.headers.get("Content-Length", "")
    if encoding == "identity" and announced.isdigit() and int(announced) > limit:
        raise TooLarge(f"{what}: {announced} bytes announced, at most {limit} expected")
    received = 0
    raw = response.iter_raw()
    if minimum_rate is not None:
        raw = _metered(raw, minimum_rate.start())
    for chunk in _decoded(raw, encoding, what):  # as it arrives
        received += len(chunk)
        if received > limit:
            raise TooLarge(f"{what}: more than {limit} bytes")
        yield chunk


def _metered(raw: Iterator[bytes], meter: RateMeter) -> Iterator[bytes]:
    for data in raw:
        meter.received(len(data))
        yield data


def _decoded(raw: Iterator[bytes], encoding: str, what: str) -> Iterator[bytes]:
    if encoding == "identity":
        yield from raw
        return
    if encoding not in ("gzip", "x-gzip", "deflate"):
        raise Undecodable(f"{what}: Content-Encoding {encoding!r} was not asked for")
    # gzip and zlib streams are told apart by their header; "deflate" is sometimes sent raw.
    inflater = zlib.decompressobj(zlib.MAX_WBITS | 32)
    started = False
    for data in raw:
        while data:
            try:
                out = inflater.decompress(data, CHUNK)
            except zlib.error as exc:
                if started or encoding != "deflate":
                    raise Undecodable(f"{what}: {exc}") from exc
                inflater = zlib.decompressobj(-zlib.MAX_WBITS)
                continue
            started = True
            if out:
                yield out
            if inflater.eof:
                return  # anything after the end of the stream is not part of the body
            data = inflater.unconsumed_tail


def read_body(response: Any, limit: int, what: str = "") -> bytes:
    """The whole body, at most ``limit`` bytes after decompression (else :class:`TooLarge`)."""
    return b"".join(body_chunks(response, limit, what))


@dataclass(frozen=True)
class Reply:
    """A response read whole within its limits: what the rest of VoxDesk looks at."""

    status_code: int
    headers: Any  # httpx.Headers: case-insensitive
    content: bytes

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", errors="replace")

    def json(self) -> Any:
        return parse_json(self.content)


# --- JSON --------------------------------------------------------------------------------------

# What the depth scan drops: a JSON string with its escapes (up to its closing quote or the end of
# the text), or a run of anything but brackets. Possessive, so every byte is looked at once: an
# unterminated string (invalid JSON, which json.loads then refuses) cannot make the scan start over
# at each of its quotes.
_NOT_A_BRACKET = re.compile(rb'"(?:[^"\\]++|\\.?)*+"?|[^"\[\]{}]++', re.DOTALL)


def nesting_depth(body: bytes) -> int:
    """How deep the arrays and objects of a JSON text nest (brackets inside strings do not count).
    Linear, and in C throughout: strings removed, the brackets kept, their running count summed."""
    import numpy as np

    brackets = np.frombuffer(_NOT_A_BRACKET.sub(b"", body), dtype=np.uint8)
    if not brackets.size:
        return 0
    steps = np.where((brackets == ord("[")) | (brackets == ord("{")), 1, -1).astype(np.int32)
    return max(0, int(np.cumsum(steps).max()))


def parse_json(body: bytes | str, *, max_depth: int = JSON_DEPTH_LIMIT) -> Any:
    """``json.loads`` after checking the nesting: :class:`TooDeep` (a ValueError) beyond ``max_depth``."""
    raw = body.encode("utf-8", errors="surrogatepass") if isinstance(body, str) else body
    depth = nesting_depth(raw)
    if depth > max_depth:
        raise TooDeep(f"JSON nested {depth} levels deep, at most {max_depth} expected")
    return json.loads(raw)


# --- what went wrong ---------------------------------------------------------------------------


def untrusted_certificate(exc: BaseException) -> bool:
    """Whether ``exc`` (or what caused it) is a certificate this computer does not trust."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, ssl.SSLCertVerificationError) or \
                isinstance(getattr(current, "reason", None), ssl.SSLCertVerificationError):
            return True
        current = current.__cause__ or current.__context__
    return False
