"""Reading SRT and WebVTT files made elsewhere, and writing SRT back: for `voxdesk subtitles` and the
editor.

Files are read in one pass by subtitle_reader (WebVTT blocks by `webvtt-py`): what cannot be read
becomes a sentence naming the line of the file, and `voxdesk subtitles shift` changes only the
times, keeping every other character of the file as it was.
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
from desktop.core.transcription.cue_times import MAX_CUE_HOURS, MAX_CUE_MILLISECONDS, MAX_CUE_SECONDS
from desktop.core.transcription.subtitle_reader import (
    MAX_CUES, CancelCheck, FileCue, ReadProblem, SubtitleReadCancelled, numbered_lines, read_srt_text, read_vtt_text)
from desktop.core.transcription.subtitle_speakers import numbered_speakers, with_prefix_speakers
from desktop.core.transcription.subtitles import Cue, display_width
from desktop.core.transcription.transcript import Segment, Transcript

MAX_SUBTITLE_BYTES = 20 * 1024 * 1024  # far more than any film's subtitles


class SubtitleFileError(UserFacingError):
    """A subtitle file that cannot be read; the message names the line."""


def _read_text(path: Path) -> str:
    """The file's text, bounded in size; a sentence naming the line where it is not UTF-8."""
    return _read_text_as_written(path)[0]


def _read_text_as_written(path: Path, name: str | None = None) -> tuple[str, bool]:
    """The file's text and whether it started with a byte order mark; sentences name it `name`
    (the file's own name unless told)."""
    name = path.name if name is None else name
    try:
        data = read_limited(path, MAX_SUBTITLE_BYTES, N_("Subtitles", "“{name}” is too large to be a subtitle "
                                                          "file.").format(name=name), error=SubtitleFileError)
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise SubtitleFileError(N_("Subtitles", "Line {line} of “{name}” is not UTF-8 text: save the file as "
                                   "UTF-8 and open it again.").format(line=line, name=name)) from None
    except OSError as error:
        raise SubtitleFileError(N_("Subtitles", "“{name}” could not be opened: check that it is still there and "
                                   "that you may read it.").format(name=name), detail=str(error)) from None
    return text, data.startswith(b"\xef\xbb\xbf")


def read_subtitles(path: str | os.PathLike[str], *, cancelled: CancelCheck | None = None) -> list[Cue]:
    """The cues of an .srt or .vtt file (by its name's ending), in the file's order, read in one pass:
    a sentence naming the line of the first problem, at most MAX_CUES cues, times checked (cue_times).
    `cancelled` is asked every few hundred cues; SubtitleReadCancelled when it says yes."""
    return read_vtt(path, cancelled=cancelled) if _is_vtt(path) else read_srt(path, cancelled=cancelled)


def _is_vtt(path: str | os.PathLike[str]) -> bool:
    return Path(path).suffix.lower() == ".vtt"


def read_srt(path: str | os.PathLike[str], *, cancelled: CancelCheck | None = None) -> list[Cue]:
    """The cues of an SRT file, in the file's order."""
    path = Path(path)
    return [Cue(cue.start_ms / 1000, cue.end_ms / 1000, clean_text("\n".join(cue.lines), newlines=True).split("\n"))
            for cue in _file_cues(read_srt_text, _read_text(path), path, cancelled)]


def read_vtt(path: str | os.PathLike[str], *, cancelled: CancelCheck | None = None) -> list[Cue]:
    """The cues of a WebVTT file, in the file's order: their text without the cue's tags (voice,
    bold, …) and with its character references (&amp;) read, the name of a voice tag as the cue's
    speaker. Styles, regions and notes are left out."""
    path = Path(path)
    return [Cue(cue.start_ms / 1000, cue.end_ms / 1000,
                clean_text(html.unescape("\n".join(cue.lines)), newlines=True).split("\n"), _voice(cue.speaker))
            for cue in _file_cues(read_vtt_text, _read_text(path), path, cancelled)]


def _file_cues(reader, text: str, path: Path, cancelled: CancelCheck | None) -> list[FileCue]:
    try:
        return list(reader(text, path.name, cancelled))
    except ReadProblem as problem:
        raise SubtitleFileError(problem.message, detail=problem.detail) from None


def _voice(voice: str | None) -> str | None:
    """The speaker a cue's voice tag names (<v Anna>, <v.loud Anna>; the first, when it has several)."""
    name = clean_name(clean_text(html.unescape(voice))) if voice else ""
    return name or None


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
    """Every cue earlier or later by seconds; refused when one would start before 0:00 or end past the
    longest time a recording can last (cue_times)."""
    if cues:
        _check_shift([round(cue.start * 1000) for cue in cues], [round(cue.end * 1000) for cue in cues],
                     _milliseconds(seconds))
    return [Cue(cue.start + seconds, cue.end + seconds, list(cue.lines), cue.speaker) for cue in cues]


def shift_file(path: str | os.PathLike[str], seconds: float) -> int:
    """Move every cue of an .srt or .vtt file by seconds and save it in place, atomically; returns how
    many cues moved. Only the times change: numbers, position fields and cue settings, text, line
    ends and a byte order mark stay as they were. A link is followed, and the file it points to is
    the one changed (the link stays a link)."""
    given = Path(path)
    target = Path(os.path.realpath(given))
    text, bom = _read_text_as_written(target, given.name)
    cues = _file_cues(read_vtt_text if _is_vtt(given) else read_srt_text, text, given, None)
    moved = _milliseconds(seconds)
    if cues:
        _check_shift([cue.start_ms for cue in cues], [cue.end_ms for cue in cues], moved)
    separator = "." if _is_vtt(given) else ","
    by_line = {cue.timing_line: cue for cue in cues}
    lines = []
    for number, line in numbered_lines(text):
        cue = by_line.get(number)
        if cue is not None:
            line = (f"{_written_time(cue.start_ms + moved, separator)} --> "
                    f"{_written_time(cue.end_ms + moved, separator)}{cue.rest}")
        lines.append(line)
    newline = "\r\n" if "\r\n" in text else "\n"
    atomic_write_text(target, ("\ufeff" if bom else "") + newline.join(lines), overwrite=True)
    return len(cues)


def _milliseconds(seconds: float) -> int:
    """A shift in whole milliseconds; ValueError for one that is not a number or longer than a recording."""
    if not -MAX_CUE_SECONDS <= seconds <= MAX_CUE_SECONDS:  # NaN fails both
        raise ValueError(f"a shift of {seconds!r} s")
    return round(seconds * 1000)


def _check_shift(starts: list[int], ends: list[int], moved: int) -> None:
    """Refuse a shift that would start a cue before 0:00 or end one past MAX_CUE_SECONDS, naming it."""
    first = min(range(len(starts)), key=starts.__getitem__)
    if starts[first] + moved < 0:
        raise SubtitleFileError(N_("Subtitles", "Subtitle {number} would start before the recording does: "
                                   "shift by less.").format(number=first + 1))
    last = max(range(len(ends)), key=ends.__getitem__)
    if ends[last] + moved > MAX_CUE_MILLISECONDS:
        raise SubtitleFileError(N_("Subtitles", "Subtitle {number} would end after {hours} hours, longer than a "
                                   "recording can last: shift by less.").format(
            number=last + 1, hours=MAX_CUE_HOURS))


def _written_time(milliseconds: int, separator: str) -> str:
    hours, rest = divmod(milliseconds, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    seconds, rest = divmod(rest, 1000)
    return f"{hours:02d}:{minutes:02d}:{seconds:02d}{separator}{rest:03d}"


def write_srt(path: str | os.PathLike[str], cues: list[Cue]) -> None:
    """Write cues as SRT, numbered from 1, atomically."""
    import srt

    subtitles = [srt.Subtitle(number, timedelta(seconds=round(cue.start, 3)), timedelta(seconds=round(cue.end, 3)),
                              cue.text) for number, cue in enumerate(cues, start=1)]
    atomic_write_text(Path(path), srt.compose(subtitles, reindex=False), overwrite=True)
