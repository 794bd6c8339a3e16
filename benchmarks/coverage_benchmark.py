"""What the second pass (uncovered speech decoded again, loops decoded again) costs on real speech.

    .venv/bin/python benchmarks/coverage_benchmark.py [--repeat 3] [--minutes 3] [--engine ct2] [--english]

The input is the real recordings of tests/data (English and Mandarin, one of them switching language
mid-recording; --english: the English ones only, where the first decoding rarely misses anything)
joined with pauses of 0.5 to 3 s, as in a meeting, to about --minutes minutes. The
same Transcriber, with the same Whisper base weights already loaded, transcribes it with the second
pass and without it (the pass replaced by one that keeps the first decoding); the best of --repeat
runs of each is compared, and the difference is printed as extra seconds per hour of audio.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

RECORDINGS = ("jfk.flac", "mixed_en_zh.wav", "lj050-0131.wav", "BAC009S0764W0121.wav", "BAC009S0764W0122.wav")
ENGLISH = ("jfk.flac", "lj050-0131.wav")
PAUSES = (0.5, 1.2, 1.8, 3.0)  # seconds, in turn: short, the kind voice detection joins, and long


def build_input(folder: Path, minutes: float, recordings: tuple[str, ...]) -> tuple[Path, float]:
    import av
    import numpy as np

    from desktop.core.common.audio import decode

    pieces = [decode(ROOT / "tests" / "data" / name) for name in recordings]
    samples: list = []
    turn = 0
    while sum(len(s) for s in samples) < minutes * 60 * 16000:
        samples += [pieces[turn % len(pieces)], np.zeros(int(PAUSES[turn % len(PAUSES)] * 16000), np.float32)]
        turn += 1
    audio = np.concatenate(samples)
    path = folder / "meeting.wav"
    with av.open(str(path), "w") as container:
        stream = container.add_stream("pcm_s16le", rate=16000, layout="mono")
        frame = av.AudioFrame.from_ndarray((audio * 32767).astype(np.int16)[None, :], format="s16", layout="mono")
        frame.rate = 16000
        for packet in [*stream.encode(frame), *stream.encode(None)]:
            container.mux(packet)
    return path, len(audio) / 16000


def timed(transcriber, path: Path, settings, repeat: int):
    best, transcript = float("inf"), None
    for _ in range(repeat):
        started = time.perf_counter()
        transcript = transcriber.transcribe_file(path, settings)
        best = min(best, time.perf_counter() - started)
    return best, transcript


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--minutes", type=float, default=3.0)
    parser.add_argument("--engine", choices=("ct2", "torch"), default="ct2")
    parser.add_argument("--english", action="store_true", help="English recordings only")
    args = parser.parse_args(argv)

    from desktop.core.gpu.fallback import FallbackLog
    from desktop.core.transcription.whisper_models import ModelStore
    from desktop.engines.transcription.review import second_pass
    from desktop.engines.transcription.transcriber import TranscribeSettings, Transcriber
    from tests.helpers.weights import base_dir

    with tempfile.TemporaryDirectory() as work:
        recordings = ENGLISH if args.english else RECORDINGS
        path, seconds = build_input(Path(work), args.minutes, recordings)
        transcriber = Transcriber(ModelStore(Path(work) / "models"), FallbackLog(), gpu_available=lambda: False)
        settings = TranscribeSettings(model=str(base_dir()), engine=args.engine, device="cpu")
        transcriber.transcribe_file(ROOT / "tests" / "data" / "jfk.flac", settings)  # load the model once

        with_pass, covered = timed(transcriber, path, settings, args.repeat)
        review = second_pass.review
        second_pass.review = lambda result, *_: second_pass.Review([(s, None) for s in result.segments])
        try:
            without_pass, plain = timed(transcriber, path, settings, args.repeat)
        finally:
            second_pass.review = review
        transcriber.release()

    hours = seconds / 3600
    print(f"audio: {seconds:.1f} s of real speech ({', '.join(recordings)}) with pauses of "
          f"{', '.join(f'{p:g}' for p in PAUSES)} s; Whisper base, {args.engine} on the CPU, best of {args.repeat}")
    print(f"without the second pass: {without_pass:.2f} s, {len(plain.segments)} segments")
    print(f"with the second pass:    {with_pass:.2f} s, {len(covered.segments)} segments, "
          f"{len(covered.gaps)} stretches left untranscribed")
    print(f"extra: {with_pass - without_pass:.2f} s ({(with_pass / without_pass - 1) * 100:+.1f} %), "
          f"{(with_pass - without_pass) / hours:.0f} s per hour of audio")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
