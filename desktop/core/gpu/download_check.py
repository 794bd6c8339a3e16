"""The doctor's "Model downloads" check: which download source answers from this computer."""
from __future__ import annotations

from typing import Callable

from desktop.core.common.download_sources import SOURCE_NAMES, DownloadSources, probe_all
from desktop.core.common.i18n import N_, Message
from desktop.core.gpu.checks import Check, Status

# (name, URL, reachable, why not): see probe_all; a probe may leave out "why not".
Probe = Callable[[DownloadSources], list[tuple]]

TITLE = N_("Doctor", "Model downloads")


def check_model_downloads(sources: DownloadSources, shared_folders: int = 0, probe: Probe = probe_all):
    """✓ when the chosen source answers, ⚠ with the source to choose when another one does, or with
    the ways to get models without downloading when none does."""
    rows = [(name, ok, why[0] if why else None) for name, _url, ok, *why in probe(sources)]
    working = [name for name, ok, _why in rows if ok]
    failing = [name for name, ok, _why in rows if not ok]
    # Sources that answer, but wrongly (http:// and https:// mixed up, redirects in a loop), are named
    # with the reason, not as unreachable.
    unreachable = [name for name, ok, why in rows if not ok and why is None]
    reasons = _reasons([(name, why) for name, ok, why in rows if not ok and why is not None])
    chosen = _chosen_sources(sources, [name for name, _ok, _why in rows])
    shared = N_("Doctor", " Shared model folders in use: {count}.").format(count=shared_folders) if shared_folders \
        else ""
    shared = Message("Doctor", "{reasons}{shared}", {"reasons": reasons, "shared": shared})  # the reasons first
    if not working:
        return Check("model_downloads", TITLE, Status.WARNING,
                     N_("Doctor", "No download source answers from this computer ({failing}).{shared}").format(
                         failing=_names(failing), shared=shared),
                     N_("Doctor", "Use File → Import model…, or ask your IT department for the shared model folder "
                                  "(Settings → Downloads)."))
    if any(name in working for name in chosen):
        finding = N_("Doctor", "Downloads work from {working}.{shared}") if not unreachable else \
            N_("Doctor", "Downloads work from {working}; {failing} cannot be reached from here.{shared}")
        return Check("model_downloads", TITLE, Status.OK,
                     finding.format(working=_names(working), failing=_names(unreachable), shared=shared))
    finding = N_("Doctor", "The chosen download source ({chosen}) cannot be reached, but {working} can.{shared}") \
        if not any(name in failing and name not in unreachable for name in chosen) else \
        N_("Doctor", "The chosen download source ({chosen}) does not work, but {working} does.{shared}")
    return Check("model_downloads", TITLE, Status.WARNING,
                 finding.format(chosen=_names(chosen), working=_names(working), shared=shared),
                 N_("Doctor", "Choose {source} in Settings → Downloads.").format(source=SOURCE_NAMES[working[0]]))


def _reasons(named: list[tuple[str, Message]]) -> Message | str:
    """" Company mirror: The server at … answers without encryption: …" for each source that answered
    wrongly; empty when none did."""
    if not named:
        return ""
    template = "".join(" {" + f"n{i}" + "}: {" + f"r{i}" + "}" for i in range(len(named)))
    values: dict[str, Message] = {}
    for i, (name, why) in enumerate(named):
        values[f"n{i}"], values[f"r{i}"] = SOURCE_NAMES[name], why
    return Message("Doctor", template, values)


def _chosen_sources(sources: DownloadSources, probed: list[str]) -> list[str]:
    """The sources the current choice downloads from: Automatic uses either public host."""
    if sources.choice == "auto":
        return [name for name in ("huggingface", "hf-mirror") if name in probed]
    return [sources.choice]


def _names(names: list[str]) -> Message:
    """"Hugging Face, hf-mirror.com" as Messages, so each name is translated."""
    template = ", ".join("{" + f"n{i}" + "}" for i in range(len(names)))
    return Message("Doctor", template, {f"n{i}": SOURCE_NAMES[name] for i, name in enumerate(names)})
