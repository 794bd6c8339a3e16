"""Who speaks in subtitles made elsewhere: WebVTT voice tags, and "Name:" at the start of a cue.

A voice tag (``<v Anna>``, ``<v.loud Anna>``) says it in so many words; the WebVTT reader keeps it as
the cue's speaker. A name in front of the text ("Anna: Hello", "- ANNA: hi", "张伟：你好", as VoxDesk's
SRT export writes them) is only a convention, and ordinary text can start the same way ("Note: …",
"Warning: …"), so such prefixes count as speakers only when the file uses them as one:

- the prefix looks like a name: one to three words that each start with a capital (or a letter of a
  script without capitals), with a number after the last one allowed ("Speaker 2"); or up to eight
  Chinese, Japanese or Korean characters (with a number: "说话人2"). At most 32 characters. Then a colon
  and a space (":" alone is part of a time, "10:30", or of an address, "https://"), or a full-width
  colon "：". Some text must follow it;
- each name starts at least two cues, unless every cue of the file starts with a name (a dialogue
  written out throughout, however short);
- the cues that start with such a name are at least a fifth of the file's cues, and when there is
  only one name, at least half of them: a note or two in ordinary text is left as it is.

Only the first line of a cue is looked at: a second speaker inside one cue ("- Anna: hi / - Bob:
hello") stays in the text, as a cue has one speaker here.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

from desktop.core.speakers import names as speaker_names
from desktop.core.transcription.subtitles import Cue

MAX_PREFIX_NAME_CHARS = 32
MIN_NAMED_SHARE = 1 / 5  # of the cues, for the prefixes to count as speakers
MIN_SHARE_OF_ONE_NAME = 1 / 2  # the same, when the file names only one speaker
_LOOKED_AT_CHARS = 2 * MAX_PREFIX_NAME_CHARS  # room for a dash, spaces and the colon around the name

_CJK = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_LETTER = rf"[^\W\d_{_CJK}]"  # a letter of a script with spaces between words
_LATIN_WORD = rf"{_LETTER}(?:{_LETTER}|[\d'’.\-])*"
_PREFIX = re.compile(
    r"^[ \t]*(?:[-–—][ \t]*)?"  # a dialogue dash may come first
    rf"(?P<name>(?:{_LATIN_WORD}(?:[ \t]{_LATIN_WORD}){{0,2}}|[{_CJK}]{{1,8}})(?:[ \t]?\d{{1,3}})?)"
    r"(?:[ \t]*:(?:[ \t]+|$)|[ \t]*：[ \t]*)"  # ": " after it, or the full-width "："
)


def prefixed_name(line: str) -> tuple[str, str] | None:
    """(name, the rest of the line) when the line starts with something shaped like a speaker's name
    and a colon; None otherwise. Whether it is a speaker depends on the whole file (see the module)."""
    # A name is short: only the start of the line is looked at, so a huge one-line cue costs no more.
    match = _PREFIX.match(line[:_LOOKED_AT_CHARS])
    if match is None:
        return None
    name = match.group("name")
    if len(name) > MAX_PREFIX_NAME_CHARS or not all(_capitalised(word) for word in name.split() if not word.isdigit()):
        return None
    return name, line[match.end():]


def _capitalised(word: str) -> bool:
    first = word[0]
    return first.isupper() or not first.islower()  # a capital, or a script without capitals


def with_prefix_speakers(cues: list[Cue]) -> list[Cue]:
    """The cues, those whose first line starts with a speaker's name given it as their speaker and
    the name taken out of their text, when the file uses names that way (see the module); the cues
    as they are otherwise. Cues that already have a speaker (a voice tag) are left as they are."""
    candidates: dict[int, tuple[str, str]] = {}
    unvoiced = [index for index, cue in enumerate(cues) if cue.speaker is None]
    for index in unvoiced:
        lines = cues[index].lines
        found = prefixed_name(lines[0]) if lines else None
        if found is not None and (found[1].strip() or any(line.strip() for line in lines[1:])):
            candidates[index] = found
    counts = Counter(name for name, _ in candidates.values())
    everywhere = len(unvoiced) >= 2 and len(candidates) == len(unvoiced)
    accepted = {index: found for index, found in candidates.items() if everywhere or counts[found[0]] >= 2}
    distinct = {name for name, _ in accepted.values()}
    if not accepted or len(accepted) < len(unvoiced) * MIN_NAMED_SHARE \
            or (len(distinct) == 1 and len(accepted) < len(unvoiced) * MIN_SHARE_OF_ONE_NAME):
        return list(cues)
    named = list(cues)
    for index, (name, rest) in accepted.items():
        cue = cues[index]
        lines = [rest.strip(), *cue.lines[1:]] if rest.strip() else list(cue.lines[1:])
        named[index] = replace(cue, lines=lines, speaker=name)
    return named


def numbered_speakers(names: list[str | None], chinese: bool) -> tuple[list[int | None], dict[int, str]]:
    """Speaker numbers for the names of the lines (None: no speaker), and the names to keep: "Speaker 2"
    ("说话人2" in a Chinese transcript), as VoxDesk calls a speaker it has no name for, is speaker 2
    again; the other names are numbered from the first free number, in order of appearance."""
    cleaned = [speaker_names.clean_name(name) if name else "" for name in names]
    numbers: dict[str, int] = {}
    for name in cleaned:
        default = _default_number(name, chinese)
        if default is not None:
            numbers[name] = default
    taken = set(numbers.values())
    free = (number for number in range(1, len(cleaned) + len(taken) + 2) if number not in taken)
    for name in cleaned:
        if name and name not in numbers:
            numbers[name] = next(free)
    kept = {number: name for name, number in numbers.items() if _default_number(name, chinese) is None}
    return [numbers[name] if name else None for name in cleaned], kept


def _default_number(name: str, chinese: bool) -> int | None:
    """N when name is the default name of speaker N in a transcript of this script."""
    match = re.fullmatch(r"说话人(\d{1,3})" if chinese else r"Speaker (\d{1,3})", name)
    number = int(match.group(1)) if match else 0
    return number if number >= 1 and speaker_names.default_name(number, chinese) == name else None
