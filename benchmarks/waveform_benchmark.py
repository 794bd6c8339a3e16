"""The waveform strip for a two-hour recording: computing its outline, and painting it.

    .venv/bin/python benchmarks/waveform_benchmark.py [--repeat 20] [--hours 2]

The recording is tests/data/jfk.flac (11 s of speech) repeated to --hours as a 16 kHz mono WAV, written
to a temporary folder. The outline (core.transcription.waveform.compute_peaks, the decoder the app uses)
is computed once, as the window does on a worker thread; its time and the process's peak memory are
reported. The strip (ui.transcribe.editor.waveform_strip.WaveformCanvas, 1366×72 pixels, offscreen) is then
painted --repeat times into an image with a transcript of one line every 3 s (2,400 lines for two hours,
two speakers), at the opening zoom (30 s across, in the middle of the recording) and with the whole
recording across; best and median kept. Written to BENCHMARKS.md as the "waveform" section.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
import wave
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def write_recording(path: Path, hours: float) -> None:
    import numpy as np

    from desktop.core.common import audio

    speech = (audio.decode(ROOT / "tests" / "data" / "jfk.flac") * 32767).astype("<i2").tobytes()
    seconds_each = len(speech) / 2 / audio.SAMPLE_RATE
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(audio.SAMPLE_RATE)
        for _ in range(int(np.ceil(hours * 3600 / seconds_each))):
            out.writeframes(speech)


def transcript_of(duration: float):
    from desktop.core.transcription.transcript import Segment, Transcript

    segments = [Segment(start, start + 2.5, f" line {n}", speaker=1 + n % 2)
                for n, start in enumerate(x * 3.0 for x in range(int(duration // 3)))]
    return Transcript(segments=segments, language="en", duration=duration)


def paint_times(canvas, image, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        canvas.render(image)
        times.append(time.perf_counter() - began)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--hours", type=float, default=2.0)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from report import machine, write_section

    from desktop.core.transcription.waveform import compute_peaks

    with tempfile.TemporaryDirectory() as folder:
        recording = Path(folder) / "meeting.wav"
        write_recording(recording, args.hours)
        size_mb = recording.stat().st_size / 2**20
        memory_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        began = time.perf_counter()
        peaks = compute_peaks(recording)
        peaks_seconds = time.perf_counter() - began
        memory_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    from PySide6.QtGui import QImage
    from PySide6.QtWidgets import QApplication

    from desktop.ui.transcribe.editor.waveform_strip import WaveformCanvas

    app = QApplication.instance() or QApplication([])
    canvas = WaveformCanvas()
    canvas.resize(1366, 72)
    transcript = transcript_of(peaks.duration)
    canvas.show_recording(peaks.duration, transcript)
    canvas.set_peaks(peaks)
    image = QImage(canvas.size(), QImage.Format.Format_ARGB32_Premultiplied)
    canvas.scroll_to(peaks.duration / 2)
    canvas.set_playhead(peaks.duration / 2 + 5)
    opening = paint_times(canvas, image, args.repeat)
    canvas.zoom(1e-6, 0)  # as far out as it goes: the whole recording across
    whole = paint_times(canvas, image, args.repeat)
    app.processEvents()

    def cells(times: list[float]) -> str:
        return f"{min(times) * 1000:.1f} ms | {statistics.median(times) * 1000:.1f} ms"

    hours = f"{peaks.duration / 3600:.2f} h"
    markdown = f"""
## Waveform strip: a two-hour recording (benchmarks/waveform_benchmark.py)

{date.today().isoformat()}, {machine()}; cores shared with other work. The recording: tests/data/jfk.flac
repeated to {hours} ({peaks.duration:,.0f} s), a 16 kHz mono WAV of {size_mb:,.0f} MB. The outline is computed
once, on a worker thread in the window (here on the main thread, alone); the strip, 1366×72 pixels, is
painted offscreen {args.repeat} times with {len(transcript.segments):,} lines (two speakers) over it.

| step | best | median |
|---|---|---|
| outline of {hours} (decode at 8 kHz + {peaks.bins_per_second} peaks a second), once | {peaks_seconds:.2f} s | – |
| paint, opening zoom (30 s across, middle of the recording) | {cells(opening)} |
| paint, whole recording across | {cells(whole)} |

Peak memory of the process grew from {memory_before:,.0f} MiB to {memory_after:,.0f} MiB while the outline was
computed (the sound is read a minute at a time; the outline itself is {peaks.high.nbytes * 2 / 2**20:.1f} MiB).
"""
    print(markdown)
    write_section("waveform", markdown)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
