"""A virtual microphone on the private PulseAudio server that "speaks" a recording in real time.

It is a module-pipe-source: the test writes 16-bit samples into its pipe at the pace of real time,
and any PulseAudio client recording from it hears them as from a microphone. (The null sink's
monitor is not used for this: on the test machines it delivers audio in bursts and drops some.)
Unloading the module is unplugging the microphone.
"""
from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import numpy as np

from tests.helpers.pulseaudio import PulseAudioServer, refresh_portaudio

RATE = 48000


class SpeakingMicrophone:
    def __init__(self, server: PulseAudioServer, folder: Path, rate: int = RATE):
        self.server = server
        self.rate = rate
        self.name = f"test_speaking_mic_{time.monotonic_ns()}"
        self.fifo = Path(folder) / f"{self.name}.fifo"
        self._module: str | None = None
        self._fd: int | None = None
        self._saved_source: str | None = None
        self.stop_speaking = threading.Event()

    def plug_in(self) -> "SpeakingMicrophone":
        """Load the source and make it this process's default microphone (PULSE_SOURCE)."""
        self._module = self.server.pactl("load-module", "module-pipe-source", f"source_name={self.name}",
                                         f"file={self.fifo}", "format=s16le", f"rate={self.rate}",
                                         "channels=1").strip()
        self._saved_source = os.environ.get("PULSE_SOURCE")
        os.environ["PULSE_SOURCE"] = self.name
        refresh_portaudio()
        # Opened read-write so this never blocks, and the source never sees the writer go away.
        self._fd = os.open(self.fifo, os.O_RDWR)
        return self

    def unplug(self) -> None:
        if self._module is not None:
            self.server.pactl("unload-module", self._module)
            self._module = None
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        if self._saved_source is None:
            os.environ.pop("PULSE_SOURCE", None)
        else:
            os.environ["PULSE_SOURCE"] = self._saved_source
        refresh_portaudio()

    def __enter__(self) -> "SpeakingMicrophone":
        return self.plug_in()

    def __exit__(self, *_exc: object) -> None:
        self.stop_speaking.set()
        self.unplug()

    def say(self, samples: np.ndarray, *, then_silence: float = 0.0) -> float:
        """Write ``samples`` (at this microphone's rate) at the pace of real time; returns the
        monotonic time at which the last sample was written. Stops early if stop_speaking is set."""
        samples = np.concatenate([samples, np.zeros(int(then_silence * self.rate), np.float32)])
        pcm = (np.clip(samples, -1, 1) * 32767).astype("<i2").tobytes()
        block = self.rate // 50 * 2  # 20 ms
        started = time.monotonic()
        for start in range(0, len(pcm), block):
            if self.stop_speaking.is_set() or self._fd is None:
                break
            os.write(self._fd, pcm[start:start + block])
            ahead = started + (start + block) / (2 * self.rate) - time.monotonic()
            if ahead > 0:
                time.sleep(ahead)
        return time.monotonic()

    def say_in_background(self, samples: np.ndarray, *, then_silence: float = 0.0) -> threading.Thread:
        thread = threading.Thread(target=self.say, args=(samples,), kwargs={"then_silence": then_silence},
                                  daemon=True)
        thread.start()
        return thread
