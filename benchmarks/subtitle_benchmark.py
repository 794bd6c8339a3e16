"""The SRT writer on one very long segment: 2,000, 8,000 and 32,000 words (and as many Chinese characters).

    .venv/bin/python benchmarks/subtitle_benchmark.py [--repeat 3] [--old REV|none] [--old-up-to 8000]

A segment that long comes from a server's runaway answer or from a long text pasted into one line of
the editor; it is written as subtitles like any other (cues of at most two lines, split evenly, Chinese
line rules). The text is the same seeded random English words (or Chinese sentences with their
punctuation) for every size, without word timings, as after an edit. Each size is rendered as SRT
(``subtitles.render``) --repeat times, best kept. With --old REV the writer of that git revision
(``git show REV:desktop/core/transcription/subtitles.py``, loaded beside the current one) is timed in
the same run on the same text, up to --old-up-to words: the ratios compare like with like even on a
busy machine. The old writer is quadratic: 32,000 words take it most of an hour, so by default it runs up
to 8,000. Written to BENCHMARKS.md as the "subtitles" section.
"""
from __future__ import annotations

import argparse
import importlib.util
import random
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SIZES = (2_000, 8_000, 32_000)
LAST_QUADRATIC = "14417e2"  # the last revision whose writer asked about the whole rest of a segment for each cue
VOCABULARY = ("the quarterly budget review has moved to thursday afternoon at three and everyone in the "
              "finance team should bring their numbers").split()
ZH = "甚至出现交易几乎停滞的情况，一二线城市虽然也处于调整中。大家对后市的看法出现了分歧，有人认为会继续下跌；"


def english(words: int) -> str:
    rng = random.Random(words)
    return " " + " ".join(rng.choice(VOCABULARY) for _ in range(words))


def chinese(characters: int) -> str:
    return (ZH * (characters // len(ZH) + 1))[:characters]


def old_writer(revision: str):
    """The subtitles module of ``revision``, loaded under another name beside the current one; None
    outside a git checkout that has it."""
    try:
        source = subprocess.run(["git", "show", f"{revision}:desktop/core/transcription/subtitles.py"], cwd=ROOT,
                                check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        print(f"the writer of {revision} is not available ({error}); timing the current one only", file=sys.stderr)
        return None
    path = Path(tempfile.mkdtemp()) / "subtitles_old.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("subtitles_old", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


class _WidthLookups:
    """unicodedata for the writer, counting the characters it measures: every width and every line
    break it decides on needs one. The count does not depend on how busy the machine is."""

    def __init__(self) -> None:
        import unicodedata

        self._unicodedata = unicodedata
        self.count = 0

    def __getattr__(self, name):
        return getattr(self._unicodedata, name)

    def east_asian_width(self, ch: str) -> str:
        self.count += 1
        return self._unicodedata.east_asian_width(ch)


def lookups(writer, text: str, language: str) -> int:
    """How many characters the writer measures to write ``text`` (one untimed run)."""
    counter, real = _WidthLookups(), writer.unicodedata
    writer.unicodedata = counter
    try:
        best_of(writer, text, language, 1)
    finally:
        writer.unicodedata = real
    return counter.count


def best_of(writer, text: str, language: str, repeat: int) -> float:
    from desktop.core.transcription.transcript import Segment, Transcript

    transcript = Transcript(segments=[Segment(0.0, len(text) / 15, text)], language=language)
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        writer.render(transcript, "srt")
        best = min(best, time.perf_counter() - started)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5, help="runs per size; the best is kept")
    parser.add_argument("--old", metavar="REV", default=LAST_QUADRATIC,
                        help="also time the writer of this git revision ('none': do not)")
    parser.add_argument("--old-up-to", type=int, default=8_000, help="the largest size to time the old writer on")
    args = parser.parse_args(argv)

    from report import machine, write_section  # benchmarks/ is on sys.path when a script here runs

    from desktop.core.transcription import subtitles

    old = old_writer(args.old) if args.old and args.old != "none" else None
    rows = []
    for kind, make, language, unit in (("English", english, "en", "words"), ("Chinese", chinese, "zh", "characters")):
        first = None
        for size in SIZES:
            text = make(size)
            new_seconds = best_of(subtitles, text, language, args.repeat)
            first = first or new_seconds
            old_seconds = best_of(old, text, language, 1) if old and size <= args.old_up_to else None
            per_character = lookups(subtitles, text, language) / len(text)
            rows.append((kind, size, unit, len(text), new_seconds, new_seconds / first * SIZES[0] / size,
                         per_character, old_seconds))
            print(f"{kind} {size} {unit}: {new_seconds:.3f} s"
                  + (f", old {old_seconds:.2f} s" if old_seconds is not None else ""), flush=True)

    def old_cells(new_seconds: float, old_seconds: float | None) -> str:
        if old_seconds is None:
            return "| – | – |" if old else "|"
        return f"| {old_seconds:.2f} s | {old_seconds / new_seconds:.0f}× |"

    header = "| segment | characters | SRT writer | time per word (character) vs 2,000 | characters measured per character |"
    rule = "|---|---|---|---|---|"
    if old:
        header += f" writer of {args.old} | old ÷ new |"
        rule += "---|---|"
    table = "\n".join(
        f"| {size:,} {kind} {unit} | {characters:,} | {seconds:.3f} s | {per_unit:.2f} | {measured:.1f} "
        f"{old_cells(seconds, old_s)}"
        for kind, size, unit, characters, seconds, per_unit, measured, old_s in rows)
    markdown = f"""## Subtitles: one very long segment (benchmarks/subtitle_benchmark.py)

{date.today().isoformat()}, {machine()}; cores shared with other work, so only the ratios within this one run
mean anything. One segment of seeded random English words (or Chinese sentences with their punctuation),
without word timings, rendered as SRT with the default line limits (two lines of 42 columns, 18 Chinese
characters); best of {args.repeat}{", the old writer once" if old else ""}. "Time per word (character) vs 2,000" is relative to
the 2,000 row of its script: 1.00 means linear, 4.00 at 8,000 and 16.00 at 32,000 quadratic. "Characters
measured per character" counts the width lookups (unicodedata.east_asian_width) the current writer makes,
which every width and line break needs; unlike the times it does not depend on how busy the machine is.

{header}
{rule}
{table}
"""
    write_section("subtitles", markdown)
    print(markdown)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
