"""One live-caption session: the microphone, the recording on disk, and the captioner, on two threads.

PortAudio's thread only queues each block. The capture thread writes every block to the FLAC file
at once (so the recording never waits for Whisper) and hands it on at 16 kHz; the caption thread
feeds the captioner, which may spend a second or two decoding. Stopping stops the microphone, then
both threads finish everything still queued before they end: no audio that was captured is ever
dropped, from the file or from the captions. A microphone that goes away mid-session ends it the
same way, with a sentence saying so.
"""
from __future__ import annotations

import datetime
import logging
import queue
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from desktop.core.common.audio import SAMPLE_RATE
from desktop.core.common.errors import UserFacingError
from desktop.core.common.i18n import N_
from desktop.core.common.pulse_sources import recording_streams
from desktop.core.common.recorder import InputDevice, Recorder
from desktop.core.transcription.live_capture import DEFAULT_TITLE, CaptureFile, live_dir, session_path
from desktop.core.transcription.live_lines import CommittedLine, LiveLines
from desktop.engines.transcription.engine import WhisperEngine
from desktop.engines.transcription.live.captioner import LiveCaptioner, LiveOptions

log = logging.getLogger(__name__)

MAX_SESSION_SECONDS = 12 * 3600.0  # a forgotten session stops by itself after twelve hours
_END = None  # put on a queue after the last block

DEVICE_LOST = N_("LiveSession", "The input device was disconnected, so live captions stopped. Everything "
                                "recorded until then has been kept.")
SOURCE_CHANGED = N_("LiveSession",
                    "“{name}” went away (unplugged or switched off), so live captions stopped rather than go on "
                    "listening to another input. Everything recorded until then has been kept.")
SOURCE_CHECK_SECONDS = 1.0  # how often the sound server is asked which source the session records from
CAPTIONS_FAILED = N_("LiveSession", "Live captions stopped working ({reason}). The recording goes on and is "
                                    "kept; stop it, and it is transcribed in full.")


@dataclass
class LiveResult:
    recording: Path  # the FLAC file, complete
    seconds: float  # how much is in the file
    captured: float  # how much the device delivered: the same, since nothing is dropped
    lines: LiveLines
    note: str | None = None  # how the session ended, when it did not end with Stop


class LiveSession:
    def __init__(self, engine: WhisperEngine, options: LiveOptions, *, device: InputDevice | None = None,
                 folder: Path | None = None, title: str = DEFAULT_TITLE, recording: Path | None = None,
                 on_commit: Callable[[CommittedLine], None] | None = None,
                 on_tentative: Callable[[str], None] | None = None,
                 on_problem: Callable[[str], None] | None = None,
                 on_warning: Callable[[str], None] | None = None,
                 recorder_factory: Callable[..., Recorder] = Recorder):
        self._engine = engine
        self._options = options
        self._device = device
        self._folder = folder if folder is not None else live_dir()
        self._title = title  # the recording's name before its date, in the interface's language
        self._recording = recording  # the file to record to, instead of a new name in folder
        self._on_problem = on_problem
        self._make_recorder = recorder_factory
        self._captioner = LiveCaptioner(engine, options, on_commit=on_commit, on_tentative=on_tentative,
                                        on_warning=on_warning)
        self._blocks: queue.Queue = queue.Queue()  # device-rate blocks, from PortAudio's thread
        self._speech: queue.Queue = queue.Queue()  # (16 kHz samples, time captured) for the captioner
        self._recorder: Recorder | None = None
        self._capture: CaptureFile | None = None
        self._threads: list[threading.Thread] = []
        self._stop_asked = threading.Event()
        self._ended = threading.Event()  # the capture thread has written its last block
        self._note: str | None = None
        self._result: LiveResult | None = None
        self._sources: dict[int, str] = {}  # the sound server's stream of this session -> its source

    @property
    def lines(self) -> LiveLines:
        return self._captioner.lines

    @property
    def recording_path(self) -> Path | None:
        return self._capture.path if self._capture else None

    @property
    def seconds(self) -> float:
        return self._capture.seconds if self._capture else 0.0

    @property
    def ended(self) -> bool:
        """The capture is over (stopped, or the device went away); stop() collects the result."""
        return self._ended.is_set()

    def start(self) -> None:
        recorder = self._make_recorder(self._device, max_seconds=MAX_SESSION_SECONDS, on_block=self._blocks.put,
                                       keep_samples=False)
        streams_before = recording_streams()
        recorder.start()  # raises RecorderError with its sentence; nothing is created then
        # The sound server's stream this session opened, and the source it records from.
        self._sources = {number: source for number, source in recording_streams().items()
                         if number not in streams_before}
        try:
            path = self._recording or session_path(self._folder, datetime.datetime.now(), self._title)
            self._capture = CaptureFile(path, recorder.sample_rate)
        except UserFacingError:
            recorder.stop()
            raise
        self._recorder = recorder
        self._threads = [threading.Thread(target=self._capture_loop, name="live capture", daemon=True),
                         threading.Thread(target=self._caption_loop, name="live captions", daemon=True)]
        if self._sources:
            self._threads.append(threading.Thread(target=self._watch_source, name="live source", daemon=True))
        for thread in self._threads:
            thread.start()

    def stop(self) -> LiveResult:
        """Stop the microphone, caption and write everything captured, close the file. Waits for
        the last decode (a second or two): call it off the GUI thread."""
        if self._result is not None:
            return self._result
        if self._recorder is None:
            raise RuntimeError("stop() before start()")
        self._stop_asked.set()
        recording = self._recorder.stop()  # no block comes after this returns
        if recording.device_lost and self._note is None:
            self._note = DEVICE_LOST
        self._blocks.put(_END)
        for thread in self._threads:
            thread.join()
        path = self._capture.close()
        self._result = LiveResult(recording=path, seconds=self._capture.seconds, captured=self._recorder.elapsed,
                                  lines=self.lines, note=self._note)
        return self._result

    # -- the threads ---------------------------------------------------------------------------

    def _capture_loop(self) -> None:
        resampler = _To16k(self._recorder.sample_rate)
        try:
            while True:
                try:
                    block = self._blocks.get(timeout=0.25)
                except queue.Empty:
                    self._check_device()
                    continue
                if block is _END:
                    self._speech.put((resampler.flush(), time.monotonic()))
                    break
                self._capture.write(block)
                self._speech.put((resampler(block), time.monotonic()))
        except UserFacingError as error:  # the disk is full: what is written is kept
            self._tell(error.message)
        finally:
            self._ended.set()
            self._speech.put(_END)

    def _check_device(self) -> None:
        recorder = self._recorder
        if not self._stop_asked.is_set() and recorder.finished and self._note is None:
            self._note = DEVICE_LOST if recorder.device_lost else None
            if self._note:
                self._tell(self._note)
            self._blocks.put(_END)  # nothing more will come; the session ends like a Stop

    def _watch_source(self) -> None:
        """End the session when the sound server moved its stream to another source: the chosen one
        went away, and recording on from whatever the server falls back to is not what was asked for."""
        while not self._stop_asked.wait(SOURCE_CHECK_SECONDS) and not self._ended.is_set():
            now = recording_streams()
            moved = [source for number, source in self._sources.items() if number in now and now[number] != source]
            if moved and self._note is None and not self._stop_asked.is_set():
                device = self._recorder.device
                name = device.name if device is not None and device.pulse_source else moved[0]
                self._note = SOURCE_CHANGED.format(name=name)
                log.info("The sound server moved the live stream from %s to %s", moved[0], now)
                self._tell(self._note)
                self._blocks.put(_END)  # what comes from the other source is not recorded
                return

    def _caption_loop(self) -> None:
        captioner, broken = self._captioner, False
        while True:
            item = self._speech.get()
            if item is _END:
                break
            if broken:
                continue  # the recording goes on; the full pass after Stop transcribes it
            samples, captured_at = item
            try:
                captioner.feed(samples, captured_at)
            except Exception as error:  # noqa: BLE001 - the model failed; the recording must go on
                log.exception("live captions failed")
                broken = True
                reason = error.message if isinstance(error, UserFacingError) else type(error).__name__
                self._tell(CAPTIONS_FAILED.format(reason=reason))
        if not broken:
            try:
                captioner.finish()
            except Exception:  # noqa: BLE001 - the recording is complete anyway
                log.exception("the last live caption failed")

    def _tell(self, message: str) -> None:
        if self._on_problem is not None:
            self._on_problem(message)


class _To16k:
    """Resamples blocks at the device's rate to 16 kHz as they come (PyAV's resampler keeps its state
    between blocks, so the joins are seamless)."""

    def __init__(self, rate: int):
        import av

        self._rate = rate
        self._resampler = av.AudioResampler(format="flt", layout="mono", rate=SAMPLE_RATE)
        self._pts = 0

    def __call__(self, block: np.ndarray) -> np.ndarray:
        import av

        frame = av.AudioFrame.from_ndarray(np.ascontiguousarray(block, dtype=np.float32).reshape(1, -1),
                                           format="flt", layout="mono")
        frame.sample_rate = self._rate
        frame.pts = self._pts
        self._pts += block.size
        return self._collect(self._resampler.resample(frame))

    def flush(self) -> np.ndarray:
        return self._collect(self._resampler.resample(None))

    @staticmethod
    def _collect(frames) -> np.ndarray:
        parts = [frame.to_ndarray().reshape(-1) for frame in frames]
        return np.concatenate(parts).astype(np.float32) if parts else np.zeros(0, np.float32)
