"""Plays a stretch of a recording (start..end seconds), e.g. the segment the user clicked.

The stretch is decoded on a JobRunner thread by desktop.core.common.audio (which seeks close to its
start, so a late segment of a long meeting plays at once) and then played through the StreamPlayer,
the app's one way to sound output.
"""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
from PySide6.QtCore import QObject, Signal

from desktop.core.common import audio
from desktop.ui.common.i18n import translated
from desktop.ui.common.stream_player import StreamPlayer
from desktop.ui.common.tab_jobs import TabJobs
from desktop.workers.job import JobReport, JobRunner

PLAYBACK_RATE = 48000  # every sound card takes this rate


def decode_stretch(path: str | os.PathLike[str], start: float, end: float) -> np.ndarray:
    """The stretch as the player plays it: float32 mono samples at PLAYBACK_RATE."""
    return audio.decode_stretch(path, start, end, PLAYBACK_RATE)


class AudioPlayer(QObject):
    """One stretch at a time: playing a new one stops the one before."""

    playing_changed = Signal(bool)
    error = Signal(str)  # a sentence for the user, in the interface language

    def __init__(self, runner: JobRunner, parent: QObject | None = None, *,
                 output: StreamPlayer | None = None) -> None:
        super().__init__(parent)
        self._jobs = TabJobs(runner, self)
        self._output = output or StreamPlayer(self)
        self._output.finished.connect(lambda: self._set_playing(False))
        self._output.failed.connect(self._on_failed)
        self._playing = False
        self._request = 0  # counts play() and stop(): only the latest stretch is played

    @property
    def is_playing(self) -> bool:
        return self._playing

    def play(self, path: str | os.PathLike[str], start: float, end: float) -> None:
        self.stop()
        request = self._request
        path = Path(path)

        def work(_report: JobReport) -> np.ndarray:
            return decode_stretch(path, start, end)

        self._jobs.start("decode", work, on_result=lambda samples: self._on_decoded(request, samples),
                         on_failed=lambda message: self._on_failed(message, request))
        self._set_playing(True)

    def stop(self) -> None:
        self._request += 1
        self._jobs.cancel("decode")
        self._output.stop()
        self._set_playing(False)

    def _on_decoded(self, request: int, samples: np.ndarray) -> None:
        if request != self._request:
            return
        if not len(samples):
            self._set_playing(False)
            return
        self._output.begin(PLAYBACK_RATE)
        self._output.add(0, samples)  # starts playing, or says why it cannot
        self._output.end_of_input()

    def _on_failed(self, message: str, request: int | None = None) -> None:
        if request is None or request == self._request:
            self.error.emit(translated(message))
            self._set_playing(False)

    def _set_playing(self, playing: bool) -> None:
        if playing != self._playing:
            self._playing = playing
            self.playing_changed.emit(playing)
