"""A small real HTTP server on 127.0.0.1 for download tests.

It serves a dict of ``path -> bytes`` and can:

- answer ``Range`` requests with 206 (or ignore them, like a server without Range support),
- drop the connection after a number of body bytes (``drop_after``), to simulate a broken line,
- redirect one path to another (``redirects``), the way a model hub sends files to its CDN,
- record every request, so a test can check what was asked and how many bytes were sent.

Usage::

    with FileServer({"/a.bin": data}) as server:
        download_file(server.url("/a.bin"), dest)
        assert server.requests_for("/a.bin")[0].status == 200
"""
from __future__ import annotations

import re
import socket
import ssl
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def serve_on_loopback(handler: type[BaseHTTPRequestHandler]) -> ThreadingHTTPServer:
    """``handler`` served on 127.0.0.1, on a port of its own, from a daemon thread; stop with stop_serving."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True).start()
    return httpd


def stop_serving(httpd: ThreadingHTTPServer) -> None:
    httpd.shutdown()
    httpd.server_close()


@dataclass
class RequestRecord:
    path: str
    range: str | None  # the Range header as sent, or None
    status: int = 0
    bytes_sent: int = 0  # body bytes actually written to the socket


class FileServer:
    """A threaded HTTP server on 127.0.0.1 and a free port; use it as a context manager."""

    def __init__(
        self,
        files: dict[str, bytes] | None = None,
        *,
        range_support: bool = True,
        redirects: dict[str, str] | None = None,
        tls: ssl.SSLContext | None = None,
    ) -> None:
        """``tls``: a server-side context, to serve HTTPS instead of HTTP."""
        self.files: dict[str, bytes] = dict(files or {})
        self.redirects: dict[str, str] = dict(redirects or {})
        self.range_support = range_support
        self.tls = tls
        # Close the connection after this many body bytes of the next responses (None: never).
        self.drop_after: int | None = None
        self.requests: list[RequestRecord] = []
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # --- lifecycle ---

    def start(self) -> "FileServer":
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _make_handler(self))
        if self.tls is not None:
            self._httpd.socket = self.tls.wrap_socket(self._httpd.socket, server_side=True)
        self._httpd.daemon_threads = True
        # A short poll interval keeps shutdown() quick between tests.
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, args=(0.05,), name="test-http", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None

    def __enter__(self) -> "FileServer":
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    # --- addresses and records ---

    @property
    def port(self) -> int:
        assert self._httpd is not None, "server not started"
        return self._httpd.server_address[1]

    @property
    def base_url(self) -> str:
        return f"{'https' if self.tls else 'http'}://127.0.0.1:{self.port}"

    def url(self, path: str) -> str:
        return self.base_url + path

    def requests_for(self, path: str) -> list[RequestRecord]:
        with self._lock:
            return [r for r in self.requests if r.path == path]

    def request_count(self, path: str | None = None) -> int:
        with self._lock:
            return len(self.requests) if path is None else sum(r.path == path for r in self.requests)

    def bytes_sent(self, path: str | None = None) -> int:
        with self._lock:
            return sum(r.bytes_sent for r in self.requests if path is None or r.path == path)

    def _record(self, record: RequestRecord) -> None:
        with self._lock:
            self.requests.append(record)


def closed_port_url(path: str = "/") -> str:
    """A URL on 127.0.0.1 where nothing listens, so connecting is refused at once."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}{path}"


def _make_handler(server: FileServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - base signature
            pass  # keep test output clean

        def do_GET(self) -> None:  # noqa: N802 - http.server naming
            path = self.path.split("?", 1)[0]
            record = RequestRecord(path=path, range=self.headers.get("Range"))
            server._record(record)

            if path in server.redirects:
                record.status = 302
                self.send_response(302)
                self.send_header("Location", server.redirects[path])
                self.send_header("Content-Length", "0")
                self.end_headers()
                return

            body = server.files.get(path)
            if body is None:
                record.status = 404
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return

            total = len(body)
            start, end = 0, total - 1
            status = 200
            match = re.fullmatch(r"bytes=(\d+)-(\d*)", record.range or "")
            if server.range_support and match:
                start = int(match.group(1))
                end = min(int(match.group(2)), total - 1) if match.group(2) else total - 1
                if start >= total or start > end:
                    record.status = 416
                    self.send_response(416)
                    self.send_header("Content-Range", f"bytes */{total}")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                status = 206

            payload = body[start : end + 1]
            record.status = status
            self.send_response(status)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(len(payload)))
            if server.range_support:
                self.send_header("Accept-Ranges", "bytes")
            if status == 206:
                self.send_header("Content-Range", f"bytes {start}-{end}/{total}")
            self.end_headers()

            limit = server.drop_after
            if limit is not None and limit < len(payload):
                payload = payload[:limit]
                self.close_connection = True
            try:
                for i in range(0, len(payload), 64 * 1024):
                    piece = payload[i : i + 64 * 1024]
                    self.wfile.write(piece)
                    record.bytes_sent += len(piece)
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True  # the client hung up (a cancelled download)

    return Handler


class SilentServer:
    """Accepts every connection on 127.0.0.1 and never answers, holding each open until the client
    gives up: a hung server. Counts the connections, which is how many times a client waited."""

    def __init__(self) -> None:
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(0.05)
        self._held: list[socket.socket] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._accept, name="test-silent", daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._listener.getsockname()[1]}"

    @property
    def connections(self) -> int:
        with self._lock:
            return len(self._held)

    def _accept(self) -> None:
        while not self._stopping.is_set():
            try:
                conn, _ = self._listener.accept()
            except (TimeoutError, socket.timeout):
                continue
            except OSError:
                return
            with self._lock:
                self._held.append(conn)

    def __enter__(self) -> "SilentServer":
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stopping.set()
        self._thread.join(timeout=10)
        self._listener.close()
        with self._lock:
            for conn in self._held:
                conn.close()


class RedirectLoopServer:
    """Answers every GET, HEAD and POST with a redirect between ``/path`` and ``/path/``, for ever: a
    misconfigured proxy. Keeps the Authorization header of each request."""

    def __init__(self, status: int = 307) -> None:
        self.status = status
        self.authorizations: list[str | None] = []
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def url(self, path: str) -> str:
        return self.base_url + path

    @property
    def requests(self) -> int:
        with self._lock:
            return len(self.authorizations)

    def __enter__(self) -> "RedirectLoopServer":
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - base signature
                pass

            def _redirect(self) -> None:
                with server._lock:
                    server.authorizations.append(self.headers.get("Authorization"))
                self.rfile.read(int(self.headers.get("Content-Length", 0) or 0))
                path = self.path.split("?", 1)[0]
                self.send_response(server.status)
                if path == "/":
                    path = "/loop"
                self.send_header("Location", path[:-1] if path.endswith("/") else path + "/")
                self.send_header("Content-Length", "0")
                self.end_headers()

            do_GET = do_HEAD = do_POST = _redirect  # noqa: N815 - http.server naming

        self._httpd = serve_on_loopback(Handler)
        return self

    def __exit__(self, *_exc: object) -> None:
        stop_serving(self._httpd)


# nginx's answer, in plain HTTP, to a plain request on the port where it expects TLS.
NGINX_PLAIN_ON_TLS = (b"<html>\r\n<head><title>400 The plain HTTP request was sent to HTTPS port</title></head>\r\n"
                      b"<body>\r\n<center><h1>400 Bad Request</h1></center>\r\n<center>The plain HTTP request was "
                      b"sent to HTTPS port</center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n")
