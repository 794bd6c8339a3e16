"""Where the exports of one run go, so that no two of them share a file and none replaces a recording.

Each recording's files are named after it (see subtitles.default_export_path). When two recordings of
one run would write the same file — ``a/talk.flac`` and ``b/talk.wav`` into one output folder — the
first in input order keeps the name and the later ones are numbered: ``talk.srt``, then
``talk (2).srt``, ``talk (3).srt``. No export may take the path of a recording of the run either: a
recording called ``speech.srt`` gets ``speech (2).srt`` for its subtitles. All files of one recording
share one name (``talk (2).srt`` and ``talk (2).txt``), so they stay recognisable as a set.

Files already on disk are not looked at here: whether one may be replaced is the overwrite rule of
the export itself (ask, or --overwrite).
"""
from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from desktop.core.transcription.subtitles import default_export_path


def unique_formats(formats: Iterable[str]) -> list[str]:
    """Each format once, in the order first given (``srt,srt,txt`` → srt, txt)."""
    return list(dict.fromkeys(formats))


def plan_exports(
    sources: Sequence[str | os.PathLike[str]],
    formats: Iterable[str],
    folder: str | os.PathLike[str] | None = None,
) -> list[dict[str, Path]]:
    """For each source, in the same order: {format: path}, formats collapsed as in unique_formats.

    folder: where every export goes; None puts each next to its recording.
    A recording whose own name is free keeps it even when an earlier recording had to be numbered
    (``talk.flac``, ``talk.wav``, ``talk (2).flac`` give ``talk``, ``talk (3)``, ``talk (2)``).
    """
    formats = unique_formats(formats)
    taken = {_key(source) for source in sources}  # no export may replace a recording of the run
    natural = [{fmt: default_export_path(source, fmt, folder) for fmt in formats} for source in sources]
    plan: list[dict[str, Path] | None] = [None] * len(sources)
    for index, paths in enumerate(natural):
        if _free(paths.values(), taken):
            plan[index] = paths
            taken.update(_key(path) for path in paths.values())
    for index, paths in enumerate(natural):
        if plan[index] is None:
            plan[index] = _numbered(paths, taken)
            taken.update(_key(path) for path in plan[index].values())
    return plan  # type: ignore[return-value]  # every entry is filled in by now


def _numbered(paths: dict[str, Path], taken: set[str]) -> dict[str, Path]:
    """The paths with the lowest " (n)", n >= 2, after the name that frees every one of them."""
    number = 2
    while True:
        candidate = {fmt: path.with_name(f"{path.stem} ({number}){path.suffix}") for fmt, path in paths.items()}
        if _free(candidate.values(), taken):
            return candidate
        number += 1


def _free(paths: Iterable[Path], taken: set[str]) -> bool:
    return not any(_key(path) in taken for path in paths)


def _key(path: str | os.PathLike[str]) -> str:
    """Two paths name the same file when they resolve to the same place (links and '..' included)."""
    return os.path.normcase(os.path.realpath(os.fspath(path)))
