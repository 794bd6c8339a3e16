"""The correction pass: after decoding, what was heard as a near-miss of a glossary term becomes the term.

Chinese terms are matched by sound: the pinyin of the characters (pypinyin, every reading of a
character, tones ignored), with the initials and finals that speakers and Whisper commonly confuse
(z/zh, c/ch, s/sh, l/n, in/ing, an/ang, en/eng…) allowed at a cost. Latin terms are matched by
spelling: case and spacing ("vox desk" → "VoxDesk"), and a small edit distance. The spellings a
glossary lists as misheard are replaced wherever they stand.

Correct text must stay as it is, so a candidate that only sounds like a term is replaced when the
term is the better fit: when the candidate is not a word of its own (太以 for 太乙) and does not cut
through a word around it, or, where it is a word (尝试 for 城市), when Whisper itself was unsure of
it (the words' probability below UNSURE) and the term is a far commoner word (jieba's dictionary,
MUCH_COMMONER). Every replacement keeps what Whisper wrote
(``Segment.corrections``), so it can be undone (``undo``).
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Iterable

from desktop.core.glossary.glossary_file import Term
from desktop.core.transcription.transcript import Correction, Segment, Transcript, respell

UNSURE = 0.5  # Whisper's word probability below which a real word may be a mishearing
# and how many times commoner than that word a term must be to replace it: between two ordinary words
# (事实 and 实施) Whisper's own choice stands, only a far likelier one (城市 for 尝试) is a mishearing
MUCH_COMMONER = 10
_COST_PER_SYLLABLE = 0.4  # a term of n syllables is matched at a total cost of at most 0.4·n
_MAX_SYLLABLE_COST = 0.75  # and no syllable of it may sound wholly different (的 de for 期 qi)
_LATIN_WORD = re.compile(r"[A-Za-z0-9]+(?:['’\-.][A-Za-z0-9]+)*")
_MAX_LATIN_WINDOW = 4  # "vox desk" → "VoxDesk": a term may be heard as up to this many words

# Initials and finals commonly confused, with their cost (anything else costs 1 per part).
_INITIAL_COST = {frozenset(pair): 0.5 for pair in (("z", "zh"), ("c", "ch"), ("s", "sh"), ("l", "n"), ("f", "h"),
                                                    ("r", "l"), ("j", "q"), ("z", "c"), ("zh", "ch"), ("d", "t"),
                                                    ("b", "p"), ("g", "k"))}  # and the aspirated pairs
_FINAL_COST = {frozenset(pair): 0.5 for pair in (("in", "ing"), ("an", "ang"), ("en", "eng"), ("ian", "iang"),
                                                  ("uan", "uang"))}
_FINAL_COST.update({frozenset(pair): 0.75 for pair in (("eng", "ang"), ("en", "an"), ("ing", "in"), ("ong", "eng"))})


@dataclass
class CorrectionReport:
    replacements: int = 0
    terms_heard: set[str] = field(default_factory=set)  # terms found, as written or corrected


class Corrector:
    """The glossary's terms prepared once, for the segments of one or many recordings."""

    def __init__(self, terms: Iterable[Term]) -> None:
        self._misheard: dict[str, str] = {}  # spelling (lower case for Latin) → term
        # the coarse sound of a term's first two syllables → the terms
        self._chinese: dict[tuple, list[tuple[str, tuple[tuple[str, str], ...]]]] = {}
        self._latin: dict[str, str] = {}  # normalized spelling → term
        self._latin_by_letter: dict[str, list[tuple[str, str]]] = {}
        for term in terms:
            for spelling in term.misheard:
                self._misheard.setdefault(spelling if _has_han(spelling) else spelling.lower(), term.text)
            if _all_han(term.text) and len(term.text) >= 2:
                syllables = tuple(_split(s) for s in _term_syllables(term.text))
                self._chinese.setdefault((_coarse(syllables[0]), _coarse(syllables[1])), []).append(
                    (term.text, syllables))
            elif not _has_han(term.text):
                key = _normalized(term.text)
                if len(key) >= 3:
                    self._latin.setdefault(key, term.text)
                    self._latin_by_letter.setdefault(key[0], []).append((key, term.text))
        self._misheard_han = sorted((s for s in self._misheard if _has_han(s)), key=len, reverse=True)
        self._misheard_latin = (re.compile(r"(?<![A-Za-z0-9])(" + "|".join(
            re.escape(s) for s in sorted((s for s in self._misheard if not _has_han(s)), key=len, reverse=True))
            + r")(?![A-Za-z0-9])", re.IGNORECASE) if any(not _has_han(s) for s in self._misheard) else None)

    def correct_transcript(self, transcript: Transcript) -> CorrectionReport:
        report = CorrectionReport()
        for segment in transcript.segments:
            self.correct_segment(segment, report)
        return report

    def correct_segment(self, segment: Segment, report: CorrectionReport | None = None) -> int:
        """Replace the segment's near-misses in place; returns how many were replaced."""
        text = segment.text
        found = self._misheard_matches(text) + self._chinese_matches(segment) + self._latin_matches(segment)
        chosen: list[tuple[int, int, str]] = []
        # From the left; at one place the longer span, then the closer match (a listed spelling is
        # closest), then the term's own order, so the result never depends on the order found.
        for start, end, term, _ in sorted(found, key=lambda m: (m[0], -(m[1] - m[0]), m[3], m[2])):
            if chosen and start < chosen[-1][1]:
                continue
            chosen.append((start, end, term))
        shift = 0
        for start, end, term in chosen:
            original = text[start:end]
            if original == term:
                if report is not None:
                    report.terms_heard.add(term)
                continue
            _replace(segment, start + shift, end + shift, term, original)
            shift += len(term) - len(original)
            if report is not None:
                report.replacements += 1
                report.terms_heard.add(term)
        return len(segment.corrections)

    # -- finding candidates --------------------------------------------------------------------

    def _misheard_matches(self, text: str) -> list[tuple[int, int, str, float]]:
        matches = []
        for spelling in self._misheard_han:
            start = text.find(spelling)
            while start >= 0:
                matches.append((start, start + len(spelling), self._misheard[spelling], 0.0))
                start = text.find(spelling, start + len(spelling))
        if self._misheard_latin is not None:
            for match in self._misheard_latin.finditer(text):
                matches.append((match.start(), match.end(), self._misheard[match.group(0).lower()], 0.0))
        return matches

    def _chinese_matches(self, segment: Segment) -> list[tuple[int, int, str, float]]:
        if not self._chinese:
            return []
        text = segment.text
        readings = [_char_readings(ch) if _is_han(ch) else () for ch in text]
        matches = []
        for start in range(len(text) - 1):
            candidates = {term for first in readings[start] for second in readings[start + 1]
                          for term in self._chinese.get((_coarse(first), _coarse(second)), ())}
            for term, syllables in candidates:
                end = start + len(syllables)
                if end > len(text) or not all(readings[i] for i in range(start, end)):
                    continue
                cost = 0.0
                for i, wanted in enumerate(syllables):
                    syllable_cost = min(_syllable_cost(heard, wanted) for heard in readings[start + i])
                    cost += syllable_cost
                    if syllable_cost > _MAX_SYLLABLE_COST or cost > _COST_PER_SYLLABLE * len(syllables):
                        break
                else:
                    candidate = text[start:end]
                    if candidate == term or self._term_fits_better(segment, start, end, term):
                        matches.append((start, end, term, cost))
        return matches

    def _latin_matches(self, segment: Segment) -> list[tuple[int, int, str, float]]:
        if not self._latin:
            return []
        text = segment.text
        tokens = list(_LATIN_WORD.finditer(text))
        matches = []
        for first in range(len(tokens)):
            joined = ""
            for last in range(first, min(first + _MAX_LATIN_WINDOW, len(tokens))):
                if last > first and not text[tokens[last - 1].end():tokens[last].start()].isspace():
                    break  # only words separated by spaces join into one name
                joined += _normalized(tokens[last].group(0))
                start, end = tokens[first].start(), tokens[last].end()
                term, distance = self._latin.get(joined), 0
                if term is None and len(joined) >= 6 and _confidence(segment, start, end) < UNSURE:
                    term, distance = self._near_spelling(joined)
                if term is not None:
                    matches.append((start, end, term, float(distance)))
        return matches

    def _near_spelling(self, heard: str) -> tuple[str | None, int]:
        allowed = 1 if len(heard) < 10 else 2
        best: tuple[int, str] | None = None
        for key, term in self._latin_by_letter.get(heard[0], ()):
            if abs(len(key) - len(heard)) <= allowed:
                distance = _edit_distance(heard, key, allowed)
                if distance <= allowed and (best is None or (distance, term) < best):
                    best = (distance, term)
        return (best[1], best[0]) if best else (None, 0)

    @staticmethod
    def _term_fits_better(segment: Segment, start: int, end: int, term: str) -> bool:
        text = segment.text
        if _cuts_a_word(text, start, end):
            return False
        candidate = text[start:end]
        if _reads_as_words(candidate):
            # A real word is kept unless Whisper doubted it and the term is a far commoner word
            # (尝试 → 城市, never 出现 → 出线 nor 事实 → 实施).
            return (_confidence(segment, start, end) < UNSURE
                    and _frequency(term) >= MUCH_COMMONER * max(1, _frequency(candidate)))
        return True


def correct(transcript: Transcript, terms: Iterable[Term]) -> CorrectionReport:
    """Run the correction pass over a transcript with the glossaries' terms."""
    return Corrector(terms).correct_transcript(transcript)


# -- editing a segment -----------------------------------------------------------------------------


def _replace(segment: Segment, start: int, end: int, term: str, original: str) -> None:
    respell(segment, start, end, term)
    segment.corrections.append(Correction(start=start, end=start + len(term), original=original, term=term))
    segment.corrections.sort(key=lambda c: c.start)


# -- sound -----------------------------------------------------------------------------------------


def _is_han(ch: str) -> bool:
    return "\u4e00" <= ch <= "\u9fff" or "\u3400" <= ch <= "\u4dbf"


def _has_han(text: str) -> bool:
    return any(_is_han(ch) for ch in text)


def _all_han(text: str) -> bool:
    return bool(text) and all(_is_han(ch) for ch in text)


@functools.lru_cache(maxsize=None)
def _char_readings(ch: str) -> tuple[tuple[str, str], ...]:
    """Every reading of a character as (initial, final), tones left out."""
    from pypinyin import Style, pinyin

    return tuple(dict.fromkeys(_split(s) for s in pinyin(ch, style=Style.NORMAL, heteronym=True)[0]))


def _term_syllables(term: str) -> list[str]:
    """The term read as a phrase, so a character with several readings gets the one it has there."""
    from pypinyin import Style, lazy_pinyin

    return lazy_pinyin(term, style=Style.NORMAL)


@functools.lru_cache(maxsize=None)
def _split(syllable: str) -> tuple[str, str]:
    from pypinyin import Style
    from pypinyin.style import convert

    initial = convert(syllable, Style.INITIALS, strict=False, default="")
    return initial, syllable[len(initial):]


@functools.lru_cache(maxsize=None)
def _coarse(syllable: tuple[str, str]) -> tuple[str, str]:
    """A syllable with the confusable differences taken out, to find candidate terms quickly."""
    initial, final = syllable
    initial = {"zh": "z", "ch": "z", "c": "z", "sh": "s", "n": "l", "r": "l", "h": "f", "q": "j", "t": "d",
               "p": "b", "k": "g"}.get(initial, initial)
    final = final[:-1] if final.endswith("ng") else final
    if final.endswith("n") and len(final) >= 2 and final[-2] in "ae":
        final = final[:-2] + "an"
    if final in ("on", "in"):
        final = "an" if final == "on" else final
    return initial, final


@functools.lru_cache(maxsize=None)
def _syllable_cost(heard: tuple[str, str], wanted: tuple[str, str]) -> float:
    cost = 0.0
    if heard[0] != wanted[0]:
        cost += _INITIAL_COST.get(frozenset((heard[0], wanted[0])), 1.0)
    if heard[1] != wanted[1]:
        cost += _FINAL_COST.get(frozenset((heard[1], wanted[1])), 1.0)
    return cost


# -- is it a word? ---------------------------------------------------------------------------------


@functools.cache
def _lexicon() -> dict[str, int]:
    """Chinese words and how often they occur (jieba's dictionary), loaded once."""
    import jieba

    jieba.setLogLevel(60)
    jieba.initialize()
    return jieba.dt.FREQ


def _is_word(text: str) -> bool:
    return len(text) >= 2 and _lexicon().get(text, 0) > 0


def _frequency(text: str) -> int:
    """How often the text occurs as a word, or as two words (the rarer one's count); 0 if it is neither."""
    lexicon = _lexicon()
    if lexicon.get(text):
        return lexicon[text]
    splits = [min(lexicon.get(text[:i]) or 0, lexicon.get(text[i:]) or 0) for i in range(2, len(text) - 1)]
    return max(splits, default=0)


def _reads_as_words(candidate: str) -> bool:
    """Whether the candidate is a word, or two words, of its own."""
    if _is_word(candidate):
        return True
    return any(_is_word(candidate[:i]) and _is_word(candidate[i:]) for i in range(2, len(candidate) - 1))


def _cuts_a_word(text: str, start: int, end: int) -> bool:
    """Whether replacing text[start:end] would break a word that reaches across its edges (长时|间)."""
    for edge in (start, end):
        if edge in (0, len(text)):
            continue
        for left in range(max(0, edge - 3), edge):
            for right in range(edge + 1, min(len(text), edge + 3) + 1):
                if (left < start or right > end) and _is_word(text[left:right]):
                    return True
    return False


def _confidence(segment: Segment, start: int, end: int) -> float:
    """Whisper's lowest word probability over text[start:end]; 1.0 when the words do not tell."""
    if "".join(w.text for w in segment.words) != segment.text:
        return 1.0
    position, lowest = 0, 1.0
    for word in segment.words:
        word_start, position = position, position + len(word.text)
        if word_start < end and position > start:
            lowest = min(lowest, word.probability)
    return lowest


# -- spelling --------------------------------------------------------------------------------------


def _normalized(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def _edit_distance(a: str, b: str, limit: int) -> int:
    """Levenshtein distance, or limit + 1 as soon as it is known to be larger."""
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i]
        for j, cb in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        if min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1]
