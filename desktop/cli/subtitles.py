"""`voxdesk subtitles shift|check FILE`: retime an SRT or WebVTT file, or say where it is hard to read;
`embed` and `burn` (video_subtitles.py) put subtitles into a copy of a video."""
from __future__ import annotations

import argparse
import math
from pathlib import Path

from desktop.cli import video_subtitles
from desktop.cli.common import fail
from desktop.core.common.errors import UserFacingError
from desktop.core.common.i18n import N_
from desktop.core.common.printable import printable


def add_parser(commands) -> None:
    parser = commands.add_parser(
        "subtitles", help="shift or check an SRT or WebVTT subtitle file, or put one into a video",
        description="Work on an SRT or WebVTT (.vtt) file made by VoxDesk or another program.")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    shift = actions.add_parser(
        "shift", help="move every subtitle earlier or later",
        description="Move every subtitle of FILE by SECONDS (negative: earlier) and save the file in place; "
                    "only the times change. A link is followed: the file it points to is the one changed.")
    shift.add_argument("file", type=Path, metavar="FILE")
    shift.add_argument("--by", type=_shift_seconds, required=True, metavar="SECONDS", help="e.g. 1.5 or -0.25")
    check = actions.add_parser(
        "check", help="list subtitles that are hard to read",
        description="List the subtitles with more characters a second than a reader manages, shorter than "
                    "0.8 s, longer than 7 s (or the limits chosen in Settings), or overlapping the next. Exit status 1 when there is any, 2 when the file cannot be read.")
    check.add_argument("file", type=Path, metavar="FILE")
    check.add_argument("--latin-cps", type=float, metavar="N",
                       help="characters a second allowed in Latin text (default: as in Settings, 17 unless changed)")
    check.add_argument("--chinese-cps", type=float, metavar="N",
                       help="characters a second allowed in Chinese (default: as in Settings, 9 unless changed)")
    check.add_argument("--min-seconds", type=float, metavar="S",
                       help="shortest time a subtitle stays on screen (default: as in Settings, 0.8 unless changed)")
    check.add_argument("--max-seconds", type=float, metavar="S",
                       help="longest time a subtitle stays on screen (default: as in Settings, 7 unless changed)")
    video_subtitles.add_actions(actions)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from desktop.core.transcription.cue_checks import check_cues
    from desktop.core.transcription.subtitle_files import read_subtitles, shift_file

    if args.action in ("embed", "burn"):
        return video_subtitles.run(args)
    try:
        if args.action == "shift":
            moved = shift_file(args.file, args.by)
            print(f"{printable(args.file)}: {moved} subtitle(s) moved by {args.by:+g} s")
            return 0
        cues = read_subtitles(args.file)  # as the window reads it, WebVTT included
        found = check_cues(cues, _reading_limits(args))
    except UserFacingError as error:
        return fail(error.message, 2)  # 1 says "hard to read"; a file that cannot be read is another answer
    for number, warnings in found:
        cue = cues[number - 1]
        print(f"{number} ({cue.start:.3f}–{cue.end:.3f} s): {' '.join(warnings)}")
    print(f"{printable(args.file)}: {len(found)} of {len(cues)} subtitle(s) hard to read" if found else
          f"{printable(args.file)}: all {len(cues)} subtitle(s) read comfortably")
    return 1 if found else 0


def _shift_seconds(text: str) -> float:
    """--by: a number of seconds that moves cues no further than a recording can last."""
    from desktop.core.transcription.cue_times import MAX_CUE_HOURS, MAX_CUE_SECONDS

    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not math.isfinite(seconds) or abs(seconds) > MAX_CUE_SECONDS:
        raise argparse.ArgumentTypeError(N_(
            "Subtitles command", "takes a number of seconds, like 1.5 or -0.25, of at most {hours} hours either way, "
                                 "not {text}.").format(hours=MAX_CUE_HOURS, text=text))
    return seconds


def _reading_limits(args: argparse.Namespace):
    """The limits given on the command line, the rest as chosen in the window's Settings (their defaults
    where the settings cannot be read: that must not stop the check)."""
    from dataclasses import replace

    from desktop.core.transcription.cue_checks import ReadingLimits

    try:
        from desktop.settings import open_settings

        chosen = open_settings().reading_limits()
    except Exception:  # noqa: BLE001 - an unreadable or damaged settings file
        chosen = ReadingLimits()
    given = {name: getattr(args, name) for name in ("latin_cps", "chinese_cps", "min_seconds", "max_seconds")
             if getattr(args, name) is not None}
    for name, value in given.items():
        if not value > 0 or value == float("inf"):
            raise UserFacingError(N_("Subtitles command", "--{option} takes a number above 0.").format(
                option=name.replace("_", "-")))
    return replace(chosen, **given)
