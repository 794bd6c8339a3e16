"""Reading SRT files made elsewhere, and writing them back: for `voxdesk subtitles` and the editor.

Parsing is the `srt` library's; what it cannot read becomes a sentence naming the line of the file.
"""
from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

from desktop.core.common.atomic import atomic_write_text
from desktop.core.common.errors import UserFacingError
from desktop.core.common.i18n import N_
from desktop.core.common.safe_files import read_limited
from desktop.core.common.safe_text import clean_text
from desktop.core.transcription.subtitles import Cue

MAX_SUBTITLE_BYTES = 20 * 1024 * 1024  # far more than any film's subtitles


class SubtitleFileError(UserFacingError):
    """A subtitle file that cannot be read; the message names the line."""


def read_srt(path: str | os.PathLike[str]) -> list[Cue]:
    """The cues of an SRT file, in the file's order."""
    import srt

    path = Path(path)
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
