"""VoxDesk's accuracy against the libraries underneath, per recording and per path, and the cost of
each of VoxDesk's own decoding choices.

    .venv/bin/python benchmarks/accuracy_table.py --label after [--variants all] [--rows ...] [--out FILE]

Every recording is made of the real clips of tests/data with a reference transcript, alone and said
again (a group of clips repeated, as a meeting repeats an agenda, and clips joined). Each is decoded
with Whisper base (CTranslate2 int8, CPU, beam 5, language given) by:

- VoxDesk automatic (the batched path) and VoxDesk ``--batch-size 1`` (windows one after another),
  in this process through the Transcriber (the code behind the window and ``voxdesk transcribe``),
  the model loaded once; with ``--variants`` also with each of VoxDesk's own choices undone;
- faster-whisper's ``WhisperModel.transcribe`` run directly (its Silero VAD filter, its defaults,
  the same weights and beam);
- openai-whisper's ``transcribe`` run directly (the same weights as its checkpoint, fp32, beam 5,
  its defaults).

Scores: word error rate for English (Whisper's normaliser), character error rate for Mandarin
(Simplified, no punctuation), in per cent; for a repeated recording also "spread": the largest error
rate between two repetitions' texts (0: every repetition written alike). Each row's result is kept in
a JSON cache (``--cache``) under its label, so a rerun decodes only rows it has not seen; a new
``--label`` measures VoxDesk again (the libraries' rows are shared by all labels).

Rows marked held out were not looked at while choosing VoxDesk's decoding; they check the choice.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable, Iterator
from unittest import mock

import numpy as np
import soundfile

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.helpers.accuracy import Repeated, disagreement, repeated, repetitions, score  # noqa: E402
from tests.helpers.weights import base_dir  # noqa: E402

HARVARD = {  # speakers/README.md
    "speakers/spk1_snt4.wav": "A thin stripe runs down the middle.",
    "speakers/spk1_snt5.wav": "Sunday is the best part of the week.",
    "speakers/spk2_snt4.wav": "Mend the coat before you go out.",
    "speakers/spk2_snt5.wav": "Jump the fence and hurry up the bank.",
}
REFERENCES = {**HARVARD,  # tests/data/README.md: two Harvard sentences, then BAC009S0764W0121
              "mixed_en_zh.wav": "A thin stripe runs down the middle. Jump the fence and hurry up the bank. 甚至出现交易几乎停滞的情况"}
ZH = ("BAC009S0764W0121.wav", "BAC009S0764W0122.wav")
EN = ("jfk.flac", "lj050-0131.wav")
AUTO = None  # the language is left to Whisper to detect, as the window's default does


@dataclass(frozen=True)
class Recording:
    clips: tuple[str, ...]
    times: int  # the group of clips said this many times
    language: str  # how it is scored: "en" (WER), "zh" (CER) or "mixed" (both kinds of token)
    pause: float  # seconds of silence after each clip
    held_out: bool  # never looked at while choosing VoxDesk's decoding
    given: str | None = "language"  # the language the decoders are told; AUTO: detected

    @property
    def told(self) -> str | None:
        return None if self.given is AUTO else self.language


RECORDINGS: dict[str, Recording] = {
    "jfk": Recording(("jfk.flac",), 1, "en", 0.5, False),
    "lj": Recording(("lj050-0131.wav",), 1, "en", 0.5, False),
    "en jfk+lj ×3": Recording(EN, 3, "en", 1.0, False),
    "zh W0121": Recording(("BAC009S0764W0121.wav",), 1, "zh", 0.5, False),
    "zh agenda W0121+W0122 ×8": Recording(ZH, 8, "zh", 1.0, False),
    # held out: never looked at while choosing
    "zh W0122": Recording(("BAC009S0764W0122.wav",), 1, "zh", 0.5, True),
    "zh W0122+W0121 ×5": Recording(tuple(reversed(ZH)), 5, "zh", 0.6, True),
    "en harvard 4 joined": Recording(tuple(HARVARD), 1, "en", 0.8, True),
    "en harvard 4 joined ×4": Recording(tuple(HARVARD), 4, "en", 0.8, True),
    # held out, added with the second round of choices: longer, joined without pauses VAD would keep,
    # both languages in one recording, and the language left to detection
    "zh agenda ×15, 130 s": Recording(ZH, 15, "zh", 0.3, True),
    "en lj ×6, short pauses": Recording(("lj050-0131.wav",), 6, "en", 0.3, True),
    "en everything ×2, detected": Recording((*EN, *HARVARD), 2, "en", 0.6, True, AUTO),
    "zh agenda ×4, detected": Recording(ZH, 4, "zh", 0.8, True, AUTO),
    "mixed en+zh, detected": Recording(("mixed_en_zh.wav",), 1, "mixed", 0.5, True, AUTO),
    "mixed en+zh ×3, detected": Recording(("mixed_en_zh.wav",), 3, "mixed", 0.8, True, AUTO),
}


def build(name: str) -> Repeated:
    row = RECORDINGS[name]
    return repeated(row.clips, row.times, row.language, row.pause, references=REFERENCES)


# -- VoxDesk's own choices, each undone --------------------------------------------------------------

def _options_changed(**changes: Any):
    from desktop.engines.transcription.plan import TranscribeSettings

    own = TranscribeSettings.options
    return mock.patch.object(TranscribeSettings, "options", lambda self: replace(own(self), **changes))


def _no_second_look():
    from desktop.engines.transcription.review import second_pass

    return mock.patch.object(second_pass, "review", lambda result, *args, **kwargs: second_pass.Review(
        segments=[(segment, None) for segment in result.segments]))


def _no_mandarin_prompt():
    from desktop.core.transcription import chinese

    return mock.patch.object(chinese, "MANDARIN_PROMPT", None)


def _no_rests():
    from desktop.engines.transcription.decoders import batching

    return mock.patch.object(batching, "REST_ROUNDS", 0)


def _whispers_own_windows():
    """Every recording decoded as Whisper itself goes through it (faster-whisper's sequential decoding,
    each window told the text before it), as ``--batch-size 1`` did before VoxDesk's windows."""
    from desktop.engines.transcription.decoders import whisper_ct2

    engine = whisper_ct2.Ct2WhisperEngine

    def sequential(self, model, speech, options, language, loop_guard=True):
        return model.transcribe(speech, **self._decoding(options, language), condition_on_previous_text=True)

    def batched_with_rests(self, model, speech, windows, options, language, size):
        return sequential(self, model, speech, options, language)

    stack = contextlib.ExitStack()
    stack.enter_context(mock.patch.object(engine, "_batched_with_rests", batched_with_rests))
    stack.enter_context(mock.patch.object(engine, "_sequential", sequential))
    return stack


def _faster_whisper_option(**more: Any):
    """One of faster-whisper's safeguards against loops, given to every decoding."""
    from desktop.engines.transcription.decoders import whisper_ct2

    own = whisper_ct2.Ct2WhisperEngine._decoding
    return mock.patch.object(whisper_ct2.Ct2WhisperEngine, "_decoding",
                             staticmethod(lambda options, language: {**own(options, language), **more}))


# Where each undoing can change anything: the paths it applies to, and the languages.
BATCHED, ONE_BY_ONE = "VoxDesk automatic", "VoxDesk --batch-size 1"
ALL_LANGUAGES = ("zh", "en", "mixed")
APPLIES = {
    "no Mandarin prompt": ((BATCHED, ONE_BY_ONE), ("zh", "mixed")),
}

VARIANTS: dict[str, Callable[[], Any]] = {
    "as is": contextlib.nullcontext,
    "no Mandarin prompt": _no_mandarin_prompt,
    "no word timings": lambda: _options_changed(word_timestamps=False),
    "text before each window": lambda: _options_changed(condition_on_previous_text=True),
    "Whisper's own windows": _whispers_own_windows,
    "no second look": _no_second_look,
    "no rest-of-window pass": _no_rests,
    "no temperature fallback": lambda: _options_changed(temperature=0.0),
    "no VoxDesk VAD": lambda: _options_changed(vad=False),
    "repetition_penalty 1.1": lambda: _faster_whisper_option(repetition_penalty=1.1),
    "no_repeat_ngram_size 3": lambda: _faster_whisper_option(no_repeat_ngram_size=3),
    "hallucination_silence_threshold 2": lambda: _faster_whisper_option(hallucination_silence_threshold=2.0),
}


def _available(variant: str) -> bool:
    """Whether this version of VoxDesk has the choice that ``variant`` undoes."""
    try:
        with VARIANTS[variant]():
            return True
    except (ImportError, AttributeError):
        return False


class VoxDesk:
    def __init__(self, folder: Path):
        from desktop.core.gpu.fallback import FallbackLog
        from desktop.core.transcription.whisper_models import ModelStore
        from desktop.engines.transcription.transcriber import Transcriber

        self._folder = folder
        self._transcriber = Transcriber(ModelStore(folder / "models"), FallbackLog(), isolate=False,
                                        gpu_available=lambda: False, ct2_gpu_count=lambda: 0)

    def transcribe(self, wav: Path, language: str | None, batch_size: int | None) -> list[Any]:
        from desktop.engines.transcription.plan import TranscribeSettings

        settings = TranscribeSettings(model=str(base_dir()), engine="ct2", device="cpu", language=language,
                                      batch_size=batch_size, beam_size=5)
        return self._transcriber.transcribe_file(wav, settings).segments


class FasterWhisper:
    def __init__(self, folder: Path):
        from faster_whisper import WhisperModel

        self._model = WhisperModel(str(folder), device="cpu", compute_type="int8")

    def transcribe(self, samples: np.ndarray, language: str | None) -> list[Any]:
        segments, _ = self._model.transcribe(samples, language=language, beam_size=5, vad_filter=True)
        return [SimpleNamespace(start=s.start, end=s.end, text=s.text) for s in segments]


class OpenaiWhisper:
    def __init__(self, folder: Path):
        import torch
        import whisper

        from desktop.engines.transcription.model_files.ct2_format import read_model_bin
        from desktop.engines.transcription.model_files.weight_mapping import to_whisper_state_dict

        checkpoint = folder / "base.pt"
        if not checkpoint.exists():
            dims, state = to_whisper_state_dict(read_model_bin(base_dir() / "model.bin"))
            torch.save({"dims": dims, "model_state_dict": {k: torch.from_numpy(v) for k, v in state.items()}},
                       checkpoint)
        self._model = whisper.load_model(str(checkpoint), device="cpu")

    def transcribe(self, samples: np.ndarray, language: str | None) -> list[Any]:
        result = self._model.transcribe(samples, language=language, beam_size=5, fp16=False)
        return [SimpleNamespace(start=s["start"], end=s["end"], text=s["text"]) for s in result["segments"]]


PATHS = {BATCHED: None, ONE_BY_ONE: 1}
LIBRARIES = ("faster-whisper", "openai-whisper")


def measure(recording: Repeated, segments: list[Any], seconds: float) -> dict:
    joiner = "" if recording.language == "zh" else " "  # mixed: scored by token, spaces do no harm
    text = joiner.join(s.text.strip() for s in segments)
    return scored(recording, {"text": text, "seconds": seconds})


def scored(recording: Repeated, row: dict) -> dict:
    """A row's error rate, and for a repeated recording the spread between its repetitions."""
    row["error"] = 100 * score(recording.language, recording.reference, row["text"])
    if len(recording.references) > 1:
        row["spread"] = 100 * disagreement(repetitions(recording.language, recording.references, row["text"]))
    return row


class Cache:
    def __init__(self, path: Path):
        self._path = path
        self.rows: dict[str, dict] = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}

    def get(self, key: str) -> dict | None:
        return self.rows.get(key)

    def put(self, key: str, row: dict) -> None:
        """Keep ``row``, and the rows another run wrote to the file meanwhile."""
        import fcntl

        with open(self._path.with_suffix(".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if self._path.exists():
                self.rows.update(json.loads(self._path.read_text(encoding="utf-8")))
            self.rows[key] = row
            tmp = self._path.with_suffix(".tmp")
            tmp.write_text(json.dumps(self.rows, ensure_ascii=False, indent=1), encoding="utf-8")
            tmp.replace(self._path)


def key(label: str, recording: str, runner: str, variant: str = "as is") -> str:
    return " | ".join((label, recording, runner, variant))


@contextlib.contextmanager
def lazily(make: Callable[[], Any]) -> Iterator[Callable[[], Any]]:
    made: list[Any] = []

    def get() -> Any:
        if not made:
            made.append(make())
        return made[0]

    yield get


def run(args: argparse.Namespace) -> Cache:
    cache = Cache(args.cache)
    work = Path(tempfile.mkdtemp(prefix="accuracy-"))
    variants = [v for v in VARIANTS if _available(v)] if args.variants == ["all"] else args.variants
    with lazily(lambda: VoxDesk(work)) as voxdesk, lazily(lambda: FasterWhisper(base_dir())) as fw, \
            lazily(lambda: OpenaiWhisper(args.cache.parent)) as ow:
        for name in args.rows:
            recording = build(name)
            wav = work / "recording.wav"
            soundfile.write(wav, recording.samples, 16000)
            told = RECORDINGS[name].told
            for runner in args.runners:
                for variant in (variants if runner in PATHS else ["as is"]):
                    paths, languages = APPLIES.get(variant, (tuple(PATHS), ALL_LANGUAGES))
                    if runner in PATHS and (runner not in paths or recording.language not in languages):
                        continue
                    k = key(args.label if runner in PATHS else "library", name, runner, variant)
                    if cache.get(k) is not None:
                        continue
                    began = time.perf_counter()
                    if runner in PATHS:
                        with VARIANTS[variant]():
                            segments = voxdesk().transcribe(wav, told, PATHS[runner])
                    elif runner == "faster-whisper":
                        segments = fw().transcribe(recording.samples, told)
                    else:
                        segments = ow().transcribe(recording.samples, told)
                    row = measure(recording, segments, time.perf_counter() - began)
                    cache.put(k, row)
                    print(f"{k}: {row['error']:.1f} %"
                          + (f", spread {row['spread']:.1f} %" if "spread" in row else "")
                          + f" ({row['seconds']:.0f} s)", flush=True)
    return cache


def cell(row: dict | None, recording: Repeated) -> str:
    if row is None:
        return "–"
    row = scored(recording, dict(row))
    spread = f" ({row['spread']:.0f})" if "spread" in row else ""
    return f"{row['error']:.1f}{spread}"


def table(cache: Cache, label: str, rows: list[str]) -> str:
    lines = [f"| recording | seconds | held out | {' | '.join(PATHS)} | {' | '.join(LIBRARIES)} |",
             "|---|---|---|" + "---|" * (len(PATHS) + len(LIBRARIES))]
    for name in rows:
        row = RECORDINGS[name]
        recording = build(name)
        seconds = recording.samples.size / 16000
        measure_name = {"zh": "CER", "en": "WER"}.get(row.language, "MER")
        cells = [cell(cache.get(key(label, name, p)), recording) for p in PATHS]
        cells += [cell(cache.get(key("library", name, lib)), recording) for lib in LIBRARIES]
        lines.append(f"| {name} ({measure_name}) | {seconds:.0f} | {'yes' if row.held_out else ''} | "
                     + " | ".join(cells) + " |")
    return "\n".join(lines)


def variant_table(cache: Cache, label: str, rows: list[str]) -> str:
    variants = [v for v in VARIANTS if any(cache.get(key(label, r, p, v)) for r in rows for p in PATHS)]
    lines = ["| recording | path | " + " | ".join(variants) + " |", "|---|---|" + "---|" * len(variants)]
    for name in rows:
        recording = build(name)
        for path in PATHS:
            lines.append(f"| {name} | {path.replace('VoxDesk ', '')} | "
                         + " | ".join(cell(cache.get(key(label, name, path, v)), recording) for v in variants) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--label", default="now", help="the name VoxDesk's rows are kept under in the cache")
    parser.add_argument("--rows", nargs="+", default=list(RECORDINGS), choices=list(RECORDINGS))
    parser.add_argument("--variants", nargs="+", default=["as is"], choices=["all", *VARIANTS])
    parser.add_argument("--runners", nargs="+", default=[*PATHS, *LIBRARIES], choices=[*PATHS, *LIBRARIES])
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "voxdesk-accuracy" / "rows.json")
    parser.add_argument("--out", type=Path, help="write the tables (markdown) to this file too")
    args = parser.parse_args(argv)
    args.cache.parent.mkdir(parents=True, exist_ok=True)
    cache = run(args)
    text = (f"Error rate in per cent (spread between repetitions in brackets), label {args.label!r}:\n\n"
            + table(cache, args.label, args.rows) + "\n\nVoxDesk's choices undone, one at a time:\n\n"
            + variant_table(cache, args.label, args.rows) + "\n")
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
