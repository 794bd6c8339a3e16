"""Official Whisper models found in shared, read-only folders (see ``core/common/shared_models``).

A shared folder serves a model under its official name when it holds the model in one of the layouts
its makers use, directly or one level down:

    base.pt, large-v3-turbo.pt                 openai-whisper's download folder (~/.cache/whisper)
    openai/base.pt, ct2/base/                  a copy of VoxDesk's own model folder
    faster-whisper-base/, base/                a CTranslate2 folder named like its Hugging Face repository
    models--Systran--faster-whisper-base/      a Hugging Face cache (its newest snapshot)
"""
from __future__ import annotations

import os
from fnmatch import fnmatch
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from desktop.core.common.errors import UserFacingError
from desktop.core.common.safe_files import read_limited
from desktop.core.transcription.local_model import LocalModel

if TYPE_CHECKING:
    from desktop.core.transcription.whisper_models import ModelInfo


def shared_copies(info: "ModelInfo", folders: Iterable[Path]) -> list[LocalModel]:
    """Every copy of the official model ``info`` in the shared folders, at most one per format, in folder order."""
    found: dict[str, LocalModel] = {}
    for folder in folders:
        if "pt" not in found:
            pt = _checkpoint_in(folder, info)
            if pt is not None:
                found["pt"] = LocalModel(info.name, "pt", pt, imported=False, shared=True)
        if "ct2" not in found:
            ct2 = _ct2_folder_in(folder, info)
            if ct2 is not None:
                found["ct2"] = LocalModel(info.name, "ct2", ct2, imported=False, shared=True)
    return list(found.values())


def damaged_shared_copies(info: "ModelInfo", folders: Iterable[Path]) -> list[tuple[Path, str]]:
    """The copies of ``info`` in the shared folders that cannot be used, as (the damaged file, what is
    wrong with it): a checkpoint that is empty, or a CTranslate2 folder with a file empty or missing."""
    from desktop.core.common.i18n import N_

    empty, missing = N_("Models", "empty"), N_("Models", "missing")
    damaged: list[tuple[Path, str]] = []
    for folder in folders:
        for base in (folder, folder / "openai"):
            for name in dict.fromkeys((info.pt_filename, f"{info.name}.pt")):
                path = base / name
                if path.is_file() and not _regular_file(path):
                    damaged.append((path, empty))
        for candidate in _ct2_candidates(folder, info):
            if not candidate.is_dir() or is_ct2_model_folder(candidate):
                continue
            for needed in ("model.bin", "config.json"):
                path = candidate / needed
                if not path.is_file():
                    damaged.append((path, missing))
                elif not _regular_file(path):
                    damaged.append((path, empty))
            if not _has_vocabulary(candidate):
                damaged.append((candidate / "vocabulary.txt", missing))
    return damaged


def _checkpoint_in(folder: Path, info: "ModelInfo") -> Path | None:
    names = dict.fromkeys((info.pt_filename, f"{info.name}.pt"))
    for base in (folder, folder / "openai"):
        for name in names:
            path = base / name
            if _regular_file(path):
                return path
    return None


def _ct2_folder_in(folder: Path, info: "ModelInfo") -> Path | None:
    for candidate in _ct2_candidates(folder, info):
        if is_ct2_model_folder(candidate):
            return candidate
    return None


def _ct2_candidates(folder: Path, info: "ModelInfo") -> list[Path]:
    owner, repo = info.ct2_repo.split("/", 1)
    candidates = [folder / repo, folder / info.name, folder / "ct2" / info.name]
    return candidates + _hub_snapshots(folder / f"models--{owner}--{repo}")


def _hub_snapshots(repo_cache: Path) -> list[Path]:
    """The snapshots of a Hugging Face cache folder, the one ``refs/main`` names first."""
    snapshots = repo_cache / "snapshots"
    try:
        main = read_limited(repo_cache / "refs" / "main", 256, "too long").decode("ascii").strip()
    except (OSError, UnicodeDecodeError, UserFacingError):  # missing, a pipe, damaged: newest snapshot first
        main = ""
    try:
        others = sorted((p for p in snapshots.iterdir() if p.name != main), key=_mtime, reverse=True)
    except OSError:
        return []
    return ([snapshots / main] if main and "/" not in main else []) + others


def is_ct2_model_folder(folder: Path) -> bool:
    """The files faster-whisper needs are there: model.bin and config.json (not empty) and a vocabulary."""
    return all(_regular_file(folder / name) for name in ("model.bin", "config.json")) and _has_vocabulary(folder)


def _has_vocabulary(folder: Path) -> bool:
    try:
        names = {p.name for p in folder.iterdir() if p.is_file()}
    except OSError:
        return False
    return any(n == "tokenizer.json" or fnmatch(n, "vocabulary.*") for n in names)


def _regular_file(path: Path) -> bool:
    try:
        return path.is_file() and os.path.getsize(path) > 0
    except OSError:
        return False


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0
