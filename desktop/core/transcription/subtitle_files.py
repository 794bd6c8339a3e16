"""Reading SRT and WebVTT files made elsewhere, and writing SRT back: for `voxdesk subtitles` and the
editor.

Parsing is the `srt` and `webvtt-py` libraries'; what they cannot read becomes a sentence naming the
line of the file.
"""
from __future__ import annotations

import html
import os
from datetime import timedelta
from pathlib import Path

from desktop.core.common.atomic import atomic_write_text
from desktop.core.common.errors import UserFacingError
from desktop.core.common.i18n import N_
from desktop.core.common.safe_files import read_limited
from desktop.core.common.safe_text import clean_text
from desktop.core.speakers.names import clean_name
from desktop.core.transcription.subtitle_speakers import numbered_speakers, with_prefix_speakers
from desktop.core.transcription.subtitles import Cue, display_width
from desktop.core.transcription.transcript import Segment, Transcript

MAX_SUBTITLE_BYTES = 20 * 1024 * 1024  # far more than any film's subtitles


class SubtitleFileError(UserFacingError):
    """A subtitle file that cannot be read; the message names the line."""


def _read_text(path: Path) -> str:
    """The file's text, bounded in size; a sentence naming the line where it is not UTF-8."""
    try:
        data = read_limited(path, MAX_SUBTITLE_BYTES, N_("Subtitles", "“{name}” is too large to be a subtitle "
                                                          "file.").format(name=path.name), error=SubtitleFileError)
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise SubtitleFileError(N_("Subtitles", "Line {line} of “{name}” is not UTF-8 text: save the file as "
                                   "UTF-8 and open it again.").format(line=line, name=path.name)) from None
    except OSError as error:
        raise SubtitleFileError(N_("Subtitles", "“{name}” could not be opened: check that it is still there and "
                                   "that you may read it.").format(name=path.name), detail=str(error)) from None
    return text


def read_subtitles(path: str | os.PathLike[str]) -> list[Cue]:
    """The cues of an .srt or .vtt file (by its name's ending), in the file's order."""
    return read_vtt(path) if Path(path).suffix.lower() == ".vtt" else read_srt(path)


def read_srt(path: str | os.PathLike[str]) -> list[Cue]:
    """The cues of an SRT file, in the file's order."""
    import srt

    path = Path(path)
    text = _read_text(path)
    cues: list[Cue] = []
    try:
        for subtitle in srt.parse(text):
            cues.append(Cue(subtitle.start.total_seconds(), subtitle.end.total_seconds(),
                            clean_text(subtitle.content, newlines=True).split("\n")))
    except srt.SRTParseError as error:
        rest = text[error.expected_start:]
        line = text.count("\n", 0, error.expected_start + len(rest) - len(rest.lstrip())) + 1
        raise SubtitleFileError(N_("Subtitles", "Line {line} of “{name}” could not be read as a subtitle: check "
                                   "its number and its times (like 00:01:02,500 --> 00:01:04,000).").format(
                                       line=line, name=path.name), detail=str(error)) from None
    return cues


def read_vtt(path: str | os.PathLike[str]) -> list[Cue]:
    """The cues of a WebVTT file, in the file's order: their text without the cue's tags (voice,
    bold, …) and with its character references (&amp;) read, the name of a voice tag as the cue's
    speaker. Styles, regions and notes are left out."""
    from webvtt import WebVTT
    from webvtt.errors import MalformedCaptionError, MalformedFileError

    path = Path(path)
    text = _read_text(path)
    try:
        captions = WebVTT.from_string(text, strict=True).captions
    except MalformedFileError:
        raise SubtitleFileError(N_("Subtitles", "Line 1 of “{name}” does not say WEBVTT, so it is not a WebVTT "
                                   "subtitle file.").format(name=path.name)) from None
    except MalformedCaptionError as error:
        raise SubtitleFileError(N_("Subtitles", "Line {line} of “{name}” could not be read as a subtitle: check "
                                   "its times (like 00:01:02.500 --> 00:01:04.000) and the empty line before "
                                   "it.").format(line=_first_unreadable_vtt_line(text), name=path.name),
                                detail=str(error)) from None
    return [Cue(caption.start_time.in_milliseconds() / 1000, caption.end_time.in_milliseconds() / 1000,
                clean_text(html.unescape(caption.text), newlines=True).split("\n"), _voice(caption))
            for caption in captions]


def _voice(caption) -> str | None:
    """The speaker a cue's voice tag names (<v Anna>, <v.loud Anna>; the first, when it has several)."""
    voice = caption.voice
    name = clean_name(clean_text(html.unescape(voice))) if voice else ""
    return name or None


def _first_unreadable_vtt_line(text: str) -> int:
    """The line (from 1) where strict WebVTT reading first fails: the fewest lines from the top that
    the library refuses, found by halving (the library says which block, not which line)."""
    from webvtt import WebVTT
    from webvtt.errors import MalformedCaptionError, MalformedFileError

    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")

    def refused(count: int) -> bool:
        try:
            WebVTT.from_string("\n".join(lines[:count]), strict=True)
        except (MalformedCaptionError, MalformedFileError):
            return True
        return False

    low, high = 1, len(lines)  # refused(high) holds: the whole text was refused
    while low < high:
        middle = (low + high) // 2
        if refused(middle):
            high = middle
        else:
            low = middle + 1
    return high


def transcript_from_cues(cues: list[Cue], source: str | os.PathLike[str]) -> Transcript:
    """Subtitles made elsewhere as a transcript of their recording: one line per cue, in time order,
    the cue's lines joined (with a space between Latin words, none between Chinese characters). The
    speakers that voice tags or names in front of the text give become the lines' speakers (see
    subtitle_speakers), so that subtitles VoxDesk exported with speakers come back with them."""
    cues = sorted(with_prefix_speakers(cues), key=lambda cue: cue.start)
    segments = [Segment(cue.start, cue.end, _joined(cue.lines)) for cue in cues]
    wide = sum(display_width(segment.text) - len(segment.text) for segment in segments)
    latin = sum(len(segment.text) for segment in segments) - wide
    numbers, names = numbered_speakers([cue.speaker for cue in cues], chinese=wide > latin)
    for segment, number in zip(segments, numbers):
        segment.speaker = number
    return Transcript(segments=segments, language="zh" if wide > latin else None,
                      duration=max((segment.end for segment in segments), default=0.0), source=str(source),
                      speaker_names=names)


def _joined(lines: list[str]) -> str:
    text = ""
    for line in (line.strip() for line in lines):
        if text and line and not (display_width(text[-1]) == 2 and display_width(line[0]) == 2):
            text += " "
        text += line
    return text


def shifted(cues: list[Cue], seconds: float) -> list[Cue]:
    """Every cue earlier or later by seconds; refused when one would start before 0:00."""
    if cues and min(cue.start for cue in cues) + seconds < 0:
        first = min(range(len(cues)), key=lambda i: cues[i].start)
        raise SubtitleFileError(N_("Subtitles", "Subtitle {number} would start before the recording does: "
                                   "shift by less.").format(number=first + 1))
    return [Cue(cue.start + seconds, cue.end + seconds, list(cue.lines), cue.speaker) for cue in cues]


def write_srt(path: str | os.PathLike[str], cues: list[Cue]) -> None:
    """Write cues as SRT, numbered from 1, atomically."""
    import srt

    subtitles = [srt.Subtitle(number, timedelta(seconds=round(cue.start, 3)), timedelta(seconds=round(cue.end, 3)),
                              cue.text) for number, cue in enumerate(cues, start=1)]
    atomic_write_text(Path(path), srt.compose(subtitles, reindex=False), overwrite=True)
