"""The app's one way to play sound: speech sentence by sentence while later sentences are still being
made, or a recording from any point (the editor's Playback feeds it).

Output goes through sounddevice (PortAudio) rather than QtMultimedia's QAudioSink: the
PySide6-Essentials wheel VoxDesk installs has no QtMultimedia, sounddevice is small, works the same
with PulseAudio, PipeWire and plain ALSA, and is what the recorder uses too. PortAudio calls back on
its own thread for more samples; that callback only copies from a queue under a lock. A timer on the
GUI thread reads the shared state and turns it into Qt signals, so no Qt call ever runs on the audio
thread.

    player.begin(sample_rate)          # a new run: forget what was queued before
    player.add(index, samples)         # each sentence as it arrives; playing starts with the first
    player.end_of_input()              # no more sentences: `finished` follows the last sample
    player.pause() / player.play() / player.stop()
"""
from __future__ import annotations

import logging
import threading
from collections import deque

import numpy as np
from PySide6.QtCore import QObject, QTimer, Signal

from desktop.core.common.i18n import N_
from desktop.core.common.system_packages import SoundUnavailable, import_sounddevice

log = logging.getLogger(__name__)

# A sound output that cannot be opened (a missing PortAudio library has its own sentence).
NO_SOUND_OUTPUT = N_("StreamPlayer", "VoxDesk cannot play sound: no speakers or headphones were found. "
                     "Check that the sound output is connected and switched on.")

STOPPED, PLAYING, PAUSED = "stopped", "playing", "paused"
_POLL_MS = 40
_BLOCK = 1024  # frames per callback: about 20-60 ms, small enough for a quick pause and stop


class StreamPlayer(QObject):
    """Plays a growing list of sentences; reports which sentence is audible."""

    sentence_changed = Signal(int)  # index of the sentence being played, -1 when none
    state_changed = Signal(str)  # "stopped", "playing" or "paused"
    started = Signal()  # the first sample of a run reached the sound device
    finished = Signal()  # every sentence of a run was played (after end_of_input)
    failed = Signal(object)  # a sentence the user can act on (a core Message)

    def __init__(self, parent: QObject | None = None, *, device: int | str | None = None) -> None:
        super().__init__(parent)
        self._device = device
        self._lock = threading.Lock()
        self._queue: deque[tuple[int, np.ndarray]] = deque()
        self._current: tuple[int, np.ndarray] | None = None
        self._offset = 0  # samples of _current already played
        self._input_done = False
        self._drained = False  # set by the audio thread when everything was played
        self._playing_index = -1
        self._frames_played = 0
        self._rate = 0
        self._stream_rate = 0
        self._stream = None
        self._state = STOPPED
        self._reported_index = -1
        self._started_reported = False
        self._autoplay = False
        self._timer = QTimer(self)
        self._timer.setInterval(_POLL_MS)
        self._timer.timeout.connect(self._poll)

    # -- what it is doing ---------------------------------------------------------------------

    @property
    def state(self) -> str:
        return self._state

    @property
    def current_sentence(self) -> int:
        return self._reported_index

    @property
    def frames_played(self) -> int:
        """Samples handed to the sound device in this run (at the device's rate)."""
        with self._lock:
            return self._frames_played

    @property
    def queued_sentences(self) -> int:
        with self._lock:
            return len(self._queue) + (1 if self._current is not None else 0)

    # -- feeding it ---------------------------------------------------------------------------

    def begin(self, sample_rate: int) -> None:
        """Start a new run at sample_rate; anything still queued from an earlier run is dropped."""
        self.stop()
        with self._lock:
            self._rate = int(sample_rate)
            self._input_done = False
            self._drained = False
            self._frames_played = 0
            self._stream_rate = 0  # known once the output is open
        self._started_reported = False
        self._autoplay = True

    def add(self, index: int, samples: np.ndarray) -> None:
        """Queue one sentence; playing starts with the first one unless the user paused."""
        audio = np.ascontiguousarray(np.asarray(samples, dtype=np.float32).reshape(-1))
        with self._lock:
            self._queue.append((index, self._resampled(audio)))
            self._drained = False
        if self._state == STOPPED and self._autoplay:
            self.play()

    def end_of_input(self) -> None:
        """No more sentences will come in this run; `finished` follows once the queue has played."""
        with self._lock:
            self._input_done = True

    # -- controls -----------------------------------------------------------------------------

    def play(self) -> None:
        """Start, or continue after a pause."""
        if self._state == PLAYING:
            return
        with self._lock:
            has_audio = self._current is not None or bool(self._queue)
        if not has_audio or not self._rate:
            return
        try:
            if self._stream is None:
                self._open_stream()
            self._stream.start()
        except SoundUnavailable as exc:
            self._cannot_play(exc.message, exc)
            return
        except Exception as exc:  # noqa: BLE001 - PortAudio raises different errors for different devices
            self._cannot_play(NO_SOUND_OUTPUT, exc)
            return
        self._set_state(PLAYING)
        self._timer.start()

    def _cannot_play(self, message, exc: Exception) -> None:
        log.warning("Sound output failed: %r", exc)
        self._close_stream()
        self._set_state(STOPPED)
        self.failed.emit(message)

    def pause(self) -> None:
        if self._state != PLAYING:
            return
        try:
            self._stream.stop()
        except Exception:  # noqa: BLE001 - a device that vanished is as good as paused
            log.warning("Pausing the sound output failed", exc_info=True)
        self._set_state(PAUSED)

    def toggle(self) -> None:
        if self._state == PLAYING:
            self.pause()
        else:
            self.play()

    def stop(self) -> None:
        """Stop at once and forget what was queued; sentences added later wait for play()."""
        self._autoplay = False
        self._timer.stop()
        self._close_stream()
        with self._lock:
            self._queue.clear()
            self._current = None
            self._offset = 0
            self._playing_index = -1
        self._set_index(-1)
        self._set_state(STOPPED)

    # -- the audio thread ---------------------------------------------------------------------

    def _open_stream(self) -> None:
        sounddevice = import_sounddevice()

        with self._lock:
            self._stream_rate = self._rate
        try:
            self._stream = sounddevice.OutputStream(
                samplerate=self._rate, channels=1, dtype="float32", blocksize=_BLOCK,
                device=self._device, callback=self._callback,
            )
        except sounddevice.PortAudioError:
            # Some devices (raw ALSA hardware) accept only their own rate: resample to it.
            rate = int(sounddevice.query_devices(self._device, "output")["default_samplerate"])
            self._stream = sounddevice.OutputStream(
                samplerate=rate, channels=1, dtype="float32", blocksize=_BLOCK,
                device=self._device, callback=self._callback,
            )
            with self._lock:
                self._stream_rate = rate
                self._queue = deque((index, self._resampled(audio)) for index, audio in self._queue)

    def _close_stream(self) -> None:
        stream, self._stream = self._stream, None
        if stream is not None:
            try:
                stream.abort()
                stream.close()
            except Exception:  # noqa: BLE001 - closing a broken device must not fail the window
                log.warning("Closing the sound output failed", exc_info=True)

    def _callback(self, outdata, frames, _time, status) -> None:
        """PortAudio's thread: fill outdata from the queue; silence while waiting for the next sentence."""
        out = outdata[:, 0]
        filled = 0
        with self._lock:
            while filled < frames:
                if self._current is None:
                    if not self._queue:
                        break
                    self._current = self._queue.popleft()
                    self._offset = 0
                    self._playing_index = self._current[0]
                samples = self._current[1]
                piece = samples[self._offset:self._offset + frames - filled]
                out[filled:filled + len(piece)] = piece
                filled += len(piece)
                self._offset += len(piece)
                self._frames_played += len(piece)
                if self._offset >= len(samples):
                    self._current = None
            out[filled:] = 0
            if filled == 0 and self._input_done and self._current is None and not self._queue:
                self._drained = True

    def _resampled(self, samples: np.ndarray) -> np.ndarray:
        """samples at the output's rate, when the device would not take the speech's own rate."""
        if not self._stream_rate or self._stream_rate == self._rate:
            return samples
        count = int(round(len(samples) * self._stream_rate / self._rate))
        positions = np.arange(count) * (self._rate / self._stream_rate)
        return np.interp(positions, np.arange(len(samples)), samples).astype(np.float32)

    # -- the GUI thread -----------------------------------------------------------------------

    def _poll(self) -> None:
        with self._lock:
            index = self._playing_index
            drained = self._drained
            played = self._frames_played
        if played and not self._started_reported:
            self._started_reported = True
            self.started.emit()
        self._set_index(index)
        if drained and self._state == PLAYING:
            self._finish()

    def _finish(self) -> None:
        self._timer.stop()
        self._close_stream()
        with self._lock:
            self._playing_index = -1
        self._set_index(-1)
        self._set_state(STOPPED)
        self.finished.emit()

    def _set_index(self, index: int) -> None:
        if index != self._reported_index:
            self._reported_index = index
            self.sentence_changed.emit(index)

    def _set_state(self, state: str) -> None:
        if state != self._state:
            self._state = state
            self.state_changed.emit(state)
