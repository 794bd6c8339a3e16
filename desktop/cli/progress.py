"""A one-line progress display on stderr: redrawn in place on a terminal, sparse in a log."""
from __future__ import annotations

import sys
import time


class ProgressLine:
    def __init__(self, label: str, stream=None):
        self._label = label
        self._stream = stream or sys.stderr
        self._tty = self._stream.isatty()
        self._last_percent = -1
        self._started = time.monotonic()

    def update(self, fraction: float, note: str = "") -> None:
        percent = int(fraction * 100)
        if percent == self._last_percent:
            return
        # In a log file, one line per 25% is plenty.
        if not self._tty and percent % 25 and percent != 100:
            return
        self._last_percent = percent
        text = f"{self._label}: {percent:3d}%{('  ' + note) if note else ''}"
        if self._tty:
            self._stream.write("\r\033[K" + text)
        else:
            self._stream.write(text + "\n")
        self._stream.flush()

    def bytes(self, done: int, total: int | None) -> None:
        if total:
            self.update(done / total, f"{done / 1e6:.0f} of {total / 1e6:.0f} MB")

    def done(self, text: str) -> None:
        elapsed = time.monotonic() - self._started
        line = f"{self._label}: {text} ({elapsed:.1f} s)"
        self._stream.write(("\r\033[K" if self._tty else "") + line + "\n")
        self._stream.flush()
