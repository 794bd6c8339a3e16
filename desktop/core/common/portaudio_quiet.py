"""Keep what PortAudio and ALSA print for developers off the user's terminal.

ALSA writes its errors ("ALSA lib pcm_pulse.c:758:(pulse_prepare) PulseAudio: Unable to create
stream: No such entity") to stderr, and PortAudio its failed checks ("Expression '…' failed in
'src/hostapi/alsa/pa_linux_alsa.c'"), whatever the program does with the error afterwards. VoxDesk
says what went wrong in its own sentence, so these lines only bury it. They go to VoxDesk's log
instead, at debug level:

- ALSA's lines, at any moment: its error handler (snd_lib_error_set_handler) is replaced, once,
  by one that logs. That changes nothing else ALSA does.
- PortAudio's lines have no such hook; they come while a stream is checked, opened, started or
  closed, so file descriptor 2 points to a temporary file during those calls only, and what was
  written there is logged (and given to the caller, for an error's details). sounddevice itself does
  the same around PortAudio's start-up.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os
import tempfile
import threading
from contextlib import contextmanager
from typing import Iterator

log = logging.getLogger(__name__)

_lock = threading.RLock()  # one redirection of fd 2 at a time
_alsa_handler = None  # kept referenced: ALSA calls it for as long as the process runs

# void handler(const char *file, int line, const char *function, int err, const char *fmt, ...);
# the values for fmt's conversions follow as variable arguments, which a ctypes callback cannot read,
# so the log gets the format with its place in ALSA's source.
_ALSA_HANDLER = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p)


def _log_alsa(file: bytes | None, line: int, function: bytes | None, err: int, fmt: bytes | None) -> None:
    def text(value: bytes | None) -> str:
        return value.decode("utf-8", "replace") if value else "?"

    log.debug("ALSA %s:%d (%s) error %d: %s", text(file), line, text(function), err, text(fmt))


def install_alsa_handler() -> bool:
    """ALSA's error lines go to the log from now on; False where there is no ALSA library."""
    global _alsa_handler
    with _lock:
        if _alsa_handler is not None:
            return True
        name = ctypes.util.find_library("asound")
        if name is None:
            return False
        try:
            library = ctypes.CDLL(name)  # the copy PortAudio already loaded: one handler for both
            handler = _ALSA_HANDLER(_log_alsa)
            library.snd_lib_error_set_handler(handler)
        except (OSError, AttributeError) as exc:
            log.debug("ALSA's error handler could not be set: %s", exc)
            return False
        _alsa_handler = handler
        return True


class Captured:
    """What the sound library wrote to stderr inside quiet_stderr(), once the block has ended."""

    text = ""


@contextmanager
def quiet_stderr() -> Iterator[Captured]:
    """While the block runs, file descriptor 2 goes to a temporary file; afterwards it is restored
    and what was written is logged and left in the yielded Captured.text.

    For calls into PortAudio only: anything else written to stderr by another thread during the
    block goes to the log as well rather than to the terminal.
    """
    captured = Captured()
    with _lock:
        try:
            sink = tempfile.TemporaryFile()
            saved = os.dup(2)
        except OSError:  # no temporary folder, or no descriptor left: leave stderr alone
            yield captured
            return
        try:
            os.dup2(sink.fileno(), 2)
            try:
                yield captured
            finally:
                os.dup2(saved, 2)
        finally:
            os.close(saved)
            try:
                sink.seek(0)
                captured.text = sink.read(64 * 1024).decode("utf-8", "replace").strip()
            except OSError:
                pass
            sink.close()
    if captured.text:
        log.debug("The sound library said: %s", captured.text)
