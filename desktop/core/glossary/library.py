"""Where glossaries are kept: the user's own in the data folder, and shared read-only ones that IT fills.

Shared glossaries are found the way shared models are (``core/common/shared_models.py``): the folders
chosen in Settings, then ``VOXDESK_GLOSSARY_DIRS`` (separated by ``:`` on Linux), then the system-wide
``/usr/share/voxdesk/glossaries``. VoxDesk never writes into them. The user's glossaries live in
``<data folder>/glossaries``; a small record there says which transcripts used which glossary.
"""
from __future__ import annotations

import json
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping

from desktop.core.common import safe_files
from desktop.core.common.atomic import atomic_write_text
from desktop.core.common.errors import UserFacingError
from desktop.core.common.i18n import N_
from desktop.core.common.shared_models import shared_model_dirs
from desktop.core.glossary.glossary_file import SUFFIX, GlossaryError, line_term, parse_terms, read_glossary, term_key

ENV_VARIABLE = "VOXDESK_GLOSSARY_DIRS"
SYSTEM_FOLDER = Path("/usr/share/voxdesk/glossaries")
USAGE_FILE = "usage.json"
MAX_USES_KEPT = 50  # transcripts remembered per glossary, newest last
_MAX_USAGE_BYTES = 1024 * 1024
_UNSAFE_NAME = re.compile(r"[\x00-\x1f/\\]")


def shared_glossary_dirs(configured: Iterable[str | os.PathLike[str]] = (), *,
                         environ: Mapping[str, str] | None = None,
                         system_folder: Path | None = SYSTEM_FOLDER) -> tuple[Path, ...]:
    """The shared glossary folders in search order, each once; missing ones left out."""
    return shared_model_dirs(configured, environ=environ, system_folder=system_folder, variable=ENV_VARIABLE)


@dataclass(frozen=True)
class GlossaryEntry:
    """A glossary file the window lists, before it is read."""

    name: str
    path: Path
    shared: bool


class GlossaryLibrary:
    def __init__(self, user_dir: Path, shared_dirs: Iterable[Path] = ()) -> None:
        self.user_dir = Path(user_dir)
        self.shared_dirs = tuple(shared_dirs)

    def entries(self) -> list[GlossaryEntry]:
        """The user's glossaries, then the shared ones, each sorted by name. Only regular ``.txt``
        files count: a link, a folder or a pipe named like a glossary is left out here and refused
        with a sentence when it is read."""
        found = [GlossaryEntry(path.stem, path, False) for path in _glossary_files(self.user_dir)]
        for folder in self.shared_dirs:
            found += [GlossaryEntry(path.stem, path, True) for path in _glossary_files(folder)]
        return found

    def read(self, entry: GlossaryEntry):
        return read_glossary(entry.path, shared=entry.shared)

    # -- the user's own glossaries -----------------------------------------------------------

    def save(self, name: str, text: str, *, overwrite: bool = True) -> Path:
        """Write a user glossary from its text, after checking it as a file read back would be."""
        name = _checked_name(name)
        parse_terms(text, name + SUFFIX)
        self.user_dir.mkdir(parents=True, exist_ok=True)
        return atomic_write_text(self.user_dir / (name + SUFFIX), text, overwrite=overwrite)

    def add_term(self, name: str, term: str, misheard: Iterable[str] = ()) -> Path:
        """Append a term (and its misheard spellings) to a user glossary, creating it if need be."""
        path = self.user_dir / (_checked_name(name) + SUFFIX)
        if not any(ch.isalpha() for ch in term):
            raise UserFacingError(N_("Glossary", "“{term}” has no letters, so it cannot be a term. Write the "
                                                 "name or word as it should appear.").format(term=term.strip()))
        text = read_glossary(path).path.read_text(encoding="utf-8") if path.exists() else ""
        spellings = ", ".join(s.strip() for s in misheard if s.strip())
        line = " ".join(term.split()) + (f"\t{spellings}" if spellings else "")
        return self.save(name, (text if not text or text.endswith("\n") else text + "\n") + line + "\n")

    def remove_term(self, name: str, term: str) -> Path:
        """Take a term's lines out of a user glossary (those writing it in other letter case too, which are
        the same term); comments and other lines stay as they are."""
        path = self.user_dir / (_checked_name(name) + SUFFIX)
        read_glossary(path)
        kept = [line for line in path.read_text(encoding="utf-8").splitlines(keepends=True)
                if term_key(line_term(line)[0]) != term_key(term)]
        return self.save(name, "".join(kept))

    def import_file(self, source: str | os.PathLike[str]) -> Path:
        """Copy a glossary file into the user's folder, once it reads as a glossary; an existing one of
        the same name is not replaced (ExportExists)."""
        glossary = read_glossary(source)
        return self.save(glossary.path.stem, glossary.path.read_text(encoding="utf-8"), overwrite=False)

    def remove(self, entry: GlossaryEntry) -> None:
        if entry.shared or entry.path.parent != self.user_dir:
            raise UserFacingError(N_("Glossary", "“{name}” is a shared glossary; only your IT department can "
                                                 "remove it.").format(name=entry.name))
        entry.path.unlink(missing_ok=True)

    # -- which transcripts used which glossary -----------------------------------------------

    def uses(self) -> dict[str, list[str]]:
        """For each glossary name, the recordings transcribed with it (oldest first)."""
        path = self.user_dir / USAGE_FILE
        try:
            data = json.loads(safe_files.read_limited(path, _MAX_USAGE_BYTES, "", error=GlossaryError))
        except (OSError, ValueError, UserFacingError):
            return {}  # a missing or damaged record only loses the list, never a glossary
        if not isinstance(data, dict):
            return {}
        return {str(name): [str(s) for s in sources if isinstance(s, str)][-MAX_USES_KEPT:]
                for name, sources in data.items() if isinstance(sources, list)}

    def record_use(self, names: Iterable[str], source: str) -> None:
        uses = self.uses()
        for name in names:
            sources = [s for s in uses.get(name, []) if s != source] + [source]
            uses[name] = sources[-MAX_USES_KEPT:]
        self.user_dir.mkdir(parents=True, exist_ok=True)
        atomic_write_text(self.user_dir / USAGE_FILE, json.dumps(uses, ensure_ascii=False, indent=1), overwrite=True)


def user_glossary_dir() -> Path:
    from desktop.core.common.paths import data_dir

    return data_dir() / "glossaries"


def _glossary_files(folder: Path) -> list[Path]:
    try:
        with os.scandir(folder) as entries:
            return sorted(Path(entry.path) for entry in entries
                          if entry.name.endswith(SUFFIX) and not entry.name.startswith(".")
                          and stat.S_ISREG(entry.stat(follow_symlinks=False).st_mode))
    except OSError:
        return []


def _checked_name(name: str) -> str:
    name = name.strip()
    if name.endswith(SUFFIX):
        name = name[: -len(SUFFIX)]
    if not name or name.startswith(".") or _UNSAFE_NAME.search(name) or len(name) > 100:
        raise UserFacingError(N_("Glossary", "“{name}” cannot be a glossary's name. Use letters, digits and "
                                             "spaces, without “/”.").format(name=name))
    return name
