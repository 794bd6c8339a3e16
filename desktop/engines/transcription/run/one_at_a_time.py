"""One job holds the loaded model at a time; a job that finds another running waits for its turn and
can be cancelled while it waits (*Transcribe again…* on some lines while a file is being transcribed)."""
from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Callable, Iterator

from desktop.core.common.errors import Cancelled
from desktop.core.common.i18n import N_

WAITING = N_("Engine", "Waiting for the transcription under way to finish…")


class OneAtATime:
    def __init__(self, check_every: float = 0.2):
        self._lock = threading.Lock()
        self._check_every = check_every

    @contextmanager
    def turn(self, cancelled: Callable[[], bool] | None, on_status: Callable[[str], None] | None) -> Iterator[None]:
        if not self._lock.acquire(blocking=False):
            if on_status:
                on_status(WAITING)
            while not self._lock.acquire(timeout=self._check_every):
                if cancelled is not None and cancelled():
                    raise Cancelled()
        try:
            yield
        finally:
            self._lock.release()
