"""Live captions: how long after the end of an utterance its committed line appears, on this CPU.

    .venv/bin/python benchmarks/live_benchmark.py [--rounds 1] [--no-report]

The real recordings of tests/data (English and Mandarin) are spoken in real time, with pauses of
1.5 to 2.5 s between them, into a virtual microphone of a private PulseAudio server (the one the
tests use); the LiveSession captures them through PortAudio exactly as from a microphone and
captions them with Whisper base (CTranslate2 int8, CPU). The latency of a line runs from the moment
the last audio of its utterance was captured to the moment the line was committed: the pause VAD
waits for, plus the final decode. Four settings are compared in one run on the same input:
language chosen, automatic language, language chosen without the changing grey line, and language
chosen with Whisper's full 30-second window instead of one sized to the utterance (short_window.py).
"""
from __future__ import annotations

import argparse
import contextlib
import datetime
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

CLIPS = (("jfk.flac", "en"), ("BAC009S0764W0121.wav", "zh"), ("lj050-0131.wav", "en"),
         ("BAC009S0764W0122.wav", "zh"))
PAUSES = (1.5, 2.5)


def speak_and_caption(server, folder: Path, engine, options_for, rounds: int):
    """Speak every clip into a live session; the committed lines, and the load average before and after."""
    import numpy as np

    from desktop.core.common.audio import decode
    from desktop.engines.transcription.live.session import LiveSession
    from tests.helpers.speaking_microphone import RATE, SpeakingMicrophone

    lines, loads = [], [os.getloadavg()[0]]
    for round_number in range(rounds):
        for turn, (name, language) in enumerate(CLIPS):
            pause = np.zeros(int(PAUSES[turn % len(PAUSES)] * RATE), np.float32)
            speech = decode(ROOT / "tests" / "data" / name, sample_rate=RATE)
            with SpeakingMicrophone(server, folder) as microphone:
                session = LiveSession(engine, options_for(language), folder=folder / "live",
                                      on_commit=lines.append)
                session.start()
                microphone.say(np.concatenate([pause, speech]), then_silence=PAUSES[-1] + 1.0)
                session.stop()
    loads.append(os.getloadavg()[0])
    return lines, loads


@contextlib.contextmanager
def full_window():
    """Live captions as they would run with Whisper's usual 30-second window for every utterance."""
    from desktop.engines.transcription.live import captioner as live

    sized = live.window_for
    live.window_for = lambda engine, seconds: contextlib.nullcontext()
    try:
        yield
    finally:
        live.window_for = sized


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=1, help="times each clip is spoken per setting")
    parser.add_argument("--no-report", action="store_true", help="print only; leave BENCHMARKS.md as it is")
    args = parser.parse_args(argv)

    from report import machine, write_section
    from desktop.engines.transcription.live.captioner import PAUSE_SECONDS, LiveOptions
    from desktop.engines.transcription.decoders.loading import load_engine
    from tests.helpers.pulseaudio import PulseAudioServer
    from tests.helpers.weights import ModelRef, base_dir

    settings = {
        "language chosen": lambda language: LiveOptions(language=language),
        "automatic language": lambda language: LiveOptions(language=None),
        "language chosen, no changing line": lambda language: LiveOptions(language=language, tentative=False),
        "language chosen, 30-second window": lambda language: LiveOptions(language=language),
    }
    engine = load_engine(ModelRef("base", "ct2", base_dir()), "ct2", "cpu")
    rows = []
    with tempfile.TemporaryDirectory() as work, PulseAudioServer(Path(work) / "pulse") as server, \
            server.activated():
        for label, options_for in settings.items():
            with full_window() if "30-second" in label else contextlib.nullcontext():
                lines, loads = speak_and_caption(server, Path(work), engine, options_for, args.rounds)
            latencies = [line.latency for line in lines]
            rows.append((label, len(latencies), statistics.median(latencies), percentile(latencies, 0.95),
                         max(latencies), loads))
            print(f"{label}: {len(latencies)} lines, median {rows[-1][2]:.2f} s, 95th percentile "
                  f"{rows[-1][3]:.2f} s, load average {loads[0]:.1f} → {loads[1]:.1f}", flush=True)
    engine.close()

    table = "\n".join(f"| {label} | {count} | {median:.2f} s | {p95:.2f} s | {worst:.2f} s | "
                      f"{loads[0]:.1f} → {loads[1]:.1f} |" for label, count, median, p95, worst, loads in rows)
    base = rows[0][2]
    ratios = ", ".join(f"{label}: {median / base:.2f}×" for label, _, median, *_ in rows[1:])
    report = f"""
## Live captions: end of utterance → committed line

`benchmarks/live_benchmark.py`, {datetime.date.today():%Y-%m-%d}, {machine()}. The recordings of tests/data
({", ".join(name for name, _ in CLIPS)}) spoken in real time with pauses of {PAUSES[0]:g}–{PAUSES[-1]:g} s
into a virtual microphone of a private PulseAudio server, captured through PortAudio and captioned by a
LiveSession with Whisper base (CTranslate2 int8, CPU); {args.rounds} round(s) per setting, all in one run.
A line's latency runs from the capture of its utterance's last audio to the line being committed: the
{PAUSE_SECONDS:g} s of silence that ends an utterance, plus its full decode (beam search, word timings, the
second pass; a Whisper window of the utterance plus 5 s, except in the last row). The load average (other programs on the same 2 cores) is shown because it
moves every figure; compare the settings by their ratio to the first.

| setting | lines | median | 95th percentile | worst | load average (before → after) |
|---|---|---|---|---|---|
{table}

Median relative to "language chosen": {ratios}.
"""
    print(report)
    if not args.no_report:
        write_section("live", report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
