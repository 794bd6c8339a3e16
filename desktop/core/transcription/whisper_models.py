"""The Whisper model store: the catalog of official models, their folders on disk, downloads, imports.

Layout under the store root::

    openai/<name>.pt                 openai-whisper checkpoints (the GPU engine's format)
    ct2/<name>/                      CTranslate2 folders from Hugging Face (faster-whisper's format)
    imported/<name>/                 models the user brought: model.pt, or a CTranslate2 folder's files,
                                     plus voxdesk-model.json (name, format, source); a copy of an
                                     official model may take its official name

Shared, read-only folders (``core/common/shared_models``) are searched before anything is downloaded.

Everything that appears under one of these names is complete: downloads and imports are assembled
in a hidden folder or ``.part`` file beside the target and renamed into place at the end.
Heavy libraries (torch) are imported only inside the functions that need them.
"""
from __future__ import annotations

import errno
import json
import logging
import os
import re
import shutil
import struct
import tempfile
import zipfile
from dataclasses import dataclass
from datetime import datetime, timezone
from fnmatch import fnmatch
from pathlib import Path
from typing import Any, Iterable

from desktop.core.common.atomic import fsync_dir
from desktop.core.common.download import (
    CancelCheck,
    ProgressCallback,
    ServerRefused,
    ServerUnreachable,
    bad_listing_error,
    download_file,
    fetch_json,
    listed_path_is_safe,
    part_path,
)
from desktop.core.common.download_sources import DownloadSources
from desktop.core.common.errors import ModelError, UserFacingError
from desktop.core.common.fs_errors import write_error_message
from desktop.core.common.i18n import N_
from desktop.core.common.model_files import check_model
from desktop.core.common.model_origin import origin_fields, unverified_source
from desktop.core.common.safe_files import copy_regular_file, require_regular_file
from desktop.core.common.shared_models import LiveSources, ModelSources
from desktop.core.transcription.official_checksums import CT2_CHECKSUMS
from desktop.core.transcription.official_copy import check_official_ct2, check_official_pt, official_name_of
from desktop.core.transcription.local_model import LocalModel, ModelFormat
from desktop.core.transcription.shared_whisper import damaged_shared_copies, shared_copies

FORMATS: tuple[ModelFormat, ...] = ("pt", "ct2")

_log = logging.getLogger(__name__)

OPENAI_URL_BASE = "https://openaipublic.azureedge.net/main/whisper/models"
HF_ENDPOINT = "https://huggingface.co"
METADATA_FILE = "voxdesk-model.json"

# The files faster-whisper itself takes from a CTranslate2 repository (its utils.download_model).
CT2_FILE_PATTERNS = ("config.json", "preprocessor_config.json", "model.bin", "tokenizer.json", "vocabulary.*")
# openai-whisper's ModelDimensions fields, kept here so checking a checkpoint needs no whisper import.
WHISPER_DIM_FIELDS = (
    "n_mels", "n_audio_ctx", "n_audio_state", "n_audio_head", "n_audio_layer",
    "n_vocab", "n_text_ctx", "n_text_state", "n_text_head", "n_text_layer",
)
# English-only Whisper models have 51864 tokens; multilingual ones have more.
_MULTILINGUAL_MIN_VOCAB = 51865


@dataclass(frozen=True)
class ModelInfo:
    """One official Whisper model."""

    name: str
    size_mb: int  # approximate download size (the two formats are within a few percent)
    english_only: bool
    memory_mb: int  # approximate memory needed to run it (openai's published figures)
    pt_url: str  # openai-whisper checkpoint; the second-to-last path part is its SHA-256
    ct2_repo: str  # Hugging Face repository of the CTranslate2 conversion used by faster-whisper

    @property
    def pt_sha256(self) -> str:
        return self.pt_url.rsplit("/", 2)[-2]

    @property
    def pt_filename(self) -> str:
        return self.pt_url.rsplit("/", 1)[-1]


def _official(name: str, size_mb: int, memory_mb: int, sha256: str, ct2_repo: str,
              filename: str | None = None) -> ModelInfo:
    return ModelInfo(
        name=name,
        size_mb=size_mb,
        english_only=name.endswith(".en"),
        memory_mb=memory_mb,
        pt_url=f"{OPENAI_URL_BASE}/{sha256}/{filename or name + '.pt'}",
        ct2_repo=ct2_repo,
    )


# URLs as listed in openai-whisper's whisper/__init__.py (_MODELS); repository ids as listed in
# faster-whisper's faster_whisper/utils.py (_MODELS).
OFFICIAL_MODELS: tuple[ModelInfo, ...] = (
    _official("tiny", 75, 1000, "65147644a518d12f04e32d6f3b26facc3f8dd46e5390956a9424a650c0ce22b9",
              "Systran/faster-whisper-tiny"),
    _official("tiny.en", 75, 1000, "d3dd57d32accea0b295c96e26691aa14d8822fac7d9d27d5dc00b4ca2826dd03",
              "Systran/faster-whisper-tiny.en"),
    _official("base", 145, 1000, "ed3a0b6b1c0edf879ad9b11b1af5a0e6ab5db9205f891f668f8b0e6c6326e34e",
              "Systran/faster-whisper-base"),
    _official("base.en", 145, 1000, "25a8566e1d0c1e2231d1c762132cd20e0f96a85d16145c3a00adf5d1ac670ead",
              "Systran/faster-whisper-base.en"),
    _official("small", 484, 2000, "9ecf779972d90ba49c06d968637d720dd632c55bbf19d441fb42bf17a411e794",
              "Systran/faster-whisper-small"),
    _official("small.en", 484, 2000, "f953ad0fd29cacd07d5a9eda5624af0f6bcf2258be67c92b79389873d91e0872",
              "Systran/faster-whisper-small.en"),
    _official("medium", 1528, 5000, "345ae4da62f9b3d59415adc60127b97c714f32e89e936602e85993674d08dcb1",
              "Systran/faster-whisper-medium"),
    _official("medium.en", 1528, 5000, "d7440d1dc186f76616474e0ff0b3b6b879abc9d1a4926b7adfa41db2d497ab4f",
              "Systran/faster-whisper-medium.en"),
    _official("large-v1", 3087, 10000, "e4b87e7e0bf463eb8e6956e646f1e277e901512310def2c24bf0e11bd3c28e9a",
              "Systran/faster-whisper-large-v1"),
    _official("large-v2", 3087, 10000, "81f7c96c852ee8fc832187b0132e569d6c3065a3252ed18e56effd0b6a73e524",
              "Systran/faster-whisper-large-v2"),
    _official("large-v3", 3088, 10000, "e5b1a55b89c1367dacf97e3e19bfd829a01529dbfdeefa8caeb59b3f1b81dadb",
              "Systran/faster-whisper-large-v3"),
    _official("turbo", 1618, 6000, "aff26ae408abcba5fbf8813c21e62b0941638c5f6eebfb145be0c9839262a19a",
              "mobiuslabsgmbh/faster-whisper-large-v3-turbo", filename="large-v3-turbo.pt"),
)


@dataclass(frozen=True)
class CatalogEntry:
    """One line of the model list: an official model, or one the user imported."""

    name: str
    size_mb: int  # download size for official models, size on disk for imported ones
    english_only: bool | None  # None: not known (an imported model that did not tell)
    memory_mb: int | None
    imported: bool
    downloaded: dict[str, bool]  # format -> present on this computer
    info: ModelInfo | None  # None for imported models; set for an imported copy of an official model
    shared: bool = False  # served from a shared model folder
    unverified_source: str | None = None  # set when a format on disk came unchecked from this mirror


@dataclass(frozen=True)
class _RemoteFile:
    path: str
    size: int
    sha256: str | None  # only Git LFS files carry one


class ModelStore:
    """All Whisper models on this computer, and the way to get more.

    ``sources`` says where models come from (shared folders, the download source); without it,
    Hugging Face is reached at ``hf_endpoint``. ``openai_url_base`` replaces openai's server (tests use
    a local server); ``catalog`` replaces the list of official models.
    """

    def __init__(
        self,
        root: Path,
        *,
        openai_url_base: str | None = None,
        hf_endpoint: str = HF_ENDPOINT,
        catalog: Iterable[ModelInfo] = OFFICIAL_MODELS,
        sources: ModelSources | LiveSources | None = None,
    ) -> None:
        self.root = Path(root)
        self._sources = sources or ModelSources(downloads=DownloadSources.fixed(hf_endpoint))
        self._openai_url_base = openai_url_base.rstrip("/") if openai_url_base else None
        self._catalog = {info.name: info for info in catalog}

    @property
    def sources(self) -> ModelSources:
        """Where models come from now: the shared folders and the download source."""
        return self._sources() if isinstance(self._sources, LiveSources) else self._sources

    @property
    def live_sources(self) -> ModelSources | LiveSources:
        """The sources as given: a LiveSources another store may share, to follow Settings together."""
        return self._sources

    def use_sources(self, sources: ModelSources) -> None:
        """Take the sources the user just chose (for every store sharing the same LiveSources)."""
        if isinstance(self._sources, LiveSources):
            self._sources.current = sources
        else:
            self._sources = sources

    # --- what there is ---------------------------------------------------------------------------

    def info(self, name: str) -> ModelInfo | None:
        """The catalog entry of an official model, or None."""
        return self._catalog.get(name)

    def names(self) -> list[str]:
        """Official names in catalog order, then imported names in alphabetical order."""
        return list(self._catalog) + self._imported_names(official=False)

    def catalog(self) -> list[CatalogEntry]:
        """Every model with the formats that are on disk."""
        entries = []
        for info in self._catalog.values():
            models = self.local(info.name)
            present = {model.format for model in models}
            entries.append(CatalogEntry(
                name=info.name, size_mb=info.size_mb, english_only=info.english_only,
                memory_mb=info.memory_mb, imported=any(m.imported for m in models),
                downloaded={fmt: fmt in present for fmt in FORMATS}, info=info,
                shared=bool(models) and all(m.shared for m in models),
                unverified_source=next((m.unverified_source for m in models if m.unverified_source), None),
            ))
        for name in self._imported_names(official=False):
            meta = self._read_metadata(name)
            if meta is None:
                continue
            folder = self._imported_dir / name
            entries.append(CatalogEntry(
                name=name, size_mb=max(1, round(_folder_size(folder) / 1e6)),
                english_only=meta.get("english_only"), memory_mb=None, imported=True,
                downloaded={fmt: fmt == meta["format"] for fmt in FORMATS}, info=None,
            ))
        return entries

    def local(self, name: str) -> list[LocalModel]:
        """Every format of ``name`` that is on this computer (empty when none is)."""
        if name in self._catalog:
            found = []
            pt = self._pt_path(name)
            if pt.is_file():
                found.append(LocalModel(name, "pt", pt, imported=False))
            folder = self._ct2_dir / name
            if (folder / "model.bin").is_file() and (folder / "config.json").is_file():
                found.append(LocalModel(name, "ct2", folder, imported=False,
                                        unverified_source=unverified_source(_read_json(folder / METADATA_FILE))))
            found += self._imported_copy(name) + shared_copies(self._catalog[name], self.sources.shared_dirs)
            first_of_each = {}
            for model in found:
                first_of_each.setdefault(model.format, model)
            return list(first_of_each.values())
        return self._imported_copy(name)

    def _imported_copy(self, name: str) -> list[LocalModel]:
        meta = self._read_metadata(name) if _valid_name(name) else None
        if meta is None:
            return []
        folder = self._imported_dir / name
        if meta["format"] == "pt":
            return [LocalModel(name, "pt", folder / "model.pt", imported=True)]
        return [LocalModel(name, "ct2", folder, imported=True)]

    def pt_url(self, name: str) -> str:
        """Where the openai-whisper checkpoint of an official model is downloaded from."""
        info = self._official_info(name)
        if self._openai_url_base is None:
            return info.pt_url
        return f"{self._openai_url_base}/{info.pt_sha256}/{info.pt_filename}"

    # --- downloads ---------------------------------------------------------------------------

    def download(
        self,
        name: str,
        fmt: ModelFormat,
        progress: ProgressCallback | None = None,
        cancelled: CancelCheck | None = None,
    ) -> LocalModel:
        """Download an official model in one format and return it (at once when it is already here).

        A copy in a shared folder that is damaged (a file empty or missing) cannot be used: it is
        logged, and when the download fails too, the sentence names the damaged file, so the user
        does not ask IT for a shared folder that is already there.
        """
        damaged = damaged_shared_copies(self._catalog[name], self.sources.shared_dirs) \
            if name in self._catalog and fmt in FORMATS else []
        for path, problem in damaged:
            _log.warning("The shared model folder's copy of %s cannot be used: %s is %s", name, path, problem)
        try:
            return self._download_official(name, fmt, progress, cancelled)
        except ModelError as error:
            if not damaged:
                raise
            path, problem = damaged[0]
            raise ModelError(
                N_("Models", "The shared model folder has the {model} model, but “{file}” in it is {problem}, so "
                             "VoxDesk cannot use it, and downloading the model failed too. Ask your IT department "
                             "to copy the model into {folder} again; or use File → Import model… with a good "
                             "copy.").format(model=name, file=path.name, problem=problem, folder=path.parent),
                detail=f"{path}: {problem}; the download: {error.message}",
            ) from error

    def _download_official(
        self,
        name: str,
        fmt: ModelFormat,
        progress: ProgressCallback | None = None,
        cancelled: CancelCheck | None = None,
    ) -> LocalModel:
        """``download`` itself, the shared folders' damaged copies aside.

        ``progress(done, total)`` counts bytes over all files of the model. ``cancelled`` is asked
        before every chunk; on a cancel :class:`~desktop.core.common.errors.Cancelled` is raised, nothing
        appears under the model's name, and what was fetched so far is kept for the next try.
        """
        if fmt not in FORMATS:
            raise ValueError(f"unknown model format {fmt!r}")
        info = self._official_info(name)
        for model in self.local(name):
            if model.format == fmt:
                return model
        label = N_("Models", 'the "{name}" model').format(name=name)
        if fmt == "pt":
            try:
                path = download_file(
                    self.pt_url(name), self._pt_path(name), sha256=info.pt_sha256,
                    max_size=_largest_download(info),
                    progress=progress, cancelled=cancelled, label=label,
                )
            except (ServerUnreachable, ServerRefused):
                # openai's host has no mirror, and firewalls block it. The GPU engine also runs the
                # CTranslate2 copy from the chosen Hugging Face source: it converts it to openai-whisper's
                # layout when it loads it (engines/transcription/model_files/ct2_format).
                for model in self.local(name):
                    if model.format == "ct2":
                        return model
                return self._download_ct2(info, label, progress, cancelled)
            return LocalModel(name, "pt", path, imported=False)
        return self._download_ct2(info, label, progress, cancelled)

    def _download_ct2(
        self, info: ModelInfo, label: str, progress: ProgressCallback | None, cancelled: CancelCheck | None
    ) -> LocalModel:
        endpoint = self.sources.downloads.hf_endpoint()
        official = endpoint.rstrip("/") == self.sources.downloads.official.rstrip("/")
        files = _list_ct2_repo(endpoint, info, label)
        # Checked when the catalogue pins the model's files, or when the listing is the publisher's own.
        verified = official or info.name in CT2_CHECKSUMS
        total = sum(f.size for f in files)
        staging = self._ct2_staging(info.name)
        target = self._ct2_dir / info.name
        try:
            staging.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise _save_error(exc, label, self._ct2_dir) from exc

        # Files finished by an earlier, cancelled run were verified when they were completed.
        done = sum(f.size for f in files if _has_size(staging / f.path, f.size))
        if progress:
            progress(done, total)
        for remote in files:
            dest = staging / remote.path
            if _has_size(dest, remote.size):
                continue
            download_file(
                f"{endpoint}/{info.ct2_repo}/resolve/main/{remote.path}",
                dest,
                sha256=remote.sha256,
                size=remote.size,
                progress=_shifted(progress, done, total),
                cancelled=cancelled,
                label=label,
            )
            done += remote.size

        # Anything else in the staging folder (an older revision's file) stays out of the model.
        wanted = {f.path for f in files}
        for leftover in staging.iterdir():
            if leftover.name not in wanted:
                _remove_any(leftover)
        try:
            _write_json(staging / METADATA_FILE, {"name": info.name, "format": "ct2",
                                                  **origin_fields(endpoint, verified=verified)})
            os.rename(staging, target)
        except OSError as exc:
            if exc.errno in (errno.EEXIST, errno.ENOTEMPTY) and (target / "model.bin").is_file():
                _remove_tree(staging)  # another download of the same model finished first
            else:
                raise _save_error(exc, label, self._ct2_dir) from exc
        fsync_dir(self._ct2_dir)
        return LocalModel(info.name, "ct2", target, imported=False,
                          unverified_source=unverified_source(_read_json(target / METADATA_FILE)))

    # --- imports -----------------------------------------------------------------------------

    def import_model(self, source: Path, name: str | None = None) -> LocalModel:
        """Copy an openai-whisper ``.pt`` checkpoint or a CTranslate2 folder into the store.

        The name defaults to the file name without ``.pt``, or the folder name. A copy of an official
        model may take its official name (then ``local(name)`` finds it and nothing is downloaded). The
        source is checked before anything is copied, and the copy appears under its name only once it
        is complete.
        """
        source = Path(source).expanduser()
        if not source.exists():
            raise ModelError(N_("Models", 'VoxDesk cannot find "{source}"; check that the file or folder is still '
                                          "there.").format(source=source))
        if not source.is_dir():
            require_regular_file(source, error=ModelError)  # a pipe or device is refused before it is opened
        if source.is_dir():
            fmt: ModelFormat = "ct2"
            default = Path(os.path.abspath(source)).name
        else:
            fmt = "pt"
            default = source.name[:-3] if source.name.lower().endswith(".pt") else source.stem
        name = (default if name is None else name).strip()
        official = self._official_spelling(name)
        name = official or name
        self._check_new_name(name)

        copies, english_only = _checked_import(source, fmt, self._catalog[official] if official else None)

        label = N_("Models", 'the model "{name}"').format(name=name)
        imported = self._imported_dir
        try:
            imported.mkdir(parents=True, exist_ok=True)
            staging = Path(tempfile.mkdtemp(prefix=f".{name}.", suffix=".importing", dir=imported))
        except OSError as exc:
            raise _save_error(exc, label, imported) from exc
        try:
            for src, dest_name in copies:
                copy_regular_file(src, staging / dest_name, error=ModelError)
            metadata = {
                "name": name,
                "format": fmt,
                "source": str(source.resolve()),
                "english_only": english_only,
                "official": bool(official),
                "imported_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            }
            _write_json(staging / METADATA_FILE, metadata)
            os.rename(staging, imported / name)
        except OSError as exc:
            _remove_tree(staging)
            if exc.errno in (errno.EEXIST, errno.ENOTEMPTY):
                raise _name_taken(name) from exc
            raise _save_error(exc, label, imported) from exc
        except BaseException:
            _remove_tree(staging)
            raise
        fsync_dir(imported)
        return self.local(name)[0]

    # --- paths and names ---------------------------------------------------------------------

    def official_name_of(self, source: Path) -> str | None:
        """The official name a model the user is about to import may take (it is a copy of that model,
        so it stands in for its download), or None. Reads the file or folder: not on the GUI thread."""
        try:
            check_model(source, "whisper-pt" if source.is_file() else "ct2")  # no FIFO, link or device
            return official_name_of(source, self._catalog.values())
        except UserFacingError:
            return None

    def folders(self) -> list[Path]:
        """The folders this store keeps its own models in (the shared ones are IT's), for watching:
        a model imported from the command line appears in an open window."""
        return [self.root, self._openai_dir, self._ct2_dir, self._imported_dir]

    @property
    def _openai_dir(self) -> Path:
        return self.root / "openai"

    @property
    def _ct2_dir(self) -> Path:
        return self.root / "ct2"

    @property
    def _imported_dir(self) -> Path:
        return self.root / "imported"

    def _pt_path(self, name: str) -> Path:
        return self._openai_dir / f"{name}.pt"

    def _ct2_staging(self, name: str) -> Path:
        return self._ct2_dir / f".{name}.download"

    def _official_info(self, name: str) -> ModelInfo:
        info = self._catalog.get(name)
        if info is not None:
            return info
        if _valid_name(name) and self._read_metadata(name) is not None:
            raise ModelError(N_("Models", '"{name}" is a model you imported, so there is nothing to download for '
                                          "it.").format(name=name))
        raise ModelError(N_("Models", 'There is no Whisper model called "{name}"; choose one from the model '
                                      'list.').format(name=name))

    def _imported_names(self, official: bool | None = None) -> list[str]:
        """Imported models; ``official`` False: only those under a name of their own, True: only copies
        of official models."""
        try:
            folders = [p.name for p in self._imported_dir.iterdir() if p.is_dir()]
        except OSError:
            return []
        names = [n for n in folders if _valid_name(n) and self._read_metadata(n) is not None]
        if official is not None:
            names = [n for n in names if (n in self._catalog) is official]
        return sorted(names, key=str.casefold)

    def _official_spelling(self, name: str) -> str | None:
        """The official model ``name`` stands for, in any letter case; None for another name."""
        folded = name.casefold()
        return next((official for official in self._catalog if official.casefold() == folded), None)

    def _read_metadata(self, name: str) -> dict[str, Any] | None:
        """The voxdesk-model.json of an imported model, or None when it is missing or damaged."""
        try:
            meta = json.loads((self._imported_dir / name / METADATA_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(meta, dict) or meta.get("format") not in FORMATS:
            return None
        return meta

    def _check_new_name(self, name: str) -> None:
        if not _valid_name(name):
            raise ModelError(
                N_("Models", '"{name}" cannot be used as a model name; use letters, digits, spaces, dots, dashes '
                             "or underscores, starting with a letter or digit.").format(name=name)
            )
        folded = name.casefold()
        taken = self._imported_dir / name
        if os.path.lexists(taken) or any(folded == n.casefold() for n in self._imported_names()):
            raise _name_taken(name)


# --- downloads and imports ---------------------------------------------------------------------


def _list_ct2_repo(endpoint: str, info: ModelInfo, label: str) -> list[_RemoteFile]:
    """The model files of a Hugging Face repository, from its tree API, each with the checksum to check.

    Where the catalogue pins the model's checksums (official_checksums), exactly the pinned files are
    taken and checked against the pins, whatever the listing says; a listing that names another
    checksum is refused at once. A model without pins is checked against the listing's own checksums,
    which only the publisher's host can vouch for: from a mirror the download is marked unverified.
    """
    url = f"{endpoint}/api/models/{info.ct2_repo}/tree/main"
    pins = CT2_CHECKSUMS.get(info.name)
    listing = fetch_json(url)
    files = []
    try:
        if not isinstance(listing, list):
            raise TypeError(f"a listing of type {type(listing).__name__}")
        for entry in listing:
            path = entry["path"]
            if not listed_path_is_safe(path):
                raise bad_listing_error(url, path)
            if entry.get("type") != "file" or "/" in path or not _is_ct2_file(path):
                continue
            lfs = entry.get("lfs") or {}
            size = int(lfs.get("size", entry["size"]))
            sha = lfs.get("oid")
            if sha is not None and not (isinstance(sha, str) and re.fullmatch(r"[0-9a-f]{64}", sha)):
                raise ValueError(f"bad sha256 {sha!r}")
            if size < 0:
                raise ValueError(f"bad size {size}")
            if pins is not None:
                if path not in pins:
                    continue  # not a file of the official model
                if sha is not None and sha != pins[path]:
                    raise ModelError(
                        N_("Models", "The download server offers a different file than the official one for "
                                     "{label}, so VoxDesk did not download it. Choose another download source in "
                                     "Settings → Downloads.").format(label=label),
                        detail=f"{url}: {path} has SHA-256 {sha}, the official file {pins[path]}",
                    )
                sha = pins[path]
            files.append(_RemoteFile(path, size, sha))
    except (TypeError, KeyError, ValueError, AttributeError) as exc:
        raise ModelError(
            N_("Models", "The download server sent an answer VoxDesk does not understand; please try again later."),
            detail=f"{url}: {exc!r}"[:500],
        ) from exc
    names = {f.path for f in files}
    complete = set(pins) <= names if pins is not None else (
        {"config.json", "model.bin"} <= names and any(_is_vocabulary(n) for n in names))
    if not complete:
        raise ModelError(
            N_("Models", "The download server does not have all the files of {label}; please try again "
                         "later.").format(label=label),
            detail=f"{url}: files listed: {sorted(names)}",
        )
    return files


def _checked_import(
    source: Path, fmt: ModelFormat, official: ModelInfo | None
) -> tuple[list[tuple[Path, str]], bool | None]:
    """Check what the user imports; the (file, name in the store) pairs to copy and whether it is English-only.

    ``official``: the official model the import is to be named after, which it must be a copy of.
    """
    if fmt == "pt":
        check_model(source, "whisper-pt")
        english_only = _check_checkpoint(source)
        if official:
            check_official_pt(source, official)
        return [(source, "model.pt")], english_only
    check_model(source, "ct2")
    files, english_only = _check_ct2_folder(source)
    if official:
        check_official_ct2(source, official)
    return [(source / f, f) for f in files], english_only


def _check_checkpoint(path: Path) -> bool | None:
    """Check that ``path`` is an openai-whisper checkpoint; return whether it is English-only.

    The file is read with torch's weights-only loader, which refuses any pickled object other than
    tensors and plain containers, so a file carrying program code is never run.
    """
    import pickle

    import torch

    shown = path.name

    def not_whisper(exc: BaseException) -> ModelError:
        return ModelError(
            N_("Models", '"{shown}" is not an openai-whisper model file; choose a Whisper .pt checkpoint or a '
                         "CTranslate2 folder.").format(shown=shown),
            detail=repr(exc),
        )

    try:
        # A zip checkpoint (every torch >= 1.6 file) can be mapped instead of read into memory.
        checkpoint = torch.load(path, map_location="cpu", weights_only=True, mmap=zipfile.is_zipfile(path))
    except pickle.UnpicklingError as exc:
        if "GLOBAL" in str(exc):
            raise ModelError(
                N_("Models", '"{shown}" contains program code as well as model data, so VoxDesk refused to open it '
                             "to keep this computer safe.").format(shown=shown),
                detail=str(exc),
            ) from exc
        raise not_whisper(exc) from exc
    except Exception as exc:  # torch reports damaged files with many exception types
        if isinstance(exc, OSError) and not isinstance(exc, zipfile.BadZipFile):
            raise ModelError(N_("Models", 'VoxDesk could not read "{shown}"; check that the file is still '
                                          'there.').format(shown=shown),
                             detail=repr(exc)) from exc
        raise not_whisper(exc) from exc

    try:
        dims = checkpoint["dims"]
        state = checkpoint["model_state_dict"]
        values = {field: dims[field] for field in WHISPER_DIM_FIELDS}
        if not all(isinstance(v, int) and v > 0 for v in values.values()):
            raise ValueError(f"bad dims {dims!r}")
        embedding = state["decoder.token_embedding.weight"]
        if tuple(embedding.shape) != (values["n_vocab"], values["n_text_state"]):
            raise ValueError(f"token embedding {tuple(embedding.shape)} does not match dims {values}")
        if not all(isinstance(t, torch.Tensor) for t in state.values()):
            raise ValueError("state dict holds something other than tensors")
    except (TypeError, KeyError, IndexError, ValueError, AttributeError) as exc:
        raise not_whisper(exc) from exc
    return values["n_vocab"] < _MULTILINGUAL_MIN_VOCAB


def _check_ct2_folder(folder: Path) -> tuple[list[str], bool | None]:
    """Check a CTranslate2 Whisper folder; return the files to copy and whether it is English-only."""
    shown = Path(os.path.abspath(folder)).name
    try:
        present = sorted(p.name for p in folder.iterdir() if p.is_file())
    except OSError as exc:
        raise ModelError(N_("Models", 'VoxDesk could not read the folder "{shown}"; check that it is still '
                                      'there.').format(shown=shown),
                         detail=repr(exc)) from exc
    missing: list[str] = [n for n in ("config.json", "model.bin") if n not in present]
    if not any(_is_vocabulary(n) for n in present):
        missing.append(N_("Models", "a tokenizer.json or vocabulary file"))
    if missing:
        absent = missing[0]
        for name in missing[1:]:
            absent = N_("Models", "{absent} and no {name}").format(absent=absent, name=name)
        raise ModelError(
            N_("Models", 'The folder "{shown}" is not a complete CTranslate2 Whisper model: it has no {absent}.').format(
                shown=shown, absent=absent)
        )
    try:
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        if not isinstance(config, dict):
            raise ValueError("config.json is not an object")
    except (OSError, ValueError) as exc:
        raise ModelError(N_("Models", 'The config.json in "{shown}" is damaged, so VoxDesk cannot use this '
                                      'model.').format(shown=shown),
                         detail=repr(exc)) from exc

    spec = _ct2_spec_name(folder / "model.bin")
    if spec is None:
        raise ModelError(
            N_("Models", 'The model.bin in "{shown}" is not a CTranslate2 model file, so VoxDesk cannot use this '
                         "folder.").format(shown=shown)
        )
    if spec != "WhisperSpec":
        raise ModelError(
            N_("Models", 'The folder "{shown}" holds a CTranslate2 model for something other than speech '
                         "recognition, so VoxDesk cannot use it.").format(shown=shown),
            detail=f"model spec: {spec}",
        )
    return [n for n in present if _is_ct2_file(n)], _ct2_english_only(folder)


def _ct2_spec_name(model_bin: Path) -> str | None:
    """The spec name in a CTranslate2 model.bin header, or None when the file is not one.

    The header (ctranslate2/specs/model_spec.py, ``_serialize``) is a uint32 binary version, then
    the spec name as a uint16 length (counting a final NUL) followed by the UTF-8 bytes and the NUL.
    """
    try:
        with open(model_bin, "rb") as f:
            head = f.read(4 + 2 + 256)
    except OSError:
        return None
    if len(head) < 6:
        return None
    version, length = struct.unpack_from("<IH", head)
    # Versions before 2 had no spec name; 6 is current. A large number means this is not a header.
    if not 2 <= version <= 100 or not 2 <= length <= 256 or len(head) < 6 + length:
        return None
    raw = head[6 : 6 + length]
    if raw[-1] != 0:
        return None
    try:
        name = raw[:-1].decode("ascii")
    except UnicodeDecodeError:
        return None
    return name if name.isidentifier() else None


def _ct2_english_only(folder: Path) -> bool | None:
    """English-only Whisper vocabularies have 51864 entries; None when the folder has no vocabulary.txt."""
    try:
        with open(folder / "vocabulary.txt", "rb") as f:
            count = sum(1 for _ in f)
    except OSError:
        return None
    return count < _MULTILINGUAL_MIN_VOCAB


# --- small helpers -----------------------------------------------------------------------------


def _valid_name(name: str) -> bool:
    """Letters (any script), digits, spaces, dots, dashes, underscores; no path tricks."""
    return bool(re.fullmatch(r"[^\W_](?:[\w .\-]{0,98}[\w])?", name))


def _largest_download(info: ModelInfo) -> int:
    """The most bytes the checkpoint of ``info`` may have: its catalogue size, with room for rounding."""
    return info.size_mb * 1024 * 1024 * 5 // 4


def _is_vocabulary(filename: str) -> bool:
    return filename == "tokenizer.json" or fnmatch(filename, "vocabulary.*")


def _is_ct2_file(filename: str) -> bool:
    return any(fnmatch(filename, pattern) for pattern in CT2_FILE_PATTERNS)


def _shifted(progress: ProgressCallback | None, start: int, total: int) -> ProgressCallback | None:
    """One file's progress as progress over the whole model, whose earlier files hold ``start`` bytes."""
    if progress is None:
        return None
    return lambda done, _file_total: progress(start + done, total)


def _has_size(path: Path, size: int) -> bool:
    try:
        return path.is_file() and path.stat().st_size == size
    except OSError:
        return False


def _folder_size(folder: Path) -> int:
    total = 0
    for path in folder.rglob("*"):
        try:
            if path.is_file():
                total += path.stat().st_size
        except OSError:
            pass
    return total


def _write_json(path: Path, data: dict[str, Any]) -> None:
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, indent=2)
        f.write("\n")
        f.flush()
        os.fsync(f.fileno())


def _read_json(path: Path) -> dict[str, Any] | None:
    """A small JSON object VoxDesk wrote, or None when it is missing or damaged."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _remove_file(path: Path) -> None:
    try:
        path.unlink()
    except FileNotFoundError:
        pass


def _remove_tree(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)


def _remove_any(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        _remove_tree(path)
    else:
        _remove_file(path)


def _name_taken(name: str) -> ModelError:
    return ModelError(
        N_("Models", 'There is already a model called "{name}"; choose another name for the imported model.').format(
            name=name)
    )


def _save_error(exc: OSError, label: str, folder: Path) -> ModelError:
    return ModelError(write_error_message(exc, label, folder), detail=repr(exc))
