"""The engine process: one Whisper model, loaded once, transcribing the audio VoxDesk sends it.

Started by ``isolated.IsolatedEngine`` as ``python -m desktop.engines.transcription.process.main``.
Requests arrive on stdin and events leave on what was stdout (``protocol``); file descriptor 1
then points at stderr, so a library that prints cannot garble the events. A segfault or an abort in
the GPU driver ends this process only: VoxDesk reports it in plain words and carries on. The process
ends when its stdin closes, which also happens when VoxDesk itself dies, however it dies.
"""
from __future__ import annotations

import faulthandler
import gc
import logging
import os
import queue
import signal
import sys
import threading
from typing import BinaryIO, NoReturn

from desktop.core.common.errors import Cancelled
from desktop.core.gpu.fallback import SlowPathWarnings
from desktop.engines.transcription.process import protocol

log = logging.getLogger(__name__)


class EngineServer:
    """Runs the requests one at a time on the main thread; a cancel arrives on the reading thread."""

    def __init__(self, events: BinaryIO):
        self._events = events
        self._send_lock = threading.Lock()
        self._engine = None
        self._device = "cpu"
        self._cancelled_job: int | None = None

    def send(self, message: dict) -> None:
        with self._send_lock:
            protocol.write_message(self._events, message)

    def cancel(self, job: int) -> None:
        self._cancelled_job = job

    def serve(self, requests: "queue.Queue[dict | None]") -> None:
        while (request := requests.get()) is not None:
            self._handle(request)
        if self._engine is not None:
            self._engine.close()

    def _handle(self, request: dict) -> None:
        job = request["id"]
        failed = False
        try:
            if request["op"] == "load":
                self._load(request)
            elif request["op"] == "transcribe":
                self._transcribe(job, request)
            elif request["op"] == "expect":
                if self._engine is not None:
                    self._engine.expect(float(request["seconds"]))  # answered by nothing: nobody waits
            else:
                raise ValueError(f"unknown request {request['op']!r}")
        except Cancelled:
            self.send({"ev": "cancelled", "id": job})
        except Exception as exc:  # noqa: BLE001 - every failure goes back to VoxDesk, which judges it
            log.warning("request %s failed: %s: %s", request["op"], type(exc).__name__, exc)
            self.send({"ev": "error", "id": job, "error": protocol.encode_error(exc)})
            failed = True
        if failed:
            self._free_gpu_memory()  # after the except block: its traceback no longer holds tensors

    def _load(self, request: dict) -> None:
        from desktop.engines.transcription.decoders.loading import load_engine

        if self._engine is not None:
            raise RuntimeError("this engine process already holds a model")
        self._device = request["device"]
        _seed_sampling(request["engine"])
        checker = request.get("checker")  # the multilingual model that tells an English-only one's languages
        self._engine = load_engine(protocol.decode_model(request["model"]), request["engine"], self._device,
                                   checker=None if checker is None else protocol.decode_model(checker),
                                   expect_seconds=request.get("expect_seconds"))
        self.send({"ev": "loaded", "id": request["id"]})

    def _transcribe(self, job: int, request: dict) -> None:
        if self._engine is None:
            raise RuntimeError("no model is loaded in this engine process")

        def progress(fraction: float) -> None:
            self.send({"ev": "progress", "id": job, "fraction": float(fraction)})

        def segment(found) -> None:
            self.send({"ev": "segment", "id": job, "segment": protocol.encode_segment(found)})

        with SlowPathWarnings() as slow:
            result = self._engine.transcribe(request["audio"], protocol.decode_options(request["options"]),
                                             on_progress=progress, on_segment=segment,
                                             cancelled=lambda: self._cancelled_job == job)
        for note in slow.notes:
            self.send({"ev": "warning", "id": job, "text": note})
        self.send({"ev": "result", "id": job, "result": protocol.encode_result(result)})

    def _free_gpu_memory(self) -> None:
        torch = sys.modules.get("torch")  # never imported here just for this: the CPU engine needs no torch
        gc.collect()
        if self._device == "cuda" and torch is not None and torch.cuda.is_initialized():
            torch.cuda.empty_cache()


def _seed_sampling(engine: str) -> None:
    """Whisper samples where it is unsure (its temperature fallback). A fixed seed makes an engine
    process give the same words for the same requests every time. It is set before the model loads:
    CTranslate2 seeds each of its threads once, at the thread's first draw."""
    if engine == "ct2":
        import ctranslate2

        ctranslate2.set_random_seed(0)
    elif engine == "torch":
        import torch

        torch.manual_seed(0)


def read_requests(stream: BinaryIO, requests: "queue.Queue[dict | None]", server: EngineServer) -> None:
    """The reading thread: requests for the main thread, cancels at once; the end of stdin ends all."""
    while True:
        try:
            message = protocol.read_message(stream)
        except (OSError, ValueError):
            message = None
        if message is None:
            # VoxDesk closed the pipe or died: nobody waits for a result, and a stuck library call
            # on the main thread must not keep the model (and the GPU) held.
            os._exit(0)
        if message["op"] == "cancel":
            server.cancel(message["id"])
        elif message["op"] == "close":
            requests.put(None)
            return
        else:
            requests.put(message)


def _events_stream() -> BinaryIO:
    """The original stdout for events; fd 1 goes to stderr from now on."""
    events = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    return events


def _import_ahead() -> None:
    """VoxDesk's modules that loading a model needs, imported before the first request is read: a
    process started ahead (``started_ahead``) has that time while the command line prepares its
    request. The libraries wait for the request, which says which of them the engine needs (and
    torch and CTranslate2 keep the order they load in on a GPU)."""
    from desktop.engines.transcription.decoders import loading, whisper_ct2  # noqa: F401


def main() -> NoReturn:
    # Ctrl+C in the terminal reaches the whole process group; VoxDesk decides when this process ends.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    faulthandler.enable()  # a segfault leaves the Python stack in stderr, which VoxDesk logs
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    server = EngineServer(_events_stream())
    requests: queue.Queue[dict | None] = queue.Queue()
    threading.Thread(target=read_requests, args=(sys.stdin.buffer, requests, server), name="requests",
                     daemon=True).start()
    _import_ahead()
    server.serve(requests)
    # Closed: the model is let go of and nothing is left to save. The interpreter's own teardown of
    # torch and CTranslate2 took 0.6 s more, which every release of the model waited for (the
    # command line at its end, the window changing models), so the process ends here.
    logging.shutdown()
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
