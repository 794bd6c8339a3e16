"""The crash child on a real GPU, for ``gpu_check.sh``: the engine process is killed with SIGSEGV while
it works on a request, the caller gets the plain sentence (a GpuError on the GPU, so the Transcriber
falls back to the CPU), no process is left, and the next request starts a fresh process that decodes.
"""
from __future__ import annotations

import os
import signal
import threading
import time
from typing import Any

KILL_AFTER_SECONDS = 0.3  # into the request: a long recording is still being decoded then


def run(model: Any, device: str, audio: Any) -> tuple[bool, str]:
    from desktop.core.common.errors import UserFacingError
    from desktop.engines.transcription.engine import GpuError, TranscribeOptions
    from desktop.engines.transcription.process.isolated import ENGINE_CRASHED, GPU_STOPPED, IsolatedEngine

    options = TranscribeOptions(language="en", beam_size=1)
    engine = IsolatedEngine(model, "torch", device).load()
    try:
        victim = engine.pid
        timer = threading.Timer(KILL_AFTER_SECONDS, os.kill, (victim, signal.SIGSEGV))
        timer.start()
        try:
            engine.transcribe(audio, options)
            return False, f"the engine finished {len(audio) / 16000:.0f} s of speech before SIGSEGV reached it"
        except UserFacingError as error:
            expected = GPU_STOPPED if device == "cuda" else ENGINE_CRASHED
            if error.message != expected or (device == "cuda") != isinstance(error, GpuError):
                return False, f"unexpected failure: {type(error).__name__}: {error.message}"
            said = str(error.message)
        finally:
            timer.join()
        time.sleep(0.2)
        if _running(victim):
            return False, f"the killed engine process {victim} is still running"
        started = time.perf_counter()
        again = engine.transcribe(audio, options)
        words = sum(len(segment.text.split()) for segment in again.segments)
        if engine.pid in (None, victim) or words == 0:
            return False, f"no fresh engine process after the crash ({words} words)"
        return True, (f"SIGSEGV in process {victim} → “{said}”; a fresh process loaded and decoded "
                      f"{words} words in {time.perf_counter() - started:.1f} s")
    finally:
        engine.close()


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(") ", 1)[-1][:1] not in ("Z", "X")
    except FileNotFoundError:
        return False
