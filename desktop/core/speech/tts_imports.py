"""Importing a voice model from a folder on this computer: a Coqui model folder, or a Piper voice
(its .onnx, .onnx.json and model card). No Qt here.

The source is checked before anything is copied, the copy is checked again (it is what gets
published), and whatever happens no copy stays behind in staging/ (a model can be gigabytes).
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Callable

from desktop.core.common.errors import Cancelled, ExportError, ModelError
from desktop.core.common.i18n import N_
from desktop.core.common.model_files import check_model
from desktop.core.common.safe_files import CancelCheck, ProgressCallback, copy_regular_file, copy_tree
from desktop.core.speech import piper_voices
from desktop.core.speech.coqui_folders import fix_config_paths, inspect_folder
from desktop.core.speech.piper_voices import inspect_piper, is_piper_voice
from desktop.core.speech.tts_catalog import IMPORTED_PREFIX, TtsModel
from desktop.core.speech.tts_licences import LICENCE_NOT_STATED
from desktop.core.speech.tts_model_folders import StoreFolders, manifest_for, piper_manifest
from desktop.core.speech.voice_folders import model_card_licence, voice_inside


def import_model(
    path: str | os.PathLike[str],
    name: str | None,
    folders: StoreFolders,
    *,
    taken: Callable[[str], bool],
    progress: ProgressCallback | None = None,
    cancelled: CancelCheck | None = None,
) -> str:
    """Copy a Coqui model folder (config.json + model file + speaker/vocab files) or a Piper voice into
    folders; return the imported model's name. taken(name) says whether a model of that name is there.

    The folder is checked first (inspect_folder), so a folder without its config or with a damaged
    file is refused with a sentence saying what is missing; nothing is added then.
    """
    source = voice_inside(Path(path).expanduser())
    if is_piper_voice(source):
        return _import_piper(source, name, folders, taken, progress, cancelled)
    check = inspect_folder(source)
    title = (name or source.resolve().name).strip() or "Imported model"
    model_name = _free_name(title, taken)
    staging = folders.staging(model_name)
    shutil.rmtree(staging, ignore_errors=True)
    files = staging / "files"
    try:
        try:
            copy_tree(source, files, progress=progress, cancelled=cancelled, error=ModelError)
            fix_config_paths(files, folders.own(model_name))
            check_model(files, "coqui", named_as=folders.own(model_name))
            model = TtsModel(
                name=model_name,
                title=title,
                languages=check.languages,
                licence=LICENCE_NOT_STATED,
                multi_speaker=check.multi_speaker,
                imported=True,
            )
            manifest = manifest_for(model, files, inspect_folder(files))
        except (OSError, ExportError) as exc:
            raise folders.error(exc) from exc
        folders.publish(files, model_name, manifest)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return model_name


def _import_piper(source: Path, name: str | None, folders: StoreFolders, taken: Callable[[str], bool],
                  progress: ProgressCallback | None, cancelled: CancelCheck | None) -> str:
    """Copy a Piper voice (its .onnx and .onnx.json, and its model card) into folders."""
    check = inspect_piper(source)
    title = (name or check.model_file.stem).strip() or "Imported voice"
    model_name = _free_name(title, taken)
    staging = folders.staging(model_name)
    shutil.rmtree(staging, ignore_errors=True)
    files = staging / "files"
    card = check.folder / "MODEL_CARD"
    wanted = [check.model_file, check.config_file] + ([card] if card.is_file() and not card.is_symlink() else [])
    total = sum(p.stat().st_size for p in wanted)
    try:
        try:
            files.mkdir(parents=True)
            done = 0
            for path in wanted:
                if cancelled is not None and cancelled():
                    raise Cancelled()
                copy_regular_file(path, files / path.name, error=ModelError)
                done += path.stat().st_size
                if progress:
                    progress(done, total)
            check_model(files, "piper")
            copied = inspect_piper(files)
            # The copy is what gets published, so the copy is what is checked: a model its phoneme map
            # does not fit is refused here, and the staging folder goes with it.
            piper_voices.read_piper_model(copied, name=title)
            card_licence = model_card_licence(files / "MODEL_CARD") if card in wanted else None
            model = TtsModel(name=model_name, title=title, languages=copied.languages,
                             licence=card_licence or LICENCE_NOT_STATED,
                             multi_speaker=len(copied.speakers) > 1, imported=True)
            manifest = piper_manifest(model, files, copied)
        except (OSError, ExportError) as exc:
            raise folders.error(exc) from exc
        folders.publish(files, model_name, manifest)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return model_name


def _free_name(title: str, taken: Callable[[str], bool]) -> str:
    """The store name for an import titled title; ModelError when a model of that name is there."""
    model_name = IMPORTED_PREFIX + _safe_name(title)
    if taken(model_name):
        raise ModelError(
            N_("SpeechModels", "A voice model called “{title}” is already imported. Give this one another "
                               "name.").format(title=title),
        )
    return model_name


def _safe_name(title: str) -> str:
    """A folder-safe version of a model title (letters, digits, Chinese characters, - and _)."""
    cleaned = "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in title).strip("-.")
    return cleaned[:80] or "model"

