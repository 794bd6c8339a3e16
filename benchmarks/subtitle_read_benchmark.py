"""Reading subtitle files made elsewhere: a 150,000-cue SRT (refused: more than 20,000 subtitles), a
20,000-cue SRT (the most VoxDesk opens) and a 2 MB WebVTT file whose last cue cannot be read.

    .venv/bin/python benchmarks/subtitle_read_benchmark.py [--repeat 3] [--old REV] [--out FILE.md]

Each file is made in a temporary folder with seeded text, then read with
``subtitle_files.read_subtitles`` --repeat times, the best time kept; the peak memory is what
tracemalloc saw Python allocate during one read (the file's bytes and text included). With --old REV
the reader of that git revision (``git show REV:desktop/core/transcription/subtitle_files.py``, loaded
beside the current one) reads the same files once, for comparison: the old reader takes about a
minute to name the WebVTT file's bad line. The figures are printed as a markdown section, and
written to --out when given.
"""
from __future__ import annotations

import argparse
import importlib.util
import platform
import random
import subprocess
import sys
import tempfile
import time
import tracemalloc
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

WORDS = "the quarterly budget review has moved to thursday afternoon at three and everyone should come".split()


def _text(rng: random.Random, fewest: int = 3, most: int = 9) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(fewest, most)))


def _time(ms: int, separator: str) -> str:
    hours, ms = divmod(ms, 3_600_000)
    minutes, ms = divmod(ms, 60_000)
    seconds, ms = divmod(ms, 1000)
    return f"{hours:02d}:{minutes:02d}:{seconds:02d}{separator}{ms:03d}"


def make_srt(path: Path, cues: int) -> Path:
    """Short cues (a word or two), so that 150,000 of them make about 6 MB, as in the issue."""
    rng = random.Random(cues)
    with open(path, "w", encoding="utf-8") as out:
        for number in range(1, cues + 1):
            start = number * 1500
            out.write(f"{number}\n{_time(start, ',')} --> {_time(start + 1200, ',')}\n{_text(rng, 1, 1)}\n\n")
    return path


def make_vtt_with_a_bad_last_cue(path: Path, size: int = 2 * 1024 * 1024) -> tuple[Path, int]:
    """A WebVTT file of about `size` bytes whose last cue's end time cannot be read; and that cue's line.
    Its cues have settings and two lines of text each, so that 2 MB hold fewer than 20,000 of them."""
    rng = random.Random(size)
    blocks, written, start = ["WEBVTT\n"], 7, 0
    while written < size:
        start += 1500
        block = (f"{_time(start, '.')} --> {_time(start + 1200, '.')} line:90% align:center\n"
                 f"{_text(rng)}\n{_text(rng)}\n")
        blocks.append(block)
        written += len(block) + 1
    blocks.append(f"{_time(start + 1500, '.')} --> 00:0x:00.000\nbroken\n")
    text = "\n".join(blocks)
    path.write_text(text, encoding="utf-8")
    return path, text.count("\n", 0, text.rindex("00:0x")) + 1


def _load_old(revision: str, folder: Path):
    source = subprocess.run(["git", "show", f"{revision}:desktop/core/transcription/subtitle_files.py"],
                            cwd=ROOT, capture_output=True, text=True, check=True).stdout
    path = folder / "old_subtitle_files.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("old_subtitle_files", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _read(read, path: Path) -> str:
    """What reading the file gave: how many cues, or the sentence it was refused with."""
    from desktop.core.common.errors import UserFacingError

    try:
        return f"{len(read(path)):,} cues"
    except UserFacingError as error:
        return f"refused: {error.message}"


def best_time(read, path: Path, repeat: int) -> tuple[float, str]:
    times, said = [], ""
    for _ in range(repeat):
        began = time.perf_counter()
        said = _read(read, path)
        times.append(time.perf_counter() - began)
    return min(times), said


def peak_memory(read, path: Path) -> int:
    tracemalloc.start()
    try:
        _read(read, path)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _machine() -> str:
    try:
        found = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        return next(line.split(":", 1)[1].strip() for line in found.splitlines() if line.startswith("Model name"))
    except (OSError, StopIteration):
        return platform.processor() or platform.machine()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--old", metavar="REV", help="also time the reader of this git revision, once")
    parser.add_argument("--out", type=Path, help="write the markdown section to this file")
    args = parser.parse_args(argv)

    from desktop.core.transcription.subtitle_files import read_subtitles

    rows = []
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        films = [("150,000-cue SRT", make_srt(folder / "many.srt", 150_000)),
                 ("20,000-cue SRT", make_srt(folder / "most.srt", 20_000))]
        vtt, bad_line = make_vtt_with_a_bad_last_cue(folder / "bad.vtt")
        files = [*films, (f"2 MB WebVTT, bad cue at line {bad_line:,}", vtt)]
        old = _load_old(args.old, folder) if args.old else None
        for label, path in files:
            seconds, said = best_time(read_subtitles, path, args.repeat)
            peak = peak_memory(read_subtitles, path)
            row = [label, f"{path.stat().st_size / 1e6:.1f} MB", f"{seconds:.3f} s", f"{peak / 1e6:.0f} MB", said]
            if old is not None:
                old_seconds, old_said = best_time(old.read_subtitles, path, 1)
                row += [f"{old_seconds:.3f} s", old_said]
            rows.append(row)
            print(" | ".join(row), file=sys.stderr)

    head = ["file", "size", "read", "peak memory", "result"] + (["old read", "old result"] if old else [])
    lines = [
        "## Reading subtitle files (subs-core)", "",
        f"Machine: {_machine()}. Date: {date.today().isoformat()}. Python {platform.python_version()}.", "",
        f"Command: `python benchmarks/subtitle_read_benchmark.py --repeat {args.repeat}"
        + (f" --old {args.old}" if args.old else "") + "`", "",
        f"Best of {args.repeat} reads with `read_subtitles`; peak memory is tracemalloc's peak over one read."
        + (f" Old: the reader of {args.old}, one read." if args.old else ""), "",
        "| " + " | ".join(head) + " |", "|" + "---|" * len(head),
        *("| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows), "",
    ]
    section = "\n".join(lines)
    print(section)
    if args.out:
        args.out.write_text(section, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
