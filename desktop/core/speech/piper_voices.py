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
outside the folder. The config is read with the project's depth-limited JSON reader, each phoneme
stands for at most a few symbols, and every symbol is checked against the config's ``num_symbols``
and against the model's own embedding table (read from its ONNX graph), so a config cannot make one
inference huge or hand the model an id it has no row for. What is wrong is said in words: "The Piper
voice “…” is damaged: …".
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

from desktop.core.common.bounded_http import TooDeep, parse_json
from desktop.core.common.download import download_file
from desktop.core.common.errors import ModelError
from desktop.core.common.i18n import N_, Message
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
# Piper writes three levels ({"espeak": {"voice": …}}, {"phoneme_id_map": {"a": [14]}}).
MAX_CONFIG_DEPTH = 16
# The official voices have 256 symbols; a number far beyond that is not a phoneme table.
MAX_SYMBOLS = 100_000
DEFAULT_SYMBOLS = 256  # what Piper assumes when the config does not say
# Every official voice maps a phoneme to one symbol: more would only let a config inflate the input.
MAX_IDS_PER_PHONEME = 4
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
    num_symbols: int = DEFAULT_SYMBOLS

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


def inspect_piper(path: str | Path, *, name: str | None = None) -> PiperVoiceCheck:
    """Check a Piper voice (its .onnx or its folder); ModelError with a sentence saying what is wrong.

    name is how the user knows the voice (its title); by default the model file's name. The model
    itself is checked by :func:`read_piper_model`.
    """
    model_file, config_file = find_voice_files(Path(path).expanduser())
    folder = model_file.parent
    name = name or model_file.stem
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
            raise damaged(name, N_("PiperVoices", "its model file {file} is too small to be a voice").format(
                file=model_file.name), detail=f"{model_file}: {size} bytes")
        raw = read_limited(config_file, MAX_CONFIG_BYTES, damaged(name, N_(
            "PiperVoices", "its settings file {file} is far larger than any Piper voice's").format(
            file=config_file.name)).message, error=DamagedVoice)
    except OSError as exc:
        raise ModelError(N_("PiperVoices", "VoxDesk cannot read the Piper voice “{name}”. Check that its files are "
                                           "still there and readable.").format(name=name),
                         detail=repr(exc)) from exc
    try:
        config = parse_json(raw.decode("utf-8"), max_depth=MAX_CONFIG_DEPTH)
    except TooDeep as exc:
        raise damaged(name, N_("PiperVoices", "its settings file {file} is nested far deeper than any Piper "
                                              "voice's").format(file=config_file.name), detail=str(exc)) from exc
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise damaged(name, N_("PiperVoices", "its settings file {file} is not valid JSON").format(
            file=config_file.name), detail=repr(exc)[:300]) from exc
    if not isinstance(config, dict):
        raise damaged(name, N_("PiperVoices", "its settings file {file} holds no settings").format(
            file=config_file.name))
    _check_paths(config, folder, config_file)
    return _read_config(config, model_file, config_file, name)


def _read_config(config: dict[str, Any], model_file: Path, config_file: Path, name: str) -> PiperVoiceCheck:
    phonemes = config.get("phoneme_id_map")
    if not isinstance(phonemes, dict) or not phonemes:
        raise damaged(name, N_("PiperVoices", "its settings file {file} has no phoneme map, so VoxDesk cannot turn "
                                              "text into its sounds").format(file=config_file.name))
    symbols = config.get("num_symbols", DEFAULT_SYMBOLS)
    if not _is_int(symbols) or not 1 <= symbols <= MAX_SYMBOLS:
        raise damaged(name, N_("PiperVoices", "its settings give {count} as its number of symbols, where a Piper "
                                              "voice has from 1 to {limit}").format(
            count=_shown_number(symbols), limit=MAX_SYMBOLS), detail=f"num_symbols {symbols!r}"[:300])
    id_map: dict[str, tuple[int, ...]] = {}
    for phoneme, ids in phonemes.items():
        if not isinstance(ids, list) or not ids or not all(_is_int(i) for i in ids):
            raise damaged(name, N_("PiperVoices", "the sound “{phoneme}” has no symbol number in its phoneme "
                                                  "map").format(phoneme=phoneme[:20]), detail=repr(ids)[:300])
        if len(ids) > MAX_IDS_PER_PHONEME:
            raise damaged(name, N_("PiperVoices", "the sound “{phoneme}” stands for {count} symbols in its phoneme "
                                                  "map, where a Piper voice uses at most {limit}").format(
                phoneme=phoneme[:20], count=len(ids), limit=MAX_IDS_PER_PHONEME))
        wrong = next((i for i in ids if not 0 <= i < symbols), None)
        if wrong is not None:
            raise damaged(name, _symbol_outside(phoneme, wrong, symbols))
        id_map[phoneme] = tuple(ids)
    if "_" not in id_map:
        raise damaged(name, N_("PiperVoices", "its phoneme map has no pause symbol “_”"))
    espeak = config.get("espeak") if isinstance(config.get("espeak"), dict) else {}
    voice = espeak.get("voice")
    if not isinstance(voice, str) or not _ESPEAK_VOICE.fullmatch(voice):
        raise damaged(name, N_("PiperVoices", "its espeak-ng language “{voice}” is not the name of a "
                                              "language").format(voice=str(voice)[:40]), detail=repr(voice)[:300])
    rate = (config.get("audio") or {}).get("sample_rate") if isinstance(config.get("audio"), dict) else None
    if not _is_int(rate) or not 8000 <= rate <= 48000:
        raise damaged(name, N_("PiperVoices", "its sample rate {rate} is not one a voice speaks at (8000 to 48000 "
                                              "Hz)").format(rate=_shown_number(rate)), detail=repr(rate)[:300])
    count = config.get("num_speakers", 1)
    speakers = config.get("speaker_id_map") or {}
    if not _is_int(count) or not 1 <= count <= MAX_SPEAKERS or not isinstance(speakers, dict) or not all(
            isinstance(k, str) and _is_int(v) and 0 <= v < count for k, v in speakers.items()):
        raise damaged(name, N_("PiperVoices", "its list of speakers does not match its number of speakers"),
                      detail=f"speakers {count!r}"[:300])
    if count > 1 and not speakers:
        speakers = {str(i): i for i in range(count)}
    inference = config.get("inference") if isinstance(config.get("inference"), dict) else {}
    scales = [_scale(inference.get(key), default, key, name)
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
        num_symbols=symbols,
    )


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _shown_number(value: Any) -> str:
    """A number from the config as the sentence shows it: a 10¹⁹ stays readable, a non-number is named."""
    if _is_int(value):
        return str(value) if abs(value) < 10 ** 30 else f"{str(value)[:12]}…"
    return repr(value)[:40]


def _symbol_outside(phoneme: str, symbol: int, symbols: int, *, in_model: bool = False) -> Message:
    if in_model:
        return N_("PiperVoices", "the sound “{phoneme}” stands for symbol {symbol}, but its model has only {count} "
                                 "symbols").format(phoneme=phoneme[:20], symbol=_shown_number(symbol), count=symbols)
    return N_("PiperVoices", "the sound “{phoneme}” stands for symbol {symbol}, but its settings give only {count} "
                             "symbols").format(phoneme=phoneme[:20], symbol=_shown_number(symbol), count=symbols)


def _scale(value: Any, default: float, key: str, name: str) -> float:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not 0 <= value <= 10:
        raise damaged(name, N_("PiperVoices", "its setting {setting} is {value}, outside 0 to 10").format(
            setting=key, value=_shown_number(value)), detail=f"{key} {value!r}"[:300])
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


class DamagedVoice(ModelError):
    """A Piper voice whose files are not what Piper writes; its message says what is wrong."""


def damaged(name: str, problem: Message, detail: str | None = None) -> DamagedVoice:
    """"The Piper voice “name” is damaged: problem." and what to do."""
    return DamagedVoice(
        N_("PiperVoices", "The Piper voice “{name}” is damaged: {problem}. Copy or download the voice again from its "
                          "source.").format(name=name, problem=problem),
        detail=detail or problem)


# --- the model -----------------------------------------------------------------------------------


def read_piper_model(check: PiperVoiceCheck, *, name: str | None = None) -> bytes:
    """The voice's model, read within its size limit and checked against its phoneme map.

    Every symbol the phoneme map uses must have a row in the model's embedding table: an id beyond
    it would only fail inside onnxruntime, half-way through speaking.
    """
    name = name or check.model_file.stem
    too_large = N_("PiperVoices", "The file {file} is far larger than any Piper voice, so VoxDesk did not load "
                                  "it.").format(file=check.model_file.name)
    try:
        model = read_limited(check.model_file, MAX_VOICE_BYTES, too_large, error=ModelError)
    except OSError as exc:
        raise ModelError(N_("PiperVoices", "VoxDesk cannot read the Piper voice “{name}”. Check that its files are "
                                           "still there and readable.").format(name=name), detail=repr(exc)) from exc
    rows = embedding_rows(model, name)
    if rows is not None:
        for phoneme, ids in check.phoneme_id_map.items():
            wrong = next((i for i in ids if i >= rows), None)
            if wrong is not None:
                raise damaged(name, _symbol_outside(phoneme, wrong, rows, in_model=True))
    return model


def embedding_rows(model: bytes, name: str) -> int | None:
    """How many symbols the model has: the rows of the table its first Gather on the ``input`` ids
    reads (``enc_p.emb.weight``, [num_symbols, hidden]); None where the graph has no such table.

    Read with protobuf (which onnxruntime itself needs) through a schema of the few ONNX fields
    looked at; everything else in the file is skipped unread.
    """
    from google.protobuf.message import DecodeError

    parsed = _onnx_model_class()()
    try:
        parsed.ParseFromString(model)
        return _table_rows(parsed.graph)
    except (DecodeError, RecursionError, ValueError) as exc:  # UnicodeDecodeError is a ValueError
        raise damaged(name, N_("PiperVoices", "its model file is not an ONNX model"),
                      detail=f"{type(exc).__name__}: {exc}"[:300]) from exc


def _table_rows(graph: Any) -> int | None:
    """The rows of the table the graph's first Gather on ``input`` reads, through Identity or Constant nodes."""
    tables = {tensor.name: tensor for tensor in graph.initializer}
    producers = {output: node for node in graph.node for output in node.output}
    gather = next((node for node in graph.node
                   if node.op_type == "Gather" and len(node.input) >= 2 and node.input[1] == "input"), None)
    if gather is None:
        return None
    source = gather.input[0]
    for _ in range(8):  # through an Identity or two to the table itself
        tensor = tables.get(source)
        if tensor is None:
            node = producers.get(source)
            if node is not None and node.op_type == "Identity" and node.input:
                source = node.input[0]
                continue
            if node is not None and node.op_type == "Constant":
                tensor = next((a.t for a in node.attribute if a.name == "value"), None)
        if tensor is None:
            return None
        return int(tensor.dims[0]) if len(tensor.dims) == 2 and tensor.dims[0] > 0 else None
    return None


@functools.cache
def _onnx_model_class() -> type:
    """A protobuf class for the part of onnx.proto (ModelProto) that names the graph's tables."""
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

    field = descriptor_pb2.FieldDescriptorProto
    proto = descriptor_pb2.FileDescriptorProto(name="voxdesk_onnx_subset.proto", package="voxdesk_onnx",
                                               syntax="proto2")
    layout = {  # field numbers as in onnx.proto
        "TensorProto": [("dims", 1, field.TYPE_INT64, None, True), ("name", 8, field.TYPE_STRING, None, False)],
        "AttributeProto": [("name", 1, field.TYPE_STRING, None, False),
                           ("t", 5, field.TYPE_MESSAGE, "TensorProto", False)],
        "NodeProto": [("input", 1, field.TYPE_STRING, None, True), ("output", 2, field.TYPE_STRING, None, True),
                      ("op_type", 4, field.TYPE_STRING, None, False),
                      ("attribute", 5, field.TYPE_MESSAGE, "AttributeProto", True)],
        "GraphProto": [("node", 1, field.TYPE_MESSAGE, "NodeProto", True),
                       ("initializer", 5, field.TYPE_MESSAGE, "TensorProto", True)],
        "ModelProto": [("graph", 7, field.TYPE_MESSAGE, "GraphProto", False)],
    }
    for message, fields in layout.items():
        described = proto.message_type.add(name=message)
        for field_name, number, kind, type_name, repeated in fields:
            described.field.add(name=field_name, number=number, type=kind,
                                label=field.LABEL_REPEATED if repeated else field.LABEL_OPTIONAL,
                                type_name=f".voxdesk_onnx.{type_name}" if type_name else None)
    pool = descriptor_pool.DescriptorPool()
    pool.Add(proto)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("voxdesk_onnx.ModelProto"))


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
