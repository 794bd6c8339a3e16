"""Piper voices: the official voice list, checking a voice's two files, and downloading them.

A Piper voice is an ONNX model (``en_US-joe-medium.onnx``) and its config beside it
(``en_US-joe-medium.onnx.json``: the espeak-ng voice that turns text into phonemes, the map from
phonemes to the model's symbols, the sample rate, speakers and scales). Both are data: the model is
run by onnxruntime, nothing in either file is code, and nothing is unpickled.

The voice list is the official ``voices.json`` of the Piper project (rhasspy/piper, the list of the
rhasspy/piper-voices repository at v1.0.0), shipped in resources/speech/piper-voices.json as it was
published: each voice's files with their sizes and MD5 digests, which a download is checked against.

Everything in a voice's folder is hostile until checked (:func:`inspect_piper`): regular files only
(no links, pipes or devices), a model of a bounded size, a config of a bounded size whose phoneme
map, speakers, rate and espeak-ng voice are what Piper writes, and no path in it naming a file
outside the folder.
"""
from __future__ import annotations

import functools
import hashlib
import json
import math
import re
import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from desktop.core.common.download import download_file
from desktop.core.common.errors import ModelError
from desktop.core.common.i18n import N_
from desktop.core.common.safe_files import read_limited, regular_files, require_regular_file

PIPER_PREFIX = "piper/"
PIPER_REPO = "rhasspy/piper-voices"
PIPER_REVISION = "v1.0.0"  # the revision the shipped voices.json describes
CONFIG_SUFFIX = ".onnx.json"
# The largest official voice is 137 MB (a "high" multi-speaker one); twice that leaves room for
# voices people train themselves, and stops a file that only claims to be a voice (or is sparse).
MAX_VOICE_BYTES = 300 * 1024 * 1024
MAX_CONFIG_BYTES = 1024 * 1024
MAX_SPEAKERS = 10_000
QUALITIES = ("x_low", "low", "medium", "high")
# espeak-ng voice names ("en-us", "cmn", "pt-br"); also what keeps it from being read as an option.
_ESPEAK_VOICE = re.compile(r"[A-Za-z][A-Za-z0-9_+-]{0,31}")
_PATH_SUFFIXES = ("_path", "_paths", "_file", "_files", "_dir")

# What is known of a voice's data beyond voices.json, from its model card. Every other voice's terms
# are in the MODEL_CARD file downloaded with it.
DATASET_TERMS: dict[str, tuple[str, str]] = {
    "joe": ("CC0", N_("PiperVoices", "Fine-tuned from the lessac voice, whose recordings were released for "
                                     "non-commercial research only.")),
    "lessac": (N_("PiperVoices", "research only"),
               N_("PiperVoices", "Recorded for the Blizzard Challenge 2013; released for non-commercial research "
                                 "only.")),
}
TERMS_IN_MODEL_CARD = N_("PiperVoices", "see its model card")


@dataclass(frozen=True)
class PiperVoiceFile:
    """One file of an official voice, as voices.json lists it."""

    path: str  # inside the repository: "en/en_US/joe/medium/en_US-joe-medium.onnx"
    size: int
    md5: str

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1]


@dataclass(frozen=True)
class PiperCatalogVoice:
    key: str  # "en_US-joe-medium"
    name: str  # "joe"
    language: str  # "en_US"
    quality: str  # "x_low" … "high"
    speakers: int
    files: tuple[PiperVoiceFile, ...]

    @property
    def size_bytes(self) -> int:
        return sum(f.size for f in self.files)


@dataclass(frozen=True)
class PiperVoiceCheck:
    """A checked Piper voice: where its files are and what its config says."""

    model_file: Path
    config_file: Path
    sample_rate: int
    espeak_voice: str
    phoneme_id_map: dict[str, tuple[int, ...]]
    speakers: dict[str, int]  # name -> id; empty for a one-voice model
    noise_scale: float
    length_scale: float
    noise_w: float
    languages: tuple[str, ...]
    quality: str | None
    dataset: str | None

    @property
    def folder(self) -> Path:
        return self.model_file.parent


# --- the official list ---------------------------------------------------------------------------


def catalog_file() -> Path:
    """The shipped voices.json; from a source tree run without installing, the one beside the code."""
    from desktop.resources import resource_path

    shipped = Path(str(resource_path("speech", "piper-voices.json")))
    source_tree = Path(__file__).resolve().parents[3] / "resources" / "speech" / "piper-voices.json"
    return shipped if shipped.is_file() else source_tree


@functools.cache
def _cached_catalog(path: Path) -> tuple[PiperCatalogVoice, ...]:
    data = json.loads(path.read_text(encoding="utf-8"))
    voices = []
    for key, item in data.items():
        files = tuple(PiperVoiceFile(p, int(f["size_bytes"]), str(f["md5_digest"]))
                      for p, f in item["files"].items())
        voices.append(PiperCatalogVoice(key, item["name"], item["language"]["code"], item["quality"],
                                        int(item.get("num_speakers") or 1), files))
    return tuple(sorted(voices, key=lambda v: v.key))


def official_voices(path: Path | None = None) -> tuple[PiperCatalogVoice, ...]:
    """Every voice of the official list (read once per file)."""
    return _cached_catalog(Path(path or catalog_file()))


def language_code(piper_language: str) -> str:
    """"en_US" -> "en", "zh_CN" -> "zh": the codes the rest of VoxDesk uses."""
    return piper_language.split("_")[0].lower()


def dataset_terms(name: str) -> tuple[str, str]:
    """(licence, what the dataset's terms allow) for a voice name such as "joe"."""
    return DATASET_TERMS.get(name, (TERMS_IN_MODEL_CARD, ""))


def is_piper_name(name: str) -> bool:
    return name.startswith(PIPER_PREFIX)


# --- checking a voice ----------------------------------------------------------------------------


def find_voice_files(path: Path) -> tuple[Path, Path]:
    """The (model, config) of a voice given as its .onnx file or as a folder holding one voice."""
    if path.suffix == ".onnx" and not path.is_dir():
        return path, path.with_name(path.name + ".json")
    if not path.is_dir():
        raise ModelError(N_("PiperVoices", "{name} is neither a Piper voice (.onnx) nor a folder. Choose the voice's "
                                           ".onnx file or the folder that holds it.").format(name=path.name))
    models = sorted(p for p in path.iterdir() if p.name.endswith(".onnx") and not p.name.startswith("."))
    if len(models) != 1:
        raise ModelError(
            N_("PiperVoices", "The folder “{name}” should hold one Piper voice (one .onnx file with its .onnx.json), "
                              "but it holds {count}. Keep one voice per folder.").format(name=path.name,
                                                                                        count=len(models)))
    return models[0], models[0].with_name(models[0].name + ".json")


def is_piper_voice(path: Path) -> bool:
    """Whether path looks like a Piper voice (a .onnx, or a folder with an .onnx.json): checked later."""
    try:
        if path.suffix == ".onnx":
            return True
        return path.is_dir() and any(p.name.endswith(CONFIG_SUFFIX) for p in path.iterdir())
    except OSError:
        return False


def inspect_piper(path: str | Path) -> PiperVoiceCheck:
    """Check a Piper voice (its .onnx or its folder); ModelError with a sentence saying what is wrong."""
    model_file, config_file = find_voice_files(Path(path).expanduser())
    folder = model_file.parent
    try:
        if Path(path).expanduser().is_dir():
            regular_files(folder, error=ModelError)  # a link or a pipe anywhere in the folder is refused by name
        for file in (model_file, config_file):
            if not file.exists() and not file.is_symlink():
                raise ModelError(N_("PiperVoices", "The Piper voice “{name}” has no {file} beside it. Copy the "
                                                   "voice's .onnx file together with its .onnx.json.").format(
                    name=model_file.stem, file=file.name))
            require_regular_file(file, follow_links=False, error=ModelError)
        size = model_file.stat().st_size
        if size > MAX_VOICE_BYTES:
            raise ModelError(
                N_("PiperVoices", "The file {file} is {size} MB, far larger than any Piper voice, so VoxDesk did not "
                                  "load it. Copy the voice again from its source.").format(
                    file=model_file.name, size=round(size / 1e6)),
                detail=f"{model_file}: {size} bytes, at most {MAX_VOICE_BYTES}")
        if size < 1024:
            raise _damaged(model_file)
        raw = read_limited(config_file, MAX_CONFIG_BYTES, _damaged(config_file).message, error=ModelError)
    except OSError as exc:
        raise ModelError(N_("PiperVoices", "VoxDesk cannot read the Piper voice “{name}”. Check that its files are "
                                           "still there and readable.").format(name=model_file.stem),
                         detail=repr(exc)) from exc
    try:
        config = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise _damaged(config_file) from exc
    if not isinstance(config, dict):
        raise _damaged(config_file)
    _check_paths(config, folder, config_file)
    return _read_config(config, model_file, config_file)


def _read_config(config: dict[str, Any], model_file: Path, config_file: Path) -> PiperVoiceCheck:
    phonemes = config.get("phoneme_id_map")
    if not isinstance(phonemes, dict) or not phonemes:
        raise ModelError(
            N_("PiperVoices", "The settings file {file} has no phoneme map, so VoxDesk cannot turn text into this "
                              "voice's sounds. Copy the voice's .onnx.json again from its source.").format(
                file=config_file.name))
    symbols = int(config.get("num_symbols") or 256) if isinstance(config.get("num_symbols"), int) else 256
    id_map: dict[str, tuple[int, ...]] = {}
    for phoneme, ids in phonemes.items():
        if not (isinstance(phoneme, str) and isinstance(ids, list) and ids
                and all(isinstance(i, int) and not isinstance(i, bool) and 0 <= i < max(symbols, 1) for i in ids)):
            raise _damaged(config_file, f"phoneme {phoneme!r}: {ids!r}")
        id_map[phoneme] = tuple(ids)
    if "_" not in id_map:
        raise _damaged(config_file, "no pad symbol '_' in the phoneme map")
    espeak = config.get("espeak") if isinstance(config.get("espeak"), dict) else {}
    voice = espeak.get("voice")
    if not isinstance(voice, str) or not _ESPEAK_VOICE.fullmatch(voice):
        raise _damaged(config_file, f"espeak.voice {voice!r}")
    rate = (config.get("audio") or {}).get("sample_rate") if isinstance(config.get("audio"), dict) else None
    if not isinstance(rate, int) or not 8000 <= rate <= 48000:
        raise _damaged(config_file, f"sample rate {rate!r}")
    count = config.get("num_speakers", 1)
    speakers = config.get("speaker_id_map") or {}
    if not isinstance(count, int) or not 1 <= count <= MAX_SPEAKERS or not isinstance(speakers, dict) or not all(
            isinstance(k, str) and isinstance(v, int) and 0 <= v < count for k, v in speakers.items()):
        raise _damaged(config_file, f"speakers {count!r}")
    if count > 1 and not speakers:
        speakers = {str(i): i for i in range(count)}
    inference = config.get("inference") if isinstance(config.get("inference"), dict) else {}
    scales = [_scale(inference.get(key), default, config_file)
              for key, default in (("noise_scale", 0.667), ("length_scale", 1.0), ("noise_w", 0.8))]
    language = config.get("language") if isinstance(config.get("language"), dict) else {}
    family = language.get("family") if isinstance(language.get("family"), str) else voice.split("-")[0]
    languages = ("zh",) if family.lower() in ("zh", "cmn") else (family.lower()[:8] or "en",)
    quality = (config.get("audio") or {}).get("quality")
    dataset = config.get("dataset")
    return PiperVoiceCheck(
        model_file=model_file, config_file=config_file, sample_rate=rate, espeak_voice=voice,
        phoneme_id_map=id_map, speakers=dict(speakers) if count > 1 else {},
        noise_scale=scales[0], length_scale=scales[1], noise_w=scales[2], languages=languages,
        quality=quality if quality in QUALITIES else None, dataset=dataset if isinstance(dataset, str) else None,
    )


def _scale(value: Any, default: float, config_file: Path) -> float:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not 0 <= value <= 10:
        raise _damaged(config_file, f"scale {value!r}")
    return float(value)


def _check_paths(config: Any, folder: Path, config_file: Path, prefix: str = "") -> None:
    """Refuse a config naming a file or folder outside the voice's folder (what a loader would open)."""
    if not isinstance(config, dict):
        return
    for key, value in config.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict):
            _check_paths(value, folder, config_file, dotted + ".")
        elif isinstance(key, str) and key.endswith(_PATH_SUFFIXES):
            for text in value if isinstance(value, list) else [value]:
                if isinstance(text, str) and text.strip() and not _inside(folder, text):
                    raise ModelError(
                        N_("PiperVoices", "The settings file {file} names {path} ({field}), which is outside the "
                                          "voice's folder, so VoxDesk refused the voice. Use the voice's own "
                                          ".onnx.json.").format(file=config_file.name, path=text, field=dotted))


def _inside(folder: Path, text: str) -> bool:
    target = Path(text) if Path(text).is_absolute() else folder / text
    try:
        target.resolve().relative_to(folder.resolve())
    except (OSError, ValueError):
        return False
    return True


def _damaged(file: Path, detail: str | None = None) -> ModelError:
    return ModelError(
        N_("PiperVoices", "The Piper voice file {file} is damaged or is not a Piper voice. Copy the voice's .onnx "
                          "and .onnx.json again from their source.").format(file=file.name),
        detail=detail or str(file))


# --- downloading ---------------------------------------------------------------------------------


def download_voice(
    voice: PiperCatalogVoice,
    files: Path,
    endpoint: str,
    *,
    title: str,
    timeout: float,
    progress: Callable[[int, int | None], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> None:
    """Download the voice's files from endpoint (Hugging Face or a mirror of it) into files/.

    Each file's size bounds the download, and its MD5 digest from the official list is checked
    before the voice can be used; a file that does not match is deleted.
    """
    total = voice.size_bytes
    done_before = 0
    for entry in voice.files:
        target = files / entry.name
        url = f"{endpoint.rstrip('/')}/{PIPER_REPO}/resolve/{PIPER_REVISION}/{urllib.parse.quote(entry.path)}"

        def step(done: int, _total: int | None, base: int = done_before) -> None:
            if progress:
                progress(base + done, total)

        if not (target.is_file() and target.stat().st_size == entry.size and _md5(target) == entry.md5):
            download_file(url, target, size=entry.size, max_size=entry.size, progress=step, cancelled=cancelled,
                          timeout=timeout, label=title)
            if _md5(target) != entry.md5:
                target.unlink(missing_ok=True)
                raise ModelError(
                    N_("PiperVoices", "The download of “{title}” was damaged on the way ({file} does not match the "
                                      "official checksum), so VoxDesk deleted it; please try again.").format(
                        title=title, file=entry.name),
                    detail=f"{url}: md5 differs from {entry.md5}")
        done_before += entry.size


def _md5(path: Path) -> str:
    digest = hashlib.md5(usedforsecurity=False)  # the digest the official list publishes
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(4 * 1024 * 1024), b""):
            digest.update(block)
    return digest.hexdigest()
