"""`voxdesk models list|download|import`: the model store from the command line."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from desktop.cli.common import fail, whisper_store
from desktop.core.common.errors import UserFacingError
from desktop.core.common.model_origin import unverified_note
from desktop.core.common.printable import printable


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
    imported.add_argument("--name", default=None,
                          help="the name in the model list; a copy of an official model may take its name (base)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from desktop.cli.progress import ProgressLine

    store = whisper_store()
    try:
        if args.action == "list":
            entries = store.catalog()
            for entry in entries:
                print(_list_line(entry))
            for source in dict.fromkeys(e.unverified_source for e in entries if e.unverified_source):
                print("\n" + unverified_note(source))
        elif args.action == "download":
            bar = ProgressLine(f"Downloading {args.name}")
            model = store.download(args.name, args.format, progress=bar.bytes)
            bar.done(f"saved in {printable(model.path)}")
        else:
            model = store.import_model(args.path, args.name)
            official = " as a copy of the official model" if store.info(model.name) else ""
            print(f"Imported {printable(model.name)} ({model.format}){official}.")
    except UserFacingError as error:
        return fail(error.message)
    except KeyboardInterrupt:
        print("\nCancelled.", file=sys.stderr)
        return 130
    return 0


def _list_line(entry) -> str:
    """One model: name, size, the formats on this computer and where they come from."""
    have = [fmt for fmt, present in entry.downloaded.items() if present]
    where = ""
    if entry.imported:
        where = "imported copy" if entry.info is not None else "imported"
    elif entry.shared:
        where = "from a shared folder"
    if entry.unverified_source:
        where = ", ".join(filter(None, [where, f"not verified: from {printable(entry.unverified_source)}"]))
    notes = ", ".join(filter(None, ["on this computer: " + ", ".join(have) if have else "", where]))
    return f"{entry.name:<16} {entry.size_mb:>6} MB  {notes}".rstrip()
