"""The recording of a live-caption session, written to a FLAC file as it is captured.

The file goes where the caller says (the window: a Recordings folder under Documents, or the one
chosen in Settings; the command line: the file --save-audio names, else ``live/`` in the data
folder), named in the interface's words after the moment the session started (unless the caller
names the file), so nothing is lost if the app or the computer stops: every second or so the encoder's buffers are
handed to the system (``flush``), and a file whose end was never written still decodes up to the
last flush (FLAC frames stand on their own; the total length in the header is optional).
"""
from __future__ import annotations

import datetime
import re
import threading
from pathlib import Path

import numpy as np

from desktop.core.common.errors import UserFacingError
from desktop.core.common.fs_errors import write_error_message
from desktop.core.common.i18n import N_
from desktop.core.common.paths import data_dir
from desktop.core.common.safe_text import clean_text

FLUSH_SECONDS = 1.0  # a crash loses at most this much of the recording


DEFAULT_TITLE = "Live captions"
_NOT_IN_A_NAME = re.compile(r'[/\\:*?"<>|\x00-\x1f\x7f]')  # separators, and what other systems refuse


def live_dir() -> Path:
    """Where the command line records live sessions."""
    return data_dir() / "live"


def session_path(folder: Path, started: datetime.datetime, title: str = DEFAULT_TITLE) -> Path:
    """A new file name for a session started at ``started``: "Live captions 2026-11-30 14-05-09.flac"
    ("实时字幕 …" with a Chinese title), with " (2)" … added when a file of that name exists already.
    ``title`` is the interface's words for live captions; what cannot be in a file name is left out."""
    title = " ".join(_NOT_IN_A_NAME.sub(" ", clean_text(title)).split())[:60].strip(" .") or DEFAULT_TITLE
    stem = f"{title} {started:%Y-%m-%d %H-%M-%S}"
    path = folder / f"{stem}.flac"
    number = 2
    while path.exists():
        path = folder / f"{stem} ({number}).flac"
        number += 1
    return path


class CaptureFile:
    """One FLAC file being written: ``write`` blocks of mono float samples, then ``close``.

    Safe to write from one thread while another reads ``seconds``.
    """

    def __init__(self, path: Path, sample_rate: int, *, flush_seconds: float = FLUSH_SECONDS):
        import soundfile

        self.path = Path(path)
        self.sample_rate = sample_rate
        self._flush_every = max(1, int(flush_seconds * sample_rate))
        self._unflushed = 0
        self._frames = 0
        self._lock = threading.Lock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # "x": a file of that name is never replaced.
            self._file = soundfile.SoundFile(str(self.path), "x", samplerate=sample_rate, channels=1,
                                             format="FLAC", subtype="PCM_16")
        except (OSError, RuntimeError) as exc:  # soundfile reports libsndfile's failures as RuntimeError
            raise UserFacingError(write_error_message(exc, N_("LiveCapture", "the recording"), self.path.parent),
                                  detail=f"{self.path}: {exc}") from exc

    @property
    def seconds(self) -> float:
        with self._lock:
            return self._frames / self.sample_rate

    @property
    def closed(self) -> bool:
        return self._file.closed

    def write(self, block: np.ndarray) -> None:
        samples = np.clip(np.asarray(block, dtype=np.float32).reshape(-1), -1.0, 1.0)
        if samples.size == 0:
            return
        with self._lock:
            try:
                self._file.write(samples)
                self._unflushed += samples.size
                if self._unflushed >= self._flush_every:
                    self._file.flush()
                    self._unflushed = 0
            except (OSError, RuntimeError) as exc:
                raise UserFacingError(
                    N_("LiveCapture", "The recording could not be written any more (the disk may be full). What "
                                      "was written until now is kept in “{path}”.").format(path=str(self.path)),
                    detail=str(exc)) from exc
            self._frames += samples.size

    def close(self) -> Path:
        """Finish the file (its header gets the length); closing twice is harmless."""
        with self._lock:
            if not self._file.closed:
                self._file.close()
        return self.path
