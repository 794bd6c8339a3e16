"""Chinese transcripts that read well: the chosen script, Chinese punctuation and spacing, and the
prompt that steers Whisper towards Simplified Chinese.

Whisper often writes Mandarin in Traditional characters, puts half-width commas and full stops
between Chinese characters, and spaces around English words. The functions here tidy a segment and
its word timings alike, so that the words still spell the segment and the editor, the subtitles and
the exports all show the same text. What Whisper wrote is kept in ``text_original`` wherever the
tidied text differs from it.
"""
from __future__ import annotations

import functools
import unicodedata
from dataclasses import replace
from typing import TYPE_CHECKING

from desktop.core.transcription.transcript import Segment

if TYPE_CHECKING:
    import opencc

SCRIPTS = ("simplified", "traditional", "original")  # "original": the characters as recognised
CHINESE_LANGUAGES = frozenset({"zh", "yue"})  # Whisper's codes for Mandarin and Cantonese
# Whisper continues in the style of its prompt: Simplified characters with Chinese punctuation.
MANDARIN_PROMPT = "以下是普通话的句子。"

# t2s: OpenCC's Traditional to Simplified; s2tw: Simplified to the Traditional characters of
# Taiwan (为→為, 里→裡), the forms most readers of Traditional Chinese expect.
_OPENCC_CONFIG = {"simplified": "t2s", "traditional": "s2tw"}
_FULL_WIDTH = {",": "，", ".": "。", "?": "？", "!": "！", ":": "：", ";": "；"}
_ELLIPSIS = "…"  # "..." between Chinese characters becomes "……"
# Quotation marks that Unicode gives an ambiguous width but that sit in Chinese text as its own.
_CHINESE_QUOTES = frozenset("“”‘’")


def is_chinese(language: str | None) -> bool:
    """Whether a Whisper language code is a Chinese language."""
    return (language or "").strip().lower() in CHINESE_LANGUAGES


def looks_chinese(text: str) -> bool:
    """Whether text is written in Chinese: it has Chinese characters and no Japanese kana or Korean
    Hangul (Japanese and, rarely, Korean use Chinese characters too)."""
    has_han = False
    for ch in text:
        code = ord(ch)
        if _is_kana(code) or _is_hangul(code):
            return False
        has_han = has_han or _is_han(code)
    return has_han


def initial_prompt(language: str | None, task: str, user_prompt: str | None) -> str | None:
    """The prompt for Whisper: the user's own when they wrote one, else for Mandarin a sentence in
    Simplified Chinese, which Whisper continues in the same script and with Chinese punctuation.

    The prompt needs the language to be known (chosen, or detected in an earlier part of a long
    recording). Both Whisper libraries detect the language from the audio alone, so a prompt would
    not help detection, while a Chinese prompt in front of an English or Japanese recording can make
    Whisper write Chinese. The script conversion makes the text Simplified either way.
    """
    if user_prompt and user_prompt.strip():
        return user_prompt
    if task == "transcribe" and (language or "").strip().lower() == "zh":
        return MANDARIN_PROMPT
    return None


def convert_script(text: str, script: str) -> str:
    """Text in the chosen script with OpenCC; "original" leaves it as it is."""
    if script not in SCRIPTS:
        raise ValueError(f"unknown Chinese script {script!r}; expected one of {', '.join(SCRIPTS)}")
    config = _OPENCC_CONFIG.get(script)
    return _converter(config).convert(text) if config else text


def tidy_text(text: str, script: str) -> str:
    """Chinese text in the chosen script, with Chinese punctuation between Chinese characters and
    spaces only where Latin words meet."""
    return _tidy([text], script)[0]


def tidy_segment(segment: Segment, script: str) -> Segment:
    """A copy of a Chinese segment tidied like tidy_text, word timings included.

    The words are tidied as one text, so that a conversion that depends on the characters around it
    (a phrase spread over two words) and the punctuation rule see what the segment says; they still
    spell the segment's text afterwards. A segment tidied before is tidied again from what Whisper
    wrote, so changing the script later converts from the original, not from a conversion.
    """
    raw_text = segment.text if segment.text_original is None else segment.text_original
    raw_words = [w.text if w.text_original is None else w.text_original for w in segment.words]
    if raw_words and "".join(raw_words) == raw_text:
        pieces = _tidy(raw_words, script)
        text = "".join(pieces)
    else:
        # The words no longer spell the text (an older file, or an engine's quirk): each on its own.
        text = tidy_text(raw_text, script)
        pieces = [tidy_text(raw, script) for raw in raw_words]
    words = [
        replace(word, text=new, text_original=None if new == raw else raw)
        for word, raw, new in zip(segment.words, raw_words, pieces)
        if new  # a word that was only a space between Chinese characters has nothing left to show
    ]
    return replace(segment, text=text, words=words, text_original=None if text == raw_text else raw_text)


# --- the rules, on a stream of characters that remembers which piece each came from ---------------


def _tidy(pieces: list[str], script: str) -> list[str]:
    chars, owners = _in_script(pieces, script)
    chars = _full_width_punctuation(chars)
    chars = _chinese_spacing(chars)
    result = [""] * len(pieces)
    for ch, owner in zip(chars, owners):
        result[owner] += ch
    return result


def _in_script(pieces: list[str], script: str) -> tuple[list[str], list[int]]:
    """The characters of all pieces in the chosen script, and the index of the piece of each."""
    joined = "".join(pieces)
    converted = convert_script(joined, script)
    if len(converted) != len(joined):
        # A phrase changed length, so characters no longer line up: convert each piece on its own.
        pieces = [convert_script(piece, script) for piece in pieces]
        converted = "".join(pieces)
    owners = [index for index, piece in enumerate(pieces) for _ in piece]
    return list(converted), owners


def _full_width_punctuation(chars: list[str]) -> list[str]:
    """Half-width , . ? ! : ; after a Chinese character and before another one (or the end) become
    full-width. Marks inside Latin text and numbers ("3.5", "10:30", "e.g.") stay as they are."""
    result = list(chars)
    i, n = 0, len(chars)
    while i < n:
        if chars[i] not in _FULL_WIDTH:
            i += 1
            continue
        j = i
        while j < n and chars[j] in _FULL_WIDTH:
            j += 1
        before, after = _neighbour(chars, i - 1, -1), _neighbour(chars, j, 1)
        if before is not None and _is_chinese_side(before) and (after is None or _is_chinese_side(after)):
            run = chars[i:j]
            if len(run) >= 2 and set(run) == {"."}:
                result[i:j] = [_ELLIPSIS, _ELLIPSIS] + [""] * (len(run) - 2)
            else:
                result[i:j] = [_FULL_WIDTH[ch] for ch in run]
        i = j
    return result


def _chinese_spacing(chars: list[str]) -> list[str]:
    """Spaces stay only between two Latin words (or numbers); next to a Chinese character or
    Chinese punctuation they go. Spaces at the very start or end are left to the caller."""
    result = list(chars)
    for i, ch in enumerate(chars):
        if not ch.isspace():
            continue
        before, after = _neighbour(result, i - 1, -1), _neighbour(result, i + 1, 1)
        if before is not None and after is not None and (_is_wide(before) or _is_wide(after)):
            result[i] = ""
    return result


def _neighbour(chars: list[str], start: int, step: int) -> str | None:
    """The nearest character from start in direction step that is not a space, or None."""
    i = start
    while 0 <= i < len(chars):
        if chars[i] and not chars[i].isspace():
            return chars[i][-1] if step < 0 else chars[i][0]
        i += step
    return None


def _is_wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("W", "F")


def _is_chinese_side(ch: str) -> bool:
    return _is_wide(ch) or ch in _CHINESE_QUOTES


def _is_han(code: int) -> bool:
    return (0x4E00 <= code <= 0x9FFF or 0x3400 <= code <= 0x4DBF or 0x20000 <= code <= 0x3134F
            or 0xF900 <= code <= 0xFAFF)


def _is_kana(code: int) -> bool:
    return 0x3040 <= code <= 0x30FF or 0x31F0 <= code <= 0x31FF or 0xFF66 <= code <= 0xFF9F


def _is_hangul(code: int) -> bool:
    return 0xAC00 <= code <= 0xD7AF or 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F


@functools.lru_cache(maxsize=None)
def _converter(config: str) -> "opencc.OpenCC":
    import opencc  # loads its dictionaries; only when a Chinese transcript needs them

    return opencc.OpenCC(config)


def is_han(ch: str) -> bool:
    """Whether a character is a Chinese (Han) character."""
    return _is_han(ord(ch))


def word_ends(text: str) -> set[int]:
    """The offsets in text at which a Chinese word ends (jieba's segmentation), so that a line may
    break between words rather than inside one ("公司" stays whole). Text without Chinese characters
    gives its length alone."""
    if not any(_is_han(ord(ch)) for ch in text):
        return {len(text)}
    ends: set[int] = set()
    offset = 0
    for word in _segmenter().cut(text, HMM=True):
        offset += len(word)
        ends.add(offset)
    return ends


@functools.cache
def _segmenter():
    """jieba's word segmenter with its dictionary loaded (once, and shared with the glossary's word
    checks, which use the same dictionary)."""
    import jieba

    jieba.setLogLevel(60)
    jieba.initialize()
    return jieba.dt
