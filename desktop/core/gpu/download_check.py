"""The doctor's "Model downloads" check: which download source answers from this computer."""
from __future__ import annotations

from typing import Callable

from desktop.core.common.download_sources import SOURCE_NAMES, DownloadSources, probe_all
from desktop.core.common.i18n import N_, Message
from desktop.core.gpu.checks import Check, Status

Probe = Callable[[DownloadSources], list[tuple[str, str, bool]]]

TITLE = N_("Doctor", "Model downloads")


def check_model_downloads(sources: DownloadSources, shared_folders: int = 0, probe: Probe = probe_all):
    """✓ when the chosen source answers, ⚠ with the source to choose when another one does, or with
    the ways to get models without downloading when none does."""
    rows = probe(sources)
    working = [name for name, _url, ok in rows if ok]
    failing = [name for name, _url, ok in rows if not ok]
    chosen = _chosen_sources(sources, [name for name, _url, _ok in rows])
    shared = N_("Doctor", " Shared model folders in use: {count}.").format(count=shared_folders) if shared_folders \
        else ""
    if not working:
        return Check("model_downloads", TITLE, Status.WARNING,
                     N_("Doctor", "No download source answers from this computer ({failing}).{shared}").format(
                         failing=_names(failing), shared=shared),
                     N_("Doctor", "Use File → Import model…, or ask your IT department for the shared model folder "
                                  "(Settings → Downloads)."))
    if any(name in working for name in chosen):
        finding = N_("Doctor", "Downloads work from {working}.{shared}") if not failing else \
            N_("Doctor", "Downloads work from {working}; {failing} cannot be reached from here.{shared}")
        return Check("model_downloads", TITLE, Status.OK,
                     finding.format(working=_names(working), failing=_names(failing), shared=shared))
    finding = N_("Doctor", "The chosen download source ({chosen}) cannot be reached, but {working} can.{shared}")
    return Check("model_downloads", TITLE, Status.WARNING,
                 finding.format(chosen=_names(chosen), working=_names(working), shared=shared),
                 N_("Doctor", "Choose {source} in Settings → Downloads.").format(source=SOURCE_NAMES[working[0]]))


def _chosen_sources(sources: DownloadSources, probed: list[str]) -> list[str]:
    """The sources the current choice downloads from: Automatic uses either public host."""
    if sources.choice == "auto":
        return [name for name in ("huggingface", "hf-mirror") if name in probed]
    return [sources.choice]


def _names(names: list[str]) -> Message:
    """"Hugging Face, hf-mirror.com" as Messages, so each name is translated."""
    template = ", ".join("{" + f"n{i}" + "}" for i in range(len(names)))
    return Message("Doctor", template, {f"n{i}": SOURCE_NAMES[name] for i, name in enumerate(names)})
