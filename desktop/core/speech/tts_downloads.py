"""Downloading a voice model into the store: Coqui's release zips and file lists, the Hugging Face
hub, and the official Piper voices, from the download source chosen in Settings. No Qt here.

The files are gathered in the model's staging folder and put in place by StoreFolders.publish once
they are complete and checked. An interrupted download keeps its ``.part`` files in ``staging/`` and
continues from there next time; a download the checks refuse is deleted, never resumed.
"""
from __future__ import annotations

import fnmatch
import re
import shutil
import urllib.parse
import zipfile
from pathlib import Path
from typing import Any

from desktop.core.common.download import (
    CancelCheck,
    ProgressCallback,
    bad_listing_error,
    download_file,
    fetch_json,
    listed_path_is_safe,
)
from desktop.core.common.download_sources import DownloadSources
from desktop.core.common.errors import Cancelled, ExportError, ModelError
from desktop.core.common.i18n import N_
from desktop.core.common.model_files import check_model
from desktop.core.common.model_origin import origin_fields
from desktop.core.speech import piper_voices
from desktop.core.speech.coqui_folders import find_model_file, fix_config_paths, inspect_folder
from desktop.core.speech.piper_voices import PiperCatalogVoice, inspect_piper, is_piper_name
from desktop.core.speech.tts_catalog import TtsModel
from desktop.core.speech.tts_model_folders import StoreFolders, manifest_for, piper_manifest, write_tos_file

# A voice download that cannot reach its server: the way in without internet is the Synthesize tab's own.
NO_NETWORK_FOR_VOICES = N_(
    "SpeechModels",
    "VoxDesk could not reach the download server. Check the internet connection, or choose another download "
    "source in Settings → Downloads. Without internet, copy the voice model's folder to this computer and use "
    "“Import model folder…” next to the model list on the Synthesize tab, or ask your IT department for the "
    "shared model folder.",
)


def download_model(model: TtsModel, folders: StoreFolders, downloads: DownloadSources, *, timeout: float,
                   progress: ProgressCallback | None = None, cancelled: CancelCheck | None = None) -> None:
    """Download one model's files (not its vocoder) into folders and publish them there.

    Raises ModelError for every failure (NoConnection without a server), Cancelled when cancelled() says so.
    """
    staging = folders.staging(model.name)
    files = staging / "files"
    try:
        files.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise folders.error(exc) from exc
    if is_piper_name(model.name):
        _download_piper(model, folders, downloads, staging, files, timeout=timeout, progress=progress,
                        cancelled=cancelled)
        return
    source = model.source
    urls = source.get("github_rls_url")
    # The addresses in Coqui's own list have no checksums to check (verified None); the hub's do.
    origin = origin_fields(urls if isinstance(urls, str) else str((urls or [""])[0]), verified=None)
    if isinstance(urls, str):
        archive = download_file(urls, staging / "download.zip", progress=progress, cancelled=cancelled,
                                timeout=timeout, label=model.title)
        try:
            _extract_zip(archive, files, model.title)
            archive.unlink()
        except OSError as exc:  # a full disk while unpacking
            raise folders.error(exc) from exc
    elif isinstance(urls, list):
        for url in urls:
            target = files / urllib.parse.unquote(url.rsplit("/", 1)[-1])
            download_file(url, target, progress=progress, cancelled=cancelled, timeout=timeout,
                          label=model.title)
    elif "repo_id" in source:
        origin = _download_from_hub(model, files, downloads, timeout=timeout, progress=progress, cancelled=cancelled)
    else:
        raise ModelError(
            N_("SpeechModels", "VoxDesk does not know where to download “{title}”. Import its folder "
                               "instead.").format(title=model.title),
            detail=f"no download source for {model.name}",
        )
    if cancelled is not None and cancelled():
        raise Cancelled()
    try:
        fix_config_paths(files, folders.own(model.name))
    except (OSError, ExportError) as exc:
        raise folders.error(exc) from exc
    _check_download(files, folders.own(model.name), staging)
    if model.name.startswith("vocoder_models/"):
        manifest = manifest_for(model, files, None)
        manifest["model_file"] = find_model_file(files).name
    else:
        manifest = manifest_for(model, files, inspect_folder(files))
    manifest.update(origin)
    folders.publish(files, model.name, manifest)
    if model.licence_required:
        write_tos_file(folders.own(model.name), folders.root)
    shutil.rmtree(staging, ignore_errors=True)


def _download_piper(model: TtsModel, folders: StoreFolders, downloads: DownloadSources, staging: Path, files: Path, *,
                    timeout: float, progress: ProgressCallback | None, cancelled: CancelCheck | None) -> None:
    """A Piper voice's files from Hugging Face (or the chosen mirror), checked against the official list."""
    voice: PiperCatalogVoice = model.source["piper"]
    piper_voices.download_voice(voice, files, downloads.hf_endpoint(), title=model.title,
                                timeout=timeout, progress=progress, cancelled=cancelled)
    if cancelled is not None and cancelled():
        raise Cancelled()
    try:
        check_model(files, "piper")
        check = inspect_piper(files)
    except ModelError:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    folders.publish(files, model.name, piper_manifest(model, files, check))
    shutil.rmtree(staging, ignore_errors=True)


def _download_from_hub(model: TtsModel, files: Path, downloads: DownloadSources, *, timeout: float,
                       progress: ProgressCallback | None, cancelled: CancelCheck | None) -> dict[str, Any]:
    """Download a model's files from the Hugging Face host chosen; return where they came from.

    Only the publisher's own host vouches for the checksums its listing names: VoxDesk pins none for
    voice models, so from a mirror the model is marked unverified."""
    repo = model.source["repo_id"]
    endpoint = downloads.hf_endpoint()
    listing_url = f"{endpoint}/api/models/{repo}?blobs=true"
    listing = fetch_json(listing_url, timeout=timeout)
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
                          timeout=timeout, label=model.title)
        done_before += size or target.stat().st_size
    official = downloads.official.rstrip("/")
    return origin_fields(endpoint, verified=endpoint.rstrip("/") == official)


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
