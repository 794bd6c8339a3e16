"""`voxdesk watermark FILE...`: whether recordings carry the watermark VoxDesk puts on speech it makes."""
from __future__ import annotations

import argparse
from pathlib import Path

from desktop.cli.common import fail
from desktop.core.common.errors import ModelError, UserFacingError

READ_RATE = 32000  # PerTh's own rate: nothing is resampled twice


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
    from desktop.core.common.audio import decode
    from desktop.engines.voices.watermark import DETECTION_THRESHOLD, MIN_SECONDS, watermark_score

    all_marked = True
    for path in args.files:
        try:
            samples = decode(path, sample_rate=READ_RATE)
            if len(samples) < MIN_SECONDS * READ_RATE:
                verdict, marked = f"too short to tell (under {MIN_SECONDS:g} s)", False
            else:
                score = watermark_score(samples, READ_RATE)
                marked = score >= DETECTION_THRESHOLD
                verdict = ("carries VoxDesk's watermark" if marked else "no VoxDesk watermark found") + \
                    f" (score {score:.2f})"
        except ModelError as error:  # the watermark detector itself cannot load
            return fail(error.message)
        except UserFacingError as error:
            verdict, marked = f"cannot be read: {error.message}", False
        all_marked = all_marked and marked
        print(f"{path}: {verdict}")
    return 0 if all_marked else 1
