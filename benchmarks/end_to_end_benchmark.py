"""Speed as the user gets it: whole processes, start to finish, against faster-whisper run the same way.

    .venv/bin/python benchmarks/end_to_end_benchmark.py [--seconds 223] [--queue 3x60] [--pairs 2]
                                                        [--old-tree DIR] [--out FILE]

Rows (Whisper base, CPU, int8, beam 5, English chosen, word timings and voice activity detection on):

- ``voxdesk transcribe FILE`` on one file of about --seconds of English speech (the recordings of
  tests/data in turn with pauses, as ``batched_benchmark.english_speech``): a fresh command-line
  process, its engine process, the model loaded, the file decoded, its subtitles written;
- the same with ``--batch-size 1`` (one window after another);
- faster-whisper's sequential decoding the same way: a fresh process that imports it, loads the same
  weights, transcribes (beam 5, VAD, word timings) and writes an SRT;
- the window's queue of several files (--queue COUNTxSECONDS): one Transcriber, as the window keeps
  it, the model loaded once in its engine process, the files one after another; against one
  faster-whisper process transcribing the same files in turn.

VoxDesk's modules are compiled to bytecode first (``compiled``), as on a user's computer from the
second start on. The machine may be shared: each round runs every contender once, in turn, and the table gives the
median of the rounds and each VoxDesk row's ratio to faster-whisper's within each round (its median).
With --old-tree, the same commands of another checkout (VoxDesk before a change) join each round, so
old and new are measured side by side. A stage table says where VoxDesk's own time goes in one file:
the command's imports, the engine process's start and model load, the first decoding and the second look.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

FASTER_WHISPER = r"""
import sys, time
from faster_whisper import WhisperModel
model = WhisperModel(sys.argv[1], device="cpu", compute_type="int8")
for path in sys.argv[2:]:
    segments, _ = model.transcribe(path, language="en", beam_size=5, vad_filter=True, word_timestamps=True)
    with open(path + ".fw.srt", "w", encoding="utf-8") as out:
        for number, s in enumerate(segments, 1):
            out.write(f"{number}\n{s.start:.3f} --> {s.end:.3f}\n{s.text.strip()}\n\n")
"""

# The window's queue: one Transcriber for every file, as the window keeps one (the model loaded once).
QUEUE = r"""
import sys
from pathlib import Path
from desktop.cli.common import whisper_store
from desktop.core.gpu.fallback import FallbackLog
from desktop.engines.transcription.transcriber import Transcriber, TranscribeSettings
from desktop.core.transcription import subtitles
transcriber = Transcriber(whisper_store(), FallbackLog())
settings = TranscribeSettings(model=sys.argv[1], engine="ct2", device="cpu", language="en")
for path in sys.argv[2:]:
    transcript = transcriber.transcribe_file(Path(path), settings)
    subtitles.export(transcript, path + ".queue.srt", "srt", overwrite=True)
transcriber.release()
"""

# Where one file's time goes inside VoxDesk: the stages the Transcriber reports, and each decoding.
STAGES = r"""
import json, sys, time
started = time.perf_counter()
from pathlib import Path
from desktop.cli.common import whisper_store
from desktop.core.gpu.fallback import FallbackLog
from desktop.engines.transcription.process.isolated import IsolatedEngine
from desktop.engines.transcription.transcriber import Transcriber, TranscribeSettings
imports = time.perf_counter() - started
decodings = []
transcribe = IsolatedEngine.transcribe
def timed(self, audio, options, **kwargs):
    begun = time.perf_counter()
    result = transcribe(self, audio, options, **kwargs)
    decodings.append([audio.size / 16000, time.perf_counter() - begun])
    return result
IsolatedEngine.transcribe = timed
stages = {}
transcriber = Transcriber(whisper_store(), FallbackLog())
settings = TranscribeSettings(model=sys.argv[1], engine="ct2", device="cpu", language="en")
begun = time.perf_counter()
transcriber.transcribe_file(Path(sys.argv[2]), settings,
                            on_stage=lambda stage: stages.setdefault(stage.name, time.perf_counter() - begun))
stages["END"] = time.perf_counter() - begun
transcriber.release()
print(json.dumps({"imports": imports, "stages": stages, "decodings": decodings}))
"""


def write_speech(folder: Path, name: str, seconds: float) -> Path:
    import soundfile

    import benchmarks.batched_benchmark as bench
    from tests.helpers.weights import recording, reference

    audio, _text = bench.english_speech(seconds, {n: recording(n) for n in bench.ENGLISH},
                                        {n: reference(n) for n in bench.ENGLISH})
    path = folder / name
    soundfile.write(path, audio, 16000)
    return path


def compiled(python: str, tree: Path) -> None:
    """The tree's modules compiled to bytecode beforehand, as a user's are from the second start on
    (Python writes them at the first) and faster-whisper's are from its install: where writing them
    is turned off (PYTHONDONTWRITEBYTECODE), every process would otherwise compile VoxDesk's own
    modules again, 0.3 s of each VoxDesk process's start that no user waits for."""
    subprocess.run([python, "-m", "compileall", "-q", str(tree / "desktop")], check=True, capture_output=True)


def timed_run(command: list[str], tree: Path) -> float:
    environment = {**os.environ, "PYTHONPATH": str(tree)}
    started = time.perf_counter()
    subprocess.run(command, cwd=tree, env=environment, check=True, capture_output=True, text=True)
    return time.perf_counter() - started


def contenders(python: str, model: str, one: Path, queue: list[Path], out: Path, old_tree: Path | None) -> dict:
    """name -> (command, tree it runs from)."""
    trees = {"": ROOT} if old_tree is None else {"": ROOT, " (before)": old_tree}
    rows = {}
    for suffix, tree in trees.items():
        cli = [python, "-m", "desktop", "transcribe", str(one), "--model", model, "--engine", "ct2", "--device", "cpu",
               "--language", "en", "--output-dir", str(out), "--overwrite"]
        rows[f"voxdesk transcribe, automatic{suffix}"] = (cli, tree)
        rows[f"voxdesk transcribe --batch-size 1{suffix}"] = (cli + ["--batch-size", "1"], tree)
        rows[f"window's queue, {len(queue)} files{suffix}"] = ([python, "-c", QUEUE, model, *map(str, queue)], tree)
    rows["faster-whisper sequential, one file"] = ([python, "-c", FASTER_WHISPER, model, str(one)], ROOT)
    rows[f"faster-whisper sequential, {len(queue)} files"] = ([python, "-c", FASTER_WHISPER, model, *map(str, queue)],
                                                              ROOT)
    return rows


def measure(rows: dict, pairs: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {name: [] for name in rows}
    for round_number in range(pairs):
        # Every contender once per round, the order turned each round, so load on a shared machine falls alike.
        order = list(rows) if round_number % 2 == 0 else list(reversed(rows))
        for name in order:
            command, tree = rows[name]
            times[name].append(timed_run(command, tree))
            print(f"round {round_number + 1}: {name}: {times[name][-1]:.1f} s", file=sys.stderr)
    return times


def stage_breakdown(python: str, model: str, one: Path) -> dict:
    done = subprocess.run([python, "-c", STAGES, model, str(one)], cwd=ROOT, check=True, capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    return json.loads(done.stdout.strip().splitlines()[-1])


def report(times: dict[str, list[float]], stages: dict, seconds: float, queue: str, pairs: int) -> str:
    from benchmarks.report import machine

    def baseline(name: str) -> str:
        """faster-whisper's row of the same work: one file, or the queue's files."""
        several = "files" in name
        return next(n for n in times if n.startswith("faster-whisper") and ("files" in n) == several)

    lines = [f"## Speed end to end: whole processes (`benchmarks/end_to_end_benchmark.py`)", "",
             f"{machine()}; {dt.date.today().isoformat()}; Whisper base, CPU int8, beam 5, English; one file of "
             f"{seconds:.0f} s, a queue of {queue} s; {pairs} rounds, every contender once a round in turn. "
             "Ratios are to faster-whisper run the same way in the same round (median of the rounds).", "",
             "| run | median s | each round, s | ratio to faster-whisper |", "|---|---|---|---|"]
    for name, runs in times.items():
        base = times[baseline(name)]
        ratios = [run / fw for run, fw in zip(runs, base)]
        lines.append(f"| {name} | {statistics.median(runs):.1f} | {', '.join(f'{r:.1f}' for r in runs)} | "
                     f"{statistics.median(ratios):.2f}× |")
    stage = stages["stages"]
    listening = stage.get("WRITING", stage["END"]) - stage.get("LISTENING", 0.0)
    decodings = stages["decodings"]
    first = decodings[0][1] if decodings else 0.0
    lines += ["", "Where one file's time goes in VoxDesk (one run, the window's path in one process):", "",
              "| stage | s |", "|---|---|",
              f"| importing VoxDesk's transcription modules | {stages['imports']:.1f} |",
              f"| engine process started, faster-whisper imported, model loaded | "
              f"{stage.get('LISTENING', 0.0) - stage.get('LOADING', 0.0):.1f} |",
              f"| first decoding of the file ({decodings[0][0]:.0f} s of audio) | {first:.1f} |" if decodings else "",
              *(f"| second look: {audio:.1f} s of audio decoded again | {took:.1f} |" for audio, took in decodings[1:]),
              f"| the rest of listening (reading the audio, assembly) | {listening - sum(t for _a, t in decodings):.1f} |",
              f"| writing (speakers off) | {stage['END'] - stage.get('WRITING', stage['END']):.1f} |"]
    return "\n".join(line for line in lines if line is not None) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=223.0)
    parser.add_argument("--queue", default="3x60", help="COUNTxSECONDS: the queue's files")
    parser.add_argument("--pairs", type=int, default=2, help="rounds of every contender")
    parser.add_argument("--old-tree", type=Path, default=None, help="another checkout, measured beside this one")
    parser.add_argument("--out", type=Path, default=None, help="write the markdown section here too")
    args = parser.parse_args(argv)
    from tests.helpers.weights import base_dir

    count, each = args.queue.lower().split("x")
    with tempfile.TemporaryDirectory(prefix="voxdesk-e2e-") as scratch:
        folder = Path(scratch)
        one = write_speech(folder, "one.wav", args.seconds)
        queue = [write_speech(folder, f"queue-{n}.wav", float(each)) for n in range(int(count))]
        model = str(base_dir())
        for tree in filter(None, (ROOT, args.old_tree)):
            compiled(sys.executable, tree)
        rows = contenders(sys.executable, model, one, queue, folder, args.old_tree)
        stages = stage_breakdown(sys.executable, model, one)
        times = measure(rows, args.pairs)
    text = report(times, stages, args.seconds, args.queue, args.pairs)
    print(text)
    if args.out is not None:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
