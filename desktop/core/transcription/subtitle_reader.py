"""SRT and WebVTT text read in one pass, line by line, into cues that remember where they are in the
file: the line of their times, what follows the times there (SRT position fields, WebVTT cue
settings) and the number written above them.

One pass: the first problem is named by its line as it is met, no part of the file is read twice,
at most MAX_CUES cues are taken (the sentence names the limit), and a `cancelled` check is asked
every few hundred cues, raising SubtitleReadCancelled when it says yes. Times are checked here,
where subtitles enter (cue_times): nothing after this meets a time past 100 hours, one that is not
a number, or a cue that ends before it starts.

SRT is read as the `srt` library reads it (an index line, then `start --> end`, then text up to an
empty line; a missing empty line before the next index and times, or empty lines inside a cue's
text, are forgiven). WebVTT blocks are found here as `webvtt-py` finds them in strict mode, and
each block is then read by that library, so its text, tags and voices are the library's.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterator

from desktop.core.common.errors import Cancelled
from desktop.core.common.i18n import N_
from desktop.core.transcription.cue_times import MAX_CUE_MILLISECONDS, time_problem, time_problem_sentence

MAX_CUES = 20_000  # a feature film has about 1,500; a long recording's transcript a few thousand
_POLL_EVERY = 256  # cues between two looks at `cancelled`

CancelCheck = Callable[[], bool]


class SubtitleReadCancelled(Cancelled):
    """Reading a subtitle file was stopped by its `cancelled` check."""


@dataclass
class FileCue:
    """A cue as the file has it."""

    start_ms: int
    end_ms: int
    lines: list[str]  # its text as written (WebVTT: the library's text, without tags)
    timing_line: int  # the line (from 1) of its times
    rest: str  # what follows the end time on that line, as written (position fields, cue settings)
    speaker: str | None = None  # WebVTT: the name of its voice tag, as written


class ReadProblem(Exception):
    """The file cannot be read: `message` says why, naming the line."""

    def __init__(self, message: str, detail: str | None = None):
        super().__init__(message)
        self.message = message
        self.detail = detail


def numbered_lines(text: str) -> Iterator[tuple[int, str]]:
    """(line number from 1, line) for each line, ended by LF, CRLF or CR, without copying the text
    into a list of lines."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    start, number, size = 0, 1, len(text)
    while True:
        end = text.find("\n", start)
        if end < 0:
            yield number, text[start:size]
            return
        yield number, text[start:end]
        start, number = end + 1, number + 1


class _Counter:
    """Counts cues as they are taken: refuses the one past MAX_CUES, asks `cancelled` now and then, and
    checks each cue's times."""

    def __init__(self, name: str, cancelled: CancelCheck | None):
        self.name, self.cancelled, self.count = name, cancelled, 0

    def take(self, cue: FileCue) -> FileCue:
        self.count += 1
        if self.count > MAX_CUES:
            raise ReadProblem(N_("Subtitles", "“{name}” has more than {limit} subtitles; VoxDesk opens files of up to "
                                              "{limit} subtitles.").format(name=self.name, limit=f"{MAX_CUES:,}"))
        if self.cancelled is not None and self.count % _POLL_EVERY == 0 and self.cancelled():
            raise SubtitleReadCancelled()
        problem = time_problem(cue.start_ms / 1000, cue.end_ms / 1000) if (
            cue.end_ms < cue.start_ms or max(cue.start_ms, cue.end_ms) > MAX_CUE_MILLISECONDS) else None
        if problem is not None:
            raise ReadProblem(time_problem_sentence(problem, self.count, cue.timing_line, self.name))
        return cue


# --- SRT ------------------------------------------------------------------------------------------

_DELIMITER = "[,.:，．。：]"  # as the srt library: "." and full-width marks are common enough to accept
_TIMESTAMP = rf"(\d+){_DELIMITER}(\d+){_DELIMITER}(\d+)(?:{_DELIMITER}(\d*))?"
_SRT_TIMING = re.compile(rf"\s*{_TIMESTAMP} *-[ -] *> *{_TIMESTAMP}(.*)\Z")
_SRT_TIMESTAMP_START = re.compile(rf"\s*\d+{_DELIMITER}\d+{_DELIMITER}\d+")
_SRT_INDEX = re.compile(r"\s*-?[0-9]+\.?[0-9]*\s*\Z")


def _srt_unreadable(line: int, name: str) -> ReadProblem:
    return ReadProblem(N_("Subtitles", "Line {line} of “{name}” could not be read as a subtitle: check its number "
                                       "and its times (like 00:01:02,500 --> 00:01:04,000).").format(
        line=line, name=name))


def _srt_milliseconds(hours: str, minutes: str, seconds: str, millis: str | None) -> int:
    # The srt library reads the last field as a count of milliseconds, whatever its width.
    return ((int(hours) * 60 + int(minutes)) * 60 + int(seconds)) * 1000 + (int(millis) if millis else 0)


def _srt_cue(match: re.Match, line: int) -> FileCue:
    h1, m1, s1, ms1, h2, m2, s2, ms2, rest = match.groups()
    return FileCue(_srt_milliseconds(h1, m1, s1, ms1), _srt_milliseconds(h2, m2, s2, ms2), [], line, rest)


def _bounded_digits(line: str) -> bool:
    """Whether a line's runs of digits are short enough to be read as numbers at no great cost
    (a line of a million digits is no time)."""
    return len(line) <= 4096 or max(map(len, re.findall(r"\d+", line)), default=0) <= 4096


def read_srt_text(text: str, name: str, cancelled: CancelCheck | None = None) -> Iterator[FileCue]:
    """The cues of SRT text, each as soon as its text is complete; ReadProblem naming the first line
    that cannot be read."""
    counter = _Counter(name, cancelled)
    cue: FileCue | None = None  # the cue whose text is being read
    in_text = False  # the last line was part of cue's text (no empty line since)
    held: tuple[int, str] | None = None  # an index line, waiting for the line after it to say what it is
    gap: list[str] = []  # empty lines after cue's text: its own if more text follows (as the srt library)

    def add_text(line: str) -> None:
        cue.lines.extend(gap)
        cue.lines.append(line)
        gap.clear()

    for number, line in numbered_lines(text):
        if held is not None:
            held_number, held_line = held
            held = None
            match = _SRT_TIMING.match(line) if _bounded_digits(line) else None
            if match is not None:  # an index and times: a new cue, with or without an empty line before
                if cue is not None:
                    yield counter.take(cue)
                cue, in_text = _srt_cue(match, number), True
                gap.clear()
                continue
            if not in_text and _SRT_TIMESTAMP_START.match(line):
                raise _srt_unreadable(held_number, name)  # a number, then times that cannot be read
            if cue is None:
                raise _srt_unreadable(held_number, name)
            add_text(held_line)  # text that only looks like a number
            in_text = True
        if not line.strip():
            if cue is not None and cue.lines:
                gap.append("")
            in_text = False
            continue
        if _SRT_INDEX.match(line):
            held = (number, line)
            continue
        if not in_text:
            if _SRT_TIMESTAMP_START.match(line):
                match = _SRT_TIMING.match(line) if _bounded_digits(line) else None
                if match is None:
                    raise _srt_unreadable(number, name)
                if cue is not None:
                    yield counter.take(cue)
                cue, in_text = _srt_cue(match, number), True
                gap.clear()
                continue
            if cue is None:
                raise _srt_unreadable(number, name)
        # Text: the cue's own, or after an empty line inside it (forgiven, as the srt library does).
        add_text(line)
        in_text = True
    if held is not None:
        if cue is None:
            raise _srt_unreadable(held[0], name)
        add_text(held[1])
    if cue is not None:
        yield counter.take(cue)


# --- WebVTT ---------------------------------------------------------------------------------------


def _vtt_unreadable(line: int, name: str, detail: str | None = None) -> ReadProblem:
    return ReadProblem(N_("Subtitles", "Line {line} of “{name}” could not be read as a subtitle: check its times "
                                       "(like 00:01:02.500 --> 00:01:04.000) and the empty line before it.").format(
        line=line, name=name), detail)


def _vtt_blocks(text: str, name: str) -> Iterator[tuple[int, list[str]]]:
    """(first line's number, lines) of each block, as webvtt-py's strict reading finds them: a block ends at an
    empty line, and a line with "-->" that cannot be the current block's timings line is refused."""
    block: list[str] = []
    first = 0
    in_header = True
    for number, line in numbered_lines(text):
        if number == 1 and not line.startswith("WEBVTT"):
            raise ReadProblem(N_("Subtitles", "Line 1 of “{name}” does not say WEBVTT, so it is not a WebVTT "
                                              "subtitle file.").format(name=name))
        starts_new = bool(block and "-->" in line and (in_header or len(block) > 1 or "-->" in block[0]))
        if not line or starts_new:
            if line and not in_header:
                raise _vtt_unreadable(number, name)
            if block:
                yield first, block
                block, in_header = [], False
        if line:
            if not block:
                first = number
            block.append(line)
    if block:
        yield first, block


def read_vtt_text(text: str, name: str, cancelled: CancelCheck | None = None) -> Iterator[FileCue]:
    """The cues of WebVTT text (styles, regions and notes left out); ReadProblem naming the first line that
    cannot be read."""
    from webvtt.errors import MalformedCaptionError
    from webvtt.models import Caption
    from webvtt.vtt import WebVTTCommentBlock, parse_item

    counter = _Counter(name, cancelled)
    seen_cue = False  # as webvtt-py: a region may only come before the first cue
    for first, block in _vtt_blocks(text, name):
        arrow = any("-->" in line for line in block)
        if arrow and not all(map(_bounded_digits, block)):
            raise _vtt_unreadable(first, name)
        try:
            item = parse_item(block, True, seen_cue)
        except (MalformedCaptionError, ValueError) as error:
            raise _vtt_unreadable(first, name, str(error)) from None
        seen_cue = seen_cue or arrow
        if item is None:
            if arrow and not WebVTTCommentBlock.is_valid(block):
                raise _vtt_unreadable(first, name)
            continue  # a note, or the header
        if not isinstance(item, Caption):
            continue  # a style or a region
        timing = 0 if "-->" in block[0] else 1
        yield counter.take(FileCue(item.start_time.in_milliseconds(), item.end_time.in_milliseconds(),
                                   item.text.split("\n"), first + timing,
                                   _after_end_time(block[timing].split("-->", 1)[1]), item.voice))


_VTT_END_TIME = re.compile(r"\s*(?:\d+:)?\d+:\d+\.\d+")


def _after_end_time(after_arrow: str) -> str:
    """What follows the end time on a timings line (the cue settings, with the space before them)."""
    match = _VTT_END_TIME.match(after_arrow)
    return after_arrow[match.end():] if match else ""
