"""A Whisper engine whose model lives in a child process, so that a crash or a hang there costs a
retry instead of the window, the queue and the user's unsaved edits.

``IsolatedEngine`` implements ``WhisperEngine``: the Transcriber uses it like any engine, and the child
(``process.main``) runs the real engine from ``loading.load_engine``, keeping the model loaded
between files. The child is started again, lazily, after it was stopped.

- Crash (segfault, abort) or no event for ``hang_seconds``: on the GPU a GpuError caused by a
  ProcessCrash, which the GPU fallback answers by finishing on the CPU and marking the GPU unusable;
  on the CPU a plain sentence.
- Cancel: asked politely, then the child is killed ``CANCEL_GRACE_SECONDS`` later, so a job stops
  within a second even inside a library call.
"""
from __future__ import annotations

import itertools
import logging
import signal
import time
import warnings
import weakref
from typing import Callable

import numpy as np

from desktop.core.common.errors import Cancelled, UserFacingError
from desktop.core.common.i18n import N_
from desktop.core.gpu.fallback import ProcessCrash
from desktop.core.transcription.whisper_models import LocalModel
from desktop.engines.transcription.process import protocol
from desktop.engines.transcription.engine import (
    CancelCheck,
    EngineResult,
    GpuError,
    ProgressCallback,
    SegmentCallback,
    TranscribeOptions,
)
from desktop.engines.transcription.process.child import SILENCE, EngineChild

log = logging.getLogger(__name__)

DEFAULT_HANG_SECONDS = 300.0  # no event for this long means hung; a big model loads on a slow CPU within it
CANCEL_GRACE_SECONDS = 0.5  # a cancel the engine notices by then keeps the model loaded

GPU_STOPPED = N_("Engine", "The graphics driver stopped responding; VoxDesk carries on with the processor (CPU).")
ENGINE_CRASHED = N_("Engine", "The transcription engine stopped unexpectedly. Try the file again; if it happens "
                              "again, choose a smaller model in Settings.")
ENGINE_HUNG = N_("Engine", "The transcription engine stopped responding for {seconds} seconds, so VoxDesk stopped "
                           "it. Try the file again; if it happens again, choose a smaller model in Settings.")
ENGINE_KILLED = N_("Engine", "The system stopped the transcription engine, most likely because the computer ran "
                             "out of memory; close other programs or choose a smaller model.")


class IsolatedEngine:
    """A WhisperEngine run by ``process.main``; see the module's description."""

    def __init__(self, model: LocalModel, engine: str, device: str, *, checker: LocalModel | None = None,
                 hang_seconds: float = DEFAULT_HANG_SECONDS):
        """checker: the multilingual model that tells the language of speech an English-only ``model`` is
        given (``decoders.language_check``), loaded by the engine process when first needed."""
        self.name = engine
        self.device = device  # what the caller sees, and which failure sentence fits
        self.model_name = model.name
        self._model = model
        self._checker = checker
        self._load_on = device
        self.hang_seconds = hang_seconds  # silence that counts as hung; may change between requests
        self._child: EngineChild | None = None
        self._ids = itertools.count(1)

    @property
    def pid(self) -> int | None:
        """The engine process's id while it runs."""
        return self._child.pid if self._child is not None and self._child.running else None

    def load(self, cancelled: CancelCheck | None = None, *, expect_seconds: float | None = None) -> "IsolatedEngine":
        """Start the engine process and load the model in it, unless that is done already;
        ``expect_seconds``: the length of the recording that comes first (``expect``)."""
        if self._child is not None and self._child.running:
            if expect_seconds:
                self.expect(expect_seconds)
            return self
        self.close()
        child = EngineChild()
        job = next(self._ids)
        checker = None if self._checker is None else protocol.encode_model(self._checker)
        child.send({"op": "load", "id": job, "model": protocol.encode_model(self._model), "engine": self.name,
                    "device": self._load_on, "checker": checker, "expect_seconds": expect_seconds})
        try:
            self._await(child, job, cancelled, lambda event: None)
        except BaseException:
            child.kill()  # it answered, but holds no model: of no use
            raise
        self._child = child
        weakref.finalize(self, child.kill)  # an engine dropped without close() takes its process along
        return self

    def expect(self, seconds: float) -> None:
        """Told to the engine process, which prepares while this process reads the recording; nobody
        waits for an answer."""
        if self._child is not None and self._child.running:
            self._child.send({"op": "expect", "id": next(self._ids), "seconds": float(seconds)}, blocking=False)

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
        return protocol.decode_result(reply["result"])  # with the facts of how it was decoded

    def close(self) -> None:
        child, self._child = self._child, None
        if child is not None:
            child.stop()

    # -- waiting for the child -----------------------------------------------------------------

    def _await(self, child: EngineChild, job: int, cancelled: CancelCheck | None,
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

    def _wait_for_reply(self, child: EngineChild, job: int, cancelled: CancelCheck | None,
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
            event = child.next_event()
            if event is SILENCE:
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

    def _failure(self, child: EngineChild, *, hung: bool) -> Exception:
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
