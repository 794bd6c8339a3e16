"""Shared, read-only model folders that an IT department fills once for everyone.

They are searched before anything is downloaded, for Whisper and voice models alike, in this order:
the folders chosen in Settings, then ``VOXDESK_MODEL_DIRS`` (folders separated by the platform's path
separator, ``:`` on Linux), then the system-wide ``/usr/share/voxdesk/models`` where it exists.
VoxDesk never writes into them.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Mapping

from desktop.core.common.download_sources import DownloadSources

ENV_VARIABLE = "VOXDESK_MODEL_DIRS"
SYSTEM_FOLDER = Path("/usr/share/voxdesk/models")


def shared_model_dirs(
    configured: Iterable[str | os.PathLike[str]] = (),
    *,
    environ: Mapping[str, str] | None = None,
    system_folder: Path | None = SYSTEM_FOLDER,
    variable: str = ENV_VARIABLE,
) -> tuple[Path, ...]:
    """The shared folders in search order, each once; folders that do not exist are left out.
    ``variable`` and ``system_folder`` name other shared things kept the same way (glossaries)."""
    environ = os.environ if environ is None else environ
    candidates: list[Path] = [Path(p).expanduser() for p in configured if str(p).strip()]
    candidates += [Path(p).expanduser() for p in environ.get(variable, "").split(os.pathsep) if p.strip()]
    if system_folder is not None:
        candidates.append(system_folder)
    found: list[Path] = []
    for folder in candidates:
        if folder.is_absolute() and folder.is_dir() and folder not in found:
            found.append(folder)
    return tuple(found)


def split_folder_list(text: str) -> list[str]:
    """The folders of a Settings value: one per line."""
    return [line.strip() for line in text.splitlines() if line.strip()]


@dataclass(frozen=True)
class ModelSources:
    """Where models come from: shared folders first, then downloads from the chosen source."""

    shared_dirs: tuple[Path, ...] = ()
    downloads: DownloadSources = field(default_factory=DownloadSources)

    @classmethod
    def from_choices(cls, *, source: str = "auto", custom_url: str = "", shared_folders: Iterable[str] = (),
                     environ: Mapping[str, str] | None = None) -> "ModelSources":
        """The sources for the user's choices in Settings, plus the environment and the system folder.

        ``HF_ENDPOINT`` in the environment, the variable Hugging Face's own tools read, stands for a
        company mirror while the choice is Automatic.
        """
        from desktop.core.common.download_sources import memory_file_in, normalized_custom_url
        from desktop.core.common.paths import data_dir

        environ = os.environ if environ is None else environ
        endpoint = normalized_custom_url(environ.get("HF_ENDPOINT", ""))
        if source == "auto" and endpoint:
            source, custom_url = "custom", endpoint
        downloads = DownloadSources(choice=source, custom_url=custom_url, memory_file=memory_file_in(data_dir()))
        return cls(shared_model_dirs(shared_folders, environ=environ), downloads)


class LiveSources:
    """The sources now in force, shared by the Whisper and voice model stores of the window, and
    replaced when the user changes them in Settings (an attribute swap, safe while a job reads it)."""

    def __init__(self, sources: ModelSources) -> None:
        self.current = sources

    def __call__(self) -> ModelSources:
        return self.current
