"""The watermark on cloned speech (Resemble AI's PerTh, as desktop.engines.voices.watermark applies it).

    .venv/bin/python benchmarks/watermark_benchmark.py [--data FOLDER] [--json FILE]

For every real recording in the test data folder (tests/data, or --data; its speakers/ included):

- detection: the recording marked at the rate of a cloning engine's output (XTTS v2: 24 kHz,
  OpenVoice v2: 22.05 kHz), saved the way VoxDesk saves speech (16-bit WAV, and MP3 at 64 kbit/s with
  the project's MP3 writer), read back with desktop.core.common.audio and checked;
- false positives: the same recordings unmarked, as they are;
- signal-to-noise ratio of the mark: the power of the speech over the power of what marking changed;
- cost: seconds spent per second of audio on the CPU to mark it (apply_watermark checks its own
  result, so this includes one detection), as wall-clock time and as CPU time of all threads.

Real speech stands in for a cloned voice here: the mark is added after the engine speaks, so only the
sound matters, and the tiny random test models speak noise.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

ENGINE_RATES = {"XTTS v2": 24000, "OpenVoice v2": 22050}
EXTENSIONS = {".wav", ".flac", ".mp3"}


def recordings(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.suffix.lower() in EXTENSIONS and p.is_file())


def measure(paths: list[Path]) -> dict:
    from desktop.core.common.audio import decode
    from desktop.core.common.audio_out import encode
    from desktop.engines.voices.watermark import DETECTION_THRESHOLD, apply_watermark, watermark_score

    apply_watermark(decode(paths[0], sample_rate=24000), 24000)  # load the network before timing
    rows, cost_seconds, wall_seconds, audio_seconds, snrs = [], 0.0, 0.0, 0.0, []
    with tempfile.TemporaryDirectory() as scratch:
        for path in paths:
            row = {"file": path.name, "unmarked": watermark_score(decode(path, sample_rate=32000), 32000)}
            for engine, rate in ENGINE_RATES.items():
                speech = decode(path, sample_rate=rate)
                started, wall = time.process_time(), time.perf_counter()
                marked = apply_watermark(speech, rate)
                cost_seconds += time.process_time() - started
                wall_seconds += time.perf_counter() - wall
                audio_seconds += len(speech) / rate
                snrs.append(snr_db(speech, marked))
                for fmt in ("wav", "mp3"):
                    saved = Path(scratch) / f"{path.stem}-{rate}.{fmt}"
                    saved.write_bytes(encode(marked, rate, fmt))
                    row[f"{engine} {fmt}"] = watermark_score(decode(saved, sample_rate=32000), 32000)
            rows.append(row)
    marked_keys = [f"{engine} {fmt}" for engine in ENGINE_RATES for fmt in ("wav", "mp3")]
    return {
        "threshold": DETECTION_THRESHOLD,
        "files": rows,
        "detected": {key: sum(r[key] >= DETECTION_THRESHOLD for r in rows) for key in marked_keys},
        "false_positives": sum(r["unmarked"] >= DETECTION_THRESHOLD for r in rows),
        "count": len(rows),
        "lowest_marked_score": min(r[key] for r in rows for key in marked_keys),
        "highest_unmarked_score": max(r["unmarked"] for r in rows),
        "snr_db": {"median": statistics.median(snrs), "min": min(snrs), "max": max(snrs)},
        "cpu_seconds_per_audio_second": cost_seconds / audio_seconds,
        "wall_seconds_per_audio_second": wall_seconds / audio_seconds,
        "threads": torch_threads(),
    }


def torch_threads() -> int:
    import torch

    return torch.get_num_threads()


def snr_db(speech, marked) -> float:
    import numpy as np

    change = np.asarray(marked, dtype=np.float64) - speech
    return float(10 * np.log10(np.sum(np.square(speech, dtype=np.float64)) / max(np.sum(change ** 2), 1e-20)))


def report(result: dict) -> None:
    print(f"{'file':<26} {'unmarked':>8}  " + "  ".join(f"{k:>16}" for k in result["detected"]))
    for row in result["files"]:
        print(f"{row['file']:<26} {row['unmarked']:>8.2f}  " + "  ".join(f"{row[k]:>16.2f}" for k in result["detected"]))
    n = result["count"]
    print(f"\nDetection threshold: score >= {result['threshold']}")
    for key, found in result["detected"].items():
        print(f"Detected, {key}: {found}/{n}")
    print(f"False positives on the unmarked recordings: {result['false_positives']}/{n}")
    print(f"Lowest score of a marked file: {result['lowest_marked_score']:.2f}; highest of an unmarked one: "
          f"{result['highest_unmarked_score']:.2f}")
    snr = result["snr_db"]
    print(f"SNR of the mark: median {snr['median']:.1f} dB (min {snr['min']:.1f}, max {snr['max']:.1f})")
    print(f"Cost on the CPU: {result['wall_seconds_per_audio_second']:.3f} s (wall clock) and "
          f"{result['cpu_seconds_per_audio_second']:.3f} s (CPU time, {result['threads']} threads) per second of audio")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=ROOT / "tests" / "data")
    parser.add_argument("--json", type=Path, help="also write the numbers here")
    args = parser.parse_args()
    paths = recordings(args.data)
    if not paths:
        print(f"No recordings in {args.data}.", file=sys.stderr)
        return 1
    result = measure(paths)
    report(result)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
