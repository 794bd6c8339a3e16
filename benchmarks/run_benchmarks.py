"""Time VoxDesk against the reference tools on the same input and the same weights, in one run.

    .venv/bin/python benchmarks/run_benchmarks.py [--repeat N] [--beam-size 5]

Each contender runs in its own process, end to end (start-up, imports, model load, transcription),
so wall time and peak memory (the process's maximum resident set) compare like for like:

- VoxDesk CLI, automatic choice (faster-whisper int8 on this CPU, with voice-activity detection and
  word timings, as the window runs it);
- faster-whisper run directly: int8, the same beam size, VAD and word timings on;
- openai-whisper run directly: fp32 on the CPU, the same beam size, word timings on.

All three use the Whisper base weights from the test packages (a CTranslate2 folder; openai-whisper
gets the same weights converted to its checkpoint format). The window's start-up time is measured
too. Results go to BENCHMARKS.md, with the machine and the date.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "out"
sys.path.insert(0, str(ROOT))

from benchmarks.report import REPORT, machine, write_section  # noqa: E402 - after the path is set


def build_input() -> tuple[Path, float]:
    """About two minutes of real English speech: the test recordings, repeated, with pauses."""
    import av
    import numpy as np

    from desktop.core.common.audio import decode

    target = OUT / "speech_en_2min.wav"
    pieces = [decode(ROOT / "tests" / "data" / name) for name in ("jfk.flac", "lj050-0131.wav")]
    pause = np.zeros(16000, dtype=np.float32)
    samples: list = []
    while sum(len(s) for s in samples) < 120 * 16000:
        for piece in pieces:
            samples += [piece, pause]
    audio = np.concatenate(samples)
    if not target.exists():
        with av.open(str(target), "w") as container:
            stream = container.add_stream("pcm_s16le", rate=16000, layout="mono")
            frame = av.AudioFrame.from_ndarray((audio * 32767).astype(np.int16)[None, :], format="s16", layout="mono")
            frame.rate = 16000
            for packet in stream.encode(frame):
                container.mux(packet)
            for packet in stream.encode(None):
                container.mux(packet)
    return target, len(audio) / 16000


def prepare_weights() -> tuple[Path, Path]:
    """The base model as a CTranslate2 folder and as an openai-whisper checkpoint (same weights)."""
    import torch

    from desktop.engines.transcription.model_files.ct2_format import read_model_bin
    from desktop.engines.transcription.model_files.weight_mapping import to_whisper_state_dict
    from tests.helpers.weights import base_dir

    ct2 = base_dir()
    checkpoint = OUT / "base-from-ct2.pt"
    if not checkpoint.exists():
        dims, state = to_whisper_state_dict(read_model_bin(ct2 / "model.bin"))
        torch.save(
            {"dims": dims, "model_state_dict": {k: torch.from_numpy(v) for k, v in state.items()}},
            checkpoint,
        )
    return ct2, checkpoint


FASTER_WHISPER = """
import sys, time
from faster_whisper import WhisperModel
model = WhisperModel(sys.argv[1], device="cpu", compute_type="int8")
segments, info = model.transcribe(sys.argv[2], beam_size=int(sys.argv[3]), vad_filter=True, word_timestamps=True)
print(" ".join(s.text.strip() for s in segments))
"""

OPENAI_WHISPER = """
import sys, time
import numpy as np, whisper
sys.path.insert(0, sys.argv[4])
from desktop.core.common.audio import decode
model = whisper.load_model(sys.argv[1], device="cpu")
result = model.transcribe(decode(sys.argv[2]), beam_size=int(sys.argv[3]), fp16=False, word_timestamps=True)
print(result["text"].strip())
"""

WINDOW_START = """
import sys, time
start = time.monotonic()
from desktop.app import create_app
app, window = create_app(sys.argv[:1])
window.show()
# Before any event runs: the device detection the shown window starts may import torch on its thread.
heavy = sorted(m for m in ("torch", "whisper", "faster_whisper", "ctranslate2", "TTS") if m in sys.modules)
app.processEvents()
shown = time.monotonic() - start
print("RESULT", shown, ",".join(heavy), flush=True)
window.close()  # as a user closing it: background jobs (device detection) stop cleanly
"""


def _dedent(text: str) -> str:
    """textwrap.dedent for a template whose interpolated table rows carry no indentation."""
    return "\n".join(line[8:] if line.startswith(" " * 8) else line for line in text.splitlines()) + "\n"


def run_measured(command: list[str], env: dict | None = None) -> tuple[float, int, str]:
    """Wall seconds, peak resident memory in MiB, and stdout of one process."""
    # Output goes to files, not pipes, so a chatty process can never block on a full pipe.
    with tempfile.TemporaryFile("w+") as stdout, tempfile.TemporaryFile("w+") as stderr:
        start = time.monotonic()
        process = subprocess.Popen(command, stdout=stdout, stderr=stderr, env=env, text=True)
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.monotonic() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        stdout.seek(0)
        stderr.seek(0)
        if process.returncode != 0:
            raise RuntimeError(f"{command[:3]} failed:\n{stderr.read()[-2000:]}")
        return elapsed, usage.ru_maxrss // 1024, stdout.read()


def versions() -> str:
    from importlib.metadata import version

    names = ("torch", "openai-whisper", "faster-whisper", "ctranslate2", "PySide6-Essentials", "av")
    return ", ".join(f"{n} {version(n)}" for n in names)


def _script_output(script: str, *args: str, env: dict[str, str]) -> str:
    """What another benchmark script prints, for a section of the report."""
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), *args], env=env, check=True,
                          capture_output=True, text=True)
    return done.stdout.strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=2, help="runs per contender; the best is kept")
    parser.add_argument("--beam-size", type=int, default=5)
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)

    audio_path, seconds = build_input()
    ct2_dir, checkpoint = prepare_weights()
    python = sys.executable
    env = {**os.environ, "VOXDESK_DATA_DIR": str(OUT / "data")}
    beam = str(args.beam_size)
    contenders = {
        "VoxDesk CLI (auto: faster-whisper int8, VAD)": [
            python, "-m", "desktop", "transcribe", str(audio_path), "--model", str(ct2_dir),
            "--beam-size", beam, "--format", "json", "--output-dir", str(OUT), "--overwrite",
        ],
        "faster-whisper directly (int8, VAD)": [python, "-c", FASTER_WHISPER, str(ct2_dir), str(audio_path), beam],
        "openai-whisper directly (fp32)": [python, "-c", OPENAI_WHISPER, str(checkpoint), str(audio_path), beam, str(ROOT)],
    }
    results = {}
    for name, command in contenders.items():
        runs = [run_measured(command, env) for _ in range(args.repeat)]
        best = min(runs, key=lambda r: r[0])
        results[name] = {"seconds": best[0], "peak_mib": max(r[1] for r in runs)}
        print(f"{name}: {best[0]:.1f} s, peak {results[name]['peak_mib']} MiB", flush=True)

    window_runs = []
    for _ in range(3):
        _, _, stdout = run_measured([python, "-c", WINDOW_START], {**env, "QT_QPA_PLATFORM": "offscreen"})
        line = next(l for l in stdout.splitlines() if l.startswith("RESULT"))
        parts = line.split(" ")
        window_runs.append((float(parts[1]), parts[2] if len(parts) > 2 else ""))
    window_seconds = min(r[0] for r in window_runs)
    heavy = window_runs[0][1] or "none"

    tts_json = OUT / "tts.json"
    subprocess.run([python, str(ROOT / "benchmarks" / "tts_benchmark.py"), "--repeat", "3", "--json", str(tts_json)],
                   env=env, check=True, capture_output=True, text=True)
    tts_rows = "\n".join(
        f"| {r['model']} | {r['languages']} | {r['load_s']:.2f} | {r['rtf']:.3f} | {r['first_sentence_s']:.3f} | "
        f"{'n/a' if r['first_sound_s'] is None else format(r['first_sound_s'], '.3f')} |"
        for r in json.loads(tts_json.read_text())
    )

    coverage = {label: _script_output("coverage_benchmark.py", "--minutes", "2", "--repeat", "2", *extra, env=env)
                for label, extra in (("English only", ("--english",)), ("English and Mandarin", ()))}
    shared = ROOT.parent / "shared" / "testdata"
    watermark = _script_output("watermark_benchmark.py", "--data", str(shared if shared.is_dir() else ROOT / "tests" / "data"),
                               env=env)
    _script_output("subtitle_benchmark.py", env=env)  # writes its own section, "subtitles"

    fw = results["faster-whisper directly (int8, VAD)"]["seconds"]
    ow = results["openai-whisper directly (fp32)"]["seconds"]
    rows = "\n".join(
        f"| {name} | {r['seconds']:.1f} | {seconds / r['seconds']:.1f}x | {r['seconds'] / fw:.2f} | {r['peak_mib']} |"
        for name, r in results.items()
    )
    vox = results["VoxDesk CLI (auto: faster-whisper int8, VAD)"]["seconds"]
    report = _dedent(f"""\
        # Benchmarks

        Measured {dt.date.today().isoformat()} by `benchmarks/run_benchmarks.py` on {machine()}.
        Versions: {versions()}.

        ## Transcription on the CPU

        Input: {seconds:.0f} s of real English speech (the test recordings jfk.flac and lj050-0131.wav
        repeated with 1 s pauses). Weights: Whisper base (multilingual) from the test packages, the
        same weights for every contender (converted to an openai-whisper checkpoint for openai-whisper).
        Beam size {args.beam_size}, word timings on. Each run is a whole process (start-up, imports,
        model load, transcription); best of {args.repeat}; peak memory is the process's maximum
        resident set.

        | contender | wall s | × real time | time vs faster-whisper | peak MiB |
        |---|---|---|---|---|
        {rows}

        VoxDesk's CPU path takes {vox / fw:.2f}× the time of faster-whisper run directly. It includes the
        second pass below, which costs time only where the first decoding left speech out.
        openai-whisper takes {ow / fw:.1f}× as long as faster-whisper.

        ## The second pass (no speech dropped)

        `benchmarks/coverage_benchmark.py`: the same weights (Whisper base, CTranslate2 int8, CPU, model
        loaded), 2 minutes of real speech with pauses, transcribed without and with the second pass that
        decodes again the speech no segment covers and Whisper's repetition loops; best of 2.

        English only (jfk.flac, lj050-0131.wav):

        ```
        {coverage["English only"]}
        ```

        English and Mandarin (the mixed test recording and two AISHELL clips as well):

        ```
        {coverage["English and Mandarin"]}
        ```

        ## Watermark (PerTh) on cloned and synthesized speech

        `benchmarks/watermark_benchmark.py` over the real recordings of the shared test data: each is
        marked at XTTS's and OpenVoice's sample rates, saved as WAV and as 64 kbit/s MP3, read back and
        checked; the unmarked originals are the false-positive test.

        ```
        {watermark}
        ```

        ## Window start-up

        From the interpreter starting the app to the main window shown (offscreen, best of 3):
        {window_seconds:.2f} s (target: under 1.5 s). Heavy modules imported before the window showed:
        {heavy}.

        ## Speech synthesis on the CPU

        `benchmarks/tts_benchmark.py`, through the engine the Synthesize tab uses. No real voice weights
        can be fetched on this machine: the tiny randomly initialised VITS model shows the engine's own
        overhead, not a real voice's cost; any downloaded or imported model is measured too. RTF is
        seconds of work per second of speech; "first sound" is from Speak until the first samples reach
        the sound device (a private PulseAudio server), through the window's stream player.

        | model | languages | load s | RTF | first sentence s | first sound s |
        |---|---|---|---|---|---|
        {tts_rows}
        """)


    if not REPORT.exists() or "<!-- begin cpu -->" not in REPORT.read_text(encoding="utf-8"):
        REPORT.write_text("# Benchmarks\n\n", encoding="utf-8")  # the old, unsectioned report
    write_section("cpu", report.replace("# Benchmarks\n\n", "", 1))
    print(report)
    (OUT / "results.json").write_text(json.dumps({"results": results, "window_seconds": window_seconds}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
