"""Subtitle and transcript files: SRT, WebVTT, plain text and JSON, with line rules for Chinese and English.

A transcript segment becomes one or more cues. A cue holds at most LineLimits.max_lines lines, and a
line at most a given display width, where a Chinese character (or any wide / full-width character)
counts twice. Lines break at spaces in Latin text and between words in Chinese text (jieba's
segmentation; a Chinese word wider than a line breaks between its characters), never inside a Latin
word, and a line never starts with closing punctuation such as "，" or ",".
A segment too long for one cue is split into cues at its word timings, after punctuation where
there is some, and in Chinese between words, as lines are. Files are written atomically (see desktop.core.common.atomic).
"""
from __future__ import annotations

import json
import math
import os
import unicodedata
from dataclasses import dataclass, field, replace
from itertools import chain, islice
from pathlib import Path
from typing import Iterable, Iterator

from desktop.core.common.atomic import atomic_write_text
from desktop.core.common.safe_text import clean_text
from desktop.core.speakers import names as speaker_names
from desktop.core.transcription import chinese as chinese_text
from desktop.core.transcription.transcript import Gap, Segment, Transcript

FORMATS = ("srt", "vtt", "txt", "json")
LAST_SECOND = 99 * 3600 + 59 * 60 + 59.999  # 99:59:59.999, the last time a subtitle timestamp can say

# A line may not start with these; they belong at the end of the line before.
CLOSING_PUNCTUATION = frozenset("，。、）」』】》〉〕〗］｝！？：；．…‥·,.!?;:)]}”’")
# A line may not end with these; they belong to the start of the line after.
OPENING_PUNCTUATION = frozenset("（「『【《〈〔〖［｛([{“‘")
# A segment too long for one cue is split after these first; the first set ends a sentence or clause.
_STRONG_BREAKS = frozenset(".?!;。？！；")
_WEAK_BREAKS = frozenset(",:，：、")
# A cue ending at punctuation must still hold at least this share of what would fit, so that
# splitting at an early comma does not leave a cue with a word or two.
_MIN_SHARE_AT_PUNCTUATION = 1 / 3
_LEADING_PUNCTUATION = "".join(CLOSING_PUNCTUATION) + " \t"


@dataclass(frozen=True)
class LineLimits:
    max_lines: int = 2
    max_latin_chars: int = 42  # display width of a line of Latin text
    max_cjk_chars: int = 18  # characters of a line with Chinese in it (each counts 2 in width)

    def __post_init__(self) -> None:
        if min(self.max_lines, self.max_latin_chars, self.max_cjk_chars) < 1:
            raise ValueError("line limits must be at least 1")

    def width_allowed(self, wide: bool) -> int:
        """The display width allowed for a line with (or without) a wide character in it."""
        return self.max_cjk_chars * 2 if wide else self.max_latin_chars


@dataclass
class Cue:
    start: float  # seconds, whole milliseconds
    end: float
    lines: list[str] = field(default_factory=list)
    speaker: str | None = None  # the speaker's name, when speakers were labelled

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def display_width(text: str) -> int:
    """Width on screen in columns: 2 for wide and full-width characters (Chinese), else 1."""
    return sum(2 if _is_wide(ch) else 1 for ch in text)


def wrap(text: str, limits: LineLimits = LineLimits(), *, word_breaks: bool = True) -> list[str]:
    """Break text into as few lines as the width budget allows, with lines of similar width.

    A single Latin word wider than a line gets a line of its own rather than being cut. Chinese
    breaks between words (word_breaks), except where keeping its words whole would take more than
    max_lines lines and breaking between characters would not: a cue never grows a line. Without
    word_breaks, Chinese breaks between any two characters (the same number of lines and characters,
    and jieba's dictionary is not needed: what the editor's warnings use, on the window's thread).
    """
    characters = _tokenize(text)
    tokens = list(_words(characters, limits)) if word_breaks else characters
    if not tokens:
        return []
    greedy = _greedy_lines(tokens, limits)
    if len(greedy) > limits.max_lines and len(tokens) != len(characters):
        by_character = _greedy_lines(characters, limits)
        if len(by_character) <= limits.max_lines:
            tokens, greedy = characters, by_character
    if len(greedy) <= 1 or len(greedy) > limits.max_lines:
        return [_join(line) for line in greedy]
    return [_join(line) for line in _balanced_lines(tokens, len(greedy), limits)]


def build_cues(transcript: Transcript, limits: LineLimits = LineLimits(), *, names_in_text: bool = False,
               word_breaks: bool = True) -> list[Cue]:
    """The transcript as subtitle cues: wrapped, split where too long, in order and never overlapping.

    names_in_text: the speaker's name will start the first line (SRT), so lines leave room for it.
    word_breaks: Chinese lines break, and a long segment is cut into cues, between words (see wrap).
    Without it both happen between any two characters and jieba's dictionary is not needed; a
    Chinese segment too long for one cue may then be cut a word or so away from where the export
    cuts it.
    """
    cues: list[Cue] = []
    chinese = _is_chinese(transcript)
    for segment in transcript.segments:
        if not segment.text.strip():
            continue
        speaker = transcript.speaker_name(segment.speaker) if segment.speaker is not None else None
        fitting = limits
        if speaker and names_in_text:
            fitting = _with_room_for(limits, speaker_names.prefix(speaker, chinese))
        for units in _pack(_units(segment, fitting, word_breaks), fitting):
            start = units[0].start
            end = units[-1].end
            cues.append(Cue(start, end, wrap("".join(u.text for u in units), fitting, word_breaks=word_breaks),
                            speaker))
    _move_leading_punctuation(cues)
    cues = [cue for cue in cues if cue.lines]
    _make_monotonic(cues)
    return cues


def _with_room_for(limits: LineLimits, prefix: str) -> LineLimits:
    """Lines narrower by the width of a speaker's name, so that the first, which starts with it, still
    fits; a very long name takes at most half a line and runs over instead."""
    width = display_width(prefix)
    return replace(limits, max_latin_chars=max(limits.max_latin_chars // 2, limits.max_latin_chars - width),
                   max_cjk_chars=max(limits.max_cjk_chars // 2, limits.max_cjk_chars - (width + 1) // 2))


def to_srt(cues: list[Cue], *, chinese: bool = False) -> str:
    """SRT; a cue with a speaker starts with the name ("Anna: ", or "张伟：" when chinese)."""
    blocks = [
        f"{number}\n{_timestamp(cue.start, ',')} --> {_timestamp(cue.end, ',')}\n"
        f"{_without_arrows((speaker_names.prefix(cue.speaker, chinese) if cue.speaker else '') + cue.text)}\n"
        for number, cue in enumerate(cues, 1)
    ]
    return "\n".join(blocks)


def to_vtt(cues: list[Cue]) -> str:
    """WebVTT; a cue with a speaker is marked with a voice tag (<v Anna>)."""
    blocks = [
        f"{_timestamp(cue.start, '.')} --> {_timestamp(cue.end, '.')}\n"
        f"{_voice_tag(cue.speaker)}{_vtt_escape(cue.text)}\n"
        for cue in cues
    ]
    return "\n".join(["WEBVTT\n", *blocks])


def to_txt(transcript: Transcript) -> str:
    """One segment per line, as the user reads and edits them. With speakers, the consecutive lines of
    one speaker make a paragraph that starts with the name, and paragraphs are apart by a blank line."""
    spoken = [segment for segment in transcript.segments if segment.text.strip()]
    if not any(segment.speaker is not None for segment in spoken):
        return "".join(segment.text.strip() + "\n" for segment in spoken)
    chinese = _is_chinese(transcript)
    paragraphs: list[tuple[int | None, list[str]]] = []
    for segment in spoken:
        if paragraphs and paragraphs[-1][0] == segment.speaker:
            paragraphs[-1][1].append(segment.text.strip())
        else:
            paragraphs.append((segment.speaker, [segment.text.strip()]))
    texts = []
    for speaker, lines in paragraphs:
        name = speaker_names.prefix(transcript.speaker_name(speaker), chinese) if speaker is not None else ""
        texts.append(name + ("" if chinese else " ").join(lines) + "\n")
    return "\n".join(texts)


def to_json(transcript: Transcript) -> str:
    """Everything, word timings included; Transcript.from_dict reads it back.

    Where VoxDesk changed what Whisper wrote (Chinese in the chosen script, Chinese punctuation), a
    segment or word has "text_original" with Whisper's text next to "text".
    """
    return json.dumps(transcript.to_dict(), ensure_ascii=False, indent=2) + "\n"


def render(transcript: Transcript, fmt: str, limits: LineLimits = LineLimits()) -> str:
    """The text of the file export() would write."""
    transcript = _made_safe(transcript)
    if fmt == "srt":
        return to_srt(build_cues(transcript, limits, names_in_text=True), chinese=_is_chinese(transcript))
    if fmt == "vtt":
        return to_vtt(build_cues(transcript, limits))
    if fmt == "txt":
        return to_txt(transcript)
    if fmt == "json":
        return to_json(transcript)
    raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")


def export(
    transcript: Transcript,
    path: str | os.PathLike[str],
    fmt: str,
    *,
    overwrite: bool = False,
    limits: LineLimits = LineLimits(),
) -> Path:
    """Write the transcript as fmt (UTF-8) to path, atomically, and return the path.

    Raises ExportExists when the file exists and overwrite is False, ExportError when it cannot be
    written.
    """
    return atomic_write_text(path, render(transcript, fmt, limits), overwrite=overwrite)


def default_export_path(
    source_path: str | os.PathLike[str], fmt: str, folder: str | os.PathLike[str] | None = None
) -> Path:
    """Where an export goes unless the user says otherwise: the recording's name with the format's
    extension, next to the recording or in folder."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
    source = Path(source_path)
    return Path(folder if folder is not None else source.parent) / f"{source.stem}.{fmt}"


# --- text and times any file can hold ------------------------------------------------------------


def _made_safe(transcript: Transcript) -> Transcript:
    """A copy whose text any file can hold and whose times any player can read: text from engines is
    made safe when it arrives (see desktop.core.common.safe_text), but a transcript autosaved before
    that, or typed and pasted text, may still hold a lone surrogate, a control character or an
    override. A time that is not a number follows the one before it."""
    segments: list[Segment] = []
    previous_end = 0.0
    for segment in transcript.segments:
        start = _finite(segment.start, previous_end)
        end = _finite(segment.end, start)
        words = [replace(word, start=_finite(word.start, start), end=_finite(word.end, start),
                         text=clean_text(str(word.text)), text_original=_clean_or_none(word.text_original))
                 for word in segment.words]
        segments.append(replace(segment, start=start, end=end, text=clean_text(str(segment.text), newlines=True),
                                words=words, text_original=_clean_or_none(segment.text_original, newlines=True)))
        previous_end = end
    return replace(
        transcript, segments=segments, language=_clean_or_none(transcript.language),
        duration=_finite(transcript.duration, 0.0), source=_clean_or_none(transcript.source),
        gaps=[Gap(_finite(gap.start, 0.0), _finite(gap.end, 0.0)) for gap in transcript.gaps],
        warnings=[clean_text(str(warning)) for warning in transcript.warnings],
        speaker_names={number: clean_text(str(name)) for number, name in transcript.speaker_names.items()})


def _clean_or_none(text: str | None, *, newlines: bool = False) -> str | None:
    return None if text is None else clean_text(str(text), newlines=newlines)


def _finite(seconds, otherwise: float) -> float:
    """A time between 0 and the last a subtitle timestamp can say; ``otherwise`` for NaN or no number."""
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or math.isnan(seconds):
        return otherwise
    return min(max(float(seconds), 0.0), LAST_SECOND)


# --- tokens and lines ----------------------------------------------------------------------------


def _is_wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("W", "F")


@dataclass
class _Token:
    """The smallest piece a line may break before: a Latin word, or one Chinese character,
    with the punctuation that sticks to it."""

    text: str
    space_before: bool


def _tokenize(text: str) -> list[_Token]:
    return list(_tokens(text))


def _tokens(chars: Iterable[str]) -> Iterator[_Token]:
    """The tokens of a text given character by character, each as soon as it is complete (when the
    next one starts), so that a caller may stop early without reading the rest of a long text."""
    last: _Token | None = None  # the token being built; closing punctuation or a Latin run may extend it
    first = True
    space = False  # whitespace seen since the last token
    opening, opening_space = "", False  # opening punctuation waiting for the token it belongs to
    joinable = False  # the last token is a Latin run that the next narrow character extends
    for ch in chars:
        if ch.isspace():
            space, joinable = True, False
            continue
        wide = _is_wide(ch)
        if ch in CLOSING_PUNCTUATION and last is not None and not opening and (space or not joinable):
            # Closing punctuation goes with what it closes, even across a space ("word ,").
            last.text += (" " if space else "") + ch
            space, joinable = False, False
            continue
        if ch in OPENING_PUNCTUATION and (wide or not joinable):
            # ...and opening punctuation with what it opens; inside a Latin run ("f(x)") it is
            # just part of the word.
            if not opening:
                opening_space = space
            opening += ch
            space, joinable = False, False
            continue
        if joinable and not wide:
            last.text += ch
            continue
        if last is not None:
            yield last
        if opening:
            last = _Token(opening + ch, opening_space and not first)
            opening = ""
        else:
            last = _Token(ch, space and not first)
        first = False
        space, joinable = False, not wide
    if opening:
        if last is not None:
            yield last
        last = _Token(opening, opening_space and not first)
    if last is not None:
        yield last


# Chinese characters are read this many at a time to find the words among them: enough for any
# word, while a long text without spaces or punctuation is still read a piece at a time.
_CHINESE_RUN = 256


def _words(tokens: Iterable[_Token], limits: LineLimits) -> Iterator[_Token]:
    """The tokens with each Chinese word made one token, so that a line breaks between Chinese words
    as it does between Latin ones. A word wider than a whole line stays in characters, which may
    break anywhere. Tokens are given as soon as the word they end is known."""
    run: list[_Token] = []  # Chinese characters in a row, no space or punctuation between them
    for token in tokens:
        if run and _joins_chinese(run[-1], token):
            run.append(token)
            if len(run) >= _CHINESE_RUN:
                *words, last = _chinese_groups(run)
                if not words:  # one "word" as long as the whole run: let it break
                    words, last = [last], []
                for word in words:
                    yield from _merged(word, limits)
                run = last
            continue
        for word in _chinese_groups(run):
            yield from _merged(word, limits)
        run = [token]
    for word in _chinese_groups(run):
        yield from _merged(word, limits)


def _joins_chinese(before: _Token, after: _Token) -> bool:
    """Whether two tokens are Chinese characters of one run that a word might span."""
    return (not after.space_before and chinese_text.is_han(before.text[-1])
            and chinese_text.is_han(after.text[0]))


def _chinese_groups(run: list[_Token]) -> list[list[_Token]]:
    """The run's tokens grouped by the words jieba finds in their text."""
    if len(run) < 2:
        return [run] if run else []
    ends = chinese_text.word_ends("".join(token.text for token in run))
    groups: list[list[_Token]] = [[]]
    offset = 0
    for index, token in enumerate(run):
        groups[-1].append(token)
        offset += len(token.text)
        if offset in ends and index < len(run) - 1:
            groups.append([])
    return groups


def _merged(group: list[_Token], limits: LineLimits) -> list[_Token]:
    if len(group) < 2 or display_width("".join(token.text for token in group)) > limits.width_allowed(True):
        return group
    return [_Token("".join(token.text for token in group), group[0].space_before)]


def _join(tokens: list[_Token]) -> str:
    return "".join((" " if t.space_before and i else "") + t.text for i, t in enumerate(tokens))


def _greedy_lines(tokens: Iterable[_Token], limits: LineLimits) -> list[list[_Token]]:
    """Fill each line as far as it goes. Gives the fewest lines: dropping a token from a line that
    fits never makes it stop fitting (its width shrinks, its budget can only grow)."""
    return list(_filled_lines(tokens, limits))


def _filled_lines(tokens: Iterable[_Token], limits: LineLimits) -> Iterator[list[_Token]]:
    """The lines of _greedy_lines, each as soon as it is full. A line's width and whether it holds a
    wide character are kept as it grows, so each token is measured once."""
    current: list[_Token] = []
    width, wide = 0, False
    for token in tokens:
        token_width = display_width(token.text)
        token_wide = any(_is_wide(ch) for ch in token.text)
        if current:
            grown = width + (1 if token.space_before else 0) + token_width
            grown_wide = wide or token_wide
            if grown <= limits.width_allowed(grown_wide):
                current.append(token)
                width, wide = grown, grown_wide
                continue
            yield current
        current, width, wide = [token], token_width, token_wide
    if current:
        yield current


def _balanced_lines(tokens: list[_Token], count: int, limits: LineLimits) -> list[list[_Token]]:
    """Split tokens into exactly count fitting lines, as even in width as possible (least sum of
    squared widths), so that two lines read as a pair rather than one full line and a stub.
    A token wider than a line gets a line of its own, as in _greedy_lines."""
    n = len(tokens)
    widths = [display_width(token.text) for token in tokens]
    wides = [any(_is_wide(ch) for ch in token.text) for token in tokens]
    width = [[0] * (n + 1) for _ in range(n + 1)]  # width[i][j]: line of tokens[i:j], 0 if unfit
    for i in range(n):
        line_width, wide = 0, False  # of the line tokens[i:j], grown one token at a time
        for j in range(i + 1, n + 1):
            line_width += widths[j - 1] + (1 if j - 1 > i and tokens[j - 1].space_before else 0)
            wide = wide or wides[j - 1]
            fits = line_width <= limits.width_allowed(wide)
            if fits or j == i + 1:
                width[i][j] = line_width
            if not fits:
                break
    infinity = float("inf")
    best = [[infinity] * (n + 1) for _ in range(count + 1)]
    choice = [[0] * (n + 1) for _ in range(count + 1)]
    best[0][0] = 0.0
    for lines in range(1, count + 1):
        for j in range(1, n + 1):
            for i in range(lines - 1, j):
                w = width[i][j]
                if w and best[lines - 1][i] + w * w < best[lines][j]:
                    best[lines][j] = best[lines - 1][i] + w * w
                    choice[lines][j] = i
    result: list[list[_Token]] = []
    j = n
    for lines in range(count, 0, -1):
        i = choice[lines][j]
        result.append(tokens[i:j])
        j = i
    return result[::-1]


# --- splitting a segment into cues ---------------------------------------------------------------


@dataclass
class _Unit:
    """Words between which a cue may end, with their time span."""

    text: str  # with its leading space where it had one
    start: float
    end: float


def _units(segment: Segment, limits: LineLimits, word_breaks: bool = True) -> list[_Unit]:
    units = _units_from_words(segment)
    if units is None:
        # Pieces of text no wider than a line already; only a cut between cues needs Chinese words.
        units = _units_from_text(segment.text, segment.start, segment.end)
        if not word_breaks or _fits_cue(units, limits):
            return units
        return _whole_chinese_words(units, limits)
    if _fits_cue(units, limits):
        return units  # every word fits a cue when all of them together do (the common case)
    # A word too wide for a whole cue (possible with narrow limits) is split like text without
    # timings, so that a Chinese word can still break between its characters.
    pieces: list[_Unit] = []
    for unit in units:
        fits = _fits_cue([unit], limits)
        pieces.extend([unit] if fits else _units_from_text(unit.text, unit.start, unit.end))
    return _whole_chinese_words(pieces, limits) if word_breaks else pieces


def _whole_chinese_words(units: list[_Unit], limits: LineLimits) -> list[_Unit]:
    """The units with each one that ends inside a Chinese word joined to the next, so that a cue ends
    between Chinese words as a line does: where wrap may break a line (see _words), a word wider than
    a line still breaking between its characters. A join that would leave a unit too wide for a cue
    (Whisper's timed words crossing jieba's words) is not made, and that cut stays possible."""
    text = "".join(unit.text for unit in units)
    if not any(chinese_text.is_han(ch) for ch in text):
        return units
    # Where a line may break, counted in characters other than spaces (a token's text may hold a
    # space the units spell differently, as in "word ,").
    breaks: set[int] = set()
    done = 0
    for token in _words(_tokens(text), limits):
        done += len(_squeezed(token.text))
        breaks.add(done)
    joined = [replace(units[0])]
    done = len(_squeezed(units[0].text))
    for unit in units[1:]:
        last = joined[-1]
        inside = (done not in breaks and unit.text[:1] != "" and chinese_text.is_han(unit.text[0])
                  and last.text[-1:] != "" and chinese_text.is_han(last.text[-1]))
        done += len(_squeezed(unit.text))
        if inside:
            whole = _Unit(last.text + unit.text, last.start, max(last.end, unit.end))
            if _fits_cue([whole], limits):
                joined[-1] = whole
                continue
        joined.append(replace(unit))
    return joined


def _units_from_words(segment: Segment) -> list[_Unit] | None:
    """Units from Whisper's word timings; None when there are none, or they no longer spell the
    segment's text (edited text)."""
    words = [w for w in segment.words if w.text.strip()]
    if not words or _squeezed("".join(w.text for w in words)) != _squeezed(segment.text):
        return None
    units: list[_Unit] = []
    texts: list[list[str]] = []  # each unit's words, joined once at the end
    for before, word in zip([None, *words], words):
        # Every word has text, so whether a unit may end after its words is decided by its last word.
        if units and not _may_break_between(before.text, word.text):
            texts[-1].append(word.text)
            units[-1].end = max(units[-1].end, word.end)
        else:
            units.append(_Unit(word.text, word.start, word.end))
            texts.append([word.text])
    for unit, parts in zip(units, texts):
        unit.text = "".join(parts)
    # The cues of a segment span the segment itself; words only place the cuts inside it.
    for unit in units:
        unit.start = min(max(unit.start, segment.start), segment.end)
        unit.end = min(max(unit.end, unit.start), segment.end)
    units[0].start = segment.start
    units[-1].end = max(segment.end, units[-1].start)
    return units


def may_break_between(before: str, after: str) -> bool:
    """Whether a cue or a line may end between these two pieces of text (the same rule everywhere)."""
    return _may_break_between(before, after)


def _may_break_between(before: str, after: str) -> bool:
    head = after.lstrip()
    if not head or not before.strip():
        return False
    if head[0] in CLOSING_PUNCTUATION or before.rstrip()[-1] in OPENING_PUNCTUATION:
        return False
    # Whisper may split a Latin word into pieces without a space ("Py" + "thon"); keep them whole.
    return after[0].isspace() or _is_wide(before.rstrip()[-1]) or _is_wide(head[0])


def _units_from_text(text: str, start: float, end: float) -> list[_Unit]:
    """Units from text alone, timed over [start, end] in proportion to their character counts."""
    tokens = _tokenize(text)
    weights = [len(t.text) for t in tokens]
    total = sum(weights) or 1
    span = max(0.0, end - start)
    units, done = [], 0
    for token, weight in zip(tokens, weights):
        unit_start = start + span * done / total
        done += weight
        units.append(_Unit((" " if token.space_before else "") + token.text, unit_start,
                           start + span * done / total))
    if units and text[:1].isspace():
        units[0].text = " " + units[0].text  # keep the space before a word split into pieces
    return units


def _squeezed(text: str) -> str:
    return "".join(text.split())


def _cue_text(units: list[_Unit]) -> str:
    return "".join(u.text for u in units).strip()


def _fits_cue(units: list[_Unit], limits: LineLimits, start: int = 0) -> bool:
    """Whether units[start:] fit in one cue. Only as much of them is read as it takes to know:
    asking about the whole rest of a long segment costs no more than a cue's worth of text."""
    chars = chain.from_iterable(units[index].text for index in range(start, len(units)))
    return next(islice(_filled_lines(_tokens(chars), limits), limits.max_lines, None), None) is None


def _pack(units: list[_Unit], limits: LineLimits) -> list[list[_Unit]]:
    """Group units into cues that each fit in max_lines lines."""
    groups: list[list[_Unit]] = []
    i, n = 0, len(units)
    while i < n:
        if _fits_cue(units, limits, i):
            # The rest fits in one cue: so does every part of it, and the loop below would take it all.
            groups.append(units[i:])
            break
        j = i + 1  # units[i:j] fits (or is one unit that fits nowhere)
        while j < n and _fits_cue(units[i:j + 1], limits):
            j += 1
        if j == n:
            groups.append(units[i:])
            break
        k = _punctuation_break(units, i, j)
        if k is None:
            k = _even_break(units, i, j, limits)
        groups.append(units[i:k])
        i = k
    return groups


def _punctuation_break(units: list[_Unit], i: int, j: int) -> int | None:
    """The end k (i < k <= j) of the latest cue units[i:k] that ends a sentence, else a clause,
    unless that leaves the cue too short."""
    full = display_width(_cue_text(units[i:j]))
    for marks in (_STRONG_BREAKS, _WEAK_BREAKS):
        for k in range(j, i, -1):
            if display_width(_cue_text(units[i:k])) < full * _MIN_SHARE_AT_PUNCTUATION:
                break
            if _last_mark(units[k - 1].text) in marks:
                return k
    return None


def _last_mark(text: str) -> str:
    """The last character, looking past closing quotes and brackets ('you,"' ends with ',')."""
    stripped = text.rstrip().rstrip("”’\"')]}）」』】》〉〕〗］｝")
    return stripped[-1] if stripped else ""


def _even_break(units: list[_Unit], i: int, j: int, limits: LineLimits) -> int:
    """Where to end the cue when no punctuation helps: as late as fits, except that when the rest
    of the segment fits in one more cue, the two cues are made about equally long."""
    if not _fits_cue(units, limits, j):
        return j
    best_k, best_gap = j, None
    for k in range(j, i, -1):
        if not _fits_cue(units, limits, k):
            break
        gap = abs(display_width(_cue_text(units[i:k])) - display_width(_cue_text(units[k:])))
        if best_gap is None or gap < best_gap:
            best_k, best_gap = k, gap
    return best_k


# --- fixing cues up ------------------------------------------------------------------------------


def _move_leading_punctuation(cues: list[Cue]) -> None:
    """A cue's first line can start with closing punctuation when Whisper ended the segment before
    it ("…了" / "，然后…"). Move that punctuation to the end of the cue before; without one, drop it."""
    previous: Cue | None = None  # the last cue before this one that has lines
    for cue in cues:
        if not cue.lines:
            continue
        first = cue.lines[0]
        rest = first.lstrip(_LEADING_PUNCTUATION)
        if rest != first:
            moved = first[: len(first) - len(rest)].strip()
            if previous is not None:
                previous.lines[-1] += moved
            if rest:
                cue.lines[0] = rest
            else:
                cue.lines.pop(0)
        if cue.lines:
            previous = cue


def _make_monotonic(cues: list[Cue]) -> None:
    """Whole milliseconds; each cue starts no earlier than the one before ends, and lasts >= 1 ms.
    A time that is not a number follows the one before it."""
    previous_end = 0
    for cue in cues:
        start = max(_milliseconds(cue.start, previous_end), previous_end)
        end = max(_milliseconds(cue.end, start), start + 1)
        cue.start, cue.end = start / 1000, end / 1000
        previous_end = end


def _milliseconds(seconds: float, otherwise: int) -> int:
    """A time in whole milliseconds within what a subtitle timestamp can say; ``otherwise`` for NaN."""
    if math.isnan(seconds):
        return otherwise
    return round(min(max(seconds, 0.0), LAST_SECOND) * 1000)


def _timestamp(seconds: float, separator: str) -> str:
    ms = round(seconds * 1000)
    hours, ms = divmod(ms, 3_600_000)
    minutes, ms = divmod(ms, 60_000)
    secs, ms = divmod(ms, 1000)
    return f"{hours:02d}:{minutes:02d}:{secs:02d}{separator}{ms:03d}"


def _is_chinese(transcript: Transcript) -> bool:
    return speaker_names.is_chinese(transcript.language, transcript.text)


def _voice_tag(speaker: str | None) -> str:
    return f"<v {_vtt_escape(speaker)}>" if speaker else ""


def _without_arrows(text: str) -> str:
    """SRT cue text in which no "-->" could be taken for a timing line: its last hyphen becomes U+2010,
    which looks the same."""
    return text.replace("-->", "-\u2010>")


def _vtt_escape(text: str) -> str:
    # In WebVTT cue text, & and < start markup, and "-->" would end the cue's header.
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
