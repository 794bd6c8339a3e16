"""The editor's one player: the selected file from any point, or one stretch of it (a clicked line, Replay
line), paused and resumed, at 0.5× to 2× speed, with the position known all the while (for the clock,
the waveform's playhead and the playing line in the table). Playing anything stops what played before.

The recording is decoded a few seconds ahead of what is heard, one piece at a time on a JobRunner
thread (core.common.audio, which seeks to each piece), so playing from late in a two-hour meeting
starts at once and memory holds only a few pieces. Speed changes the tempo, not the pitch
(core.common.tempo). The pieces go to the StreamPlayer, the app's one way to sound output.
"""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
from PySide6.QtCore import QObject, QTimer, Signal

from desktop.core.common import audio
from desktop.core.common.tempo import change_tempo
from desktop.ui.common.i18n import translated
from desktop.ui.common.stream_player import PAUSED, PLAYING, STOPPED, StreamPlayer
from desktop.ui.common.tab_jobs import TabJobs
from desktop.workers.job import JobReport, JobRunner

PLAYBACK_RATE = 48000  # every sound card takes this rate
PIECE_SECONDS = 5.0  # of the recording, decoded at a time
_AHEAD = 2  # pieces queued before the next one is decoded
_TICK_MS = 100  # ten position updates a second are enough for the playhead and the playing line


def decode_stretch(path: str | os.PathLike[str], start: float, end: float) -> np.ndarray:
    """A stretch as the player plays it (at 1×): float32 mono samples at PLAYBACK_RATE."""
    return audio.decode_stretch(path, start, end, PLAYBACK_RATE)


class Playback(QObject):
    state_changed = Signal(str)  # "stopped", "playing" or "paused"
    position_changed = Signal(float)  # seconds into the recording that is heard now
    speed_changed = Signal(float)
    error = Signal(str)  # a sentence for the user, in the interface language

    def __init__(self, runner: JobRunner, parent: QObject | None = None, *,
                 output: StreamPlayer | None = None) -> None:
        super().__init__(parent)
        self._jobs = TabJobs(runner, self)
        self._output = output or StreamPlayer(self)
        self._output.finished.connect(self._on_finished)
        self._output.failed.connect(lambda message: self._fail(translated(message)))
        self._output.state_changed.connect(self._on_output_state)
        self._path: Path | None = None
        self._origin = 0.0  # recording seconds where this run began
        self._next_piece = 0.0  # recording seconds the next piece starts at
        self._until: float | None = None  # where this run stops; None: the end of the recording
        self._speed = 1.0
        self._position = 0.0
        self._state = STOPPED
        self._run = 0  # counts runs: a piece decoded for an earlier run is dropped
        self._ended = False
        self._timer = QTimer(self)
        self._timer.setInterval(_TICK_MS)
        self._timer.timeout.connect(self._tick)

    # -- what it is doing ----------------------------------------------------------------------

    @property
    def state(self) -> str:
        return self._state

    @property
    def position(self) -> float:
        return self._position

    @property
    def speed(self) -> float:
        return self._speed

    @property
    def path(self) -> Path | None:
        return self._path

    # -- controls ------------------------------------------------------------------------------

    def play_from(self, path: str | Path, seconds: float, until: float | None = None) -> None:
        """Play path from seconds (to until, or to its end)."""
        self._stop_output()
        self._path = Path(path)
        self._origin = self._next_piece = max(0.0, float(seconds))
        self._until = until
        self._ended = False
        self._set_position(self._origin)
        self._output.begin(PLAYBACK_RATE)
        self._set_state(PLAYING)  # the sound follows as soon as the first piece is decoded
        self._timer.start()
        self._decode_next()

    def toggle(self, path: str | Path | None = None) -> None:
        """Play/Pause: pause what plays, resume what was paused, else play path from the position."""
        if self._state == PLAYING:
            self.pause()
        elif self._state == PAUSED:
            self._output.play()
            self._set_state(PLAYING)
            self._timer.start()
        elif path is not None:
            start = self._position if self._path == Path(path) else 0.0
            self.play_from(path, start)

    def pause(self) -> None:
        if self._state == PLAYING:
            self._tick()
            self._output.pause()
            self._timer.stop()
            self._set_state(PAUSED)

    def stop(self) -> None:
        self._stop_output()
        self._set_state(STOPPED)

    def forget(self) -> None:
        """Another file is shown: stop, and the next Play starts it from the beginning."""
        self.stop()
        self._path = None
        self._set_position(0.0)

    def set_speed(self, speed: float) -> None:
        speed = min(max(float(speed), 0.5), 2.0)
        if abs(speed - self._speed) < 1e-6:
            return
        self._speed = speed
        self.speed_changed.emit(speed)
        if self._state != STOPPED and self._path is not None:
            paused = self._state == PAUSED
            self.play_from(self._path, self._position, self._until)  # the pieces ahead at the new speed
            if paused:
                self.pause()

    # -- feeding the output --------------------------------------------------------------------

    def _decode_next(self) -> None:
        if self._path is None or self._ended or self._jobs.running("piece"):
            return
        start = self._next_piece
        end = start + PIECE_SECONDS
        if self._until is not None:
            end = min(end, self._until)
        run, path, speed = self._run, self._path, self._speed

        def work(_report: JobReport) -> np.ndarray:
            samples = decode_stretch(path, start, end)
            return change_tempo(samples, PLAYBACK_RATE, speed)

        self._jobs.start("piece", work, on_result=lambda samples: self._on_piece(run, end, samples),
                         on_failed=lambda message: run == self._run and self._fail(translated(message)))

    def _on_piece(self, run: int, end: float, samples: np.ndarray) -> None:
        if run != self._run:
            return
        if len(samples):
            self._output.add(int(self._next_piece * 1000), samples)
        self._next_piece = end
        short = len(samples) < (PIECE_SECONDS / self._speed) * PLAYBACK_RATE * 0.9
        if not len(samples) or (self._until is not None and end >= self._until) or short:
            self._ended = True  # the recording (or the stretch asked for) ends here
            self._output.end_of_input()
            if not len(samples) and not self._output.queued_sentences:
                self._on_finished()
        elif self._output.queued_sentences < _AHEAD:
            self._decode_next()

    def _tick(self) -> None:
        if self._state != PLAYING:
            return
        heard = self._output.frames_played / PLAYBACK_RATE * self._speed
        self._set_position(self._origin + heard)
        if self._output.queued_sentences < _AHEAD:
            self._decode_next()

    def _on_output_state(self, state: str) -> None:
        if state == PAUSED and self._state == PLAYING:
            self._set_state(PAUSED)

    def _on_finished(self) -> None:
        self._timer.stop()
        self._run += 1
        self._set_state(STOPPED)

    def _fail(self, sentence: str) -> None:
        self.stop()
        self.error.emit(sentence)

    def _stop_output(self) -> None:
        self._run += 1
        self._timer.stop()
        self._jobs.cancel("piece")
        self._output.stop()

    def _set_position(self, seconds: float) -> None:
        if seconds != self._position:
            self._position = seconds
            self.position_changed.emit(seconds)

    def _set_state(self, state: str) -> None:
        if state != self._state:
            self._state = state
            self.state_changed.emit(state)
