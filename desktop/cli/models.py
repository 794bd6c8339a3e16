"""`voxdesk models list|download|import`: the model store from the command line."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from desktop.cli.common import fail
from desktop.core.common.errors import UserFacingError


def add_parser(commands) -> None:
    parser = commands.add_parser("models", help="list, download or import Whisper models")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    actions.add_parser("list", help="the models VoxDesk knows and which are on this computer")
    download = actions.add_parser("download", help="download a model now")
    download.add_argument("name")
    download.add_argument("--format", choices=("pt", "ct2"), default="ct2",
                          help="pt: openai-whisper checkpoint (GPU engine); ct2: faster-whisper (CPU engine)")
    imported = actions.add_parser("import", help="copy in a .pt checkpoint or a CTranslate2 folder")
    imported.add_argument("path", type=Path)
    imported.add_argument("--name", default=None)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from desktop.cli.progress import ProgressLine
    from desktop.core.transcription.whisper_models import ModelStore
    from desktop.core.common.paths import models_dir

    store = ModelStore(models_dir())
    try:
        if args.action == "list":
            for entry in store.catalog():
                have = [fmt for fmt, present in entry.downloaded.items() if present]
                print(f"{entry.name:<16} {entry.size_mb:>6} MB  {'downloaded: ' + ', '.join(have) if have else ''}")
        elif args.action == "download":
            bar = ProgressLine(f"Downloading {args.name}")
            model = store.download(args.name, args.format, progress=bar.bytes)
            bar.done(f"saved in {model.path}")
        else:
            model = store.import_model(args.path, args.name)
            print(f"Imported {model.name} ({model.format}).")
    except UserFacingError as error:
        return fail(error.message)
    except KeyboardInterrupt:
        print("\nCancelled.", file=sys.stderr)
        return 130
    return 0
