"""A glossary file: the office's names, products, places and acronyms, for Whisper to hear and the
transcript to keep.

The format is UTF-8 text, one term per line, optionally followed by a tab and the comma-separated
spellings the term is misheard as (``VoxDesk<TAB>box desk, vox desk``). ``#`` starts a comment at
the start of a line or after a space or tab, so ``C#``, ``F#`` and ``C++`` are terms like any other
(``C#  # the language`` is the term ``C#``). A term needs a letter (Chinese characters count): a line
whose term is only digits, punctuation or symbols is left out with a sentence naming it. Latin terms
are matched without regard to case, so ``VoxDesk`` and ``voxdesk`` are one term, written as first
listed, with a sentence saying so.

A glossary comes from outside, so it is read like any other file a user hands VoxDesk: regular
files only (no folder, pipe, device or link), at most MAX_BYTES, every line checked. A bad file
gets a sentence naming the file and, where there is one, the line; the transcription goes on
without that glossary (``load_glossaries``).
"""
from __future__ import annotations

import os
import re
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
_COMMENT = re.compile(r"(?:^|(?<=\s))#")  # "C#" is a term; "# note" and "VoxDesk  # note" are comments


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
    notes: tuple[Message, ...] = ()  # lines left out or merged, one sentence each; the rest is used


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
    terms, notes = parse_glossary(text, path.name)
    return Glossary(name=path.stem, path=path, terms=terms, shared=shared, notes=notes)


def term_key(text: str) -> str:
    """What makes two terms the same term: their text, without regard to case (VoxDesk, voxdesk)."""
    return text.casefold()


def line_term(line: str) -> tuple[str, str]:
    """A line's term (spaces joined) and the spellings after its tab, comments taken out."""
    comment = _COMMENT.search(line)
    term, _, misheard = (line[:comment.start()] if comment else line).partition("\t")
    return " ".join(term.split()), misheard


def parse_terms(text: str, name: str) -> tuple[Term, ...]:
    """The terms of a glossary's text, each once, in the file's order; ``name`` is for the sentences."""
    return parse_glossary(text, name)[0]


def parse_glossary(text: str, name: str) -> tuple[tuple[Term, ...], tuple[Message, ...]]:
    """The terms of a glossary's text, each once, in the file's order, and a sentence for each line
    left out or merged into an earlier one; GlossaryError for a line that makes the file unusable."""
    spellings: dict[str, list[str]] = {}  # term's key → its spellings
    written: dict[str, tuple[str, int]] = {}  # term's key → the term as first written, and its line
    notes: list[Message] = []
    for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        term, misheard = line_term(raw)
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
        if not any(ch.isalpha() for ch in term):
            # only punctuation, symbols or digits: nothing Whisper could be told or a transcript corrected to
            notes.append(N_("Glossary", "The glossary “{name}”, line {line}: “{term}” has no letters, so it "
                                        "was left out; the other lines are used.").format(
                name=name, line=number, term=term))
            continue
        key = term_key(term)
        if key not in spellings and len(spellings) >= MAX_TERMS:
            raise _bad_line(name, number, N_("Glossary", "more than {limit} terms").format(limit=MAX_TERMS))
        first, first_line = written.setdefault(key, (term, number))
        if first != term:
            notes.append(N_("Glossary", "The glossary “{name}”, line {line}: “{term}” is the term “{first}” "
                                        "of line {first_line} in other letter case, so it is written "
                                        "“{first}”.")
                         .format(name=name, line=number, term=term, first=first, first_line=first_line))
        known = spellings.setdefault(key, [])
        for spelling in listed:
            if not any(ch.isalnum() for ch in spelling):
                # a spelling of commas or dashes alone would replace every one of them in the transcript
                notes.append(N_("Glossary", "The glossary “{name}”, line {line}: the misheard spelling "
                                            "“{spelling}” has no letters or digits, so it was left out.").format(
                    name=name, line=number, spelling=spelling))
            elif spelling != first and spelling not in known:
                known.append(spelling)
    return tuple(Term(written[key][0], tuple(listed)) for key, listed in spellings.items()), tuple(notes)


def _bad_line(name: str, number: int, reason: Message) -> GlossaryError:
    return GlossaryError(N_("Glossary", "The glossary “{name}”, line {line}: {reason}. It was not used; correct "
                                        "that line and try again.").format(name=name, line=number, reason=reason))


def load_glossaries(paths: Iterable[str | os.PathLike[str]]) -> tuple[list[Glossary], list[Message]]:
    """The glossaries that could be read, and a sentence for each one that could not, for each line
    one left out or merged, and for each term that another glossary writes in other letter case."""
    glossaries: list[Glossary] = []
    problems: list[Message] = []
    first_written: dict[str, tuple[str, str]] = {}  # term's key → the term as first written, and its glossary
    for path in paths:
        try:
            glossary = read_glossary(path)
        except GlossaryError as error:
            problems.append(error.message)
            continue
        glossaries.append(glossary)
        problems.extend(glossary.notes)
        for term in glossary.terms:
            first, where = first_written.setdefault(term_key(term.text), (term.text, glossary.name))
            if first != term.text:
                problems.append(N_("Glossary", "“{term}” in the glossary “{name}” is the term “{first}” of "
                                               "the glossary “{other}” in other letter case, so it is "
                                               "written “{first}”.").format(term=term.text, name=glossary.name,
                                                                    first=first, other=where))
    return glossaries, problems


def all_terms(glossaries: Iterable[Glossary]) -> list[Term]:
    """The terms of several glossaries, each once (the spellings of a term listed twice joined, the term
    written as the first glossary writes it)."""
    joined: dict[str, tuple[str, list[str]]] = {}
    for glossary in glossaries:
        for term in glossary.terms:
            text, known = joined.setdefault(term_key(term.text), (term.text, []))
            known.extend(s for s in term.misheard if s not in known and s != text)
    return [Term(text, tuple(misheard)) for text, misheard in joined.values()]
