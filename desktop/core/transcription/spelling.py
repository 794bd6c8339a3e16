"""English spell checking of a transcript's lines, with Hunspell's dictionaries through Enchant.

Words the user has told VoxDesk about count as spelled right: the glossary's terms and the speakers'
names ("Anna Kowalczyk", "VoxDesk"), and they are offered as suggestions too. Only English is
checked: a Chinese transcript, or a line with Chinese characters in it, has no misspellings.

The dictionary is the system's (the Debian package hunspell-en-us, read through libenchant-2 and the
pyenchant binding). Where either is missing, a checker still works, finds nothing, and says why in
one sentence (``unavailable``), so the editor can show it once and go on. Opening the dictionary
reads a file: make a checker off the GUI thread.
"""
from __future__ import annotations

import difflib
import re
import threading
from dataclasses import dataclass
from typing import Iterable

from desktop.core.common.i18n import N_
from desktop.core.glossary.glossary_file import GlossaryError
from desktop.core.glossary.library import GlossaryLibrary
from desktop.core.transcription import chinese

# The dictionaries asked for, best first: American, then any other English one installed.
_ENGLISH_TAGS = ("en_US", "en_GB", "en_CA", "en_AU", "en")
# A word: letters, with apostrophes inside ("don't", "O’Brien"); hyphenated words are checked part by part.
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
# Pieces of text that are not prose: web addresses, e-mail addresses, file names, words with digits.
_NOT_PROSE = re.compile(r"\S*(?:://|www\.|@|\.[A-Za-z]{2,4}\b)\S*|\S*\d\S*")
_LONGEST_WORD = 60  # longer "words" are not prose (and Hunspell refuses them)
_SUGGESTIONS = 6

NO_DICTIONARY = N_("Spelling", "Spell checking is off: this computer has no English dictionary. "
                               "Ask whoever looks after it to install the package hunspell-en-us.")
NO_ENCHANT = N_("Spelling", "Spell checking is off: this computer lacks the spelling library. "
                            "Ask whoever looks after it to install the package libenchant-2-2.")


@dataclass(frozen=True)
class Misspelling:
    start: int  # offset in the text
    end: int
    word: str


def checks(language: str | None, text: str = "") -> bool:
    """Whether spelling is checked for a transcript in this language (Whisper's code): English, or
    not known and not written in Chinese."""
    code = (language or "").strip().lower()
    if code:
        return code == "en" or code.startswith("en_") or code.startswith("en-")
    return not chinese.looks_chinese(text)


class SpellChecker:
    """One English dictionary and the user's own words. Safe to use from one thread at a time;
    ``known_words`` may be replaced from another (the GUI thread, when the glossary changes)."""

    def __init__(self, known_words: Iterable[str] = (), tags: Iterable[str] = _ENGLISH_TAGS) -> None:
        self._lock = threading.Lock()
        self._known: frozenset[str] = frozenset()
        self._known_shown: tuple[str, ...] = ()
        self.set_known_words(known_words)
        self._dictionary, self.unavailable = _open_dictionary(tuple(tags))

    @property
    def available(self) -> bool:
        return self._dictionary is not None

    @property
    def language(self) -> str | None:
        """The dictionary's tag (en_US), None when there is none."""
        return None if self._dictionary is None else self._dictionary.tag

    def set_known_words(self, words: Iterable[str]) -> None:
        """Glossary terms and speaker names: each word in them counts as spelled right."""
        shown: dict[str, str] = {}
        for term in words:
            for match in _WORD.finditer(str(term)):
                shown.setdefault(_folded(match.group()), match.group())
        self._known = frozenset(shown)
        self._known_shown = tuple(shown.values())

    def is_right(self, word: str) -> bool:
        if _folded(word) in self._known or self._dictionary is None:
            return True
        spelled = word.replace("’", "'")
        with self._lock:
            return bool(self._dictionary.check(spelled) or self._dictionary.check(spelled.lower()))

    def misspellings(self, text: str) -> list[Misspelling]:
        """The words of one line spelled wrong, in order; none for a line with Chinese in it."""
        if self._dictionary is None or chinese.looks_chinese(text):
            return []
        skipped = [match.span() for match in _NOT_PROSE.finditer(text)]
        found = []
        for match in _WORD.finditer(text):
            word = match.group()
            if len(word) > _LONGEST_WORD or _inside(match.span(), skipped) or not _latin(word):
                continue
            if word.isupper() and len(word) > 1:
                continue  # an acronym (JFK, NATO)
            if not self.is_right(word):
                found.append(Misspelling(match.start(), match.end(), word))
        return found

    def suggestions(self, word: str) -> list[str]:
        """Words the user may have meant, the user's own words first, then the dictionary's."""
        own = difflib.get_close_matches(word, self._known_shown, n=_SUGGESTIONS, cutoff=0.75)
        listed: list[str] = []
        if self._dictionary is not None and 0 < len(word) <= _LONGEST_WORD:
            with self._lock:
                listed = self._dictionary.suggest(word.replace("’", "'"))
        result: list[str] = []
        for suggestion in [*own, *listed]:
            if suggestion not in result and suggestion != word:
                result.append(suggestion)
        return result[:_SUGGESTIONS]


def glossary_terms(library: GlossaryLibrary) -> list[str]:
    """Every term of the user's and the shared glossaries, for SpellChecker's known words; a glossary
    that cannot be read is left out (its own window says why). Reads files: not on the GUI thread."""
    terms: list[str] = []
    for entry in library.entries():
        try:
            terms += [term.text for term in library.read(entry).terms]
        except GlossaryError:
            continue
    return terms


def _open_dictionary(tags: tuple[str, ...]):
    """(the first of these dictionaries installed, None) or (None, the sentence saying why not)."""
    try:
        import enchant
    except Exception:  # noqa: BLE001 - pyenchant raises ImportError, or AssertionError for a bad PYENCHANT_LIBRARY_PATH, when libenchant is missing
        return None, NO_ENCHANT
    try:
        broker = enchant.Broker()
        for tag in tags:
            if broker.dict_exists(tag):
                return broker.request_dict(tag), None
    except enchant.errors.Error:
        pass
    return None, NO_DICTIONARY


def _folded(word: str) -> str:
    return word.replace("’", "'").casefold()


def _latin(word: str) -> bool:
    return all(ord(ch) < 0x250 or ch == "’" for ch in word)


def _inside(span: tuple[int, int], skipped: list[tuple[int, int]]) -> bool:
    return any(start <= span[0] and span[1] <= end for start, end in skipped)
