"""Real and hostile OpenAI-compatible Whisper servers on 127.0.0.1 for the server engine's tests.

``RealWhisperServer`` runs faster-whisper-server (from the package index, the test extra) as its own
process, serving a local CTranslate2 folder such as the tiny.en test weights. ``HostileServer`` is a
small http.server that answers the way broken servers do: a refused key, 500s, silence, HTML.
"""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from tests.helpers.http_server import serve_on_loopback, stop_serving


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class RealWhisperServer:
    """faster-whisper-server serving ``model_dir``; a context manager that waits until it answers."""

    def __init__(self, model_dir: Path, *, workers: int = 1, startup_seconds: float = 120.0):
        self.model_dir = Path(model_dir)
        self.workers = workers
        self.startup_seconds = startup_seconds
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "RealWhisperServer":
        env = dict(os.environ, OMP_NUM_THREADS="1")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "faster_whisper_server", str(self.model_dir), "--host", "127.0.0.1",
             "--port", str(self.port), "--workers", str(self.workers)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, start_new_session=True)
        self._wait_until_up()
        return self

    def _wait_until_up(self) -> None:
        import httpx

        deadline = time.monotonic() + self.startup_seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"faster-whisper-server exited: {self.process.stderr.read().decode()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/health", timeout=1.0).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.2)
        self.kill()
        raise RuntimeError("faster-whisper-server did not start in time")

    def kill(self) -> None:
        """Kill the server (and its worker processes) at once, as a crash or a pulled cable would."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)

    def __enter__(self) -> "RealWhisperServer":
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.kill()
        if self.process is not None and self.process.stderr is not None:
            self.process.stderr.close()


class HostileServer:
    """Answers every POST with ``status`` and ``body`` after ``delay`` seconds, or with ``answers``
    (status, JSON body) in turn, the last one again and again; GET /v1/models with ``models`` (404 when
    None). Counts the requests it got."""

    def __init__(self, *, status: int = 200, body: bytes | str | dict = b"", delay: float = 0.0,
                 content_type: str = "application/json", models: list[str] | None = None,
                 answers: list[tuple[int, dict]] | None = None):
        self.status, self.delay, self.content_type, self.models = status, delay, content_type, models
        self.body = json.dumps(body).encode() if isinstance(body, dict) else (
            body.encode() if isinstance(body, str) else body)
        self.answers = [(status, json.dumps(body).encode()) for status, body in answers or []]
        self.posts = 0
        self.authorizations: list[str | None] = []
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def __enter__(self) -> "HostileServer":
        self._httpd = serve_on_loopback(_handler(self))
        return self

    def __exit__(self, *_exc: object) -> None:
        stop_serving(self._httpd)


def _handler(server: HostileServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - base signature
            pass

        def do_GET(self) -> None:  # noqa: N802 - http.server naming
            if server.models is None or self.path != "/v1/models":
                self._send(404, b'{"detail": "Not Found"}', "application/json")
                return
            body = json.dumps({"object": "list", "data": [{"id": name, "object": "model"} for name in server.models]})
            self._send(200, body.encode(), "application/json")

        def do_POST(self) -> None:  # noqa: N802 - http.server naming
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            with server._lock:
                server.posts += 1
                server.authorizations.append(self.headers.get("Authorization"))
                answer = server.answers[min(server.posts, len(server.answers)) - 1] if server.answers else None
            status, body = answer or (server.status, server.body)
            time.sleep(server.delay)
            try:
                self._send(status, body, server.content_type)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up waiting

        def _send(self, status: int, body: bytes, content_type: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    return Handler
