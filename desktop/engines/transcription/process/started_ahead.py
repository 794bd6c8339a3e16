"""Engine processes, and one started ahead of the model it will load.

The command line knows from its first lines that it will need an engine process, half a second
before its Transcriber asks for one: ``start_ahead`` starts the process then, so that its interpreter
and VoxDesk's engine modules load while the command line still imports its own; the next
``EngineChild`` takes it (``take``) instead of starting another. Only what starting a process needs is
imported here, so that starting one costs its caller nothing.
"""
from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import desktop

_lock = threading.Lock()
_ahead: subprocess.Popen | None = None  # started by start_ahead, not yet taken


def child_environment() -> dict[str, str]:
    """The environment for a child Python process that runs the very code the parent runs, wherever
    the current folder is."""
    env = dict(os.environ)
    package_root = str(Path(desktop.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
    return env


def start_ahead() -> int:
    """Start an engine process for the next ``take``, unless one started ahead still waits; its pid.
    Call it once this process's environment is final (the GPU's variables set): the process keeps
    the environment it started with. One never taken ends with this process (its stdin closes)."""
    global _ahead
    with _lock:
        if _ahead is None or _ahead.poll() is not None:
            _ahead = _started()
        return _ahead.pid


def take() -> subprocess.Popen:
    """The engine process started ahead, while it runs; else a new one."""
    global _ahead
    with _lock:
        ahead, _ahead = _ahead, None
    if ahead is not None and ahead.poll() is None:
        return ahead
    return _started()


def _started() -> subprocess.Popen:
    # No PR_SET_PDEATHSIG: Linux sends it when the *thread* that started the child ends, and jobs
    # start it from worker threads. The child exits when its stdin closes instead.
    return subprocess.Popen(
        [sys.executable, "-m", "desktop.engines.transcription.process.main"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=child_environment(),
    )
