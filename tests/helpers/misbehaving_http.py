"""A real HTTP server on 127.0.0.1 that answers the way hostile or broken servers do, and a way to run
a client in a child process whose memory peak and file-size limit the test controls.

Every answer is one ``Behaviour``: a body sent without end, one byte every few tenths of a second (of
the headers or of the body), a gzip or deflate bomb, or a fixed body. Each stops by itself: after
``stop_after_bytes`` bytes or ``stop_after_seconds`` seconds, whichever comes first, so a client
that never gives up still lets the test end.

    with MisbehavingServer(Behaviour.endless()) as server:
        ... server.url("/anything") ...
"""
from __future__ import annotations

import multiprocessing
import resource
import signal
import socket
import threading
import time
import zlib
from dataclasses import dataclass, field
from functools import lru_cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

from tests.helpers.http_server import serve_on_loopback, stop_serving

MB = 1024 * 1024


@dataclass(frozen=True)
class Behaviour:
    kind: str  # "endless", "trickle-body", "trickle-headers", "paced-body", "body"
    body: bytes = b""
    headers: tuple[tuple[str, str], ...] = ()
    status: int = 200
    interval: float = 0.0  # seconds between two trickled bytes (or paced pieces)
    piece: int = 1  # bytes sent at a time by "paced-body"
    stop_after_bytes: int = 1024 * MB
    stop_after_seconds: float = 20.0
    chunk: bytes = field(default=b"\0" * (64 * 1024), repr=False)

    @classmethod
    def endless(cls, *, stop_after_bytes: int = 1024 * MB) -> "Behaviour":
        """A chunked body of zeros that never ends (until the server's own limit)."""
        return cls("endless", stop_after_bytes=stop_after_bytes)

    @classmethod
    def fixed(cls, body: bytes, *, status: int = 200, content_type: str = "application/json",
              headers: tuple[tuple[str, str], ...] = ()) -> "Behaviour":
        return cls("body", body=body, status=status, headers=(("Content-Type", content_type), *headers))

    @classmethod
    def bomb(cls, encoding: str, decompressed_mb: int) -> "Behaviour":
        """A small body that decompresses to ``decompressed_mb`` MB of zeros (gzip or deflate)."""
        return cls("body", body=compressed_zeros(encoding, decompressed_mb),
                   headers=(("Content-Type", "application/json"), ("Content-Encoding", encoding)))

    @classmethod
    def trickle(cls, body: bytes, *, interval: float, headers_too: bool = False,
                stop_after_seconds: float = 20.0) -> "Behaviour":
        """A complete, valid answer sent one byte every ``interval`` seconds: the body only, or the
        status line and headers as well."""
        return cls("trickle-headers" if headers_too else "trickle-body", body=body, interval=interval,
                   stop_after_seconds=stop_after_seconds)

    @classmethod
    def paced(cls, body: bytes, *, piece: int, interval: float) -> "Behaviour":
        """A complete answer whose body is sent ``piece`` bytes at a time, ``interval`` seconds apart: a
        slow line that is still moving. The pauses can only grow on a busy computer, never shrink."""
        return cls("paced-body", body=body, piece=piece, interval=interval)


@lru_cache(maxsize=4)
def compressed_zeros(encoding: str, megabytes: int) -> bytes:
    wbits = 16 + zlib.MAX_WBITS if encoding == "gzip" else zlib.MAX_WBITS
    compressor = zlib.compressobj(9, zlib.DEFLATED, wbits)
    block = b"\0" * MB
    return b"".join(compressor.compress(block) for _ in range(megabytes)) + compressor.flush()


class MisbehavingServer:
    """Answers every GET and POST with its behaviour (or one of its ``files``); counts what it was asked."""

    def __init__(self, behaviour: Behaviour, files: dict[str, bytes] | None = None):
        """``files``: paths answered normally (a listing, say); every other path gets ``behaviour``."""
        self.behaviour = behaviour
        self.files = dict(files or {})
        self.requests = 0
        self.bytes_sent = 0
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def url(self, path: str = "") -> str:
        return self.base_url + path

    def __enter__(self) -> "MisbehavingServer":
        self._httpd = serve_on_loopback(_handler(self))
        return self

    def __exit__(self, *_exc: object) -> None:
        stop_serving(self._httpd)

    def _sent(self, count: int) -> None:
        with self._lock:
            self.bytes_sent += count


def _handler(server: MisbehavingServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - base signature
            pass

        def do_GET(self) -> None:  # noqa: N802 - http.server naming
            self._answer()

        def do_HEAD(self) -> None:  # noqa: N802 - http.server naming
            self._answer()

        def do_POST(self) -> None:  # noqa: N802 - http.server naming
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            self._answer()

        def _answer(self) -> None:
            with server._lock:
                server.requests += 1
            behaviour = server.behaviour
            path = self.path.split("?", 1)[0]
            if path in server.files:
                behaviour = Behaviour.fixed(server.files[path])
            started = time.monotonic()
            self.close_connection = True
            try:
                if behaviour.kind == "trickle-headers":
                    self._trickle(_head(behaviour.status, len(behaviour.body)) + behaviour.body, behaviour, started)
                    return
                if behaviour.kind == "endless":
                    self.wfile.write(_head(behaviour.status, None, (("Content-Type", "application/json"),)))
                    self._endless(behaviour, started)
                    return
                self.wfile.write(_head(behaviour.status, len(behaviour.body), behaviour.headers))
                if behaviour.kind in ("trickle-body", "paced-body"):
                    self._trickle(behaviour.body, behaviour, started)
                else:
                    self.wfile.write(behaviour.body)
                    server._sent(len(behaviour.body))
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up, as it should

        def _endless(self, behaviour: Behaviour, started: float) -> None:
            sent = 0
            frame = f"{len(behaviour.chunk):x}\r\n".encode() + behaviour.chunk + b"\r\n"
            while sent < behaviour.stop_after_bytes and time.monotonic() - started < behaviour.stop_after_seconds:
                self.wfile.write(frame)
                sent += len(behaviour.chunk)
                server._sent(len(behaviour.chunk))

        def _trickle(self, data: bytes, behaviour: Behaviour, started: float) -> None:
            for i in range(0, len(data), behaviour.piece):
                if time.monotonic() - started > behaviour.stop_after_seconds:
                    return
                piece = data[i:i + behaviour.piece]
                self.wfile.write(piece)
                self.wfile.flush()
                server._sent(len(piece))
                time.sleep(behaviour.interval)

    return Handler


def _head(status: int, length: int | None, headers: tuple[tuple[str, str], ...] = ()) -> bytes:
    lines = [f"HTTP/1.1 {status} Whatever"]
    lines += [f"{name}: {value}" for name, value in headers]
    lines.append(f"Content-Length: {length}" if length is not None else "Transfer-Encoding: chunked")
    lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# --- a client in a child process --------------------------------------------------------------


@dataclass(frozen=True)
class ChildOutcome:
    result: Any  # what the function returned, or None when it raised
    error: str | None  # "TypeName: message" of what it raised, or None
    error_type: str | None
    peak_rss_mb: float  # the child's resident-set peak (VmHWM)


def run_in_child(function: Callable[..., Any], *args: Any, file_size_limit: int | None = None,
                 timeout: float = 120.0) -> ChildOutcome:
    """Run ``function(*args)`` in a fresh process and report what it returned or raised, and the
    peak of its memory. ``file_size_limit``: RLIMIT_FSIZE in bytes, so a write past it fails with
    EFBIG the way a full disk fails (SIGXFSZ is ignored, as Python itself does)."""
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    process = context.Process(target=_child_main, args=(queue, function, args, file_size_limit))
    process.start()
    try:
        outcome = queue.get(timeout=timeout)
    finally:
        process.join(timeout=10)
        if process.is_alive():
            process.kill()
            process.join()
    return outcome


def _child_main(queue: Any, function: Callable[..., Any], args: tuple, file_size_limit: int | None) -> None:
    if file_size_limit is not None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_size_limit, file_size_limit))
    result, error, error_type = None, None, None
    try:
        result = function(*args)
    except BaseException as exc:  # noqa: BLE001 - reported to the test, whatever it is
        error, error_type = str(exc), type(exc).__name__
    queue.put(ChildOutcome(result, error, error_type, _peak_rss_mb()))


def _peak_rss_mb() -> float:
    """The peak resident set of this process's own memory. Not getrusage's ru_maxrss: Linux carries
    that over from the parent's memory at fork, across exec, so a large test process would count."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM in /proc/self/status")
