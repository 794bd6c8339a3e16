"""Recording from a microphone with PortAudio (sounddevice): devices, live levels, stop, unplugging.

The microphone is opened at its own sample rate (what PortAudio reports as the device's default,
usually 44.1 or 48 kHz), never at 16 kHz: many USB microphones and laptop inputs accept nothing
else, and a cloning model wants the full bandwidth anyway. One channel is recorded; a device that
only offers stereo is opened in stereo and mixed down.

PortAudio calls back on its own audio thread with each block of samples. The recorder copies the
block, and keeps the peak and RMS level since the window last asked (levels()), so a meter updated
30 times a second shows every peak. When the device disappears (unplugged, or the sound server
stops), PortAudio ends the stream by itself: the recorder notices, keeps everything recorded until
then, and the Recording says so in a sentence.

sounddevice is imported inside the functions: loading it loads the PortAudio library, which a
machine without sound input may not have.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from desktop.core.common.errors import UserFacingError
from desktop.core.voices.quality import CLIP_LEVEL, dbfs
from desktop.core.common.i18n import N_
from desktop.core.common.portaudio_quiet import quiet_stderr
from desktop.core.common.system_packages import SoundUnavailable, import_sounddevice
from desktop.core.common.input_device import InputDevice
from desktop.core.common.pulse_sources import pulse_sources, source_selected

PREFERRED_RATES = (48000, 44100)  # tried when the device's own rate cannot be opened
MAX_SECONDS = 300.0  # a forgotten recording stops by itself after five minutes
STALL_SECONDS = 3.0  # no audio for this long while recording: the device is gone
FIRST_BLOCK_SECONDS = 10.0  # opening can take seconds on a busy machine before the first block
SILENCE_DBFS = -100.0

NO_INPUT = N_("Recorder", "No microphone was found. Plug in a microphone or headset, check that it is switched on, "
              "then try again.")
DEVICE_LOST = N_("Recorder", "The microphone was disconnected during the recording. What was recorded until then "
                 "has been kept.")


class RecorderError(UserFacingError):
    """The microphone could not be found, opened or read."""


@dataclass(frozen=True)
class Levels:
    peak_dbfs: float
    rms_dbfs: float
    clipping: bool  # a sample reached full scale since the last reading
    elapsed: float  # seconds recorded so far


@dataclass(frozen=True)
class Recording:
    samples: np.ndarray  # float32 mono in [-1, 1]
    sample_rate: int
    device: str
    device_lost: bool = False  # the device went away before stop() was asked for
    reached_limit: bool = False  # stopped by itself at MAX_SECONDS

    @property
    def duration(self) -> float:
        return len(self.samples) / self.sample_rate

    @property
    def note(self) -> str | None:
        """A sentence about how the recording ended, when it did not end with "Stop"."""
        if self.device_lost:
            return DEVICE_LOST
        if self.reached_limit:
            return N_("Recorder", "The recording stopped by itself after {minutes:.0f} minutes.").format(
                minutes=MAX_SECONDS / 60)
        return None


def _sounddevice():
    try:
        return import_sounddevice()
    except SoundUnavailable as exc:
        raise RecorderError(exc.message, detail=exc.detail) from exc


def refresh_devices() -> None:
    """Scan the devices again (PortAudio scans once at start; a microphone may have been plugged in).

    Must not be called while a stream is open. sounddevice documents _terminate()/_initialize()
    as the way to do this.
    """
    sd = _sounddevice()
    sd._terminate()
    sd._initialize()


def input_devices() -> list[InputDevice]:
    """Every device that can record, the system's default first."""
    sd = _sounddevice()
    try:
        devices = sd.query_devices()
    except sd.PortAudioError as exc:
        raise RecorderError(NO_INPUT, detail=str(exc)) from exc
    try:
        default_index = int(sd.query_devices(kind="input")["index"])
    except (sd.PortAudioError, ValueError):
        default_index = -1  # no default input; the first device that can record is offered first
    found = [
        InputDevice(
            index=int(info["index"]),
            name=str(info["name"]),
            channels=int(info["max_input_channels"]),
            default_rate=int(round(info["default_samplerate"])),
            is_default=int(info["index"]) == default_index,
        )
        for info in devices
        if info["max_input_channels"] > 0
    ]
    return sorted(found, key=lambda d: (not d.is_default, d.index))


def default_input_device() -> InputDevice:
    """The device to record from when the user has not chosen one; RecorderError when there is none."""
    devices = input_devices()
    if not devices:
        raise RecorderError(NO_INPUT, detail="PortAudio lists no device with input channels")
    return devices[0]


class Recorder:
    """One recording from one device: start(), watch levels(), stop() -> Recording."""

    def __init__(
        self,
        device: InputDevice | None = None,
        *,
        max_seconds: float = MAX_SECONDS,
        latency: float | str = "low",
        on_levels: Callable[[Levels], None] | None = None,
        on_block: Callable[[np.ndarray], None] | None = None,
        keep_samples: bool = True,
    ):
        self._device = device
        self._max_seconds = max_seconds
        self._latency = latency
        self._on_levels = on_levels  # called on PortAudio's thread with each block's levels
        self._on_block = on_block  # called on PortAudio's thread with each mono block, for live use
        self._keep_samples = keep_samples  # False: the caller keeps the audio (a long live session)
        self._lock = threading.Lock()
        self._blocks: list[np.ndarray] = []
        self._frames = 0
        self._rate = 0
        self._channels = 1
        self._stream: Any = None
        self._stopping = False
        self._finished = threading.Event()
        self._reached_limit = False
        self._last_block_at = 0.0
        self._peak = 0.0
        self._sum_squares = 0.0
        self._count = 0
        self._clipped = False
        self._last_levels = Levels(SILENCE_DBFS, SILENCE_DBFS, False, 0.0)

    # -- state ---------------------------------------------------------------------------------

    @property
    def device(self) -> InputDevice | None:
        return self._device

    @property
    def sample_rate(self) -> int:
        return self._rate

    @property
    def elapsed(self) -> float:
        with self._lock:
            return self._frames / self._rate if self._rate else 0.0

    @property
    def recording(self) -> bool:
        return self._stream is not None and not self._finished.is_set()

    @property
    def device_lost(self) -> bool:
        """The stream ended, or stopped delivering audio, without being asked to."""
        if self._stream is None or self._stopping or self._reached_limit:
            return False
        if self._finished.is_set():
            return True
        patience = STALL_SECONDS if self._frames else FIRST_BLOCK_SECONDS
        return time.monotonic() - self._last_block_at > patience

    @property
    def finished(self) -> bool:
        """Recording ended by itself (device lost or time limit); call stop() to collect it."""
        return self._stream is not None and (self._finished.is_set() or self.device_lost)

    def levels(self) -> Levels:
        """Peak and RMS since the previous call (the last known levels if no audio came since)."""
        with self._lock:
            elapsed = self._frames / self._rate if self._rate else 0.0
            if self._count:
                self._last_levels = Levels(
                    dbfs(self._peak), dbfs(float(np.sqrt(self._sum_squares / self._count))), self._clipped, elapsed
                )
                self._peak = self._sum_squares = 0.0
                self._count = 0
                self._clipped = False
            else:
                last = self._last_levels
                self._last_levels = Levels(last.peak_dbfs, last.rms_dbfs, last.clipping, elapsed)
            return self._last_levels

    # -- start and stop ------------------------------------------------------------------------

    def start(self) -> None:
        if self._stream is not None:
            raise RuntimeError("a Recorder records once; make a new one")
        sd = _sounddevice()
        device = self._device or default_input_device()
        self._device = device
        self._rate, self._channels = self._settings(sd, device)
        self._last_block_at = time.monotonic()
        stream = None
        try:
            # A PulseAudio source is chosen by name while PortAudio's "pulse" device opens.
            with source_selected(device.pulse_source), quiet_stderr() as said:
                stream = sd.InputStream(
                    device=device.index,
                    channels=self._channels,
                    samplerate=self._rate,
                    dtype="float32",
                    latency=self._latency,
                    callback=self._callback,
                    finished_callback=self._finished.set,
                )
                stream.start()
        except (sd.PortAudioError, ValueError) as exc:  # ValueError: the device vanished a moment ago
            if stream is not None:
                try:
                    stream.close()  # opened but not started: give the device back
                except Exception:  # noqa: BLE001 - closing a broken stream is best effort
                    pass
            raise RecorderError(
                N_("Recorder", "The microphone “{name}” could not be opened. It may be unplugged or in use by "
                               "another program. Plug it in again or choose another input, then try again.").format(
                    name=device.name),
                detail=f"{exc}\n{said.text}".strip(),
            ) from exc
        self._stream = stream

    def stop(self) -> Recording:
        """Stop (or collect a recording that ended by itself) and return everything recorded."""
        stream, lost, limit = self._stream, self.device_lost, self._reached_limit
        if stream is None:
            raise RuntimeError("stop() before start()")
        self._stopping = True
        with quiet_stderr():
            try:
                stream.stop()
            except Exception:  # noqa: BLE001 - a vanished device may fail to stop; its audio is already here
                pass
            try:
                stream.close()
            except Exception:  # noqa: BLE001 - same as above
                pass
        with self._lock:
            samples = np.concatenate(self._blocks) if self._blocks else np.zeros(0, np.float32)
        return Recording(samples=samples, sample_rate=self._rate, device=self._device.name if self._device else "",
                         device_lost=lost, reached_limit=limit)

    # -- internals -----------------------------------------------------------------------------

    def _settings(self, sd, device: InputDevice) -> tuple[int, int]:
        """The sample rate and channel count to open: the device's own rate first, then 48/44.1 kHz."""
        rates = [device.default_rate] + [r for r in PREFERRED_RATES if r != device.default_rate]
        channel_choices = [1] + ([2] if device.channels >= 2 else [])
        last_error = None
        for rate in rates:
            for channels in channel_choices:
                try:
                    with quiet_stderr():
                        sd.check_input_settings(device=device.index, channels=channels, samplerate=rate,
                                                dtype="float32")
                    return rate, channels
                except sd.PortAudioError as exc:
                    last_error = exc
                except ValueError as exc:  # sounddevice raises ValueError for a device that vanished
                    last_error = exc
        raise RecorderError(
            N_("Recorder", "The microphone “{name}” cannot be used: it accepts none of the usual recording settings. "
                           "Choose another input device.").format(name=device.name),
            detail=str(last_error),
        )

    def _callback(self, indata: np.ndarray, frames: int, _time: Any, _status: Any) -> None:
        block = indata[:, 0] if self._channels == 1 else indata.mean(axis=1)
        # Some sound servers deliver floats slightly beyond full scale; a WAV file cannot hold them.
        block = np.clip(block, -1.0, 1.0).astype(np.float32)
        peak = float(np.max(np.abs(block))) if frames else 0.0
        with self._lock:
            room = int(self._max_seconds * self._rate) - self._frames
            if room <= len(block):
                block = block[: max(room, 0)]
                self._reached_limit = True
            if self._keep_samples:
                self._blocks.append(block)
            self._frames += len(block)
            self._peak = max(self._peak, peak)
            self._sum_squares += float(np.dot(block, block))
            self._count += len(block)
            self._clipped = self._clipped or peak >= CLIP_LEVEL
            self._last_block_at = time.monotonic()
            elapsed = self._frames / self._rate
        if self._on_block is not None:
            self._on_block(block)
        if self._on_levels is not None:
            rms = float(np.sqrt(np.mean(block * block))) if len(block) else 0.0
            self._on_levels(Levels(dbfs(peak), dbfs(rms), peak >= CLIP_LEVEL, elapsed))
        if self._reached_limit:
            raise _sounddevice().CallbackStop()


def capture_devices(*, monitors: bool = True) -> list[InputDevice]:
    """What can be recorded, named as the desktop's sound settings name it.

    With a sound server: each of its sources by name (recorded through PortAudio's "pulse" device),
    the system's default first, monitors of what the computer plays last (left out when
    ``monitors`` is False). Without one (a plain ALSA system): PortAudio's inputs, the default first.
    """
    devices = input_devices()
    pulse = next((device for device in devices if device.name == "pulse"), None)
    sources = [source for source in pulse_sources(pulse) if monitors or not source.monitor]
    return sources or devices


def microphones() -> list[InputDevice]:
    """What a voice sample can be recorded from: capture_devices without what the computer plays."""
    return capture_devices(monitors=False)
