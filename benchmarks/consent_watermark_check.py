"""How long the check for VoxDesk's watermark adds to adding a voice: the consent recording and each
sample are checked before Whisper listens (desktop.engines.voices.cloning.made_by_voxdesk).

    python -m benchmarks.consent_watermark_check [SECONDS ...]

Real speech (tests/data/jfk.flac, repeated) of each length, as the 16-bit WAV bytes enrollment checks;
PerTh is loaded once before timing. Prints one line per length: seconds of audio, seconds taken.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

RATE = 22050


def main(lengths: list[float]) -> None:
    from desktop.core.common.audio import decode
    from desktop.core.common.audio_out import encode
    from desktop.engines.voices.cloning import made_by_voxdesk

    speech = decode(Path(__file__).resolve().parents[1] / "tests" / "data" / "jfk.flac", sample_rate=RATE)
    made_by_voxdesk(encode(speech, RATE, "wav"))  # PerTh loads once per process
    for seconds in lengths:
        repeats = int(np.ceil(seconds * RATE / len(speech)))
        audio = encode(np.tile(speech, repeats)[: int(seconds * RATE)], RATE, "wav")
        started = time.perf_counter()
        marked = made_by_voxdesk(audio)
        print(f"{seconds:5.0f} s of speech: {time.perf_counter() - started:5.2f} s (marked: {marked})")


if __name__ == "__main__":
    main([float(a) for a in sys.argv[1:]] or [10.0, 30.0])
