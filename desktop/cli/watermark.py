"""`voxdesk watermark FILE...`: whether recordings carry the watermark VoxDesk puts on speech it makes."""
from __future__ import annotations

import argparse
from pathlib import Path

from desktop.cli.common import fail
from desktop.core.common.errors import ModelError, UserFacingError
from desktop.core.common.printable import printable


def add_parser(commands) -> None:
    parser = commands.add_parser(
        "watermark",
        help="check whether recordings carry VoxDesk's watermark",
        description="Say for each file whether it carries the inaudible watermark (Resemble AI's PerTh) that "
                    "VoxDesk puts on every cloned voice. Exit status 0 when every file carries it, 1 otherwise.",
    )
    parser.add_argument("files", nargs="+", type=Path, metavar="FILE", help="audio or video files")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from desktop.engines.voices.watermark import DETECTION_THRESHOLD, MIN_SECONDS, recording_score

    all_marked = True
    for path in args.files:
        try:
            score = recording_score(path)
        except ModelError as error:  # the detector itself cannot load
            return fail(error.message)
        except UserFacingError as error:
            verdict, marked = f"cannot be read: {error.message}", False
        else:
            marked = score is not None and score >= DETECTION_THRESHOLD
            if score is None:
                verdict = f"too short to tell (under {MIN_SECONDS:g} s)"
            else:
                verdict = ("carries VoxDesk's watermark" if marked else "no VoxDesk watermark found") + \
                    f" (score {score:.2f})"
        all_marked = all_marked and marked
        print(f"{printable(path)}: {verdict}")
    return 0 if all_marked else 1
