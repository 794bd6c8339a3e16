"""A voice model's folder in the store: its manifest, how a finished folder is put in place, and
where a model sits in a shared folder. No Qt here.

    <root>/models/<tts_models--en--ljspeech--vits>/   config.json, model file, speaker files,
                                                       voxdesk-model.json (written last)
    <root>/staging/<same name>/                        downloads and imports in progress

A model folder appears under ``models/`` only by one rename of a complete, checked folder
(StoreFolders.publish), so a half-downloaded or half-copied model is never loaded.
"""
from __future__ import annotations

import json
import os
import shutil
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from desktop.core.common.atomic import atomic_write_text, fsync_dir
from desktop.core.common.errors import ExportError, ModelError
from desktop.core.common.fs_errors import write_error_message
from desktop.core.common.i18n import N_
from desktop.core.common.model_origin import unverified_source
from desktop.core.speech.coqui_folders import FolderCheck, find_model_file
from desktop.core.speech.piper_voices import PIPER_PREFIX, is_piper_name
from desktop.core.speech.tts_catalog import TtsModel, folder_name
from desktop.core.speech.tts_licences import licence_shown

MANIFEST = "voxdesk-model.json"
TOS_FILE = "tos_agreed.txt"  # the file Coqui's ModelManager checks before it would ask on stdin


class StoreFolders:
    """Where a store keeps its models (models/) and the ones on their way in (staging/)."""

    def __init__(self, root: Path) -> None:
        self.root = root

    @property
    def models_root(self) -> Path:
        return self.root / "models"

    @property
    def staging_root(self) -> Path:
        return self.root / "staging"

    def own(self, name: str) -> Path:
        """The store's own folder for the model called name (it may not exist)."""
        return self.models_root / folder_name(name)

    def staging(self, name: str) -> Path:
        return self.staging_root / folder_name(name)

    def error(self, exc: OSError | ExportError) -> ModelError:
        """The sentence for a failed write into the store's folder."""
        return folder_error(exc, self.root)

    def publish(self, files: Path, name: str, manifest: dict[str, Any]) -> None:
        """Write the manifest last, then move the finished folder into place with one rename."""
        try:
            atomic_write_text(files / MANIFEST, json.dumps(manifest, indent=2, ensure_ascii=False), overwrite=True)
            self.models_root.mkdir(parents=True, exist_ok=True)
            final = self.own(name)
            if final.exists():
                shutil.rmtree(final)
            os.replace(files, final)
            fsync_dir(self.models_root)
        except (OSError, ExportError) as exc:  # atomic_write_text reports in file-export words
            raise self.error(exc) from exc


def piper_manifest(model: TtsModel, files: Path, check: Any) -> dict[str, Any]:
    return {
        "name": model.name,
        "title": model.title,
        "languages": list(check.languages),
        "licence": model.licence,
        "multi_speaker": len(check.speakers) > 1,
        "imported": model.imported,
        "kind": "piper",
        "model_file": check.model_file.name,
        "vocoder": None,
        "size_bytes": sum(p.stat().st_size for p in files.rglob("*") if p.is_file()),
        "added": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }


def manifest_for(model: TtsModel, files: Path, check: FolderCheck | None) -> dict[str, Any]:
    return {
        "name": model.name,
        "title": model.title,
        "languages": list(check.languages if check and model.imported else model.languages),
        "licence": model.licence,
        "multi_speaker": check.multi_speaker if check and model.imported else model.multi_speaker,
        "imported": model.imported,
        "kind": check.kind if check else "vocoder",
        "model_file": check.model_file.name if check and check.model_file else None,
        "vocoder": model.vocoder,
        "size_bytes": sum(p.stat().st_size for p in files.rglob("*") if p.is_file()),
        "added": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }


def read_manifest(folder: Path) -> dict[str, Any] | None:
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and "name" in data else None


def model_from_manifest(manifest: dict[str, Any], *, downloaded: bool) -> TtsModel:
    size = manifest.get("size_bytes")
    return TtsModel(
        name=manifest["name"],
        title=manifest.get("title") or manifest["name"],
        languages=tuple(manifest.get("languages") or ("en",)),
        licence=licence_shown(manifest.get("licence")),
        size_mb=round(size / 1e6) if isinstance(size, int) else None,
        multi_speaker=bool(manifest.get("multi_speaker")),
        imported=bool(manifest.get("imported")),
        downloaded=downloaded,
        vocoder=manifest.get("vocoder"),
        unverified_source=unverified_source(manifest),
    )


def write_tos_file(folder: Path, root: Path) -> None:
    try:
        (folder / TOS_FILE).write_text("I have read, understood and agreed to the Terms and Conditions.",
                                       encoding="utf-8")
    except OSError as exc:
        raise folder_error(exc, root) from exc


def folder_error(exc: OSError | ExportError, root: Path) -> ModelError:
    return ModelError(
        write_error_message(exc, N_("SpeechModels", "the voice model"), root),
        detail=(exc.detail if isinstance(exc, ExportError) else None) or repr(exc),
    )


def shared_model_folder(name: str, shared_dirs: tuple[Path, ...]) -> Path | None:
    """The model in a shared, read-only folder: Coqui's folder name, directly or in a copy of a
    VoxDesk data folder (tts/models/), with config.json and a model file. A Piper voice may also sit
    in a folder named by its key ("en_US-joe-medium"), with its .onnx and .onnx.json."""
    if is_piper_name(name):
        key = name[len(PIPER_PREFIX):]
        for shared in shared_dirs:
            for candidate in (shared / folder_name(name), shared / key, shared / "tts" / "models" / folder_name(name)):
                if (candidate / f"{key}.onnx").is_file() and (candidate / f"{key}.onnx.json").is_file():
                    return candidate
        return None
    for shared in shared_dirs:
        for candidate in (shared / folder_name(name), shared / "tts" / "models" / folder_name(name)):
            if (candidate / "config.json").is_file() and (
                    (candidate / MANIFEST).is_file() or _has_model_file(candidate)):
                return candidate
    return None


def _has_model_file(folder: Path) -> bool:
    try:
        find_model_file(folder)
    except ModelError:
        return False
    return True
