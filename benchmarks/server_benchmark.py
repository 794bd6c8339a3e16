"""Throughput of the server engine through a local faster-whisper-server at 1, 2 and 4 pieces in flight.

    .venv/bin/python benchmarks/server_benchmark.py [--speech 223] [--workers 2] [--model tiny.en|base]

The input is the real English recordings of tests/data joined with pauses of 1.5 to 4 s (so voice
activity detection cuts pieces in them) until it holds about --speech seconds of speech. A
faster-whisper-server process on 127.0.0.1 serves the test weights with --workers processes (it
decodes one request at a time per process); after one request to load the model, the same server
engine transcribes the same audio at each concurrency, in one run, so the ratios compare like with
like even on a busy machine. Written to BENCHMARKS.md as the "server" section.
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

ENGLISH = ("jfk.flac", "lj050-0131.wav")
PAUSES = (1.5, 2.5, 4.0)
CONCURRENCY = (1, 2, 4)


def build_speech(target_seconds: float):
    """The recordings in turn with pauses between them: (audio, seconds of speech in it)."""
    import numpy as np

    from tests.helpers.weights import recording

    pieces = [recording(name) for name in ENGLISH]
    parts, speech, turn = [], 0.0, 0
    while speech < target_seconds:
        piece = pieces[turn % len(pieces)]
        parts += [piece, np.zeros(int(PAUSES[turn % len(PAUSES)] * 16000), np.float32)]
        speech += piece.size / 16000
        turn += 1
    return np.concatenate(parts), speech


def run(url: str, audio, concurrency: int):
    from desktop.core.transcription.server_config import ServerConfig
    from desktop.engines.transcription.engine import TranscribeOptions
    from desktop.engines.transcription.server.engine import ServerWhisperEngine

    engine = ServerWhisperEngine(ServerConfig(url, concurrency=concurrency, timeout=600))
    try:
        started = time.perf_counter()
        result = engine.transcribe(audio, TranscribeOptions(language="en"))
        return time.perf_counter() - started, result
    finally:
        engine.close()


def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--speech", type=float, default=223.0, help="seconds of speech in the input")
    parser.add_argument("--workers", type=int, default=2, help="server processes")
    parser.add_argument("--model", choices=("tiny.en", "base"), default="tiny.en")
    args = parser.parse_args(argv)

    from report import write_section  # benchmarks/ is on sys.path when a script here runs
    from tests.helpers.weights import base_dir, tiny_en_dir
    from tests.helpers.whisper_server import RealWhisperServer

    audio, speech = build_speech(args.speech)
    weights = tiny_en_dir() if args.model == "tiny.en" else base_dir()
    rows, texts = [], {}
    with RealWhisperServer(weights, workers=args.workers) as server:
        run(server.url, audio[: 16000 * 12], args.workers)  # every worker loads its model first
        for concurrency in CONCURRENCY:
            seconds, result = run(server.url, audio, concurrency)
            texts[concurrency] = [segment.text for segment in result.segments]
            rows.append((concurrency, seconds))
            print(f"concurrency {concurrency}: {seconds:.1f} s, {speech / seconds:.1f}x real time", flush=True)
    same = all(texts[c] == texts[1] for c in CONCURRENCY)
    first = rows[0][1]
    table = "\n".join(f"| {c} | {s:.1f} s | {speech / s:.1f}× | {first / s:.2f} |" for c, s in rows)
    markdown = f"""## Transcription server: pieces in flight (benchmarks/server_benchmark.py)

{date.today().isoformat()}, {cpu_name()}, {os.cpu_count()} CPU cores shared with other work, so only the ratios
within this one run mean anything. A local faster-whisper-server (CPU, Whisper {args.model}, {args.workers}
worker processes) on 127.0.0.1; the server engine sent {speech:.0f} s of real speech (the English test
recordings with pauses, {audio.size / 16000:.0f} s in all) as pieces cut at the pauses, 1, 2 and 4 at a time.

| pieces in flight | wall time | speech per wall second | speed-up over 1 |
|---|---|---|---|
{table}

Same segments at every concurrency: {"yes" if same else "no"}. A server that decodes several requests at
once (vLLM batches them on the GPU; this one runs one per worker process) gains more from pieces in flight;
here the CPU cores were already busy decoding, so more pieces in flight mostly overlap sending with decoding.
"""
    write_section("server", markdown)
    print(markdown)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
