"""A sound input PortAudio offers, or a source of the sound server recorded through its "pulse" device."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class InputDevice:
    index: int  # PortAudio's device number
    name: str
    channels: int  # input channels the device offers
    default_rate: int  # the device's own sample rate
    is_default: bool = False
    # A PulseAudio/PipeWire source recorded through PortAudio's "pulse" device (pulse_sources.py).
    pulse_source: str | None = None
    monitor: bool = False  # the source hears what the computer plays, not a microphone

    @property
    def label(self) -> str:
        """The name to show: the sound server's description as it is, a PortAudio device with its rate."""
        if self.pulse_source is not None:
            return self.name
        return f"{self.name} ({self.default_rate / 1000:g} kHz)"
