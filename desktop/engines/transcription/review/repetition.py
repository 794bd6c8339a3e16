"""Whisper's known loop: the same phrase over and over, in one segment or in a run of segments.

Detection works on the text alone; whether a second decoding is better is judged with Whisper's own
rules for when to decode again (gzip compression ratio above 2.4, average log-probability below -1.0).
"""
from __future__ import annotations

import difflib
import re
import zlib
from dataclasses import dataclass

from desktop.core.transcription.transcript import Segment
from desktop.engines.transcription.engine import COMPRESSION_RATIO_THRESHOLD, LOG_PROB_THRESHOLD

MIN_REPEATS = 3  # a phrase said this many times in a row in one segment is a loop
MIN_REPEATED_TOKENS = 6  # ... holding this many words or CJK characters at least: "no, no, no" is speech
MIN_RUN = 3  # this many segments in a row with the same text are a loop
MIN_PAIR_CHARS = 20  # two in a row already are, when the text is this long
SAID_AGAIN = 0.9  # a second decoding this alike to the first (in words or characters) confirms it

_CJK = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_TOKEN = re.compile(rf"[{_CJK}]|[^\s{_CJK}]+")
_PUNCTUATION = re.compile(r"[^\w]+")


def tokens(text: str) -> list[str]:
    """Words of Latin text and single characters of Chinese, Japanese and Korean, without punctuation."""
    found = (_PUNCTUATION.sub("", token).lower() for token in _TOKEN.findall(text))
    return [token for token in found if token]


def repeats_a_phrase(text: str) -> bool:
    """Whether some phrase follows itself MIN_REPEATS times or more (covering MIN_REPEATED_TOKENS)."""
    words = tokens(text)
    for size in range(1, len(words) // MIN_REPEATS + 1):
        for start in range(len(words) - size * MIN_REPEATS + 1):
            phrase = words[start:start + size]
            count = 1
            while words[start + count * size:start + (count + 1) * size] == phrase:
                count += 1
            if count >= MIN_REPEATS and count * size >= MIN_REPEATED_TOKENS:
                return True
    return False


def loops(segments: list[Segment]) -> list[tuple[int, int]]:
    """The [first, last) index ranges of segments that look like Whisper looping, in order."""
    found: list[tuple[int, int]] = []
    index = 0
    while index < len(segments):
        key = " ".join(tokens(segments[index].text))
        end = index + 1
        while end < len(segments) and key and " ".join(tokens(segments[end].text)) == key:
            end += 1
        run = end - index
        if key and (run >= MIN_RUN or (run == 2 and len(segments[index].text.strip()) >= MIN_PAIR_CHARS)):
            found.append((index, end))
        elif repeats_a_phrase(segments[index].text):
            found.append((index, index + 1))
        index = end
    return found


def compression_ratio(text: str) -> float:
    """Whisper's measure of repetitiveness: the UTF-8 text's length over its zlib-compressed length."""
    data = text.encode("utf-8")
    return len(data) / len(zlib.compress(data)) if data else 0.0


@dataclass(frozen=True)
class Decoding:
    """What a stretch was decoded to, with what Whisper's rules judge it by."""

    segments: list[Segment]
    avg_logprob: float  # the mean of its segments' average log-probabilities

    @property
    def text(self) -> str:
        return "".join(segment.text for segment in self.segments)

    @property
    def needs_fallback(self) -> bool:
        """Whether Whisper itself would decode this again at a higher temperature."""
        return compression_ratio(self.text) > COMPRESSION_RATIO_THRESHOLD or self.avg_logprob < LOG_PROB_THRESHOLD

    @property
    def loops(self) -> bool:
        return bool(loops(self.segments))


def better(first: Decoding, second: Decoding) -> Decoding:
    """The decoding to keep: one Whisper would accept over one it would not; else one that does not
    loop; else the more probable. A decoding with no text never replaces one with text."""
    if not second.text.strip():
        return first
    if first.needs_fallback != second.needs_fallback:
        return second if first.needs_fallback else first
    if first.loops != second.loops:
        return second if first.loops else first
    return second if second.avg_logprob > first.avg_logprob else first


def said_again(first: Decoding, second: Decoding) -> bool:
    """Whether a second decoding of a stretch that looked like a loop wrote the same text again, as
    many times: then the audio says it again and again (Whisper's loop fills audio that says
    something else, and a second decoding without the prompt leaves it)."""
    said, heard = tokens(first.text), tokens(second.text)
    return bool(said) and difflib.SequenceMatcher(None, said, heard, autojunk=False).ratio() >= SAID_AGAIN
