"""Voice models for speech synthesis: the catalog, downloads, licence records and imported folders.

The catalog is Coqui's own model list (the ``.models.json`` file inside the coqui-tts package, read
as data so nothing heavy is imported), with a curated default per language shown first. Models live
in one folder per model under the store's root:

    <root>/models/<tts_models--en--ljspeech--vits>/   config.json, model file, speaker files,
                                                       voxdesk-model.json (written last)
    <root>/staging/<same name>/                        downloads and imports in progress
    <root>/licences.json                               licences the user accepted, with the date

A model folder appears under ``models/`` only by one rename of a complete, checked folder, so a
half-downloaded or half-copied model is never loaded. An interrupted download keeps its ``.part``
files in ``staging/`` and continues from there next time.

Coqui asks for some licences (XTTS's CPML) on the terminal. VoxDesk never does: the window shows the
terms, :meth:`TtsModelStore.accept_licence` records the answer, and the model folder gets the
``tos_agreed.txt`` file Coqui's own tools look for.
"""
from __future__ import annotations

import fnmatch
import importlib.util
import json
import os
import re
import shutil
import urllib.parse
import zipfile
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from desktop.core.common.atomic import atomic_write_text, fsync_dir
from desktop.core.common.download import (
    NoConnection,
    bad_listing_error,
    download_file,
    fetch_json,
    listed_path_is_safe,
)
from desktop.core.common.errors import Cancelled, ExportError, ModelError
from desktop.core.common.fs_errors import write_error_message
from desktop.core.common.i18n import N_
from desktop.core.common.model_files import check_model
from desktop.core.common.model_origin import origin_fields, unverified_source
from desktop.core.common.download_sources import DownloadSources
from desktop.core.common.safe_files import copy_regular_file, copy_tree
from desktop.core.common.shared_models import LiveSources, ModelSources
from desktop.core.speech import piper_voices
from desktop.core.speech.piper_voices import PIPER_PREFIX, PiperCatalogVoice, inspect_piper, is_piper_name, is_piper_voice
from desktop.core.speech.voice_folders import model_card_licence, voice_inside

ProgressCallback = Callable[[int, int | None], None]
CancelCheck = Callable[[], bool]

MANIFEST = "voxdesk-model.json"
TOS_FILE = "tos_agreed.txt"  # the file Coqui's ModelManager checks before it would ask on stdin
IMPORTED_PREFIX = "imported/"
HF_ENDPOINT = "https://huggingface.co"

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
_XTTS_LANGUAGES = ("en", "es", "fr", "de", "it", "pt", "pl", "tr", "ru", "nl", "cs", "ar", "zh", "ja", "hu", "ko", "hi")


@dataclass(frozen=True)
class Curated:
    title: str
    languages: tuple[str, ...]
    size_mb: int | None  # approximate download size
    multi_speaker: bool
    description: str


# The models offered first, one default per need. Sizes are approximate download sizes.
CURATED: dict[str, Curated] = {
    "tts_models/en/ljspeech/vits": Curated(
        N_("SpeechModels", "English, fast (VITS, LJSpeech)"), ("en",), 146, False,
        N_("SpeechModels", "A clear female English voice that is quick enough for the CPU."),
    ),
    "tts_models/en/vctk/vits": Curated(
        N_("SpeechModels", "English, many voices (VITS, VCTK)"), ("en",), 148, True,
        N_("SpeechModels", "109 English voices with British and other accents; pick one in the voice list."),
    ),
    "tts_models/zh-CN/baker/tacotron2-DDC-GST": Curated(
        N_("SpeechModels", "Chinese (Tacotron 2, Baker)"), ("zh",), None, False,
        N_("SpeechModels", "A female Mandarin voice. English words in the text are read by an English voice on "
                           "this computer; without one, they are skipped."),
    ),
    "tts_models/multilingual/multi-dataset/xtts_v2": Curated(
        N_("SpeechModels", "XTTS v2, 17 languages"), _XTTS_LANGUAGES, 1900, True,
        N_("SpeechModels", "Natural voices in 17 languages, including Chinese and English, with built-in speakers. "
                           "Large and slow on the CPU; free for non-commercial use only."),
    ),
    "piper/en_US-joe-medium": Curated(
        N_("SpeechModels", "English, natural and fast (Piper, Joe)"), ("en",), 63, False,
        N_("SpeechModels", "A clear male American English voice, made for the CPU. Fine-tuned from a voice recorded "
                           "for non-commercial research."),
    ),
    "piper/zh_CN-huayan-medium": Curated(
        N_("SpeechModels", "Chinese, natural and fast (Piper, Huayan)"), ("zh",), 63, False,
        N_("SpeechModels", "A female Mandarin voice, made for the CPU. English words in the text are read by an "
                           "English voice on this computer; without one, they are skipped."),
    ),
}

# The voices the list shows first; every other one is under "More voices…".
RECOMMENDED = (
    "piper/en_US-joe-medium",
    "piper/zh_CN-huayan-medium",
    "tts_models/en/vctk/vits",
    "tts_models/multilingual/multi-dataset/xtts_v2",
)

# The default model for each language the window offers; the first entry is used for anything else.
DEFAULT_FOR_LANGUAGE: dict[str, str] = {
    "en": "tts_models/en/ljspeech/vits",
    "zh": "tts_models/zh-CN/baker/tacotron2-DDC-GST",
}
MULTILINGUAL_DEFAULT = "tts_models/multilingual/multi-dataset/xtts_v2"
# A voice download that cannot reach its server: the way in without internet is the Synthesize tab's own.
NO_NETWORK_FOR_VOICES = N_(
    "SpeechModels",
    "VoxDesk could not reach the download server. Check the internet connection, or choose another download "
    "source in Settings → Downloads. Without internet, copy the voice model's folder to this computer and use "
    "“Import model folder…” next to the model list on the Synthesize tab, or ask your IT department for the "
    "shared model folder.",
)

# Catalog entries the Synthesize tab cannot use: they need a reference recording (cloning),
# or load in a way of their own.
_NOT_FOR_SYNTHESIS = {"bark", "tortoise-v2", "your_tts", "xtts_v1.1"}


@dataclass(frozen=True)
class LicenceTerms:
    licence: str
    url: str | None
    statements: tuple[str, ...]  # what the user confirms, shown as they are

    @property
    def text(self) -> str:
        lines = [N_("SpeechModels", "To use this model you must confirm:")] + [f"• {s}" for s in self.statements]
        if self.url:
            lines.append(N_("SpeechModels", "The full terms: {url}").format(url=self.url))
        return "\n".join(lines)


# Coqui's own wording for the CPML (ModelManager.ask_tos), shown in a dialog instead of on stdin.
CPML_TERMS = LicenceTerms(
    "CPML",
    "https://tts-hub.github.io/cpml",
    (
        N_("SpeechModels", "I have purchased a commercial license from Coqui: licensing@coqui.ai"),
        N_("SpeechModels", "Otherwise, I agree to the terms of the non-commercial CPML: "
                           "https://tts-hub.github.io/cpml"),
    ),
)

LICENCE_URLS = {
    "apache 2.0": "https://www.apache.org/licenses/LICENSE-2.0",
    "mpl": "https://www.mozilla.org/en-US/MPL/2.0/",
    "mit": "https://opensource.org/licenses/MIT",
    "bsd-3-clause": "https://opensource.org/licenses/BSD-3-Clause",
    "cc by-nc-nd 4.0": "https://creativecommons.org/licenses/by-nc-nd/4.0/",
    "cc-by-sa 4.0": "https://creativecommons.org/licenses/by-sa/4.0/",
    "cc-by-4.0": "https://creativecommons.org/licenses/by/4.0/",
    "cpml": CPML_TERMS.url,
}


@dataclass(frozen=True)
class TtsModel:
    name: str  # Coqui's name ("tts_models/en/vctk/vits") or "imported/<folder name>"
    title: str
    languages: tuple[str, ...]  # codes such as "en", "zh"
    licence: str
    size_mb: int | None = None
    multi_speaker: bool = False
    licence_required: bool = False  # terms must be accepted before the download
    description: str = ""
    imported: bool = False
    downloaded: bool = False
    vocoder: str | None = None  # a separate vocoder model Coqui pairs with this one
    # The mirror its download (or its vocoder's) came from when VoxDesk could not check it (model_origin).
    unverified_source: str | None = None
    source: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def licence_url(self) -> str | None:
        return LICENCE_URLS.get(self.licence.strip().lower())

    @property
    def folder_name(self) -> str:
        return folder_name(self.name)

    def speaks(self, language: str) -> bool:
        return language in self.languages


@dataclass(frozen=True)
class FolderCheck:
    """What an "Import model folder…" found in a Coqui model folder."""

    folder: Path
    config: dict[str, Any]
    model_file: Path | None  # None for models that load from the folder (XTTS)
    kind: str  # Coqui's model type from config.json, e.g. "vits", "xtts", "tacotron2"
    languages: tuple[str, ...]
    multi_speaker: bool


def folder_name(name: str) -> str:
    """Coqui's folder naming: "tts_models/en/vctk/vits" -> "tts_models--en--vctk--vits"."""
    return name.replace("/", "--")


def coqui_catalog_file() -> Path:
    """Coqui's model list inside the installed coqui-tts package, found without importing it."""
    spec = importlib.util.find_spec("TTS")
    if spec is None or not spec.submodule_search_locations:
        raise ModelError(
            N_("SpeechModels", "The speech synthesis part of VoxDesk is not installed. Run the installer again (make "
                               "setup)."),
            detail="coqui-tts (import name TTS) not found",
        )
    return Path(next(iter(spec.submodule_search_locations))) / ".models.json"


def store_root() -> Path:
    """Where VoxDesk keeps its voice models: the "tts" folder of its data folder."""
    from desktop.core.common.paths import data_dir

    return data_dir() / "tts"


def default_voice(language: str | None, catalog: list[TtsModel], scores: dict[str, float] | None = None) -> str:
    """The Synthesize tab's default voice for a language: the best measured among those on this
    computer or recommended (desktop.core.speech.voice_scores), else the curated default."""
    from desktop.core.speech.voice_scores import best_voice, read_scores

    code = language or "en"
    chosen = best_voice(code, catalog, RECOMMENDED, read_scores() if scores is None else scores)
    return chosen or default_model(code)


def default_voice_title(language: str, store: "TtsModelStore | None" = None) -> str:
    """The title of the voice the model list chooses by default for language, for a sentence that
    suggests one (the curated default when the store's catalog cannot be read)."""
    catalog: list[TtsModel] = []
    if store is not None:
        try:
            catalog = store.catalog()
        except ModelError:
            catalog = []
    name = default_voice(language, catalog)
    if name in CURATED:
        return CURATED[name].title
    return next((model.title for model in catalog if model.name == name), name)


def default_model(language: str | None) -> str:
    """The curated default model for a language code such as "en" or "zh"."""
    return DEFAULT_FOR_LANGUAGE.get(language or "", DEFAULT_FOR_LANGUAGE["en"])


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
        self._catalog_file = catalog_file
        self._piper_catalog_file = piper_catalog_file
        self._sources = sources or ModelSources(downloads=DownloadSources.fixed(hf_endpoint.rstrip("/")))
        self._timeout = timeout
        self._catalog: dict[str, TtsModel] | None = None

    # -- folders ------------------------------------------------------------------------------

    @property
    def models_root(self) -> Path:
        return self.root / "models"

    @property
    def staging_root(self) -> Path:
        return self.root / "staging"

    @property
    def sources(self) -> ModelSources:
        """Where models come from now: the shared folders and the download source."""
        return self._sources() if isinstance(self._sources, LiveSources) else self._sources

    def folder(self, name: str) -> Path:
        """Where the model's files are: this store's folder, else a shared folder holding the model,
        else the folder a download will fill."""
        own = self._own_folder(name)
        if (own / MANIFEST).is_file():
            return own
        return self._shared_folder(name) or own

    def _own_folder(self, name: str) -> Path:
        return self.models_root / folder_name(name)

    def _shared_folder(self, name: str) -> Path | None:
        return shared_model_folder(name, self.sources.shared_dirs)

    def is_downloaded(self, name: str) -> bool:
        return (self._own_folder(name) / MANIFEST).is_file() or self._shared_folder(name) is not None

    # -- the catalog --------------------------------------------------------------------------

    def _coqui_models(self) -> dict[str, TtsModel]:
        if self._catalog is None:
            path = self._catalog_file or coqui_catalog_file()
            try:
                data = json.loads(Path(path).read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise ModelError(
                    N_("SpeechModels", "The list of voice models could not be read. Run the installer again (make "
                                       "setup)."),
                    detail=f"{path}: {exc}",
                ) from exc
            self._catalog = _parse_catalog(data)
            self._catalog.update(_piper_models(piper_voices.official_voices(self._piper_catalog_file)))
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
            manifest = _read_manifest(folder)
            if manifest and manifest.get("imported"):
                models.append(_model_from_manifest(manifest, downloaded=True))
        return models

    def get(self, name: str) -> TtsModel:
        """The catalog entry (or imported model) called name; ModelError when there is none."""
        coqui = self._coqui_models()
        if name in coqui:
            model = coqui[name]
            return replace(model, downloaded=self.is_downloaded(name), unverified_source=self._unverified_source(model))
        manifest = _read_manifest(self.folder(name))
        if manifest is not None:
            return _model_from_manifest(manifest, downloaded=True)
        raise ModelError(
            N_("SpeechModels", "There is no voice model called “{name}”. Choose one from the model list, or import "
                               "its folder with “Import model folder…”.").format(name=name),
        )

    def _unverified_source(self, model: TtsModel) -> str | None:
        """Where this store's download of the model, or of its vocoder, came from unchecked; else None."""
        for name in filter(None, (model.name, model.vocoder)):
            source = unverified_source(_read_manifest(self._own_folder(name)))
            if source:
                return source
        return None

    def manifest(self, name: str) -> dict[str, Any]:
        """What VoxDesk recorded about a model on disk (its files, kind, vocoder)."""
        folder = self.folder(name)
        manifest = _read_manifest(folder)
        if manifest is None and folder != self._own_folder(name):
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
            return _piper_manifest(model, folder, inspect_piper(folder))
        if name.startswith("vocoder_models/"):
            manifest = _manifest_for(model, folder, None)
            manifest["model_file"] = find_model_file(folder).name
            return manifest
        return _manifest_for(model, folder, inspect_folder(folder))

    # -- licences -----------------------------------------------------------------------------

    @property
    def _licence_file(self) -> Path:
        return self.root / "licences.json"

    def licence_terms(self, name: str) -> LicenceTerms | None:
        """The terms the user must accept before downloading this model, or None when there are none."""
        model = self.get(name)
        if not model.licence_required:
            return None
        if model.licence.strip().lower() == "cpml":
            return CPML_TERMS
        agree = N_("SpeechModels", "I agree to the terms of the {licence} licence.").format(licence=model.licence)
        return LicenceTerms(model.licence, model.licence_url, (agree,))

    def licence_accepted(self, name: str) -> bool:
        if self.licence_terms(name) is None:
            return True
        return name in self._licence_records()

    def accept_licence(self, name: str) -> None:
        """Record that the user accepted the model's licence in the window (never asked on stdin)."""
        terms = self.licence_terms(name)
        if terms is None:
            return
        records = self._licence_records()
        records[name] = {
            "licence": terms.licence,
            "statements": list(terms.statements),
            "accepted": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        }
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            atomic_write_text(self._licence_file, json.dumps(records, indent=2, ensure_ascii=False), overwrite=True)
        except (OSError, ExportError) as exc:
            raise _folder_error(exc, self.root) from exc
        if _read_manifest(self._own_folder(name)) is not None:  # never into a shared folder
            _write_tos_file(self._own_folder(name), self.root)

    def _licence_records(self) -> dict[str, Any]:
        try:
            data = json.loads(self._licence_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    # -- downloads ----------------------------------------------------------------------------

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
        staging = self.staging_root / model.folder_name
        files = staging / "files"
        try:
            files.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise _folder_error(exc, self.root) from exc
        if is_piper_name(model.name):
            self._download_piper(model, staging, files, progress, cancelled)
            return
        source = model.source
        urls = source.get("github_rls_url")
        # The addresses in Coqui's own list have no checksums to check (verified None); the hub's do.
        origin = origin_fields(urls if isinstance(urls, str) else str((urls or [""])[0]), verified=None)
        if isinstance(urls, str):
            archive = download_file(urls, staging / "download.zip", progress=progress, cancelled=cancelled,
                                    timeout=self._timeout, label=model.title)
            try:
                _extract_zip(archive, files, model.title)
                archive.unlink()
            except OSError as exc:  # a full disk while unpacking
                raise _folder_error(exc, self.root) from exc
        elif isinstance(urls, list):
            for url in urls:
                target = files / urllib.parse.unquote(url.rsplit("/", 1)[-1])
                download_file(url, target, progress=progress, cancelled=cancelled, timeout=self._timeout,
                              label=model.title)
        elif "repo_id" in source:
            origin = self._download_from_hub(model, files, progress, cancelled)
        else:
            raise ModelError(
                N_("SpeechModels", "VoxDesk does not know where to download “{title}”. Import its folder "
                                   "instead.").format(title=model.title),
                detail=f"no download source for {model.name}",
            )
        if cancelled is not None and cancelled():
            raise Cancelled()
        try:
            fix_config_paths(files, self._own_folder(model.name))
        except (OSError, ExportError) as exc:
            raise _folder_error(exc, self.root) from exc
        _check_download(files, self._own_folder(model.name), staging)
        if model.name.startswith("vocoder_models/"):
            manifest = _manifest_for(model, files, None)
            manifest["model_file"] = find_model_file(files).name
        else:
            manifest = _manifest_for(model, files, inspect_folder(files))
        manifest.update(origin)
        self._publish(files, model.name, manifest)
        if model.licence_required:
            _write_tos_file(self._own_folder(model.name), self.root)
        shutil.rmtree(staging, ignore_errors=True)

    def _download_piper(self, model: TtsModel, staging: Path, files: Path, progress, cancelled) -> None:
        """A Piper voice's files from Hugging Face (or the chosen mirror), checked against the official list."""
        voice: PiperCatalogVoice = model.source["piper"]
        piper_voices.download_voice(voice, files, self.sources.downloads.hf_endpoint(), title=model.title,
                                    timeout=self._timeout, progress=progress, cancelled=cancelled)
        if cancelled is not None and cancelled():
            raise Cancelled()
        try:
            check_model(files, "piper")
            check = inspect_piper(files)
        except ModelError:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        self._publish(files, model.name, _piper_manifest(model, files, check))
        shutil.rmtree(staging, ignore_errors=True)

    def _download_from_hub(self, model: TtsModel, files: Path, progress, cancelled) -> dict[str, Any]:
        """Download a model's files from the Hugging Face host chosen; return where they came from.

        Only the publisher's own host vouches for the checksums its listing names: VoxDesk pins none for
        voice models, so from a mirror the model is marked unverified."""
        repo = model.source["repo_id"]
        endpoint = self.sources.downloads.hf_endpoint()
        listing_url = f"{endpoint}/api/models/{repo}?blobs=true"
        listing = fetch_json(listing_url, timeout=self._timeout)
        wanted = []
        siblings = listing.get("siblings", []) if isinstance(listing, dict) else None
        for sibling in siblings if isinstance(siblings, list) else [None]:
            if not isinstance(sibling, dict):
                raise _listing_not_understood(listing_url, sibling)
            path = sibling.get("rfilename", "")
            if not listed_path_is_safe(path):
                raise bad_listing_error(listing_url, path)
            if _hub_file_wanted(path, model.source.get("allow"), model.source.get("ignore")):
                lfs = sibling.get("lfs") or {}
                size = sibling.get("size") or (lfs.get("size") if isinstance(lfs, dict) else None)
                sha = lfs.get("sha256") if isinstance(lfs, dict) else None
                if (size is not None and not (isinstance(size, int) and size >= 0)) or \
                        (sha is not None and not (isinstance(sha, str) and re.fullmatch(r"[0-9a-f]{64}", sha))):
                    raise _listing_not_understood(listing_url, sibling)
                wanted.append((path, size, sha))
        if not wanted:
            raise ModelError(
                N_("SpeechModels", "The download server has no files for “{title}”; please try again later.").format(
                    title=model.title),
                detail=f"{repo}: empty listing",
            )
        total = sum(size or 0 for _, size, _ in wanted) or None
        done_before = 0
        for path, size, sha in wanted:
            target = files / Path(*Path(path).parts)
            if not _inside(target, files):
                raise ModelError(N_("SpeechModels", "The download of “{title}” was refused: it names a file outside "
                                                    "its folder.").format(title=model.title),
                                 detail=path)
            url = f"{endpoint}/{repo}/resolve/main/{urllib.parse.quote(path)}"

            def step(done: int, _total: int | None, base=done_before) -> None:
                if progress:
                    progress(base + done, total)

            # A file finished by an earlier, interrupted run was checked when it was moved into place.
            if not (target.is_file() and (size is None or target.stat().st_size == size)):
                download_file(url, target, sha256=sha, size=size, progress=step, cancelled=cancelled,
                              timeout=self._timeout, label=model.title)
            done_before += size or target.stat().st_size
        official = self.sources.downloads.official.rstrip("/")
        return origin_fields(endpoint, verified=endpoint.rstrip("/") == official)

    # -- imports ------------------------------------------------------------------------------

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
        source = voice_inside(Path(path).expanduser())
        if is_piper_voice(source):
            return self._import_piper(source, name, progress, cancelled)
        check = inspect_folder(source)
        title = (name or source.resolve().name).strip() or "Imported model"
        model_name = IMPORTED_PREFIX + _safe_name(title)
        if self.is_downloaded(model_name):
            raise ModelError(
                N_("SpeechModels", "A voice model called “{title}” is already imported. Give this one another "
                                   "name.").format(title=title),
            )
        staging = self.staging_root / folder_name(model_name)
        shutil.rmtree(staging, ignore_errors=True)
        files = staging / "files"
        # Whatever happens, no copy of the model stays behind in staging/ (a model can be gigabytes).
        try:
            try:
                copy_tree(source, files, progress=progress, cancelled=cancelled, error=ModelError)
                fix_config_paths(files, self._own_folder(model_name))
                check_model(files, "coqui", named_as=self._own_folder(model_name))
                model = TtsModel(
                    name=model_name,
                    title=title,
                    languages=check.languages,
                    licence=LICENCE_NOT_STATED,
                    multi_speaker=check.multi_speaker,
                    imported=True,
                )
                manifest = _manifest_for(model, files, inspect_folder(files))
            except (OSError, ExportError) as exc:
                raise _folder_error(exc, self.root) from exc
            self._publish(files, model_name, manifest)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        return self.get(model_name)

    def _import_piper(self, source: Path, name: str | None, progress, cancelled) -> TtsModel:
        """Copy a Piper voice (its .onnx and .onnx.json, and its model card) into the store."""
        check = inspect_piper(source)
        title = (name or check.model_file.stem).strip() or "Imported voice"
        model_name = IMPORTED_PREFIX + _safe_name(title)
        if self.is_downloaded(model_name):
            raise ModelError(
                N_("SpeechModels", "A voice model called “{title}” is already imported. Give this one another "
                                   "name.").format(title=title),
            )
        staging = self.staging_root / folder_name(model_name)
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
                manifest = _piper_manifest(model, files, copied)
            except (OSError, ExportError) as exc:
                raise _folder_error(exc, self.root) from exc
            self._publish(files, model_name, manifest)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        return self.get(model_name)

    def remove(self, name: str) -> None:
        """Delete a downloaded or imported model's folder."""
        folder = self._own_folder(name)
        if folder.is_dir():
            # Drop the manifest first: a folder interrupted half-way through deletion is not a model.
            (folder / MANIFEST).unlink(missing_ok=True)
            shutil.rmtree(folder, ignore_errors=True)

    def _publish(self, files: Path, name: str, manifest: dict[str, Any]) -> None:
        """Write the manifest last, then move the finished folder into place with one rename."""
        try:
            atomic_write_text(files / MANIFEST, json.dumps(manifest, indent=2, ensure_ascii=False), overwrite=True)
            self.models_root.mkdir(parents=True, exist_ok=True)
            final = self._own_folder(name)
            if final.exists():
                shutil.rmtree(final)
            os.replace(files, final)
            fsync_dir(self.models_root)
        except (OSError, ExportError) as exc:  # atomic_write_text reports in file-export words
            raise _folder_error(exc, self.root) from exc


class LicenceNotAccepted(ModelError):
    """The model's licence has to be accepted in the window before it can be downloaded."""


# --- checking a model folder -------------------------------------------------------------------


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
        languages = list(config.get("languages") or _XTTS_LANGUAGES)
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


# --- the catalog file --------------------------------------------------------------------------


def _parse_catalog(data: dict) -> dict[str, TtsModel]:
    models: dict[str, TtsModel] = {}
    for model_type in ("tts_models", "vocoder_models"):
        for language, datasets in (data.get(model_type) or {}).items():
            for dataset, entries in datasets.items():
                for model_id, item in entries.items():
                    if model_id in _NOT_FOR_SYNTHESIS:
                        continue
                    name = f"{model_type}/{language}/{dataset}/{model_id}"
                    curated = CURATED.get(name)
                    models[name] = TtsModel(
                        name=name,
                        title=curated.title if curated else f"{language} · {dataset} · {model_id}",
                        languages=curated.languages if curated else (normalise_language(language),),
                        licence=licence_shown(item.get("license")),
                        size_mb=curated.size_mb if curated else None,
                        multi_speaker=curated.multi_speaker if curated else dataset == "vctk",
                        licence_required=bool(item.get("tos_required")),
                        description=curated.description if curated else str(item.get("description") or ""),
                        vocoder=item.get("default_vocoder") or None,
                        source=dict(item),
                    )
    return models


def _listing_not_understood(url: str, entry: object) -> ModelError:
    return ModelError(
        N_("Models", "The download server sent an answer VoxDesk does not understand; please try again later."),
        detail=f"{url}: {entry!r}"[:500],
    )


def _hub_file_wanted(path: str, allow: list[str] | None, ignore: list[str] | None) -> bool:
    """The allow/ignore patterns of Coqui's list, matched as huggingface_hub matches them."""
    if allow and not any(fnmatch.fnmatch(path, pattern) for pattern in allow):
        return False
    if ignore and any(fnmatch.fnmatch(path, pattern) for pattern in ignore):
        return False
    return not path.startswith(".git")


# --- manifests ---------------------------------------------------------------------------------


def _piper_models(voices: tuple[PiperCatalogVoice, ...]) -> dict[str, TtsModel]:
    """The official Piper voices as catalog entries named "piper/<key>"."""
    models = {}
    for voice in voices:
        name = PIPER_PREFIX + voice.key
        curated = CURATED.get(name)
        licence, terms = piper_voices.dataset_terms(voice.name)
        region = voice.language.split("_")[-1]
        models[name] = TtsModel(
            name=name,
            title=curated.title if curated else f"Piper · {voice.name} · {region} · {voice.quality}",
            languages=(piper_voices.language_code(voice.language),),
            licence=licence,
            size_mb=round(voice.size_bytes / 1e6),
            multi_speaker=voice.speakers > 1,
            description=curated.description if curated else terms,
            source={"piper": voice},
        )
    return models


def _piper_manifest(model: TtsModel, files: Path, check: Any) -> dict[str, Any]:
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


def _manifest_for(model: TtsModel, files: Path, check: FolderCheck | None) -> dict[str, Any]:
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


def _read_manifest(folder: Path) -> dict[str, Any] | None:
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and "name" in data else None


# What the model list says of a licence nobody named: in the interface language, though a manifest
# stores it in English.
LICENCE_NOT_STATED = N_("SpeechModels", "not stated (imported)")
LICENCE_UNKNOWN = N_("SpeechModels", "unknown")


def licence_shown(value: Any) -> str:
    """A model's licence as stored or listed; the words for a missing one as a translatable Message."""
    value = str(value or "")
    if not value or value == str(LICENCE_UNKNOWN):
        return LICENCE_UNKNOWN
    if value == str(LICENCE_NOT_STATED):
        return LICENCE_NOT_STATED
    return value


def _model_from_manifest(manifest: dict[str, Any], *, downloaded: bool) -> TtsModel:
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


# --- files -------------------------------------------------------------------------------------


def _write_tos_file(folder: Path, root: Path) -> None:
    try:
        (folder / TOS_FILE).write_text("I have read, understood and agreed to the Terms and Conditions.",
                                       encoding="utf-8")
    except OSError as exc:
        raise _folder_error(exc, root) from exc


def _extract_zip(archive: Path, target: Path, title: str) -> None:
    """Unpack a Coqui release zip into target, files at the top level as Coqui's own download does."""
    try:
        with zipfile.ZipFile(archive) as zipped:
            members = [m for m in zipped.infolist() if not m.is_dir() and Path(m.filename).name
                       and not Path(m.filename).name.startswith(".")]
            # Flattened, two files of one name in different folders would overwrite each other.
            seen: dict[str, str] = {}
            for member in members:
                name = Path(member.filename).name
                if name in seen:
                    archive.unlink(missing_ok=True)
                    raise ModelError(
                        N_("SpeechModels", "The download of “{title}” holds two files called {file} in different "
                                           "folders, so VoxDesk cannot tell which one the model needs. Import the "
                                           "model's folder instead.").format(title=title, file=name),
                        detail=f"{seen[name]} and {member.filename}",
                    )
                seen[name] = member.filename
            for member in members:
                with zipped.open(member) as src, open(target / Path(member.filename).name, "wb") as dst:
                    shutil.copyfileobj(src, dst, 1024 * 1024)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError) as exc:
        archive.unlink(missing_ok=True)
        raise ModelError(
            N_("SpeechModels", "The download of “{title}” was damaged on the way, so VoxDesk deleted it; please try "
                               "again.").format(title=title),
            detail=f"{archive}: {exc!r}",
        ) from exc


def _check_download(files: Path, final: Path, staging: Path) -> None:
    """check_model for downloaded files; a refused download is deleted, never resumed."""
    try:
        check_model(files, "coqui", named_as=final)
    except ModelError:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        return False
    return True


def _safe_name(title: str) -> str:
    """A folder-safe version of a model title (letters, digits, Chinese characters, - and _)."""
    cleaned = "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in title).strip("-.")
    return cleaned[:80] or "model"


def _folder_error(exc: OSError | ExportError, root: Path) -> ModelError:
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
