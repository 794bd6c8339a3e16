"""Batched against sequential decoding, on the same speech and the same weights, in one run, with one
table per processor family.

    .venv/bin/python benchmarks/batched_benchmark.py [--seconds 223] [--torch-seconds 60] [--repeat 2]
                                                      [--families this,avx512_bf16,avx2]

On the CPU (this machine): VoxDesk's automatic CTranslate2 path (faster-whisper's batched pipeline over
VoxDesk's windows of speech; its encoder in bfloat16 where this computer measured torch's encoder faster,
see bf16_encoder.py) against faster-whisper's sequential decoding, Whisper base, int8, beam 5, word
timings on; the automatic path's first recording in a fresh process as well, as the command line runs
it; and for reference the batched torch engine against openai-whisper's own decoding (``whisper.transcribe``
on the same loaded model) and against its windows one at a time, fp32, on the first --torch-seconds of
the same speech. The engines are loaded once and each contender transcribes
the same audio (already in memory); the best of --repeat runs counts. Word error rates are against the
recordings' reference text, after Whisper's English normaliser.

Each processor family runs in a process of its own, measured first as Tools → Measure this computer
measures it (into a throw-away data folder), so the automatic path makes the choice it would make there.
"this" is the processor as it is; the others are emulated on it by limiting the instruction sets the
libraries use (``FAMILIES``): the same kernels a processor of that family runs, not its speed, so their
figures show the choice and its direction, and a real processor of the family has the last word.

The same measurements on a GPU come from ``benchmarks/gpu_check.sh`` (see ``gpu_bundle.py``);
``GPU_COMMAND`` below is the command, written into BENCHMARKS.md with the CPU table.
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
from dataclasses import dataclass, replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

ENGLISH = ("jfk.flac", "lj050-0131.wav")
PAUSES = (0.5, 1.2, 1.8, 3.0)  # seconds, in turn: short, the kind voice detection joins, and long
GPU_COMMAND = "make gpu-bundle && benchmarks/gpu_check.sh build/gpu-bundle"

# Processor families: (what the table is called, the environment that limits the libraries to them).
# oneDNN (torch's CPU kernels) and CTranslate2 each pick their kernels by instruction set at start.
FAMILIES = {
    "this": ("this processor as it is", {}),
    "avx512_bf16": ("AVX-512 with bfloat16 instructions, no AMX (AMD Zen 4 and 5, Intel Cooper Lake), emulated "
                    "on this processor: oneDNN limited to AVX512_CORE_BF16",
                    {"ONEDNN_MAX_CPU_ISA": "AVX512_CORE_BF16"}),
    "avx2": ("AVX2 only, no bfloat16 instructions (AMD Zen 2 and 3, older Intel), emulated on this processor: "
             "oneDNN, torch and CTranslate2 limited to AVX2",
             {"ONEDNN_MAX_CPU_ISA": "AVX2", "ATEN_CPU_CAPABILITY": "avx2", "CT2_FORCE_CPU_ISA": "AVX2"}),
}


def english_speech(seconds: float, pieces: dict[str, Any], references: dict[str, str]) -> tuple[Any, str]:
    """About ``seconds`` of the English recordings in turn, with pauses, and its reference text."""
    import numpy as np

    parts: list = []
    words: list[str] = []
    turn = 0
    while sum(len(p) for p in parts) < seconds * 16000:
        name = ENGLISH[turn % len(ENGLISH)]
        parts += [pieces[name], np.zeros(int(PAUSES[turn % len(PAUSES)] * 16000), np.float32)]
        words.append(references[name])
        turn += 1
    return np.concatenate(parts), " ".join(words)


@dataclass
class Measured:
    name: str
    seconds: float
    audio_seconds: float
    word_error_rate: float
    batch_size: int
    segments: int = 0
    bf16_encoder: bool = False  # torch's bfloat16 encoder encoded the audio
    peak_mib: float | None = None  # GPU memory, when on a GPU
    stages: dict[str, float] | None = None  # seconds in each CTranslate2 stage, in the best run

    @property
    def real_time_factor(self) -> float:
        return self.seconds / self.audio_seconds


def measure(name: str, engine: Any, audio: Any, options: Any, reference: str, *, repeat: int = 1,
            gpu: bool = False) -> Measured:
    """The best of ``repeat`` transcriptions of ``audio`` by ``engine`` (after one warm-up on a GPU)."""
    from tests.helpers.weights import wer

    sync: Callable[[], None] = lambda: None
    if gpu:
        import torch

        sync = torch.cuda.synchronize
        engine.transcribe(audio[: 16000 * 5], options)  # kernels chosen and caches filled, not timed
        torch.cuda.reset_peak_memory_stats()
    best, result, stages = float("inf"), None, None
    for _ in range(repeat):
        for clock in StageClock.attached:
            clock.reset()
        sync()
        started = time.perf_counter()
        result = engine.transcribe(audio, options)
        sync()
        took = time.perf_counter() - started
        if took < best:
            best = took
            stages = next((dict(clock.seconds) for clock in StageClock.attached if clock.seconds), None)
    peak = None
    if gpu:
        import torch

        peak = torch.cuda.max_memory_allocated() / 2 ** 20
    text = " ".join(segment.text for segment in result.segments)
    return Measured(name, best, audio.size / 16000, wer(reference, text), result.batch_size, len(result.segments),
                    result.bf16_encoder, peak, stages)


class StageClock:
    """Stands in for a faster-whisper model's CTranslate2 model and adds up the seconds spent in each of
    its stages (encoder, decoder, word alignment), to show where the time goes. An encoder that took
    CTranslate2's place (VoxDesk's bfloat16 encoder) is timed as the encoder."""

    attached: list["StageClock"] = []
    STAGES = {"encode": "encoder", "generate": "decoder", "align": "word alignment", "detect_language": "decoder"}

    def __init__(self, ct2_model: Any):
        self._model = ct2_model
        self.seconds: dict[str, float] = {}
        StageClock.attached.append(self)

    @classmethod
    def attach(cls, whisper_model: Any) -> None:
        clock = cls(whisper_model.model)
        whisper_model.model = clock
        if "encode" in vars(whisper_model):  # replaced on the instance: CTranslate2's encoder no longer runs
            whisper_model.encode = clock.timed("encoder", whisper_model.encode)

    def reset(self) -> None:
        self.seconds = {}

    def timed(self, stage: str, method: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return method(*args, **kwargs)
            finally:
                self.seconds[stage] = self.seconds.get(stage, 0.0) + time.perf_counter() - started
        return timed

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._model, name)
        stage = self.STAGES.get(name)
        return attribute if stage is None else self.timed(stage, attribute)


class FasterWhisperDirectly:
    """faster-whisper as its own users run it (the reference tool): ``WhisperModel.transcribe`` with its
    Silero VAD filter, sequential decoding, word timings; the same weights and beam size."""

    batch_size = 1

    def __init__(self, folder: Path):
        from faster_whisper import WhisperModel

        self._model = WhisperModel(str(folder), device="cpu", compute_type="int8")

    def transcribe(self, audio: Any, options: Any) -> Any:
        segments, _info = self._model.transcribe(audio, language=options.language, beam_size=options.beam_size,
                                                 word_timestamps=True, vad_filter=True)
        return SimpleNamespace(segments=list(segments), batch_size=1, bf16_encoder=False)


class FasterWhisperBatchedDirectly:
    """faster-whisper's own batched pipeline as its README runs it (``BatchedInferencePipeline``, batch
    16): its Silero VAD packs speech into chunks of up to 30 s, decoded without timestamp tokens, so each
    chunk is one segment; word timings on, the same weights and beam size."""

    batch_size = 16

    def __init__(self, folder: Path):
        from faster_whisper import BatchedInferencePipeline, WhisperModel

        self._model = WhisperModel(str(folder), device="cpu", compute_type="int8")
        self._pipeline = BatchedInferencePipeline(self._model)

    def transcribe(self, audio: Any, options: Any) -> Any:
        segments, _info = self._pipeline.transcribe(audio, language=options.language, beam_size=options.beam_size,
                                                    word_timestamps=True, batch_size=self.batch_size)
        return SimpleNamespace(segments=list(segments), batch_size=self.batch_size, bf16_encoder=False)


class OpenAIWhisperDirectly:
    """openai-whisper as its own users run it: ``whisper.transcribe`` on the torch engine's loaded model
    (the same weights on the same device), given the audio array as it is: no voice activity detection,
    one 30-second window after another, each told the text before it (the library's default); the same
    language, beam size and word timings, best of 5 when sampling as its command line does, fp16 on a
    GPU."""

    batch_size = 1

    def __init__(self, engine: Any):
        self._model = engine._loaded()
        self._fp16 = engine.device == "cuda"

    def transcribe(self, audio: Any, options: Any) -> Any:
        import whisper

        extra = {} if options.temperature is None else {"temperature": options.temperature}
        result = whisper.transcribe(self._model, audio, verbose=None, language=options.language, task=options.task,
                                    beam_size=options.beam_size if options.beam_size > 1 else None, best_of=5,
                                    word_timestamps=options.word_timestamps, fp16=self._fp16, **extra)
        segments = [SimpleNamespace(start=piece["start"], end=piece["end"], text=piece["text"])
                    for piece in result["segments"]]
        return SimpleNamespace(segments=segments, language=result["language"], batch_size=1, bf16_encoder=False)


def table(rows: list[Measured], baseline: Measured) -> str:
    lines = ["| contender | batch | s | real-time factor | time vs sequential | WER % |"
             + (" peak GPU MiB |" if rows[0].peak_mib is not None else ""),
             "|---|---|---|---|---|---|" + ("---|" if rows[0].peak_mib is not None else "")]
    for row in rows:
        line = (f"| {row.name} | {row.batch_size} | {row.seconds:.1f} | {row.real_time_factor:.3f} | "
                f"{row.seconds / baseline.seconds:.2f} | {row.word_error_rate * 100:.1f} |")
        if row.peak_mib is not None:
            line += f" {row.peak_mib:.0f} |"
        lines.append(line)
    return "\n".join(lines)


def measure_this_computer() -> dict:
    """The encoders of base measured as Tools → Measure this computer does, kept in this process's data
    folder for the automatic path to follow; the figures and the windows from which it switches."""
    from desktop.core.gpu.device import cpu_flags
    from desktop.core.transcription.speed_records import SpeedRecords, machine_key
    from desktop.engines.transcription.decoders.bf16_encoder import worth_loading_from_windows
    from desktop.engines.transcription.computer_measurement import bundled_speech, measure_encoders
    from tests.helpers.weights import ModelRef, base_dir

    figures = measure_encoders(ModelRef("base", "ct2", base_dir()), bundled_speech())
    if figures is None:
        raise RuntimeError("the encoders of base could not be measured")
    record = SpeedRecords().add_encoder("base", machine_key(), **figures)
    return {**figures, "from_windows": worth_loading_from_windows(cpu_flags(Path("/proc/cpuinfo")), record)}


def cpu_runs(seconds: float, torch_seconds: float, repeat: int, *,
             with_torch: bool = True) -> tuple[list[Measured], list[Measured], float]:
    from desktop.engines.transcription.engine import TranscribeOptions
    from desktop.engines.transcription.decoders.loading import load_engine
    from desktop.engines.transcription.decoders.whisper_ct2 import load_ct2_engine
    from tests.helpers.weights import ModelRef, base_dir, recording, reference

    pieces = {name: recording(name) for name in ENGLISH}
    audio, text = english_speech(seconds, pieces, {name: reference(name) for name in ENGLISH})
    options = TranscribeOptions(language="en", beam_size=5)
    model = ModelRef("base", "ct2", base_dir())

    ct2 = load_engine(model, "ct2", "cpu")
    own_encoder = load_ct2_engine(model, "cpu", bf16_from_windows=None)
    try:
        directly = FasterWhisperDirectly(base_dir())
        its_batches = FasterWhisperBatchedDirectly(base_dir())
        first = first_recording_in_a_fresh_process(seconds)
        warm_up = measure("warm-up: the switch of encoder, where it was measured faster", ct2, audio, options, text)
        precision = "bfloat16" if warm_up.bf16_encoder else "int8"
        for whisper_model in (directly._model, its_batches._model, ct2._model, own_encoder._model):
            StageClock.attach(whisper_model)  # the clock of the engine measured is the one that ran
        ct2_rows = [
            measure("faster-whisper directly (sequential, its own VAD)", directly, audio, options, text,
                    repeat=repeat),
            measure("VoxDesk batch size 1: its windows one at a time (int8)", own_encoder, audio,
                    replace(options, batch_size=1), text, repeat=repeat),
            measure(f"VoxDesk automatic: batched pipeline (encoder {precision})", ct2, audio, options, text,
                    repeat=repeat),
            measure("VoxDesk batched pipeline, CTranslate2's own encoder (int8)", own_encoder, audio, options, text,
                    repeat=repeat),
            measure(f"VoxDesk batch size 4: batched pipeline (encoder {precision})", ct2, audio,
                    replace(options, batch_size=4), text, repeat=repeat),
            measure("faster-whisper's own batched pipeline (its VAD, no timestamp tokens)", its_batches, audio,
                    options, text, repeat=repeat),
        ]
    finally:
        StageClock.attached.clear()
        ct2.close()
        own_encoder.close()
    ct2_rows.insert(3, first)
    if not with_torch:
        return ct2_rows, [], audio.size / 16000

    short, short_text = english_speech(torch_seconds, pieces, {name: reference(name) for name in ENGLISH})
    engine = load_engine(model, "torch", "cpu")
    try:
        torch_rows = [
            measure("openai-whisper directly (whisper.transcribe, sequential, fp32)", OpenAIWhisperDirectly(engine),
                    short, options, short_text),
            measure("VoxDesk batch size 1: its windows one at a time (fp32)", engine, short,
                    replace(options, batch_size=1), short_text),
            measure("VoxDesk batched torch engine (fp32)", engine, short, options, short_text),
        ]
    finally:
        engine.close()
    return ct2_rows, torch_rows, audio.size / 16000


def stage_table(rows: list[Measured]) -> str:
    """Seconds per stage of each contender's best run: what batching can and cannot shorten."""
    names = ("encoder", "decoder", "word alignment")
    lines = ["| contender | " + " | ".join(names) + " | the rest (voice detection, features, Python) | total |",
             "|---|" + "---|" * (len(names) + 2)]
    for row in rows:
        stages = row.stages or {}
        rest = row.seconds - sum(stages.get(name, 0.0) for name in names)
        lines.append(f"| {row.name} | " + " | ".join(f"{stages.get(name, 0.0):.1f}" for name in names)
                     + f" | {rest:.1f} | {row.seconds:.1f} |")
    return "\n".join(lines)


def first_recording_in_a_fresh_process(seconds: float) -> Measured:
    """The automatic path's first recording in a process of its own, as the command line runs it: the
    engine loaded (not timed), then the transcription timed, switch of encoder and torch import included."""

    code = f"""
import json, sys, time
sys.path.insert(0, "benchmarks")
import batched_benchmark as bench
from desktop.engines.transcription.engine import TranscribeOptions
from desktop.engines.transcription.decoders.loading import load_engine
from tests.helpers.weights import ModelRef, base_dir, recording, reference, wer
audio, text = bench.english_speech({seconds!r}, {{n: recording(n) for n in bench.ENGLISH}},
                                   {{n: reference(n) for n in bench.ENGLISH}})
engine = load_engine(ModelRef("base", "ct2", base_dir()), "ct2", "cpu")
torch_already = "torch" in sys.modules
started = time.perf_counter()
result = engine.transcribe(audio, TranscribeOptions(language="en", beam_size=5))
took = time.perf_counter() - started
print(json.dumps(dict(seconds=took, audio_seconds=audio.size / 16000, batch_size=result.batch_size,
                      segments=len(result.segments), torch_already=torch_already,
                      word_error_rate=wer(text, " ".join(s.text for s in result.segments)))))
"""
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    row = json.loads(done.stdout.strip().splitlines()[-1])
    if row["torch_already"]:
        raise RuntimeError("torch was imported before the first recording: its import would go uncounted")
    return Measured("VoxDesk automatic, first recording in a fresh process", row["seconds"], row["audio_seconds"],
                    row["word_error_rate"], row["batch_size"], row["segments"])


def batch_sentence(automatic: Measured, larger: Measured) -> str:
    ratio = larger.seconds / automatic.seconds
    verdict = ("slower" if ratio > 1.1 else "faster in this run" if ratio < 0.9
               else "the same, within this machine's run-to-run noise")
    return (f"On the CPU the automatic path decodes {automatic.batch_size} windows at once; batch size "
            f"{larger.batch_size} took {ratio:.2f}× its time ({verdict}).")


def encoder_paragraph(automatic: Measured, first: Measured, own_encoder: Measured, sequential: Measured,
                      encoders: dict) -> str:
    measured = (f"Measured here as Tools → Measure this computer measures it (a batch of 2 windows, best of 3): "
                f"CTranslate2's int8 encoder {encoders['int8_seconds']:.3f} s a window")
    if encoders["bf16_seconds"] is None:
        return measured + ", torch's bfloat16 encoder could not run; the automatic path keeps CTranslate2's."
    measured += (f", torch's bfloat16 encoder {encoders['bf16_seconds']:.3f} s "
                 f"({encoders['bf16_seconds'] / encoders['int8_seconds']:.2f}×), loading it "
                 f"{encoders['load_seconds']:.1f} s in a fresh process (importing torch, reading the weights).")
    if encoders["from_windows"] is None:
        return measured + (" Not faster by the 10 % a switch needs, so the automatic path keeps CTranslate2's "
                           "int8 encoder, and its row is the same engine as the row \"CTranslate2's own encoder\".")
    if "bfloat16" not in automatic.name:
        return measured + (f" The engine switches for a recording of {encoders['from_windows']} windows or more; "
                           "this input has fewer, so the automatic path kept CTranslate2's encoder.")
    return measured + f""" So the automatic path encodes with torch's encoder in bfloat16 and decodes with
CTranslate2 (`desktop/engines/transcription/decoders/bf16_encoder.py`), for a recording of {encoders['from_windows']} windows or more
(the loading over the gain per window), and keeps it for every recording after it. With CTranslate2's own
int8 encoder the same batches take {own_encoder.seconds / sequential.seconds:.2f}× the sequential time, at
{own_encoder.word_error_rate * 100:.1f} % (row "CTranslate2's own encoder"); the first recording in a fresh
process, as the command line runs it, pays the switch and took {first.seconds / sequential.seconds:.2f}× the sequential time (row
"first recording"; the engine loaded beforehand, untimed, as for every row)."""


def machine() -> str:
    import torch

    from benchmarks.report import machine as described

    return f"{described()}, torch {torch.__version__}"


def family_section(family: str, ct2_rows: list[Measured], encoders: dict, audio_seconds: float) -> str:
    """One processor family's CPU table and what it shows."""
    sequential, one_at_a_time, automatic, first, own_encoder = ct2_rows[:5]
    its_batches = ct2_rows[-1]
    ratio = automatic.seconds / sequential.seconds
    decoder = (automatic.stages or {}).get("decoder", 0.0)
    floor = (automatic.seconds - decoder) / sequential.seconds
    decoder_gain = (sequential.stages or {}).get("decoder", 0.0) / decoder if decoder else float("nan")
    own_ratio = automatic.seconds / one_at_a_time.seconds
    title, environment = FAMILIES[family]
    limits = " ".join(f"`{name}={value}`" for name, value in environment.items())
    return f"""### CPU, {title}: the automatic CTranslate2 path against faster-whisper's sequential decoding
{f"{chr(10)}Run with {limits}.{chr(10)}" if limits else ""}
{table(ct2_rows, sequential)}

The automatic path takes {ratio:.2f}× the time of faster-whisper's own sequential decoding
at a word error rate of {automatic.word_error_rate * 100:.1f} % against {sequential.word_error_rate * 100:.1f} %,
and {own_ratio:.2f}× the time of VoxDesk's windows one at a time (batch size 1: VoxDesk's voice detection
and windows, then faster-whisper's batched pipeline one window at a time; {one_at_a_time.word_error_rate * 100:.1f} %). {batch_sentence(automatic, ct2_rows[5])}

{encoder_paragraph(automatic, first, own_encoder, sequential, encoders)}

faster-whisper's own batched pipeline (last row) takes {its_batches.seconds / sequential.seconds:.2f}× the sequential time, at a
word error rate of {its_batches.word_error_rate * 100:.1f} % and in {its_batches.segments} segments for {audio_seconds:.0f} s ({automatic.segments}
for VoxDesk's automatic path).

Where the time goes (seconds in CTranslate2's stages, best run):

{stage_table(ct2_rows[:3] + [own_encoder, its_batches])}

Batching makes the decoder {decoder_gain:.1f}× as fast; it cannot shorten the encoder or the word alignment,
so even a free decoder would leave the automatic path at {floor:.2f}× the sequential time here.
"""


def section(families: dict[str, str], torch_rows: list[Measured], audio_seconds: float, repeat: int) -> str:
    import ctranslate2
    import faster_whisper

    torch_part = ""
    if torch_rows:
        directly, one_at_a_time, batched = torch_rows
        torch_part = f"""### CPU, for reference: the batched torch engine against openai-whisper's own decoding

This processor as it is; the first {directly.audio_seconds:.0f} s of the same speech, fp32 (the GPU runs fp16).
openai-whisper directly is `whisper.transcribe` on the engine's loaded model, as the library's users run it
(no voice activity detection, each window told the text before it); VoxDesk's rows decode its own windows
of the speech its voice detection kept, one at a time (batch size 1) and in batches:

{table(torch_rows, directly)}

Batched: {batched.seconds / directly.seconds:.2f}× the time of openai-whisper's own decoding and
{batched.seconds / one_at_a_time.seconds:.2f}× the time of the same windows one at a time.
"""
    return f"""## Batched decoding

Measured {dt.date.today().isoformat()} by `benchmarks/batched_benchmark.py` on {machine()};
faster-whisper {faster_whisper.__version__}, ctranslate2 {ctranslate2.__version__}. Compare the
contenders of one table (same run, same input, same weights), not absolute seconds across tables.

Input: {audio_seconds:.0f} s of real English speech (jfk.flac and lj050-0131.wav in turn, with pauses
of 0.5 to 3 s), in memory; Whisper base from the test packages, the same weights for every
contender; beam 5, word timings on, VoxDesk's voice activity detection first. Best of {repeat}.
Sequential decoding gives the previous window's text as the prompt, and on this input of repeated
sentences it skips some of them; batched windows are decoded independently. faster-whisper's own
batched pipeline fills each chunk up to 30 s and decodes without timestamp tokens, so each chunk is
one segment, too long for a subtitle; VoxDesk keeps windows that end where speech pauses and
segments where Whisper ends them.

One table per processor family. Each family ran in a process of its own that first measured the
encoders as *Tools → Measure this computer* does, so its automatic path made the choice it makes on
such a processor. The emulated families use that family's kernels on this processor (the libraries
limited to its instruction sets), not its speed: a real processor of the family decides its own
figures, and the measurement on it decides its choice.

{chr(10).join(families.values())}
{torch_part}
### GPU

No GPU was available to this benchmark's run. On a machine with an NVIDIA or AMD GPU and Python with
PyTorch and transformers (no internet needed), after building the bundle here:

    {GPU_COMMAND}

It installs the bundle into a temporary folder, checks the engines on the GPU (fp16 against the CPU,
batched against one window at a time and against openai-whisper's own decoding, out-of-memory halving)
and prints the table of VoxDesk's batched windows against openai-whisper's own decoding
(`whisper.transcribe`) and against the same windows one at a time (beam 5 and greedy): real-time factor,
peak GPU memory, word error rate; the table is also written to `gpu-check.md` in the current folder.
"""


def run_family(family: str, args: argparse.Namespace) -> dict:
    """One family's measurements in a process of its own, with its limits and a throw-away data folder."""
    with tempfile.TemporaryDirectory(prefix="voxdesk-bench-") as data:
        env = {**os.environ, **FAMILIES[family][1], "VOXDESK_DATA_DIR": data}
        done = subprocess.run([sys.executable, __file__, "--family", family, "--seconds", str(args.seconds),
                               "--torch-seconds", str(args.torch_seconds), "--repeat", str(args.repeat)],
                              cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"the {family} run failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def one_family(family: str, args: argparse.Namespace) -> dict:
    """The measurements of this process's family (its limits already in the environment), as JSON."""
    encoders = measure_this_computer()
    ct2_rows, torch_rows, audio_seconds = cpu_runs(args.seconds, args.torch_seconds, args.repeat,
                                                   with_torch=family == "this")
    return {"section": family_section(family, ct2_rows, encoders, audio_seconds), "audio_seconds": audio_seconds,
            "torch_rows": [vars(row) for row in torch_rows]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=223.0)
    parser.add_argument("--torch-seconds", type=float, default=60.0)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--families", default=",".join(FAMILIES), help="processor families, comma-separated")
    parser.add_argument("--family", choices=FAMILIES, help=argparse.SUPPRESS)  # one family's own process
    parser.add_argument("--no-write", action="store_true", help="print only; leave BENCHMARKS.md as it is")
    args = parser.parse_args(argv)

    if args.family:
        print(json.dumps(one_family(args.family, args)))
        return 0
    results = {family: run_family(family, args) for family in args.families.split(",")}
    torch_rows = next(([Measured(**row) for row in r["torch_rows"]] for r in results.values() if r["torch_rows"]), [])
    markdown = section({family: r["section"] for family, r in results.items()}, torch_rows,
                       next(iter(results.values()))["audio_seconds"], args.repeat)
    print(markdown)
    if not args.no_write:
        from benchmarks.report import write_section

        write_section("batched", markdown)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
