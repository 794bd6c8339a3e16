"""The engine process as VoxDesk sees it: started, written to, read from and stopped.

``EngineChild`` takes the engine process (``python -m desktop.engines.transcription.process.main``,
running the same ``desktop`` package as this process) that ``started_ahead`` started, or starts one,
reads its events and its log on threads of their own, and ends it politely or by force.
``isolated.IsolatedEngine`` decides what its events and its death mean.
"""
from __future__ import annotations

import atexit
import collections
import logging
import queue
import subprocess
import threading
import weakref

import numpy as np

from desktop.engines.transcription.process import protocol, started_ahead

log = logging.getLogger(__name__)

CLOSE_WAIT_SECONDS = 5.0
POLL_SECONDS = 0.05


SILENCE: dict = {}  # no event within POLL_SECONDS


class EngineChild:
    """The engine process and the threads that read its events and its log."""

    _live: "weakref.WeakSet[EngineChild]" = weakref.WeakSet()

    def __init__(self) -> None:
        self.popen = started_ahead.take()
        self.pid = self.popen.pid
        self.events: queue.Queue[dict | None] = queue.Queue()
        self.log_tail: collections.deque[str] = collections.deque(maxlen=25)
        self.fatal_error = ""  # faulthandler's first line after a crash; the stack dump follows it
        self._write_lock = threading.Lock()
        threading.Thread(target=self._read_events, name=f"engine {self.pid} events", daemon=True).start()
        self._log_reader = threading.Thread(target=self._read_log, name=f"engine {self.pid} log", daemon=True)
        self._log_reader.start()
        EngineChild._live.add(self)

    def _read_events(self) -> None:
        try:
            while (message := protocol.read_message(self.popen.stdout)) is not None:
                self.events.put(message)
        except (OSError, ValueError) as exc:
            log.warning("the engine process sent something unreadable: %s", exc)
        self.events.put(None)

    def _read_log(self) -> None:
        for raw in iter(self.popen.stderr.readline, b""):
            line = raw.decode("utf-8", "replace").rstrip()
            self.log_tail.append(line)
            if line.startswith("Fatal Python error"):
                self.fatal_error = line
            log.debug("engine %d: %s", self.pid, line)

    def next_event(self) -> dict | None:
        """The next event, None when the events have ended, or SILENCE when none came for a moment."""
        try:
            return self.events.get(timeout=POLL_SECONDS)
        except queue.Empty:
            return SILENCE

    def send(self, message: dict, *, blocking: bool = True) -> bool:
        """Write a small request; False when another write holds the pipe and ``blocking`` is False."""
        if not self._write_lock.acquire(blocking=blocking):
            return False
        try:
            protocol.write_message(self.popen.stdin, message)
        except OSError:
            pass  # the child is gone: its events end, and the waiting side reports why
        finally:
            self._write_lock.release()
        return True

    def send_audio(self, message: dict, audio: np.ndarray) -> None:
        """Write a request with its samples from a thread of its own: a stopped child cannot read
        38 MB, and the waiting side must still see the time pass."""
        def write() -> None:
            with self._write_lock:
                try:
                    protocol.write_message(self.popen.stdin, message, audio)
                except OSError:
                    pass

        threading.Thread(target=write, name=f"engine {self.pid} audio", daemon=True).start()

    @property
    def running(self) -> bool:
        return self.popen.poll() is None

    def kill(self) -> None:
        if self.running:
            self.popen.kill()  # SIGKILL ends a stopped or stuck process too
        self._reap()

    def stop(self) -> None:
        """End it the polite way (the model closes), killing it when that takes too long."""
        if self.running:
            self.send({"op": "close"}, blocking=False)
            try:
                self.popen.stdin.close()
            except OSError:
                pass
            try:
                self.popen.wait(CLOSE_WAIT_SECONDS)
            except subprocess.TimeoutExpired:
                log.warning("the engine process %d did not close in time; stopping it", self.pid)
        self.kill()

    def wait_for_exit(self) -> None:
        """After its events ended: the exit status (the kernel closes the pipes a moment before)."""
        try:
            self.popen.wait(CLOSE_WAIT_SECONDS)
        except subprocess.TimeoutExpired:
            log.warning("the engine process %d closed its pipe but kept running; stopping it", self.pid)
        self.kill()

    def _reap(self) -> None:
        self.popen.wait()
        self._log_reader.join(1.0)  # the last lines of the log, for the report
        for stream in (self.popen.stdin, self.popen.stdout, self.popen.stderr):
            try:
                stream.close()
            except OSError:
                pass
        EngineChild._live.discard(self)


@atexit.register
def _stop_every_child() -> None:
    for child in list(EngineChild._live):
        child.kill()
