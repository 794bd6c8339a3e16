"""Checking a Coqui model folder: its config.json, its weights and the files the config names. No Qt here.

Used for "Import model folder…", for a model folder used in place, for a finished download and for a
model found in a shared folder; each check says in one sentence what is missing or damaged. The
paths a model's config.json names (they point at the trainer's machine) are rewritten to the folder
the model sits in (fix_config_paths), as Coqui's own ModelManager does after a download.
"""
from __future__ import annotations

import json
import os
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from desktop.core.common.atomic import atomic_write_text
from desktop.core.common.errors import ModelError
from desktop.core.common.i18n import N_

# Files Coqui accepts as the weights of a model (ModelManager._find_files), best first.
MODEL_FILE_NAMES = ("model.pth", "model_file.pth", "model_file.pth.tar", "checkpoint.pth", "best_model.pth")
# Config fields that name files next to the model; Coqui rewrites them the same way after a download.
_PATH_FIELDS = {
    "audio.stats_path": ("scale_stats.npy",),
    "d_vector_file": ("speakers.json", "speakers.pth"),
    "speakers_file": ("speaker_ids.json", "speaker_ids.pth"),
    "language_ids_file": ("language_ids.json",),
    "speaker_encoder_model_path": ("model_se.pth", "model_se.pth.tar"),
    "speaker_encoder_config_path": ("config_se.json",),
}

# XTTS v2's languages, as Coqui's model card lists them.
XTTS_LANGUAGES = ("en", "es", "fr", "de", "it", "pt", "pl", "tr", "ru", "nl", "cs", "ar", "zh", "ja", "hu", "ko", "hi")


@dataclass(frozen=True)


class FolderCheck:
    """What an "Import model folder…" found in a Coqui model folder."""

    folder: Path
    config: dict[str, Any]
    model_file: Path | None  # None for models that load from the folder (XTTS)
    kind: str  # Coqui's model type from config.json, e.g. "vits", "xtts", "tacotron2"
    languages: tuple[str, ...]
    multi_speaker: bool


def inspect_folder(folder: str | os.PathLike[str]) -> FolderCheck:
    """Check that folder holds a usable Coqui model; ModelError with what is missing otherwise."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ModelError(N_("SpeechModels", "The folder {folder} does not exist. Choose the folder that holds the "
                                            "model files.").format(folder=folder))
    config_path = folder / "config.json"
    if not config_path.is_file():
        raise ModelError(
            N_("SpeechModels", "The folder “{name}” has no config.json, so it is not a complete Coqui model. Choose "
                               "the folder that holds both the model file and config.json.").format(name=folder.name),
        )
    try:
        config = json.loads(config_path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ModelError(
            N_("SpeechModels", "The config.json in “{name}” is damaged, so the model cannot be used. Copy the folder "
                               "again from its source.").format(name=folder.name),
            detail=repr(exc),
        ) from exc
    kind = config.get("model") if isinstance(config, dict) else None
    if not isinstance(kind, str) or not kind:
        raise ModelError(
            N_("SpeechModels", "The config.json in “{name}” is not a Coqui voice model configuration. Choose the "
                               "folder of a Coqui TTS model.").format(name=folder.name),
        )

    if kind == "xtts":
        model_file = None
        for required in ("model.pth", "vocab.json"):
            _check_file(folder / required, folder)
        _check_weights(folder / "model.pth", folder)
    else:
        model_file = find_model_file(folder)
        _check_weights(model_file, folder)
    for field_name, value in _referenced_files(config):
        if not any(path.is_file() for path in _candidates(folder, field_name, value, _PATH_FIELDS[field_name])):
            raise ModelError(
                N_("SpeechModels", "The folder “{name}” is missing the file {file} that the model needs ({field}). "
                                   "Copy the whole folder again.").format(
                    name=folder.name, file=Path(str(value)).name, field=field_name.replace("_", " ")),
            )
    return FolderCheck(
        folder=folder,
        config=config,
        model_file=model_file,
        kind=kind,
        languages=_config_languages(config),
        multi_speaker=_config_multi_speaker(config),
    )


def fix_config_paths(folder: Path, final: Path | None = None) -> None:
    """Point the file paths in config.json at the model's folder (they name the trainer's machine).

    The same rewrite Coqui's ModelManager does after a download, done on the JSON alone. The files
    are looked for in folder; the paths written name final (where folder will be moved to), if given.
    """
    final = (final or folder).resolve()
    config_path = folder / "config.json"
    if not config_path.is_file():
        return
    try:
        config = json.loads(config_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):  # unreadable or damaged: inspect_folder says so in plain words
        return
    if not isinstance(config, dict):
        return
    changed = False
    for field_name, defaults in _PATH_FIELDS.items():
        for prefix in ("", "model_args."):
            if field_name.startswith("audio.") and prefix:
                continue
            parent, key = _field(config, prefix + field_name)
            if parent is None or key not in parent:
                continue
            current = parent[key]
            for path in _candidates(folder, field_name, current, defaults):
                if path.is_file():
                    new = str(final / path.name)
                    value: Any = [new] if isinstance(current, list) else new
                    if current != value:
                        parent[key] = value
                        changed = True
                    break
    if changed and os.access(folder, os.W_OK):  # a shared, read-only folder is used as IT left it
        atomic_write_text(config_path, json.dumps(config, indent=4, ensure_ascii=False), overwrite=True)


def _field(config: dict, dotted: str) -> tuple[dict | None, str]:
    node: Any = config
    keys = dotted.split(".")
    for key in keys[:-1]:
        node = node.get(key) if isinstance(node, dict) else None
        if node is None:
            return None, keys[-1]
    return (node if isinstance(node, dict) else None), keys[-1]


def _candidates(folder: Path, field_name: str, value: Any, defaults: tuple[str, ...] = ()) -> list[Path]:
    if isinstance(value, list):
        value = value[0] if value else ""
    names = [Path(str(value)).name] if value else []
    return [folder / n for n in [*names, *defaults] if n]


def _referenced_files(config: dict) -> list[tuple[str, Any]]:
    """Speaker and language files the config says the model needs (and so must be in the folder)."""
    needed = []
    args = config.get("model_args") if isinstance(config.get("model_args"), dict) else {}

    def get(key: str) -> Any:
        return config.get(key) or args.get(key)

    if get("use_speaker_embedding") and not config.get("speakers") and get("speakers_file"):
        needed.append(("speakers_file", get("speakers_file")))
    if get("use_d_vector_file") and get("d_vector_file"):
        needed.append(("d_vector_file", get("d_vector_file")))
    if get("use_language_embedding") and get("language_ids_file") and not config.get("languages"):
        needed.append(("language_ids_file", get("language_ids_file")))
    return needed


def find_model_file(folder: Path) -> Path:
    """The weights file of a Coqui model folder; ModelError when there is none, or several."""
    for name in MODEL_FILE_NAMES:
        if (folder / name).is_file():
            return folder / name
    checkpoints = sorted(p for p in folder.glob("*.pth*") if p.is_file() and not p.name.startswith(("model_se", "speaker")))
    if len(checkpoints) == 1:
        return checkpoints[0]
    if not checkpoints:
        raise ModelError(
            N_("SpeechModels", "The folder “{name}” has no model file (model.pth), only its settings. Copy the whole "
                               "model folder, including the .pth file.").format(name=folder.name),
        )
    raise ModelError(
        N_("SpeechModels", "The folder “{name}” holds several model files ({files}). Keep only the one to use, or "
                           "rename it to model.pth.").format(
            name=folder.name, files=", ".join(p.name for p in checkpoints[:4])),
    )


def _check_file(path: Path, folder: Path) -> None:
    if not path.is_file():
        raise ModelError(N_("SpeechModels", "The folder “{name}” is missing {file}. Copy the whole model folder "
                                            "again.").format(name=folder.name, file=path.name))


def _check_weights(path: Path, folder: Path) -> None:
    """A cheap check that a weights file is a PyTorch checkpoint, without loading it.

    torch.save writes a zip archive (older versions a pickle starting with 0x80); anything else, or a
    zip whose directory is unreadable (a cut-off copy), is damaged.
    """
    try:
        size = path.stat().st_size
        with open(path, "rb") as f:
            head = f.read(4)
    except OSError as exc:
        raise ModelError(N_("SpeechModels", "VoxDesk cannot read the model file {name}. Check that the folder is "
                                            "readable.").format(name=path.name),
                         detail=repr(exc)) from exc
    damaged = ModelError(
        N_("SpeechModels", "The model file {file} in “{name}” is damaged or incomplete. Copy the model folder again "
                           "from its source.").format(file=path.name, name=folder.name),
        detail=f"{path}: {size} bytes, starts with {head!r}",
    )
    if size < 64:
        raise damaged
    if head.startswith(b"PK"):
        try:
            with zipfile.ZipFile(path) as archive:
                names = archive.namelist()
        except (zipfile.BadZipFile, OSError) as exc:
            raise damaged from exc
        if not any(n.endswith("data.pkl") for n in names):
            raise damaged
    elif not head.startswith(b"\x80"):
        raise damaged


def _config_languages(config: dict) -> tuple[str, ...]:
    languages: list[str] = []
    if config.get("model") == "xtts":
        languages = list(config.get("languages") or XTTS_LANGUAGES)
    elif config.get("languages"):
        languages = list(config["languages"])
    else:
        for dataset in config.get("datasets") or []:
            if isinstance(dataset, dict) and dataset.get("language"):
                languages.append(dataset["language"])
        if not languages and config.get("phoneme_language"):
            languages = [config["phoneme_language"]]
    codes = []
    for language in languages:
        code = normalise_language(str(language))
        if code not in codes:
            codes.append(code)
    return tuple(codes) or ("en",)


def normalise_language(code: str) -> str:
    """"zh-CN", "zh-cn", "cmn" -> "zh"; "en-us" -> "en"; other codes keep their first part."""
    code = code.strip().lower().replace("_", "-")
    if code in ("cmn", "zh-cn", "zh-tw", "zh-hans", "zh-hant"):
        return "zh"
    return code.split("-")[0]


def _config_multi_speaker(config: dict) -> bool:
    args = config.get("model_args") if isinstance(config.get("model_args"), dict) else {}
    if config.get("model") == "xtts":
        return True
    flags = ("use_speaker_embedding", "use_d_vector_file")
    return any(config.get(f) or args.get(f) for f in flags)
