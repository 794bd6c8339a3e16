"""The window opening a large transcript: the worst block of its thread, the time until every row is in
the table, and the peak memory.

    .venv/bin/python benchmarks/subtitle_window_benchmark.py [--cues 20000] [--segments 150000] [--profile]

Two cases, each in a fresh process with Qt offscreen and the window as the app builds it (a throw-away
data folder and settings file):

* ``cues``: an SRT of --cues cues (two short lines each, one every 3 s) made here, opened through
  File → Open subtitles… as the transcript of a one-second WAV named like it; timed from the call to the
  moment the table counts every cue.
* ``segments``: a transcript of --segments segments put straight into the transcript panel (as a long
  recording transcribed by VoxDesk is), timed the same way.

Meanwhile a QTimer ticks every 20 ms on the window's thread; the worst gap between two ticks is the
longest the window could not answer, until the last row is in the table and in the three seconds
after it (when the autosave writes an opened file's transcript). Peak memory is the process's ru_maxrss
at the end. --profile writes a cProfile of the window's thread to the console (the 25 costliest calls by
their own time).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import wave
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TICK_MS = 20


def srt_text(cues: int) -> str:
    def stamp(seconds: float) -> str:
        millis = int(round(seconds * 1000))
        hours, rest = divmod(millis, 3_600_000)
        minutes, rest = divmod(rest, 60_000)
        secs, millis = divmod(rest, 1000)
        return f"{hours:02d}:{minutes:02d}:{secs:02d},{millis:03d}"
    return "".join(f"{n + 1}\n{stamp(n * 3)} --> {stamp(n * 3 + 2.5)}\nLine {n + 1} of the meeting,\n"
                   f"what was said there.\n\n" for n in range(cues))


def one_second_wav(path: Path) -> Path:
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(16000)
        out.writeframes(b"\0\0" * 16000)
    return path


class GapMeter:
    """A timer ticking every TICK_MS on the window's thread: the longest time between two ticks."""

    def __init__(self):
        from PySide6.QtCore import QTimer

        self.worst = 0.0
        self._last = time.perf_counter()
        self._timer = QTimer()
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self._tick)
        self._timer.start()

    def _tick(self) -> None:
        now = time.perf_counter()
        self.worst = max(self.worst, now - self._last)
        self._last = now

    def stop(self) -> None:
        self._timer.stop()
        self._tick()


def run_case(case: str, size: int, profile: bool) -> dict:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    work = Path(tempfile.mkdtemp(prefix="voxdesk-bench-"))
    os.environ["VOXDESK_DATA_DIR"] = str(work / "data")
    os.environ["XDG_CONFIG_HOME"] = str(work / "config")
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from desktop.app import create_app
    from desktop.settings import Settings

    settings = Settings(QSettings(str(work / "voxdesk.ini"), QSettings.Format.IniFormat))
    settings.set("device/choice", "cpu")
    app, window = create_app([], settings=settings)
    window.resize(1200, 800)
    window.show()
    tab = window.transcribe_tab
    deadline = time.perf_counter() + 30
    while not tab.saved_work.is_restored and time.perf_counter() < deadline:
        app.processEvents()
    model = tab.transcript_panel.segments_model
    recording = one_second_wav(work / "talk.wav")
    if case == "cues":
        subtitles = work / "talk.srt"
        subtitles.write_text(srt_text(size), encoding="utf-8")
    else:
        from desktop.core.transcription.transcript import Segment, Transcript
        from desktop.workers.transcription_queue import ItemState, QueueItem

        transcript = Transcript(segments=[Segment(start=n * 3.0, end=n * 3 + 2.5,
                                                  text=f" Line {n + 1} of the meeting, what was said there.")
                                          for n in range(size)], language="en", duration=size * 3.0)
    profiler = None
    if profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    meter = GapMeter()
    started = time.perf_counter()
    if case == "cues":
        tab.subtitle_import.open(subtitles, recording)
    else:
        item = QueueItem(path=recording)
        item.state, item.progress = ItemState.DONE, 1.0
        item.transcript, item.segments = transcript, transcript.segments
        tab.queue.restore(item)
        tab.queue_view.selectRow(tab.queue_model.row_of(item))
    limit = started + 600
    while model.rowCount() < size and time.perf_counter() < limit:
        app.processEvents()
        time.sleep(0.001)
    all_rows = time.perf_counter() - started
    meter.stop()
    # Three seconds more, for what the window does after the last row: the cue warnings' idle work, and
    # the autosave writing an opened file's transcript (its JSON encoding holds Python's lock meanwhile).
    after = GapMeter()
    settle = time.perf_counter() + 3.0
    while time.perf_counter() < settle:
        app.processEvents()
        time.sleep(0.001)
    after.stop()
    if profiler is not None:
        import pstats

        profiler.disable()
        pstats.Stats(profiler, stream=sys.stderr).sort_stats("tottime").print_stats(25)
    shown = model.rowCount()
    window.close()
    return {"case": case, "size": size, "rows_shown": shown, "all_rows_s": round(all_rows, 2),
            "worst_block_s": round(meter.worst, 3), "worst_block_after_s": round(after.worst, 3),
            "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cues", type=int, default=20_000)
    parser.add_argument("--segments", type=int, default=150_000)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--one", nargs=2, metavar=("CASE", "SIZE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_case(args.one[0], int(args.one[1]), args.profile)))
        return
    for case, size in (("cues", args.cues), ("segments", args.segments)):
        command = [sys.executable, __file__, "--one", case, str(size)] + (["--profile"] if args.profile else [])
        done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
        if args.profile:
            sys.stderr.write(done.stderr)
        lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
        print(lines[-1] if lines else f"{case} {size}: failed (exit {done.returncode})\n{done.stderr[-2000:]}")


if __name__ == "__main__":
    main()
