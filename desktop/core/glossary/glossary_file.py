"""A glossary file: the office's names, products, places and acronyms, for Whisper to hear and the
transcript to keep.

The format is UTF-8 text, one term per line, optionally followed by a tab and the comma-separated
spellings the term is misheard as (``VoxDesk<TAB>box desk, vox desk``); ``#`` starts a comment.

A glossary comes from outside, so it is read like any other file a user hands VoxDesk: regular
files only (no folder, pipe, device or link), at most MAX_BYTES, every line checked. A bad file
gets a sentence naming the file and, where there is one, the line; the transcription goes on
without that glossary (``load_glossaries``).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from desktop.core.common import safe_files
from desktop.core.common.errors import UserFacingError
from desktop.core.common.i18n import Message, N_
from desktop.core.common.safe_text import clean_text

MAX_BYTES = 1024 * 1024  # far more than an office's words; a bigger file is not a glossary
MAX_TERMS = 10_000
MAX_TERM_CHARS = 100  # the longest names of departments fit; a paragraph does not
MAX_SPELLINGS = 20  # misheard spellings listed for one term
SUFFIX = ".txt"


class GlossaryError(UserFacingError):
    """A glossary file could not be used; the message names the file (and the line)."""


@dataclass(frozen=True)
class Term:
    text: str
    misheard: tuple[str, ...] = ()  # spellings Whisper writes for it, as the user listed them


@dataclass(frozen=True)
class Glossary:
    name: str  # the file's name without ".txt", as the window lists it
    path: Path
    terms: tuple[Term, ...]
    shared: bool = False  # from a shared, read-only folder


def read_glossary(path: str | os.PathLike[str], *, shared: bool = False) -> Glossary:
    """The glossary in the file; GlossaryError with a sentence naming the file (and line) otherwise."""
    path = Path(path)
    too_big = N_("Glossary", "The glossary “{name}” is larger than {limit} MB, so it was not used. A glossary "
                             "lists one term per line; split a larger list into several files.").format(
        name=path.name, limit=MAX_BYTES // (1024 * 1024))
    try:
        safe_files.require_regular_file(path, follow_links=False, error=GlossaryError)
        data = safe_files.read_limited(path, MAX_BYTES, too_big, error=GlossaryError)
    except FileNotFoundError as exc:
        raise GlossaryError(N_("Glossary", "The glossary “{name}” was not found, so it was not used. Check that "
                                           "the file is still there.").format(name=path.name),
                            detail=str(exc)) from exc
    except OSError as exc:
        raise GlossaryError(N_("Glossary", "The glossary “{name}” could not be read, so it was not used: {reason}")
                            .format(name=path.name, reason=exc.strerror or exc), detail=str(exc)) from exc
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise GlossaryError(N_("Glossary", "The glossary “{name}” is not UTF-8 text (line {line}), so it was not "
                                           "used. Save it again as UTF-8 in your text editor.").format(
            name=path.name, line=line), detail=str(exc)) from exc
    return Glossary(name=path.stem, path=path, terms=parse_terms(text, path.name), shared=shared)


def parse_terms(text: str, name: str) -> tuple[Term, ...]:
    """The terms of a glossary's text, each once, in the file's order; ``name`` is for the sentences."""
    spellings: dict[str, list[str]] = {}
    for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        line = raw.split("#", 1)[0]
        term, _, misheard = line.partition("\t")
        term = " ".join(term.split())
        if not term:
            continue
        listed = [" ".join(s.split()) for s in misheard.split(",") if s.strip()]
        for piece in (term, *listed):
            if len(piece) > MAX_TERM_CHARS:
                raise _bad_line(name, number, N_("Glossary", "a term or spelling is longer than {limit} characters")
                                .format(limit=MAX_TERM_CHARS))
            if clean_text(piece) != piece:
                raise _bad_line(name, number, N_("Glossary", "it contains control characters"))
        if len(listed) > MAX_SPELLINGS:
            raise _bad_line(name, number, N_("Glossary", "more than {limit} misheard spellings")
                            .format(limit=MAX_SPELLINGS))
        if term not in spellings and len(spellings) >= MAX_TERMS:
            raise _bad_line(name, number, N_("Glossary", "more than {limit} terms").format(limit=MAX_TERMS))
        known = spellings.setdefault(term, [])
        known.extend(s for s in listed if s not in known and s != term)
    return tuple(Term(term, tuple(listed)) for term, listed in spellings.items())


def _bad_line(name: str, number: int, reason: Message) -> GlossaryError:
    return GlossaryError(N_("Glossary", "The glossary “{name}”, line {line}: {reason}. It was not used; correct "
                                        "that line and try again.").format(name=name, line=number, reason=reason))


def load_glossaries(paths: Iterable[str | os.PathLike[str]]) -> tuple[list[Glossary], list[Message]]:
    """The glossaries that could be read, and a sentence for each one that could not."""
    glossaries: list[Glossary] = []
    problems: list[Message] = []
    for path in paths:
        try:
            glossaries.append(read_glossary(path))
        except GlossaryError as error:
            problems.append(error.message)
    return glossaries, problems


def all_terms(glossaries: Iterable[Glossary]) -> list[Term]:
    """The terms of several glossaries, each once (the spellings of a term listed twice joined)."""
    joined: dict[str, list[str]] = {}
    for glossary in glossaries:
        for term in glossary.terms:
            known = joined.setdefault(term.text, [])
            known.extend(s for s in term.misheard if s not in known)
    return [Term(text, tuple(misheard)) for text, misheard in joined.items()]
