"""Plays a stretch of a recording (start..end seconds), e.g. the segment the user clicked.

Decoding and playing both happen on a JobRunner thread: the stretch is read with PyAV (seeking
close to its start, so a late segment of a long meeting plays at once) and written to the sound
card through sounddevice (PortAudio) in short blocks, so Stop takes effect within a tenth of a second.
"""
from __future__ import annotations

import logging
import os
from pathlib import Path

import numpy as np
from PySide6.QtCore import QObject, Signal, Slot

from desktop.core.common.errors import AudioError, Cancelled
from desktop.core.common.i18n import N_
from desktop.ui.common.i18n import translated
from desktop.workers.job import Job, JobReport, JobRunner

log = logging.getLogger(__name__)

PLAYBACK_RATE = 48000  # every sound card takes this rate
_BLOCK = PLAYBACK_RATE // 10


def decode_stretch(path: str | os.PathLike[str], start: float, end: float,
                   sample_rate: int = PLAYBACK_RATE) -> np.ndarray:
    """The sound between start and end (seconds) as float32 mono samples at sample_rate."""
    import av

    path = Path(path)
    start = max(0.0, start)
    if end <= start:
        return np.zeros(0, dtype=np.float32)
    try:
        container = av.open(str(path), mode="r", metadata_errors="ignore")
    except (av.error.FFmpegError, OSError) as exc:
        raise AudioError(
            N_("AudioPlayer", "VoxDesk cannot play “{name}”: the file can no longer be read. "
               "It may have been moved or deleted.").format(name=path.name),
            detail=f"{type(exc).__name__}: {exc}",
        ) from exc
    with container:
        if not container.streams.audio:
            raise AudioError(N_("AudioPlayer", "“{name}” has no sound track to play.").format(name=path.name))
        stream = container.streams.best("audio") or container.streams.audio[0]
        if start > 1.0:
            # Seeks to a point at or before start (never after); the samples before it are dropped below.
            try:
                container.seek(int(start * av.time_base), backward=True)
            except av.error.FFmpegError:
                container.seek(0)
        resampler = av.AudioResampler(format="flt", layout="mono", rate=sample_rate)
        pieces: list[np.ndarray] = []
        position: float | None = None  # seconds of the first sample collected
        have = 0
        wanted_end = None
        try:
            for frame in container.decode(stream):
                if position is None:
                    position = float(frame.time) if frame.time is not None else 0.0
                    wanted_end = int(round((end - position) * sample_rate))
                for out in resampler.resample(frame):
                    block = out.to_ndarray().reshape(-1)
                    pieces.append(block)
                    have += len(block)
                if wanted_end is not None and have >= wanted_end:
                    break
        except av.error.FFmpegError as exc:
            if not pieces:
                raise AudioError(
                    N_("AudioPlayer", "The sound in “{name}” cannot be decoded for playing.").format(name=path.name),
                    detail=f"{type(exc).__name__}: {exc}",
                ) from exc
    if not pieces or position is None:
        return np.zeros(0, dtype=np.float32)
    samples = np.concatenate(pieces)
    first = max(0, int(round((start - position) * sample_rate)))
    last = max(first, int(round((end - position) * sample_rate)))
    return np.clip(samples[first:last], -1.0, 1.0).astype(np.float32, copy=False)


def _play(samples: np.ndarray, sample_rate: int, cancelled) -> None:
    """Write samples to the default output device, stopping early when cancelled() says so."""
    try:
        import sounddevice
    except OSError as exc:  # the PortAudio library itself is missing
        raise AudioError(
            N_("AudioPlayer", "VoxDesk cannot play sound because the PortAudio library is missing. "
               "Ask your administrator to install the package “libportaudio2”."),
            detail=str(exc),
        ) from exc
    try:
        stream = sounddevice.OutputStream(samplerate=sample_rate, channels=1, dtype="float32")
    except sounddevice.PortAudioError as exc:
        raise AudioError(
            N_("AudioPlayer", "VoxDesk cannot play sound: no speakers or headphones were found. "
               "Check that the sound output is connected and switched on."),
            detail=str(exc),
        ) from exc
    try:
        stream.start()
        for first in range(0, len(samples), _BLOCK):
            if cancelled():
                stream.abort()
                raise Cancelled()
            stream.write(np.ascontiguousarray(samples[first:first + _BLOCK]))
        stream.stop()  # returns once the last block has been heard
    except sounddevice.PortAudioError as exc:
        raise AudioError(
            N_("AudioPlayer", "The sound output stopped working while playing. Check the speakers or headphones."),
            detail=str(exc),
        ) from exc
    finally:
        stream.close(ignore_errors=True)


class AudioPlayer(QObject):
    """One stretch at a time: playing a new one stops the one before."""

    playing_changed = Signal(bool)
    error = Signal(str)  # a sentence for the user, in the interface language

    def __init__(self, runner: JobRunner, parent: QObject | None = None):
        super().__init__(parent)
        self._runner = runner
        self._job: Job | None = None

    @property
    def is_playing(self) -> bool:
        return self._job is not None

    def play(self, path: str | os.PathLike[str], start: float, end: float) -> None:
        self.stop()
        path = Path(path)

        def work(report: JobReport) -> None:
            samples = decode_stretch(path, start, end)
            if report.cancelled() or not len(samples):
                return
            _play(samples, PLAYBACK_RATE, report.cancelled)

        job = Job(work, name=f"play {path.name}")
        job.failed.connect(self._on_failed)
        job.finished.connect(self._on_finished)
        self._job = job
        self._runner.start(job)
        self.playing_changed.emit(True)

    def stop(self) -> None:
        if self._job is not None:
            self._job.cancel()
            self._job = None
            self.playing_changed.emit(False)

    @Slot(object)
    def _on_failed(self, message: str) -> None:
        if self.sender() is self._job:
            self.error.emit(translated(message))

    @Slot()
    def _on_finished(self) -> None:
        if self.sender() is self._job:
            self._job = None
            self.playing_changed.emit(False)
