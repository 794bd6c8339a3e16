"""`voxdesk subtitles embed|burn`: a copy of a video with subtitle tracks in it, or with one transcript
burned into the picture; the same code as File → Export video with subtitles… in the window."""
from __future__ import annotations

import argparse
from pathlib import Path

from desktop.cli.common import fail
from desktop.core.common.errors import Cancelled, UserFacingError
from desktop.core.common.i18n import N_
from desktop.core.common.printable import printable


def add_actions(actions) -> None:
    embed = actions.add_parser(
        "embed", help="put subtitle files into a copy of a video as tracks",
        description="Copy VIDEO to OUT with each SUBS file as a subtitle track (the first is the default): MP4 "
                    "gets mov_text, MKV SRT, WebM WebVTT tracks. Picture and sound are copied as they are.")
    embed.add_argument("video", type=Path, metavar="VIDEO")
    embed.add_argument("subs", type=Path, nargs="+", metavar="SUBS", help=".srt or .vtt files")
    embed.add_argument("-o", "--output", type=Path, required=True, metavar="OUT", help=".mkv, .mp4 or .webm")
    embed.add_argument("--language", metavar="CODES",
                       help="the tracks' languages in the order of SUBS, e.g. zh,en")
    embed.add_argument("--overwrite", action="store_true", help="replace OUT if it already exists")
    burn = actions.add_parser(
        "burn", help="burn a subtitle file into a copy of a video's picture",
        description="Copy VIDEO to OUT with the text of SUBS drawn into the picture (re-encoded with H.264; the "
                    "sound is copied).")
    burn.add_argument("video", type=Path, metavar="VIDEO")
    burn.add_argument("subs", type=Path, metavar="SUBS", help="an .srt or .vtt file")
    burn.add_argument("-o", "--output", type=Path, required=True, metavar="OUT", help=".mp4 or .mkv")
    burn.add_argument("--size", choices=("small", "medium", "large"), default="medium")
    burn.add_argument("--colour", "--color", dest="colour", choices=("white", "yellow", "cyan"), default="white")
    burn.add_argument("--position", choices=("bottom", "top"), default="bottom")
    burn.add_argument("--box", action="store_true", help="a dark box behind the text instead of an outline")
    burn.add_argument("--margin", choices=("narrow", "normal", "wide"), default="normal")
    burn.add_argument("--quality", type=int, default=18, metavar="CRF",
                      help="H.264 quality, 0 (best) to 51; 18 (the default) looks like the source")
    burn.add_argument("--overwrite", action="store_true", help="replace OUT if it already exists")


def run(args: argparse.Namespace) -> int:
    from desktop.cli.progress import ProgressLine
    from desktop.core.common.atomic import ExportExists

    line = ProgressLine(printable(args.output.name))
    try:
        if args.action == "embed":
            report = _embed(args, line)
            counts = ", ".join(str(n) for n in report.cues_written)
            summary = f"saved with {len(report.cues_written)} subtitle track(s) ({counts} subtitles)"
        else:
            report = _burn(args, line)
            summary = f"saved, subtitles burned into {report.frames_with_text} of {report.frames} frames"
    except ExportExists as error:
        return fail(f"{error.message} Use --overwrite to replace it.", 2)
    except UserFacingError as error:
        return fail(error.message, 2)
    except Cancelled:
        return fail("stopped; nothing was saved.", 130)
    except KeyboardInterrupt:
        return fail("stopped; nothing was saved.", 130)
    for note in report.notes:
        print(f"Note: {note}")
    line.done(summary)
    return 0


def _embed(args, line):
    from desktop.core.video.soft_subtitles import embed, read_track

    languages = [code.strip() for code in args.language.split(",")] if args.language else []
    if len(languages) > len(args.subs):
        raise UserFacingError(N_("Subtitles command", "--language names {codes} languages for {files} subtitle "
                                                      "file(s); give one for each file.").format(
            codes=len(languages), files=len(args.subs)))
    tracks = [read_track(path, languages[i] if i < len(languages) and languages[i] else None)
              for i, path in enumerate(args.subs)]
    return embed(args.video, tracks, args.output, overwrite=args.overwrite, progress=line.update)


def _burn(args, line):
    from desktop.core.video.burn import burn
    from desktop.core.video.burn_style import BurnStyle
    from desktop.core.video.soft_subtitles import read_track
    from desktop.workers.subtitle_painter import SubtitlePainter, ensure_gui_application

    style = BurnStyle(size=args.size, colour=args.colour, position=args.position,
                      background="box" if args.box else "outline", margin=args.margin)
    track = read_track(args.subs)
    ensure_gui_application()

    def progress(fraction: float, seconds_left: float | None) -> None:
        line.update(fraction, f"about {_duration(seconds_left)} left" if seconds_left is not None else "")

    return burn(args.video, track, args.output, SubtitlePainter(style), crf=args.quality,
                overwrite=args.overwrite, progress=progress)


def _duration(seconds: float) -> str:
    seconds = max(0, round(seconds))
    return f"{seconds // 60} min {seconds % 60:02d} s" if seconds >= 60 else f"{seconds} s"
