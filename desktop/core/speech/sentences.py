"""Split a text into the sentences a voice reads one by one, for Chinese, Latin scripts and both mixed.

Each sentence keeps its place in the original text (start/end offsets in Python characters), so the
window can highlight the sentence being played. Rules, in order:

- A line break ends a sentence: headings and list items in notices often have no full stop.
- Chinese and full-width terminators (。！？；… and their full-width forms) end a sentence at once.
- Latin terminators (. ! ? ;) end a sentence when followed by a space or the end of the text, except
  after common abbreviations ("Mr.", "e.g.") and single initials ("J. Smith"). "3.14" never splits.
- Closing quotes and brackets after a terminator belong to the sentence they close.
- A sentence longer than ``max_chars`` is cut at a comma-like mark, then at a space, then anywhere,
  because voice models garble (or refuse) very long inputs.
- Pieces with nothing to say (only punctuation, symbols or emoji) are dropped.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from desktop.core.common.errors import UserFacingError
from desktop.core.common.i18n import N_

DEFAULT_MAX_CHARS = 250
MAX_FILE_CHARACTERS = 200_000

# Terminators that end a sentence wherever they appear (no space follows them in Chinese).
_CJK_TERMINATORS = "。！？；…｡︒﹒﹖﹗"
# Latin terminators: only followed by whitespace or the end of the text.
_LATIN_TERMINATORS = ".!?;"
# Closing marks that stay with the sentence they close.
_CLOSERS = "\"'”’»)]}）】」』》〉〕"
# Where a too-long sentence may be cut, best first.
_SOFT_BREAKS = "，、,：:—–"

_ABBREVIATIONS = frozenset(
    """mr mrs ms dr prof sr jr st mt vs etc e.g i.e a.m p.m no nos fig approx dept est inc ltd co
    jan feb mar apr jun jul aug sep sept oct nov dec""".split()
)

_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ebef]")
_LATIN_LETTER = re.compile(r"[A-Za-z\u00c0-\u024f]")


@dataclass(frozen=True)
class Sentence:
    text: str  # what the voice reads: the sentence without surrounding spaces
    start: int  # offset of text[0] in the original (Python characters)
    end: int  # offset just past the sentence in the original

    def __len__(self) -> int:
        return len(self.text)


def is_speakable(text: str) -> bool:
    """True when the text has at least one letter or digit a voice could read."""
    return any(unicodedata.category(ch)[0] in "LN" for ch in text)


def has_han(text: str) -> bool:
    """True when the text contains Chinese characters."""
    return _HAN.search(text) is not None


def has_latin(text: str) -> bool:
    return _LATIN_LETTER.search(text) is not None


def guess_language(text: str) -> str | None:
    """'zh' when Chinese characters outnumber Latin letters, 'en' for Latin text, None for neither.

    Used to choose a language per sentence for multilingual voices when the user picks "Automatic".
    """
    han = len(_HAN.findall(text))
    latin = len(_LATIN_LETTER.findall(text))
    if han == 0 and latin == 0:
        return None
    # One Chinese character carries about as much as a short English word (~3 letters).
    return "zh" if han * 3 >= latin else "en"


def split_sentences(text: str, *, max_chars: int = DEFAULT_MAX_CHARS) -> list[Sentence]:
    """The sentences of text, in order, each at most max_chars long; see the module notes."""
    if max_chars < 20:
        raise ValueError("max_chars must be at least 20")
    sentences: list[Sentence] = []
    for start, end in _sentence_spans(text):
        for piece_start, piece_end in _limit_length(text, start, end, max_chars):
            sentence = _trimmed(text, piece_start, piece_end)
            if sentence is not None and is_speakable(sentence.text):
                sentences.append(sentence)
    return sentences


# --- finding sentence ends -------------------------------------------------------------------


def _sentence_spans(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    start = 0
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        end: int | None = None
        if ch in "\n\r\u2028\u2029":
            end = i + 1
        elif ch in _CJK_TERMINATORS:
            end = _after_closers(text, _after_run(text, i, _CJK_TERMINATORS + _LATIN_TERMINATORS))
        elif ch in _LATIN_TERMINATORS:
            run_end = _after_run(text, i, _LATIN_TERMINATORS + "…")
            after = _after_closers(text, run_end)
            at_boundary = after >= n or text[after].isspace() or _starts_cjk(text, after)
            if at_boundary and not (ch == "." and run_end == i + 1 and _is_abbreviation(text, start, i)):
                end = after
            else:
                i = run_end
                continue
        if end is not None:
            spans.append((start, end))
            start = i = end
        else:
            i += 1
    if start < n:
        spans.append((start, n))
    return spans


def _after_run(text: str, i: int, chars: str) -> int:
    while i < len(text) and text[i] in chars:
        i += 1
    return i


def _after_closers(text: str, i: int) -> int:
    return _after_run(text, i, _CLOSERS)


def _starts_cjk(text: str, i: int) -> bool:
    """A Chinese character right after a Latin full stop ("OK.好的") also starts a new sentence."""
    return _HAN.match(text, i) is not None


def _is_abbreviation(text: str, sentence_start: int, dot: int) -> bool:
    """Whether the word before this full stop is an abbreviation or a single initial."""
    j = dot
    while j > sentence_start and (text[j - 1].isalpha() or text[j - 1] == "."):
        j -= 1
    word = text[j:dot].lower()
    if not word:
        return False
    if len(word) == 1 and word.isalpha() and text[j].isupper():
        return True  # "J. Smith", "U.S." seen letter by letter
    if re.fullmatch(r"(?:[a-z]\.)+[a-z]", word):
        return True  # initialisms such as "U.S." or "e.g."
    return word in _ABBREVIATIONS


# --- keeping sentences short enough ----------------------------------------------------------


def _limit_length(text: str, start: int, end: int, max_chars: int) -> list[tuple[int, int]]:
    pieces: list[tuple[int, int]] = []
    while _stripped_length(text, start, end) > max_chars:
        cut = _best_cut(text, start, min(end, start + max_chars))
        pieces.append((start, cut))
        start = cut
    pieces.append((start, end))
    return pieces


def _stripped_length(text: str, start: int, end: int) -> int:
    return len(text[start:end].strip())


def _best_cut(text: str, start: int, limit: int) -> int:
    """Where to cut text[start:limit]: after the last soft break, else the last space, else at limit."""
    # Do not cut in the first third: tiny fragments sound choppy.
    floor = start + (limit - start) // 3
    for marks in (_SOFT_BREAKS, None):
        for i in range(limit - 1, floor, -1):
            ch = text[i]
            if (marks is not None and ch in marks) or (marks is None and ch.isspace()):
                return i + 1
    return limit


def _trimmed(text: str, start: int, end: int) -> Sentence | None:
    piece = text[start:end]
    stripped = piece.strip()
    if not stripped:
        return None
    lead = len(piece) - len(piece.lstrip())
    return Sentence(stripped, start + lead, start + lead + len(stripped))


# --- text files ------------------------------------------------------------------------------------


def decode_text(data: bytes) -> str | None:
    """The text in data: UTF-8 (with or without BOM), UTF-16 with BOM, else GB18030 (Chinese Windows).

    None when it is not text (for example a Word document or a picture).
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        encodings: tuple[str, ...] = ("utf-16",)
    else:
        encodings = ("utf-8-sig", "gb18030")
    for encoding in encodings:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        if "\x00" in text:
            return None  # a binary file that happened to decode
        return text.replace("\r\n", "\n").replace("\r", "\n")
    return None


def read_text_file(path: str | Path, *, limit: int = MAX_FILE_CHARACTERS) -> str:
    """The text of a plain-text file to read aloud; UserFacingError saying what is wrong otherwise.

    Only a regular file is opened (a pipe or device is refused at once), and the length is checked
    while reading, so neither a FIFO nor /dev/zero can make VoxDesk wait or fill the memory.
    """
    from desktop.core.common.safe_files import read_limited

    path = Path(path)
    too_long = N_("SpeechText", "“{name}” is too long to read aloud in one go (more than {limit:,} characters). "
                                "Split it into parts of at most {limit:,} characters.").format(name=path.name, limit=limit)
    try:
        data = read_limited(path, 4 * limit, too_long)  # no character takes more than 4 bytes
    except OSError as exc:
        raise UserFacingError(
            N_("SpeechText", "VoxDesk cannot open “{name}”. Check that the file still exists and that you may read "
                             "it.").format(name=path.name),
            detail=repr(exc),
        ) from exc
    text = decode_text(data)
    if text is None:
        raise UserFacingError(
            N_("SpeechText", "“{name}” is not a text file VoxDesk can read. Save it as plain text (.txt) and open it "
                             "again.").format(name=path.name)
        )
    if len(text) > limit:
        raise UserFacingError(
            N_("SpeechText", "“{name}” is too long to read aloud in one go ({count:,} characters). Split it into "
                             "parts of at most {limit:,} characters.").format(
                name=path.name, count=len(text), limit=limit)
        )
    return text
