"""`voxdesk speakers add|list|rename|remove|export|import`: the known voices from the command line.

    voxdesk speakers add "Anna Li" --sample anna.wav --agreed
        (--agreed: you confirm that Anna agreed to be recognised in this office's recordings; your
        account name and the time are recorded with the voice)
    voxdesk transcribe meeting.wav --speakers auto
        (speakers that are known voices get their names in the subtitles)

Only the clean speech of one person goes in (at least 6 seconds); what is kept is the voice's
embeddings and the agreement, not the recording.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from desktop.cli.common import fail
from desktop.core.common.errors import UserFacingError
from desktop.core.common.printable import printable


def add_parser(commands) -> None:
    parser = commands.add_parser(
        "speakers",
        help="list, add or remove known voices, named in transcripts",
        description="Known voices: colleagues VoxDesk names when it labels speakers, each with their agreement.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    add = actions.add_parser("add", help="remember a person's voice from a recording of them speaking alone")
    add.add_argument("voice", metavar="NAME", help="the person's name, as transcripts will show it")
    add.add_argument("--sample", type=Path, required=True, metavar="FILE",
                     help="a recording of only this person speaking, at least 6 s of speech")
    add.add_argument("--agreed", action="store_true",
                     help="confirm that this person agreed to be recognised in this office's recordings "
                          "(required; your account name and the time are kept with the voice)")

    listing = actions.add_parser("list", help="the known voices")
    listing.add_argument("--json", action="store_true", help="machine-readable output")

    rename = actions.add_parser("rename", help="give a known voice another name")
    rename.add_argument("voice", metavar="NAME")
    rename.add_argument("new_name", metavar="NEW_NAME")

    remove = actions.add_parser("remove", help="delete everything kept for a known voice")
    remove.add_argument("voice", metavar="NAME")

    export = actions.add_parser("export", help="write a known voice, with its agreement, to one file")
    export.add_argument("voice", metavar="NAME")
    export.add_argument("file", type=Path, metavar="FILE")
    export.add_argument("--overwrite", action="store_true", help="replace FILE if it exists")

    imported = actions.add_parser("import", help="add a known voice from a file exported by VoxDesk")
    imported.add_argument("file", type=Path, metavar="FILE")
    imported.add_argument("--name", default=None, help="the name to give it here (default: its own)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from desktop.core.speakers.known_voices import KnownVoiceStore

    store = KnownVoiceStore()
    try:
        if args.action == "list":
            return _list(store, as_json=args.json)
        if args.action == "add":
            return _add(store, args)
        if args.action == "rename":
            voice = store.rename(store.get(args.voice), args.new_name)
            print(f"Renamed the known voice to “{printable(voice.name)}”.")
        elif args.action == "remove":
            voice = store.get(args.voice)
            store.remove(voice)
            print(f"Removed the known voice “{printable(voice.name)}” and everything kept for it.")
        elif args.action == "export":
            path = store.export(store.get(args.voice), args.file, overwrite=args.overwrite)
            print(f"Exported “{printable(args.voice)}” with its agreement to {printable(str(path))}.")
        elif args.action == "import":
            voice = store.import_file(args.file, args.name)
            print(f"Imported the known voice “{printable(voice.name)}”.")
        return 0
    except UserFacingError as error:
        return fail(error.message)


def _add(store, args: argparse.Namespace) -> int:
    from desktop.core.speakers import agreement
    from desktop.core.speakers.known_voices import check_name
    from desktop.engines.speakers.enrolment import Enroller

    if not args.agreed:
        return fail("VoxDesk keeps a voice only with the person's agreement to be recognised. Ask them, then "
                    "add --agreed to confirm that they agreed.", code=2)
    name = check_name(args.voice)  # before the model loads: a bad name is said at once
    store.free_name(name)
    speech = Enroller().from_sample(args.sample)
    voice = store.add(name, speech.embeddings, speech.seconds, agreement.confirmed())
    print(f"Added the known voice “{printable(voice.name)}” from {speech.seconds:.1f} s of speech "
          f"(agreement confirmed by {printable(voice.agreement.confirmed_by)}).")
    return 0


def _list(store, *, as_json: bool) -> int:
    from desktop.core.speakers.agreement import RECORDED

    voices, damaged = store.read()
    if as_json:
        print(json.dumps({
            "voices": [{"name": v.name, "agreement": v.agreement.to_dict(), "speech_seconds": v.speech_seconds,
                        "recordings": v.recordings, "added": v.added_at} for v in voices],
            "damaged": [{"folder": d.folder, "problem": d.message} for d in damaged],
        }, indent=2, ensure_ascii=False))
        return 0
    if not voices and not damaged:
        print("No known voices yet. Add one with `voxdesk speakers add NAME --sample FILE --agreed`.")
    for voice in voices:
        how = ("read the agreement sentence" if voice.agreement.how == RECORDED
               else f"confirmed by {printable(voice.agreement.confirmed_by)}")
        recordings = "1 recording" if voice.recordings == 1 else f"{voice.recordings} recordings"
        print(f"{printable(voice.name):<24} agreed {voice.agreement.agreed_at[:10]} ({how}); "
              f"{voice.speech_seconds:.0f} s of speech; heard in {recordings}")
    for entry in damaged:
        print(f"voxdesk: {entry.message}", file=sys.stderr)
    return 0

