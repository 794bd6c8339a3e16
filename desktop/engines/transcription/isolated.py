"""A Whisper engine whose model lives in a child process, so that a crash or a hang there costs a
retry instead of the window, the queue and the user's unsaved edits.

``IsolatedEngine`` implements ``WhisperEngine``: the Transcriber uses it like any engine, and the child
(``engine_process``) runs the real engine from ``loading.load_engine``, keeping the model loaded
between files. The child is started again, lazily, after it was stopped.

- Crash (segfault, abort) or no event for ``hang_seconds``: on the GPU a GpuError caused by a
  ProcessCrash, which the GPU fallback answers by finishing on the CPU and marking the GPU unusable;
  on the CPU a plain sentence.
- Cancel: asked politely, then the child is killed ``CANCEL_GRACE_SECONDS`` later, so a job stops
  within a second even inside a library call.
"""
from __future__ import annotations

import atexit
import collections
import itertools
import logging
import os
import queue
import signal
import subprocess
import sys
import threading
import time
import warnings
import weakref
from pathlib import Path
from typing import Callable

import numpy as np

import desktop
from desktop.core.common.errors import Cancelled, UserFacingError
from desktop.core.common.i18n import N_
from desktop.core.gpu.fallback import ProcessCrash
from desktop.core.transcription.whisper_models import LocalModel
from desktop.engines.transcription import engine_protocol as protocol
from desktop.engines.transcription.base import (
    CancelCheck,
    EngineResult,
    GpuError,
    ProgressCallback,
    SegmentCallback,
    TranscribeOptions,
)

log = logging.getLogger(__name__)

DEFAULT_HANG_SECONDS = 300.0  # no event for this long means hung; a big model loads on a slow CPU within it
CANCEL_GRACE_SECONDS = 0.5  # a cancel the engine notices by then keeps the model loaded
CLOSE_WAIT_SECONDS = 5.0
_POLL_SECONDS = 0.05

GPU_STOPPED = N_("Engine", "The graphics driver stopped responding; VoxDesk carries on with the processor (CPU).")
ENGINE_CRASHED = N_("Engine", "The transcription engine stopped unexpectedly. Try the file again; if it happens "
                              "again, choose a smaller model in Settings.")
ENGINE_HUNG = N_("Engine", "The transcription engine stopped responding for {seconds} seconds, so VoxDesk stopped "
                           "it. Try the file again; if it happens again, choose a smaller model in Settings.")
ENGINE_KILLED = N_("Engine", "The system stopped the transcription engine, most likely because the computer ran "
                             "out of memory; close other programs or choose a smaller model.")


_SILENCE: dict = {}  # no event within _POLL_SECONDS


def _next_event(child: "_Child") -> dict | None:
    """The child's next event, None when its events have ended, or _SILENCE."""
    try:
        return child.events.get(timeout=_POLL_SECONDS)
    except queue.Empty:
        return _SILENCE


class _Child:
    """The engine process and the threads that read its events and its log."""

    _live: "weakref.WeakSet[_Child]" = weakref.WeakSet()

    def __init__(self) -> None:
        env = dict(os.environ)
        # The child runs the very code the parent runs, wherever the current folder is.
        package_root = str(Path(desktop.__file__).resolve().parent.parent)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
        # No PR_SET_PDEATHSIG: Linux sends it when the *thread* that started the child ends, and jobs
        # start it from worker threads. The child exits when its stdin closes instead.
        self.popen = subprocess.Popen(
            [sys.executable, "-m", "desktop.engines.transcription.engine_process"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
        )
        self.pid = self.popen.pid
        self.events: queue.Queue[dict | None] = queue.Queue()
        self.log_tail: collections.deque[str] = collections.deque(maxlen=25)
        self.fatal_error = ""  # faulthandler's first line after a crash; the stack dump follows it
        self._write_lock = threading.Lock()
        threading.Thread(target=self._read_events, name=f"engine {self.pid} events", daemon=True).start()
        self._log_reader = threading.Thread(target=self._read_log, name=f"engine {self.pid} log", daemon=True)
        self._log_reader.start()
        _Child._live.add(self)

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
        _Child._live.discard(self)


@atexit.register
def _stop_every_child() -> None:
    for child in list(_Child._live):
        child.kill()


class IsolatedEngine:
    """A WhisperEngine run by ``engine_process``; see the module's description."""

    def __init__(self, model: LocalModel, engine: str, device: str, *, batch_size: int | None = None,
                 hang_seconds: float = DEFAULT_HANG_SECONDS):
        self.name = engine
        self.device = device  # what the caller sees, and which failure sentence fits
        self.model_name = model.name
        self._model = model
        self._load_on = device
        self._batch_size = batch_size
        self.hang_seconds = hang_seconds  # silence that counts as hung; may change between requests
        self._child: _Child | None = None
        self._info: dict = {}
        self._ids = itertools.count(1)

    def __getattr__(self, name: str):
        # What the loaded engine told about itself (e.g. a batch size), beyond the protocol's three.
        info = self.__dict__.get("_info", {})
        if name in info:
            return info[name]
        raise AttributeError(name)

    @property
    def pid(self) -> int | None:
        """The engine process's id while it runs."""
        return self._child.pid if self._child is not None and self._child.running else None

    def load(self, cancelled: CancelCheck | None = None) -> "IsolatedEngine":
        """Start the engine process and load the model in it, unless that is done already."""
        if self._child is not None and self._child.running:
            return self
        self.close()
        child = _Child()
        job = next(self._ids)
        child.send({"op": "load", "id": job, "model": protocol.encode_model(self._model), "engine": self.name,
                    "device": self._load_on, "batch_size": self._batch_size})
        try:
            reply = self._await(child, job, cancelled, lambda event: None)
        except BaseException:
            child.kill()  # it answered, but holds no model: of no use
            raise
        self._info = reply.get("info", {})
        self._child = child
        weakref.finalize(self, child.kill)  # an engine dropped without close() takes its process along
        return self

    def transcribe(
        self,
        audio: np.ndarray,
        options: TranscribeOptions,
        *,
        on_progress: ProgressCallback | None = None,
        on_segment: SegmentCallback | None = None,
        cancelled: CancelCheck | None = None,
    ) -> EngineResult:
        self.load(cancelled)
        child = self._child
        job = next(self._ids)
        child.send_audio({"op": "transcribe", "id": job, "options": protocol.encode_options(options)}, audio)

        def on_event(event: dict) -> None:
            kind = event["ev"]
            if kind == "progress" and on_progress is not None:
                on_progress(event["fraction"])
            elif kind == "segment" and on_segment is not None:
                on_segment(protocol.decode_segment(event["segment"]))
            elif kind == "warning":
                warnings.warn(event["text"], RuntimeWarning, stacklevel=2)  # for SlowPathWarnings here

        reply = self._await(child, job, cancelled, on_event)
        self._info.update(reply.get("info", {}))
        return protocol.decode_result(reply["result"])

    def close(self) -> None:
        child, self._child = self._child, None
        if child is not None:
            child.stop()

    # -- waiting for the child -----------------------------------------------------------------

    def _await(self, child: _Child, job: int, cancelled: CancelCheck | None,
               on_event: Callable[[dict], None]) -> dict:
        """The final event of request ``job``, passing the others to ``on_event``.

        Whatever ends the wait before that event (a cancel, a crash, an exception in ``on_event``)
        leaves the child killed, for the next request to start a fresh one.
        """
        finished = False
        try:
            reply = self._wait_for_reply(child, job, cancelled, on_event)
            finished = True
        finally:
            if not finished:
                child.kill()
                if self._child is child:
                    self._child = None
        if reply["ev"] == "cancelled":
            raise Cancelled()
        if reply["ev"] == "error":
            raise protocol.decode_error(reply["error"])
        return reply

    def _wait_for_reply(self, child: _Child, job: int, cancelled: CancelCheck | None,
                        on_event: Callable[[dict], None]) -> dict:
        deadline = time.monotonic() + self.hang_seconds
        cancel_asked: float | None = None
        while True:
            if cancel_asked is None and cancelled is not None and cancelled():
                cancel_asked = time.monotonic()
                if not child.send({"op": "cancel", "id": job}, blocking=False):
                    raise Cancelled()  # the audio is still on its way: nothing to wait for
            if cancel_asked is not None and time.monotonic() - cancel_asked > CANCEL_GRACE_SECONDS:
                raise Cancelled()
            event = _next_event(child)
            if event is _SILENCE:
                if time.monotonic() > deadline:
                    child.kill()
                    raise self._failure(child, hung=True)
                continue
            if event is None:
                child.wait_for_exit()
                raise self._failure(child, hung=False)
            if event.get("id") != job:
                continue
            deadline = time.monotonic() + self.hang_seconds
            if event["ev"] in ("loaded", "result", "error", "cancelled"):
                if cancel_asked is not None and event["ev"] != "error":
                    return {"ev": "cancelled"}
                return event
            on_event(event)

    def _failure(self, child: _Child, *, hung: bool) -> Exception:
        """The plain sentence for a child that died or stopped answering, with what the log knows."""
        code = child.popen.returncode
        if hung:
            what = f"no answer for {self.hang_seconds:g} s"
        elif code is not None and code < 0:
            what = f"ended by signal {signal.Signals(-code).name}"
        else:
            what = f"ended with exit status {code}"
        detail = "\n".join([f"engine process {child.pid} ({self.name} on {self._load_on}): {what}",
                            *filter(None, [child.fatal_error]), *child.log_tail])
        log.warning("%s", detail)
        if self.device == "cuda":
            error = GpuError(GPU_STOPPED, detail=detail)
            error.__cause__ = ProcessCrash(f"the engine process on the GPU {what}")
            return error
        if hung:
            return UserFacingError(ENGINE_HUNG.format(seconds=f"{self.hang_seconds:g}"), detail=detail)
        if code == -signal.SIGKILL:
            return UserFacingError(ENGINE_KILLED, detail=detail)  # not ours: the kernel's out-of-memory killer
        return UserFacingError(ENGINE_CRASHED, detail=detail)
