"""A GPU that proves its answers: the bundled test speech transcribed on the GPU and on the processor,
and what the comparison says about the GPU.

ROCm can be wrong without failing: Whisper has produced wrong or empty transcripts on the GPU with no
error at all (ROCm/TheRock #1113, vLLM #20069, obs-localvocal #260), and some GPUs are slower than the
processor (integrated Radeons). A test that only runs kernels sees neither, so the first time a GPU
engine is used on a machine, and again whenever the driver, ROCm or an engine library changes
(``check_key``), both transcripts are compared word by word. More than ``WORD_TOLERANCE`` of the words
differing marks the GPU unusable; a GPU slower than the processor is kept out of *Automatic*.

The verdicts are kept beside the speed records, in a small JSON file the user may have damaged: what
is not a verdict exactly as written here is ignored.
"""
from __future__ import annotations

import hashlib
import json
import logging
import math
import platform
import re
import unicodedata
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path

from desktop.core.common.atomic import atomic_write_text
from desktop.core.common.errors import UserFacingError
from desktop.core.common.i18n import N_, Message
from desktop.core.common.paths import data_dir
from desktop.core.common.safe_files import open_regular

log = logging.getLogger(__name__)

FILE_NAME = "gpu-answers.json"
WORD_TOLERANCE = 0.10  # share of the words that may differ between the GPU's and the processor's transcript
_MAX_FILE_BYTES = 200_000
_ENGINES = ("torch", "ct2")

WRONG_FIX = N_("KnownAnswer", "Fix: update the graphics driver and ROCm (sudo apt update && sudo apt full-upgrade), "
                              "restart, and run Help → Doctor again.")


def _tokens(text: str) -> list[str]:
    """Words to compare: case and punctuation do not count; Chinese and Japanese count by character."""
    text = unicodedata.normalize("NFKC", text).lower()
    tokens: list[str] = []
    for word in re.findall(r"\w+", text):
        if any("\u3040" <= char <= "\u9fff" for char in word):
            tokens.extend(word)
        else:
            tokens.append(word)
    return tokens


def word_error(reference: str, hypothesis: str) -> float:
    """Word error rate of ``hypothesis`` against ``reference``: edits (substituted, missing or extra words)
    divided by the reference's words. Two empty texts agree (0.0); anything against nothing is 1.0."""
    ref, hyp = _tokens(reference), _tokens(hypothesis)
    if not ref:
        return 0.0 if not hyp else 1.0
    previous = list(range(len(hyp) + 1))
    for i, word in enumerate(ref, start=1):
        current = [i] + [0] * len(hyp)
        for j, other in enumerate(hyp, start=1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (word != other))
        previous = current
    return previous[-1] / len(ref)


def check_key(machine: str, rocm_release: str | None, kernel: str | None = None) -> str:
    """What a verdict is valid for: the machine (processor, cards, library versions, see
    ``speed_records.machine_key``), the ROCm release and the kernel, whose amdgpu driver it carries."""
    parts = [machine, rocm_release or "", kernel if kernel is not None else platform.release()]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class GpuVerdict:
    """What one GPU engine did with the test speech, against the processor."""

    engine: str  # "torch" or "ct2"
    model: str
    key: str  # check_key() when it was checked
    word_error: float  # between the GPU's and the processor's transcript
    gpu_seconds: float
    cpu_seconds: float
    measured: str  # ISO date and time

    @property
    def wrong(self) -> bool:
        return self.word_error > WORD_TOLERANCE

    @property
    def slower(self) -> bool:
        return self.gpu_seconds >= self.cpu_seconds

    @property
    def usable(self) -> bool:
        return not self.wrong

    @property
    def preferred(self) -> bool:
        """Automatic may choose this engine on the GPU."""
        return not self.wrong and not self.slower

    def sentence(self) -> Message:
        percent = round(self.word_error * 100)
        engine = _engine_name(self.engine)
        if self.wrong:
            return N_("KnownAnswer", "The graphics card gave wrong results with {engine} ({percent}% of the words of the "
                                     "test speech differ from the processor's); VoxDesk uses the processor. {fix}").format(
                engine=engine, percent=percent, fix=WRONG_FIX)
        if self.slower:
            return N_("KnownAnswer", "The graphics card is slower than the processor with {engine} ({gpu:.1f} s against "
                                     "{cpu:.1f} s for the test speech), so Automatic uses the processor.").format(
                engine=engine, gpu=self.gpu_seconds, cpu=self.cpu_seconds)
        return N_("KnownAnswer", "GPU check passed with {engine}: same words as the processor, {gpu:.1f} s against "
                                 "{cpu:.1f} s.").format(engine=engine, gpu=self.gpu_seconds, cpu=self.cpu_seconds)


def _engine_name(engine: str) -> str:
    return {"torch": "openai-whisper", "ct2": "faster-whisper"}.get(engine, engine)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def verdict(engine: str, model: str, key: str, *, gpu_text: str, cpu_text: str, gpu_seconds: float,
            cpu_seconds: float) -> GpuVerdict:
    """The verdict on one comparison (the processor's transcript is the reference)."""
    return GpuVerdict(engine, model, key, round(word_error(cpu_text, gpu_text), 4), round(float(gpu_seconds), 3),
                      round(float(cpu_seconds), 3), _now())


def _parsed(entry) -> GpuVerdict | None:
    if not isinstance(entry, dict) or entry.get("engine") not in _ENGINES:
        return None
    texts = ("model", "key", "measured")
    if not all(isinstance(entry.get(name), str) and 0 < len(entry[name]) <= 200 for name in texts):
        return None
    numbers = [entry.get(name) for name in ("word_error", "gpu_seconds", "cpu_seconds")]
    if any(isinstance(n, bool) or not isinstance(n, (int, float)) or not math.isfinite(n) or n < 0 for n in numbers):
        return None
    return GpuVerdict(entry["engine"], entry["model"], entry["key"], float(numbers[0]), float(numbers[1]),
                      float(numbers[2]), entry["measured"])


class GpuVerdicts:
    """The verdicts file beside the speed records. Reads never fail; writes replace the file atomically."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = Path(path) if path is not None else data_dir() / FILE_NAME

    def all(self) -> list[GpuVerdict]:
        try:
            with open_regular(self.path, follow_links=False) as stream:
                raw = stream.read(_MAX_FILE_BYTES + 1)
            if len(raw) > _MAX_FILE_BYTES:
                raise ValueError("longer than a verdicts file can be")
            data = json.loads(raw.decode("utf-8"))
        except FileNotFoundError:
            return []
        except (OSError, UserFacingError, UnicodeDecodeError, ValueError, RecursionError) as exc:
            log.warning("ignoring the GPU verdicts file %s: %s", self.path, exc)
            return []
        entries = data.get("verdicts") if isinstance(data, dict) else None
        return [v for v in map(_parsed, entries) if v is not None] if isinstance(entries, list) else []

    def latest(self, engine: str, key: str) -> GpuVerdict | None:
        """The verdict on ``engine`` for this machine as it is now (any model), if it was checked."""
        found = [v for v in self.all() if v.engine == engine and v.key == key]
        return found[-1] if found else None

    def add(self, new: GpuVerdict) -> GpuVerdict:
        """Keep a verdict, replacing the one of the same engine and key. Raises ExportError on a failed write."""
        kept = [v for v in self.all() if (v.engine, v.key) != (new.engine, new.key)] + [new]
        self.path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps({"verdicts": [asdict(v) for v in kept]}, ensure_ascii=False, indent=1)
        atomic_write_text(self.path, text + "\n", overwrite=True)
        return new
