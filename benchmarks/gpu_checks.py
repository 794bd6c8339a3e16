"""What ``gpu_check.sh`` runs from the bundle (``gpu_bundle.py``): the engine checks on the GPU, then
VoxDesk's batched windows against openai-whisper's own decoding (``whisper.transcribe`` on the same loaded
model) and against the same windows one at a time, as a Markdown table (stdout and ``--out``).

    python -m benchmarks.gpu_checks --bundle BUNDLE --work TMP [--cpu] [--out gpu-check.md]

``--cpu`` runs everything on the processor with a shorter benchmark: a dry run of the whole check on
a machine without a GPU (the fp16 comparison is then left out, and says so).
"""
from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import importlib.util
import json
import os
import platform
import sys
import time
import traceback
import zipfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable

RECORDINGS = ("jfk.flac", "lj050-0131.wav")
GPU_BENCHMARK_SECONDS = 223.0
CPU_BENCHMARK_SECONDS = 40.0
MAX_WER_BETWEEN = 0.02  # batched against one window at a time, and fp16 against fp32
# Against the recordings' text, batched may be this much worse than openai-whisper's own decoding at most:
# other windows (no voice detection there, each window cut where Whisper's last timestamp fell), other words.
MAX_WER_ABOVE_OPENAI_WHISPER = 0.02
WARM_UP_SECONDS = 5

NUMBA_SHIM = '''"""Stand-in for numba where it is missing: whisper.timing's CPU time warping runs as plain Python
(on a GPU whisper.timing uses its triton kernel instead)."""


def jit(*args, **kwargs):
    if args and callable(args[0]):
        return args[0]
    return lambda function: function
'''

VAD_SHIM = '''"""Stand-in for faster_whisper.vad where faster-whisper (and onnxruntime) are missing: the speech
timestamps Silero found in each input when the bundle was built, looked up by the audio's hash."""
import hashlib
import json
import os
from dataclasses import dataclass

_RECORDED = json.loads(open(os.environ["VOXDESK_RECORDED_VAD"], encoding="utf-8").read())


@dataclass
class VadOptions:
    threshold: float = 0.5
    neg_threshold: float = None
    min_speech_duration_ms: int = 0
    max_speech_duration_s: float = float("inf")
    min_silence_duration_ms: int = 2000
    speech_pad_ms: int = 400


def get_speech_timestamps(audio, vad_options=None, sampling_rate=16000, **kwargs):
    if vad_options not in (None, VadOptions()):
        raise RuntimeError(f"only the default options were recorded, not {vad_options}")
    key = hashlib.sha256(audio.tobytes()).hexdigest()
    if key not in _RECORDED:
        raise RuntimeError("no voice activity was recorded for this audio when the bundle was built")
    return [dict(stretch) for stretch in _RECORDED[key]]
'''


# --- installing the bundle -------------------------------------------------------------------------


def install(bundle: Path, work: Path) -> list[str]:
    """Unpack the bundle's wheels into ``work`` (first on sys.path) and add stand-ins for what is missing."""
    site, shims = work / "site", work / "shims"
    site.mkdir(parents=True, exist_ok=True)
    tag = f"cp{sys.version_info.major}{sys.version_info.minor}"
    notes = []
    for wheel in sorted((bundle / "wheels").glob("*.whl")):
        if "-py3-none-any" in wheel.name or f"-{tag}-{tag}-" in wheel.name:
            with zipfile.ZipFile(wheel) as archive:
                archive.extractall(site)
            notes.append(f"installed {wheel.name}")
    sys.path.insert(0, str(site))
    importlib.invalidate_caches()
    if importlib.util.find_spec("tiktoken") is None:
        raise SystemExit(f"no tiktoken wheel in the bundle for Python {tag}")
    if importlib.util.find_spec("numba") is None:
        (shims / "numba").mkdir(parents=True, exist_ok=True)
        (shims / "numba" / "__init__.py").write_text(NUMBA_SHIM, encoding="utf-8")
        notes.append("numba is missing: whisper.timing's CPU fallback runs as plain Python")
    if importlib.util.find_spec("faster_whisper") is None:
        (shims / "faster_whisper").mkdir(parents=True, exist_ok=True)
        (shims / "faster_whisper" / "__init__.py").write_text("", encoding="utf-8")
        (shims / "faster_whisper" / "vad.py").write_text(VAD_SHIM, encoding="utf-8")
        os.environ["VOXDESK_RECORDED_VAD"] = str(bundle / "data" / "vad.json")
        notes.append("faster-whisper is missing: voice activity recorded when the bundle was built is replayed")
    sys.path.append(str(shims))
    importlib.invalidate_caches()
    return notes


# --- inputs ------------------------------------------------------------------------------------------


def meeting(pieces: dict[str, Any]) -> Any:
    """About 40 s of two English speakers with pauses: two 30-second windows."""
    import numpy as np

    pause = np.zeros(16000, np.float32)
    jfk, lj = (pieces[name] for name in RECORDINGS)
    return np.concatenate([jfk, pause, lj, pause * 2, jfk, pause, lj])


def _meeting_text(references: dict[str, str]) -> str:
    """What is said in ``meeting``."""
    return " ".join([references[name] for name in RECORDINGS] * 2)


def all_inputs(pieces: dict[str, Any], references: dict[str, str]) -> dict[str, Any]:
    """Every audio array the check hands an engine (the bundle records voice activity for each)."""
    from benchmarks.batched_benchmark import english_speech

    inputs = {"meeting": meeting(pieces)}
    for name, seconds in (("gpu", GPU_BENCHMARK_SECONDS), ("cpu", CPU_BENCHMARK_SECONDS)):
        speech, _ = english_speech(seconds, pieces, references)
        inputs[f"{name} benchmark"] = speech
        inputs[f"{name} warm-up"] = speech[: 16000 * WARM_UP_SECONDS]
    return inputs


# --- the checks ----------------------------------------------------------------------------------------


@dataclass
class Outcome:
    name: str
    passed: bool | None  # None: not applicable here
    detail: str


class Checks:
    def __init__(self, device: str, checkpoint: Path, pieces: dict[str, Any], references: dict[str, str]):
        from tests.helpers.weights import ModelRef

        self.device = device
        self.model = ModelRef("tiny.en", "pt", checkpoint)
        self.audio = meeting(pieces)
        self._pieces, self._references = pieces, references
        self.outcomes: list[Outcome] = []

    def run(self, name: str, check: Callable[[], tuple[bool | None, str]]) -> None:
        started = time.perf_counter()
        try:
            passed, detail = check()
        except Exception as exc:  # noqa: BLE001 - every failure is reported, and the other checks still run
            passed, detail = False, f"{type(exc).__name__}: {exc}"
            traceback.print_exc()
        detail += f" ({time.perf_counter() - started:.1f} s)"
        self.outcomes.append(Outcome(name, passed, detail))
        print(f"{'PASS' if passed else 'n/a ' if passed is None else 'FAIL'}  {name}: {detail}", flush=True)

    def load(self, device: str | None = None) -> Any:
        from desktop.engines.transcription.decoders.loading import load_engine

        return load_engine(self.model, "torch", device or self.device)

    def precision(self, engine: Any) -> tuple[bool | None, str]:
        import torch
        from whisper.model import SDPA_AVAILABLE, MultiHeadAttention

        model = engine._loaded()
        kinds = {str(p.dtype) for name, p in model.named_parameters() if "ln" not in name}
        sdpa = bool(SDPA_AVAILABLE and MultiHeadAttention.use_sdpa)
        expected = torch.float16 if self.device == "cuda" else torch.float32
        return kinds == {str(expected)} and sdpa, f"weights {sorted(kinds)}, scaled-dot-product attention {sdpa}"

    def fp16_against_cpu(self, engine: Any) -> tuple[bool | None, str]:
        if self.device != "cuda":
            return None, "left out on the CPU dry run"
        from tests.helpers.weights import wer

        options = _greedy()
        cpu = self.load("cpu")
        try:
            on_cpu = _text(cpu.transcribe(self.audio, options))
        finally:
            cpu.close()
        on_gpu = _text(engine.transcribe(self.audio, options))
        rate = wer(on_cpu, on_gpu)
        return rate <= MAX_WER_BETWEEN, f"WER between fp16 GPU and fp32 CPU {rate * 100:.1f} %"

    def batched_against_one_window_at_a_time(self, engine: Any) -> tuple[bool | None, str]:
        """The same windows, so the same words: the batch size changes the speed, not the text."""
        from tests.helpers.weights import wer

        options = _greedy()
        one_at_a_time = engine.transcribe(self.audio, replace(options, batch_size=1))
        batched = engine.transcribe(self.audio, options)
        rate = wer(_text(one_at_a_time), _text(batched))
        return rate <= MAX_WER_BETWEEN and batched.batch_size > 1 and one_at_a_time.batch_size == 1, (
            f"WER between {rate * 100:.1f} %, batch {batched.batch_size}")

    def batched_against_openai_whisper(self, engine: Any) -> tuple[bool | None, str]:
        """Against the recordings' text, as accurate as openai-whisper's own decoding of the same model."""
        from benchmarks.batched_benchmark import OpenAIWhisperDirectly
        from tests.helpers.weights import wer

        options = _greedy()
        text = _meeting_text(self._references)
        directly = OpenAIWhisperDirectly(engine).transcribe(self.audio, options)
        batched = engine.transcribe(self.audio, options)
        theirs, ours = wer(text, _text(directly)), wer(text, _text(batched))
        return ours <= theirs + MAX_WER_ABOVE_OPENAI_WHISPER, (
            f"WER {ours * 100:.1f} % batched (batch {batched.batch_size}) against {theirs * 100:.1f} % for "
            f"whisper.transcribe; {wer(_text(directly), _text(batched)) * 100:.1f} % between them")

    def out_of_memory_halving(self, engine: Any) -> tuple[bool | None, str]:
        import torch

        from desktop.engines.transcription.decoders import whisper_batched

        real_task, sizes = whisper_batched._batch_task, []

        class Task:  # the real decoding, refused as the GPU refuses a batch that does not fit
            def __init__(self, model: Any, options: Any):
                self._task = real_task(model, options)

            def run(self, mel: Any) -> Any:
                sizes.append(mel.shape[0])
                if mel.shape[0] > 1:
                    raise torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 1.00 GiB")
                return self._task.run(mel)

        expected = _text(engine.transcribe(self.audio, _greedy()))
        whisper_batched._batch_task = Task
        try:
            result = engine.transcribe(self.audio, replace(_greedy(), batch_size=8))
        finally:
            whisper_batched._batch_task = real_task
        same = _text(result) == expected
        return same and result.batch_size == 1 and sizes[0] == 2, (
            f"batches tried {sizes}, kept {result.batch_size}, same words {same}")

    def automatic_size(self, engine: Any) -> tuple[bool | None, str]:
        from desktop.engines.transcription.engine import TranscribeOptions

        size = engine.automatic_batch_size(TranscribeOptions(beam_size=5))
        if self.device != "cuda":
            return size >= 1, f"{size} on the CPU"
        import torch

        free, total = torch.cuda.mem_get_info()
        return size >= 1, f"{size} windows at once with {free / 2 ** 30:.1f} of {total / 2 ** 30:.1f} GiB free"

    def known_answer(self) -> tuple[bool | None, str]:
        """The check VoxDesk runs before the first use of a GPU engine: the same speech on the GPU and on
        the CPU, compared (engines/transcription/known_answer.py), with the times of both."""
        if self.device != "cuda":
            return None, "left out on the CPU dry run"
        from desktop.engines.transcription.known_answer import check_gpu

        verdict = check_gpu(self.model, "torch", "gpu-check", speech=self.audio[: 30 * 16000])
        return verdict.usable, (f"openai-whisper: words differing {verdict.word_error * 100:.1f} %, GPU "
                                f"{verdict.gpu_seconds:.2f} s against CPU {verdict.cpu_seconds:.2f} s"
                                f"{' (slower: Automatic would use the CPU)' if verdict.slower else ''}")

    def ctranslate2_on_gpu(self) -> tuple[bool | None, str]:
        """faster-whisper on the GPU where this machine's CTranslate2 has a GPU build; skipped, and why,
        elsewhere. The bundle cannot carry CTranslate2's ROCm wheels: their release archive is about
        270 MB, over the bundle's 60 MiB."""
        if self.device != "cuda":
            return None, "left out on the CPU dry run"
        try:
            import ctranslate2
        except Exception as exc:  # noqa: BLE001 - not installed, or a ROCm build that does not match ROCm
            return None, (f"skipped: CTranslate2 does not import here ({type(exc).__name__}: {exc}); its ROCm "
                          "wheel is too large for the bundle (install it with packaging/install.sh)")
        count = ctranslate2.get_cuda_device_count()
        if count <= 0:
            return None, f"skipped: CTranslate2 {ctranslate2.__version__} sees no GPU (a build without ROCm or CUDA)"
        if importlib.util.find_spec("faster_whisper.transcribe") is None:
            return None, "skipped: faster-whisper is not installed here"
        from desktop.engines.transcription.known_answer import check_gpu

        types = ", ".join(sorted(ctranslate2.get_supported_compute_types("cuda")))
        verdict = check_gpu(self.model, "ct2", "gpu-check", speech=self.audio[: 30 * 16000])
        return verdict.usable, (f"CTranslate2 {ctranslate2.__version__}, {count} GPU(s), compute types {types}; "
                                f"words differing from the CPU {verdict.word_error * 100:.1f} %, GPU "
                                f"{verdict.gpu_seconds:.2f} s against CPU {verdict.cpu_seconds:.2f} s")

    def crash_child(self) -> tuple[bool | None, str]:
        if importlib.util.find_spec("benchmarks.gpu_crash_check") is None:
            return None, "this bundle has no crash child check (benchmarks/gpu_crash_check.py)"
        from benchmarks import gpu_crash_check

        from benchmarks.batched_benchmark import english_speech

        # The benchmark's long input (its voice activity is in the bundle): still decoding when killed.
        seconds = GPU_BENCHMARK_SECONDS if self.device == "cuda" else CPU_BENCHMARK_SECONDS
        return gpu_crash_check.run(self.model, self.device, english_speech(seconds, self._pieces, self._references)[0])


def _greedy() -> Any:
    from desktop.engines.transcription.engine import TranscribeOptions

    # VoxDesk's windows are decoded without the text before them (its default, said here so it stays so);
    # openai-whisper's own decoding keeps the library's default, each window told the text before it.
    return TranscribeOptions(language="en", beam_size=1, condition_on_previous_text=False)


def _text(result: Any) -> str:
    return " ".join(segment.text for segment in result.segments)


def benchmark(checks: Checks, pieces: dict[str, Any], references: dict[str, str], seconds: float) -> tuple[str, list]:
    """For each search: openai-whisper's own decoding, VoxDesk's windows one at a time, and batched (in threes)."""
    from benchmarks.batched_benchmark import OpenAIWhisperDirectly, english_speech, measure, table
    from desktop.engines.transcription.engine import TranscribeOptions

    audio, text = english_speech(seconds, pieces, references)
    gpu = checks.device == "cuda"
    engine = checks.load()
    rows, sections = [], []
    try:
        directly = OpenAIWhisperDirectly(engine)
        for search, beam in (("beam 5", 5), ("greedy", 1)):
            options = TranscribeOptions(language="en", beam_size=beam)
            three = [measure(f"openai-whisper directly (whisper.transcribe), {search}", directly, audio, options,
                             text, gpu=gpu),
                     measure(f"VoxDesk one window at a time (batch size 1), {search}", engine, audio,
                             replace(options, batch_size=1), text, gpu=gpu),
                     measure(f"VoxDesk batched, {search}", engine, audio, options, text, gpu=gpu)]
            rows += three
            sections.append(table(three, three[0]))
    finally:
        engine.close()
    return "\n\n".join(sections), rows


def machine(device: str) -> str:
    import torch

    if device == "cuda":
        build = f"HIP {torch.version.hip}" if torch.version.hip else f"CUDA {torch.version.cuda}"
        return f"{torch.cuda.get_device_name(0)}, torch {torch.__version__} ({build})"
    return f"CPU only ({os.cpu_count()} cores), torch {torch.__version__}"


def report(device: str, notes: list[str], outcomes: list[Outcome], tables: str, rows: list, seconds: float) -> str:
    lines = [f"# VoxDesk GPU check, {dt.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}", "",
             f"Machine: {machine(device)}; Python {platform.python_version()}.", "",
             "Weights: Whisper tiny.en from the test package, stored int8 (one scale per row) in the bundle and "
             "expanded to fp16 here: every contender runs these same weights.", "",
             *[f"- {note}" for note in notes], "", "## Engine checks", "", "| check | result | detail |",
             "|---|---|---|"]
    lines += [f"| {o.name} | {'pass' if o.passed else 'n/a' if o.passed is None else 'FAIL'} | {o.detail} |"
              for o in outcomes]
    lines += ["", f"## Batched against openai-whisper's own decoding and one window at a time ({seconds:.0f} s of "
              "English speech)", "",
              "openai-whisper directly: `whisper.transcribe` on the engine's loaded model, as the library's users run "
              "it (no voice activity detection, each window told the text before it). VoxDesk: its own windows of "
              "the speech its voice detection kept, one at a time (batch size 1) or in batches.", "", tables]
    for directly, one_at_a_time, batched in zip(rows[::3], rows[1::3], rows[2::3]):
        lines.append(f"\n{batched.name}: {directly.seconds / batched.seconds:.2f}× as fast as openai-whisper "
                     f"directly and {one_at_a_time.seconds / batched.seconds:.2f}× as fast as one window at a time; "
                     f"WER {batched.word_error_rate * 100:.1f} % against {directly.word_error_rate * 100:.1f} % and "
                     f"{one_at_a_time.word_error_rate * 100:.1f} %.")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bundle", type=Path, required=True)
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--cpu", action="store_true", help="a dry run on the processor")
    parser.add_argument("--out", type=Path, default=Path("gpu-check.md"))
    args = parser.parse_args(argv)

    notes = install(args.bundle, args.work)
    import numpy as np
    import torch

    from benchmarks.gpu_bundle import write_checkpoint

    device = "cpu" if args.cpu else "cuda"
    if device == "cuda" and not torch.cuda.is_available():
        print("PyTorch sees no GPU here; run with --cpu for a dry run.", file=sys.stderr)
        return 2
    with np.load(args.bundle / "data" / "speech.npz") as data:
        pieces = {name: data[name] for name in data.files}
    references = json.loads((args.bundle / "data" / "references.json").read_text(encoding="utf-8"))
    checkpoint = write_checkpoint(args.bundle / "weights" / "tiny.en.npz", args.work / "tiny.en.pt")

    checks = Checks(device, checkpoint, pieces, references)
    engine = checks.load()
    try:
        checks.run("fp16 weights and SDPA on the GPU" if device == "cuda" else "fp32 weights and SDPA on the CPU",
                   lambda: checks.precision(engine))
        checks.run("fp16 on the GPU gives the CPU's words", lambda: checks.fp16_against_cpu(engine))
        checks.run("batched gives the words of one window at a time",
                   lambda: checks.batched_against_one_window_at_a_time(engine))
        checks.run("batched as accurate as openai-whisper's own decoding",
                   lambda: checks.batched_against_openai_whisper(engine))
        checks.run("out of memory halves the batch", lambda: checks.out_of_memory_halving(engine))
        checks.run("automatic batch size", lambda: checks.automatic_size(engine))
    finally:
        engine.close()
    checks.run("known answer: the GPU gives the CPU's words", checks.known_answer)
    checks.run("faster-whisper (CTranslate2) on the GPU", checks.ctranslate2_on_gpu)
    checks.run("crash child", checks.crash_child)

    seconds = GPU_BENCHMARK_SECONDS if device == "cuda" else CPU_BENCHMARK_SECONDS
    tables, rows = benchmark(checks, pieces, references, seconds)
    markdown = report(device, notes, checks.outcomes, tables, rows, seconds)
    print(markdown)
    with contextlib.suppress(OSError):
        args.out.write_text(markdown, encoding="utf-8")
        print(f"written to {args.out}")
    return 1 if any(o.passed is False for o in checks.outcomes) else 0


if __name__ == "__main__":
    raise SystemExit(main())
