"""The voice model store: which models of the catalogue are on this computer, in the store's own
folder or a shared one, and adding and removing them. No Qt here.

Models live in one folder per model under the store's root (desktop.core.speech.tts_model_folders):

    <root>/models/<tts_models--en--ljspeech--vits>/   a model, voxdesk-model.json written last
    <root>/staging/<same name>/                        downloads and imports in progress
    <root>/licences.json                               licences the user accepted, with the date

The work itself is done by the module of each job: the catalogue (tts_catalog), downloading
(tts_downloads), importing a folder (tts_imports), checking a Coqui folder (coqui_folders) and the
licences (tts_licences). Coqui asks for some licences (XTTS's CPML) on the terminal; VoxDesk never
does: the window shows the terms and :meth:`TtsModelStore.accept_licence` records the answer.
"""
from __future__ import annotations

import os
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

from desktop.core.common.download import CancelCheck, NoConnection, ProgressCallback
from desktop.core.common.download_sources import DownloadSources
from desktop.core.common.errors import ExportError, ModelError
from desktop.core.common.i18n import N_
from desktop.core.common.model_origin import unverified_source
from desktop.core.common.shared_models import LiveSources, ModelSources
from desktop.core.speech.coqui_folders import find_model_file, inspect_folder
from desktop.core.speech.piper_voices import inspect_piper, is_piper_name
from desktop.core.speech.tts_catalog import CURATED, RECOMMENDED, TtsModel, read_catalog
from desktop.core.speech.tts_downloads import NO_NETWORK_FOR_VOICES, download_model
from desktop.core.speech.tts_imports import import_model
from desktop.core.speech.tts_licences import LicenceNotAccepted, LicenceRecords, LicenceTerms, licence_terms
from desktop.core.speech.tts_model_folders import (
    MANIFEST,
    StoreFolders,
    manifest_for,
    model_from_manifest,
    piper_manifest,
    read_manifest,
    shared_model_folder,
    write_tos_file,
)

HF_ENDPOINT = "https://huggingface.co"


def store_root() -> Path:
    """Where VoxDesk keeps its voice models: the "tts" folder of its data folder."""
    from desktop.core.common.paths import data_dir

    return data_dir() / "tts"


class TtsModelStore:
    """The voice models known to VoxDesk and which of them are on this computer."""

    def __init__(
        self,
        root: Path,
        *,
        catalog_file: Path | None = None,
        piper_catalog_file: Path | None = None,
        hf_endpoint: str = HF_ENDPOINT,
        timeout: float = 30,
        sources: ModelSources | LiveSources | None = None,
    ) -> None:
        """``sources``: shared folders and download source; without it, Hugging Face at ``hf_endpoint``."""
        self.root = Path(root)
        self._folders = StoreFolders(self.root)
        self._licences = LicenceRecords(self.root)
        self._catalog_file = catalog_file
        self._piper_catalog_file = piper_catalog_file
        self._sources = sources or ModelSources(downloads=DownloadSources.fixed(hf_endpoint.rstrip("/")))
        self._timeout = timeout
        self._catalog: dict[str, TtsModel] | None = None

    # -- folders ------------------------------------------------------------------------------

    @property
    def models_root(self) -> Path:
        return self._folders.models_root

    @property
    def staging_root(self) -> Path:
        return self._folders.staging_root

    @property
    def sources(self) -> ModelSources:
        """Where models come from now: the shared folders and the download source."""
        return self._sources() if isinstance(self._sources, LiveSources) else self._sources

    def folder(self, name: str) -> Path:
        """Where the model's files are: this store's folder, else a shared folder holding the model,
        else the folder a download will fill."""
        own = self._folders.own(name)
        if (own / MANIFEST).is_file():
            return own
        return self._shared_folder(name) or own

    def _shared_folder(self, name: str) -> Path | None:
        return shared_model_folder(name, self.sources.shared_dirs)

    def is_downloaded(self, name: str) -> bool:
        return (self._folders.own(name) / MANIFEST).is_file() or self._shared_folder(name) is not None

    # -- the catalog --------------------------------------------------------------------------

    def _coqui_models(self) -> dict[str, TtsModel]:
        if self._catalog is None:
            self._catalog = read_catalog(self._catalog_file, self._piper_catalog_file)
        return self._catalog

    def catalog(self) -> list[TtsModel]:
        """Every model on offer: the curated ones first, then the rest of Coqui's list, then imports."""
        coqui = self._coqui_models()
        curated = [coqui[name] for name in dict.fromkeys([*RECOMMENDED, *CURATED]) if name in coqui]
        rest = sorted((m for n, m in coqui.items() if n not in CURATED and not n.startswith("vocoder_models/")),
                      key=lambda m: (m.languages, m.name))
        models = curated + rest + self.imported()
        return [replace(m, downloaded=self.is_downloaded(m.name), unverified_source=self._unverified_source(m))
                for m in models]

    def imported(self) -> list[TtsModel]:
        if not self.models_root.is_dir():
            return []
        models = []
        for folder in sorted(self.models_root.iterdir()):
            manifest = read_manifest(folder)
            if manifest and manifest.get("imported"):
                models.append(model_from_manifest(manifest, downloaded=True))
        return models

    def get(self, name: str) -> TtsModel:
        """The catalog entry (or imported model) called name; ModelError when there is none."""
        coqui = self._coqui_models()
        if name in coqui:
            model = coqui[name]
            return replace(model, downloaded=self.is_downloaded(name), unverified_source=self._unverified_source(model))
        manifest = read_manifest(self.folder(name))
        if manifest is not None:
            return model_from_manifest(manifest, downloaded=True)
        raise ModelError(
            N_("SpeechModels", "There is no voice model called “{name}”. Choose one from the model list, or import "
                               "its folder with “Import model folder…”.").format(name=name),
        )

    def _unverified_source(self, model: TtsModel) -> str | None:
        """Where this store's download of the model, or of its vocoder, came from unchecked; else None."""
        for name in filter(None, (model.name, model.vocoder)):
            source = unverified_source(read_manifest(self._folders.own(name)))
            if source:
                return source
        return None

    def manifest(self, name: str) -> dict[str, Any]:
        """What VoxDesk recorded about a model on disk (its files, kind, vocoder)."""
        folder = self.folder(name)
        manifest = read_manifest(folder)
        if manifest is None and folder != self._folders.own(name):
            manifest = self._shared_manifest(name, folder)
        if manifest is None:
            raise ModelError(
                N_("SpeechModels", "The voice model “{title}” is not on this computer yet. Download it first.").format(
                    title=self.get(name).title),
            )
        return manifest

    def _shared_manifest(self, name: str, folder: Path) -> dict[str, Any]:
        """What a manifest would say about a shared folder Coqui filled (nothing is written there)."""
        model = self.get(name)
        if is_piper_name(name):
            return piper_manifest(model, folder, inspect_piper(folder))
        if name.startswith("vocoder_models/"):
            manifest = manifest_for(model, folder, None)
            manifest["model_file"] = find_model_file(folder).name
            return manifest
        return manifest_for(model, folder, inspect_folder(folder))

    # -- licences -----------------------------------------------------------------------------

    def licence_terms(self, name: str) -> LicenceTerms | None:
        """The terms the user must accept before downloading this model, or None when there are none."""
        return licence_terms(self.get(name))

    def licence_accepted(self, name: str) -> bool:
        if self.licence_terms(name) is None:
            return True
        return self._licences.accepted(name)

    def accept_licence(self, name: str) -> None:
        """Record that the user accepted the model's licence in the window (never asked on stdin)."""
        terms = self.licence_terms(name)
        if terms is None:
            return
        try:
            self._licences.record(name, terms)
        except (OSError, ExportError) as exc:
            raise self._folders.error(exc) from exc
        if read_manifest(self._folders.own(name)) is not None:  # never into a shared folder
            write_tos_file(self._folders.own(name), self.root)

    # -- adding and removing ------------------------------------------------------------------

    def download(
        self,
        name: str,
        *,
        progress: ProgressCallback | None = None,
        cancelled: CancelCheck | None = None,
    ) -> Path:
        """Download a catalog model (and the vocoder it needs) and return its folder.

        Raises ModelError for every failure, LicenceNotAccepted when its licence must be accepted first,
        and Cancelled when cancelled() says so; unfinished files stay in staging/ for a later resume.
        """
        model = self.get(name)
        if model.imported:
            return self.folder(name)
        if not self.licence_accepted(name):
            raise LicenceNotAccepted(
                N_("SpeechModels", "The licence of “{title}” ({licence}) must be accepted before it can be "
                                   "downloaded.").format(title=model.title, licence=model.licence),
            )
        try:
            if not self.is_downloaded(name):
                self._download_one(model, progress, cancelled)
            if model.vocoder and not self.is_downloaded(model.vocoder):
                self._download_one(self.get(model.vocoder), progress, cancelled)
        except NoConnection as exc:  # its sentence names File → Import model…, which takes Whisper models only
            raise NoConnection(NO_NETWORK_FOR_VOICES, detail=exc.detail) from exc
        return self.folder(name)

    def _download_one(self, model: TtsModel, progress: ProgressCallback | None, cancelled: CancelCheck | None) -> None:
        download_model(model, self._folders, self.sources.downloads, timeout=self._timeout, progress=progress,
                       cancelled=cancelled)

    def import_folder(
        self,
        path: str | os.PathLike[str],
        name: str | None = None,
        *,
        progress: ProgressCallback | None = None,
        cancelled: CancelCheck | None = None,
    ) -> TtsModel:
        """Copy a Coqui model folder (config.json + model file + speaker/vocab files) or a Piper voice into the store.

        The folder is checked first (inspect_folder), so a folder without its config or with a damaged
        file is refused with a sentence saying what is missing; nothing is added then.
        """
        model_name = import_model(path, name, self._folders, taken=self.is_downloaded, progress=progress,
                                  cancelled=cancelled)
        return self.get(model_name)

    def remove(self, name: str) -> None:
        """Delete a downloaded or imported model's folder."""
        folder = self._folders.own(name)
        if folder.is_dir():
            # Drop the manifest first: a folder interrupted half-way through deletion is not a model.
            (folder / MANIFEST).unlink(missing_ok=True)
            shutil.rmtree(folder, ignore_errors=True)
