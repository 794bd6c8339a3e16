"""Where the voice is inside the folder a person picks for *Import model folder…*, and what its model
card says of its licence: both read as outside data, bounded, never following a link out of the folder."""
from __future__ import annotations

import itertools
import os
import re
from pathlib import Path

from desktop.core.common.errors import ModelError
from desktop.core.common.i18n import N_
from desktop.core.common.safe_files import read_limited
from desktop.core.common.safe_text import clean_text

# How far "Import model folder…" looks inside the folder chosen for a voice that is not at its top
# (an unzipped package has the voice a few folders down): folder levels, and entries looked at in all.
VOICE_SEARCH_LEVELS = 4
VOICE_SEARCH_ENTRIES = 2000
MAX_MODEL_CARD_BYTES = 64 * 1024  # a Piper MODEL_CARD is well under 1 kB
_CARD_LICENCE = re.compile(r"^\s*[*-]?\s*licen[cs]e\s*:\s*(.+?)\s*$", re.IGNORECASE | re.MULTILINE)


def voice_inside(folder: Path) -> Path:
    """The folder to import from folder: itself when it holds a model's files (even an incomplete
    set) or is not a folder, else the one folder a few levels down that holds a voice.

    The search is bounded (VOICE_SEARCH_LEVELS levels, VOICE_SEARCH_ENTRIES entries) and never follows
    a link, so it stays inside the folder chosen; hidden folders are skipped. ModelError when no voice
    is there, or several are."""
    if not folder.is_dir() or _has_model_files(folder):
        return folder  # the checks that follow say what is missing from it
    found: list[Path] = []
    level, looked = [folder], 0
    for _depth in range(VOICE_SEARCH_LEVELS):
        below: list[Path] = []
        for parent in level:
            try:
                with os.scandir(parent) as entries:
                    for entry in entries:
                        looked += 1
                        if looked > VOICE_SEARCH_ENTRIES:
                            break
                        if entry.name.startswith(".") or not entry.is_dir(follow_symlinks=False):
                            continue
                        below.append(Path(entry.path))
            except OSError:
                continue  # an unreadable folder holds no voice VoxDesk could copy
        found += [p for p in below if _holds_voice(p)]
        if found or looked > VOICE_SEARCH_ENTRIES:
            break
        level = below
    if len(found) == 1:
        return found[0]
    if not found:
        raise ModelError(
            N_("SpeechModels", "No Piper or Coqui voice was found in “{name}”. Choose the folder that holds the "
                               "voice's .onnx and .onnx.json files (Piper), or its model file and config.json "
                               "(Coqui).").format(name=folder.name),
            detail=f"{folder}: {looked} entries, {VOICE_SEARCH_LEVELS} levels looked at",
        )
    raise ModelError(
        N_("SpeechModels", "The folder “{name}” holds several voices ({folders}). Choose the folder of the one to "
                           "import.").format(name=folder.name,
                                             folders=", ".join(str(p.relative_to(folder)) for p in found[:4])),
    )


def _has_model_files(folder: Path) -> bool:
    """Whether folder itself holds part of a model (config, weights, a Piper voice's files)."""
    try:
        with os.scandir(folder) as entries:
            return any(e.name == "config.json" or e.name.endswith((".onnx", ".onnx.json", ".pth", ".pth.tar"))
                       for e in itertools.islice(entries, VOICE_SEARCH_ENTRIES))
    except OSError:
        return True  # inspect_folder says it cannot be read


def _holds_voice(folder: Path) -> bool:
    """A Piper voice (an .onnx with its .onnx.json) or a Coqui config.json, as files of their own."""
    try:
        with os.scandir(folder) as entries:
            names = {e.name for e in itertools.islice(entries, VOICE_SEARCH_ENTRIES)
                     if e.is_file(follow_symlinks=False)}
    except OSError:
        return False
    return "config.json" in names or any(n.endswith(".onnx") and n + ".json" in names for n in names)


def model_card_licence(card: Path) -> str | None:
    """The licence a Piper MODEL_CARD names ("* License: CC0"), as outside text made safe; None when
    the card says none, is too long, or cannot be read."""
    try:
        text = read_limited(card, MAX_MODEL_CARD_BYTES, "", error=ModelError).decode("utf-8", errors="replace")
    except (OSError, ModelError):
        return None
    match = _CARD_LICENCE.search(text)
    licence = clean_text(match.group(1)).strip() if match else ""
    return licence[:80] or None
