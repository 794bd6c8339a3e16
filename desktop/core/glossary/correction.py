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

The terms are indexed so that a segment costs the same with ten terms or ten thousand: a term's coarse
sounds (the confusable differences taken out, which every syllable of a match shares) and a Latin term's
letters are kept in trees walked only as far as what was heard goes (``_Tree``), and the listed spellings
are looked up by their first two characters. ``Corrector.examined`` counts the comparisons made.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Collection, Iterable, Sequence

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
        self._misheard_han = _Spellings(whole_words=False)  # a Chinese spelling → term, wherever it stands
        self._misheard_latin = _Spellings(whole_words=True)  # a Latin one (any case) → term, as whole words
        # the coarse sounds of a term's syllables → the term and its syllables
        self._chinese = _Tree()
        self._latin: dict[str, str] = {}  # normalized spelling → term
        self._latin_letters = _Tree()  # normalized spelling → the terms, for near spellings
        self.examined = 0  # comparisons made so far: looked-up spellings, tree steps, sounds and edit rows
        for term in terms:
            for spelling in term.misheard:
                (self._misheard_han if _has_han(spelling) else self._misheard_latin).add(spelling, term.text)
            if _all_han(term.text) and len(term.text) >= 2:
                syllables = tuple(_split(s) for s in _term_syllables(term.text))
                self._chinese.add(tuple(_coarse(syllable) for syllable in syllables), (term.text, syllables))
            elif not _has_han(term.text):
                key = _normalized(term.text)
                if len(key) >= 3:
                    self._latin.setdefault(key, term.text)
                    self._latin_letters.add(key, term.text)

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
        for spellings in (self._misheard_han, self._misheard_latin):
            for start, end, term in spellings.find(text):
                matches.append((start, end, term, 0.0))
            self.examined += spellings.examined
            spellings.examined = 0
        return matches

    def _chinese_matches(self, segment: Segment) -> list[tuple[int, int, str, float]]:
        if not self._chinese.edges:
            return []
        text = segment.text
        readings = [_char_readings(ch) if _is_han(ch) else () for ch in text]
        sounds = [{_coarse(reading) for reading in here} for here in readings]
        matches = []
        for start in range(len(text) - 1):
            # every syllable of a match sounds like the term's but for confusable differences, which the
            # coarse sounds leave out: only the terms whose coarse sounds were heard from here are compared
            candidates = []
            for _, found in self._chinese.walk(sounds, start):
                candidates += found
            self.examined += self._chinese.examined
            self._chinese.examined = 0
            for term, syllables in candidates:
                end = start + len(syllables)
                self.examined += 1
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
                self.examined += 1
                term, distance = self._latin.get(joined), 0
                if term is None and len(joined) >= 6 and _confidence(segment, start, end) < UNSURE:
                    term, distance = self._near_spelling(joined)
                if term is not None:
                    matches.append((start, end, term, float(distance)))
        return matches

    def _near_spelling(self, heard: str) -> tuple[str | None, int]:
        """The term spelled within a small edit distance of ``heard`` (the closest, then the first in
        alphabetical order), beginning with the same letter; the Levenshtein rows are computed along the
        tree of spellings, so spellings that differ early are left after a few letters."""
        allowed = 1 if len(heard) < 10 else 2
        best: tuple[int, str] | None = None
        edge = self._latin_letters.edges.get(heard[0])
        stack = [(edge[0], edge[1], list(range(len(heard) + 1)))] if edge else []
        while stack:
            label, node, row = stack.pop()
            for letter in label:
                self.examined += 1
                previous, row = row, [row[0] + 1]
                for j, wanted in enumerate(heard, start=1):
                    row.append(min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (letter != wanted)))
                if min(row) > (allowed if best is None else best[0]):
                    break  # no spelling that goes on from here comes within reach, or as close as the best
            else:
                if node.values and row[-1] <= allowed and (best is None or (row[-1], min(node.values)) < best):
                    best = (row[-1], min(node.values))
                stack.extend((child_label, child, row) for child_label, child in node.edges.values())
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


# -- indexes ---------------------------------------------------------------------------------------


class _Tree:
    """Keys (strings, or tuples of sounds) in a radix tree: each branch holds the run of elements its keys
    share, so the tree has at most two nodes per key however many keys begin alike."""

    __slots__ = ("edges", "values", "examined")

    def __init__(self) -> None:
        self.edges: dict = {}  # a key's next element → [the run of elements, the node after them]
        self.values: list | None = None  # the values of the keys that end here
        self.examined = 0  # elements compared by walk, for the caller to count

    def add(self, key: Sequence, value) -> None:
        node, i = self, 0
        while i < len(key):
            edge = node.edges.get(key[i])
            if edge is None:
                leaf = _Tree()
                node.edges[key[i]] = [key[i:], leaf]
                node, i = leaf, len(key)
                break
            label, child = edge
            shared = 1
            while shared < len(label) and i + shared < len(key) and label[shared] == key[i + shared]:
                shared += 1
            if shared < len(label):  # the key leaves the run part way: split it there
                middle = _Tree()
                middle.edges[label[shared]] = [label[shared:], child]
                edge[0], edge[1] = label[:shared], middle
                child = middle
            node, i = child, i + shared
        if node.values is None:
            node.values = []
        node.values.append(value)

    def walk(self, heard: Sequence[Collection], start: int):
        """(end, values) for each key whose elements were heard from ``start`` on, one each of ``heard[i]``."""
        states = [(self, None, 0)]  # a node, or the run of elements being followed towards it and how far
        for position in range(start, len(heard)):
            here, moved = heard[position], []
            for node, label, offset in states:
                self.examined += 1
                if label is None:
                    for element in here:
                        edge = node.edges.get(element)
                        if edge is not None:
                            moved.append((edge[1], None, 0) if len(edge[0]) == 1 else (edge[1], edge[0], 1))
                elif label[offset] in here:
                    moved.append((node, None, 0) if offset + 1 == len(label) else (node, label, offset + 1))
            states = moved
            if not states:
                return
            for node, label, _ in states:
                if label is None and node.values:
                    yield position + 1, node.values


class _Spellings:
    """Listed misheard spellings → their terms, found in a text by looking up, where each character
    stands, only spellings of the lengths that begin with the characters there (at most a hundred)."""

    def __init__(self, whole_words: bool) -> None:
        self._whole_words = whole_words  # Latin: any case, not inside a longer word; Chinese: as written
        self._terms: dict[str, str] = {}  # spelling (lower case for Latin) → term
        self._lengths: dict[str, list[int]] = {}  # a spelling's first two characters (or its one) → lengths
        self.examined = 0

    def add(self, spelling: str, term: str) -> None:
        key = _folded(spelling) if self._whole_words else spelling
        if key in self._terms:
            return
        self._terms[key] = term
        lengths = self._lengths.setdefault(key[:2], [])
        if len(key) not in lengths:
            lengths.append(len(key))
            lengths.sort(reverse=True)

    def find(self, text: str) -> list[tuple[int, int, str]]:
        if not self._terms:
            return []
        folded = _folded(text) if self._whole_words else text
        found = []
        for start in range(len(text)):
            if self._whole_words and start and _is_ascii_alnum(text[start - 1]):
                continue
            for head in {folded[start:start + 1], folded[start:start + 2]}:
                for length in self._lengths.get(head, ()):
                    end = start + length
                    if end > len(text) or (self._whole_words and end < len(text) and _is_ascii_alnum(text[end])):
                        continue
                    self.examined += 1
                    term = self._terms.get(folded[start:end])
                    if term is not None:
                        found.append((start, end, term))
        return found


def _folded(text: str) -> str:
    """The text in lower case, each character still in its place (one that lowers to two stays as it is)."""
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(ch.lower() if len(ch.lower()) == 1 else ch for ch in text)


def _is_ascii_alnum(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


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
