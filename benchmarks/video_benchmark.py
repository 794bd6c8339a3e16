"""Subtitles on videos, timed on this machine: burning a 1280×720, 25 fps, 60 s video (goal: at least real
time, ≤ 60 s, peak memory ≤ 800 MB) against re-encoding the same video without text (the floor), and
embedding two subtitle tracks into an hour's video (goal ≤ 10 s) against copying it without them.

    PYTHONPATH=$PWD python -m benchmarks.video_benchmark [--out FILE.md]

Each case runs in a child process of its own, so its peak memory (ru_maxrss) is its own. The hour's video
is the 60 s one copied 60 times end to end (packets, not re-encoded), as a real recording would be.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from datetime import date
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def make_minute(path: Path) -> None:
    from tests.helpers.videos import make_video

    make_video(path, seconds=60, width=1280, height=720, fps=25)


def make_hour(minute: Path, path: Path, minutes: int = 60) -> None:
    """`minutes` copies of the minute, end to end, packets copied."""
    import av

    first_dts: dict[int, int] = {}
    end: dict[int, int] = {}
    with av.open(str(minute)) as first:
        for packet in first.demux():
            if packet.dts is not None:
                first_dts.setdefault(packet.stream.index, packet.dts)
                end[packet.stream.index] = max(end.get(packet.stream.index, 0), packet.dts + (packet.duration or 0))
    length = {index: end[index] - first_dts[index] for index in end}
    with av.open(str(path), "w") as out:
        streams = {}
        for copy in range(minutes):
            with av.open(str(minute)) as source:
                if not streams:
                    streams = {s.index: out.add_stream_from_template(s) for s in source.streams}
                for packet in source.demux():
                    if packet.dts is None:
                        continue
                    shift = length[packet.stream.index] * copy
                    packet.pts += shift
                    packet.dts += shift
                    packet.stream = streams[packet.stream.index]
                    out.mux(packet)


def cues(seconds: float, every: float = 3.0):
    from desktop.core.transcription.subtitles import Cue

    lines = ["大家好，欢迎参加今天的 VoxDesk 培训", "Today we install the program together", "王经理：先打开设置"]
    return [Cue(round(t, 3), round(t + every * 0.8, 3), [lines[i % 3]]) for i, t in
            enumerate(x * every for x in range(int(seconds / every)))]


def case(kind: str, video: str, output: str) -> dict:
    """One measured run, in this (child) process."""
    import resource

    from desktop.core.video.soft_subtitles import SubtitleTrack
    from desktop.core.video.video_file import read_facts

    seconds = read_facts(video).duration
    track = SubtitleTrack(cues(seconds), "chi", "中文", "bench.srt")
    started = time.perf_counter()
    if kind in ("burn", "reencode"):
        from desktop.core.video.burn import burn
        from desktop.core.video.burn_style import BurnStyle
        from desktop.workers.subtitle_painter import SubtitlePainter, ensure_gui_application

        ensure_gui_application()
        painter = SubtitlePainter(BurnStyle()) if kind == "burn" else (lambda cue, w, h: None)
        burn(video, track, output, painter, overwrite=True)
    elif kind == "embed":
        from desktop.core.video.soft_subtitles import embed

        embed(video, [track, SubtitleTrack(cues(seconds, 4.0), "eng", "English", "bench.en.srt")], output,
              overwrite=True)
    else:  # "copy": the same packets, no subtitle tracks
        import av

        with av.open(video) as source, av.open(output, "w") as out:
            streams = {s.index: out.add_stream_from_template(s) for s in source.streams}
            for packet in source.demux():
                if packet.dts is not None:
                    packet.stream = streams[packet.stream.index]
                    out.mux(packet)
    elapsed = time.perf_counter() - started
    return {"seconds": elapsed, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "video_seconds": seconds}


def run_case(kind: str, video: Path, output: Path) -> dict:
    done = subprocess.run([sys.executable, "-m", "benchmarks.video_benchmark", "--case", kind, str(video), str(output)],
                          cwd=ROOT, capture_output=True, text=True, env=dict(os.environ, QT_QPA_PLATFORM="offscreen"))
    if done.returncode:
        raise SystemExit(done.stderr)
    return json.loads(done.stdout.strip().splitlines()[-1])


def machine() -> str:
    try:
        for line in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
            if line.startswith("Model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", nargs=3, metavar=("KIND", "VIDEO", "OUT"))
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.case:
        print(json.dumps(case(*args.case)))
        return
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        minute, hour = folder / "minute.mp4", folder / "hour.mp4"
        make_minute(minute)
        make_hour(minute, hour)
        burned = run_case("burn", minute, folder / "burned.mp4")
        floor = run_case("reencode", minute, folder / "plain.mp4")
        embedded = run_case("embed", hour, folder / "hour.mkv")
        copied = run_case("copy", hour, folder / "hour-copy.mkv")
        hour_mb = hour.stat().st_size / 1e6
    text = "\n".join([
        "## Subtitles on videos (burn and embed)", "",
        f"Machine: {machine()}, {os.cpu_count()} logical CPUs. Date: {date.today()}. "
        "Command: `PYTHONPATH=$PWD python -m benchmarks.video_benchmark`.", "",
        "| case | time | peak memory | goal | against the floor |", "|---|---|---|---|---|",
        f"| burn 1280×720, 25 fps, 60 s (libx264 CRF 18, veryfast; a cue every 3 s) | {burned['seconds']:.1f} s "
        f"({60 / burned['seconds']:.2f}× real time) | {burned['peak_mb']:.0f} MB | ≤ 60 s, ≤ 800 MB | "
        f"{burned['seconds'] / floor['seconds']:.2f}× re-encoding without text ({floor['seconds']:.1f} s, "
        f"{floor['peak_mb']:.0f} MB) |",
        f"| embed 2 tracks into a 60 min 1280×720 video ({hour_mb:.0f} MB) → MKV | {embedded['seconds']:.1f} s | "
        f"{embedded['peak_mb']:.0f} MB | ≤ 10 s | {embedded['seconds'] / copied['seconds']:.2f}× copying it without "
        f"tracks ({copied['seconds']:.1f} s) |", ""])
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
