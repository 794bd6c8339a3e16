"""`voxdesk voices sentence|add|list|remove`: the voice library from the command line.

Adding a voice takes two steps, because the consent sentence has to be read aloud in between:

    voxdesk voices sentence --name "John Smith" --language en
        (prints the sentence with a fresh code; John records himself reading it)
    voxdesk voices add "Announcer" --sample john.wav --consent consent.wav --code 4821

The same checks as in the window run on the way: the sample's quality, the consent recording
transcribed by VoxDesk's Whisper and compared with the sentence, and the two voices compared.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from desktop.cli.common import fail, whisper_store
from desktop.core.common.errors import UserFacingError
from desktop.core.common.printable import printable


def add_parser(commands) -> None:
    parser = commands.add_parser(
        "voices",
        help="list, add or remove saved voices for cloning",
        description="The saved voices that `voxdesk clone` can speak in.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    sentence = actions.add_parser("sentence", help="print a consent sentence (with a fresh code) to record")
    sentence.add_argument("--name", required=True, help="the name of the person whose voice it is")
    sentence.add_argument("--language", choices=("en", "zh"), default="en")

    add = actions.add_parser("add", help="add a voice from a sample and a recorded consent sentence")
    add.add_argument("voice", metavar="NAME", help="the name the voice gets in the library")
    add.add_argument("--sample", type=Path, action="append", required=True, metavar="FILE",
                     help="a recording of the person speaking, 15-30 s (repeat for several)")
    add.add_argument("--consent", type=Path, required=True, metavar="FILE",
                     help="the person reading the consent sentence from `voxdesk voices sentence`")
    add.add_argument("--code", required=True, help="the code of that consent sentence")
    add.add_argument("--whisper-model", default="base",
                     help="the Whisper model that checks the consent recording (default: base)")
    add.add_argument("--accept-warnings", action="store_true",
                     help="save even when the sample is short, noisy or distorted")

    listing = actions.add_parser("list", help="the saved voices")
    listing.add_argument("--json", action="store_true", help="machine-readable output")

    remove = actions.add_parser("remove", help="delete a saved voice and its recordings")
    remove.add_argument("voice", metavar="NAME")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from desktop.core.voices.library import VoiceLibrary

    library = VoiceLibrary()
    try:
        if args.action == "sentence":
            prompt = library.issue_prompt(args.name, args.language)
            print(prompt.text)
            print(f"\nRecord {prompt.name} reading this sentence, then add the voice with --code {prompt.code} "
                  f"(valid for 7 days).", file=sys.stderr)
            return 0
        if args.action == "list":
            return _list(library, as_json=args.json)
        if args.action == "remove":
            voice = library.get(args.voice)
            library.delete(voice)
            print(f"Removed the voice “{printable(voice.name)}”.")
            return 0
        return _add(library, args)
    except UserFacingError as error:
        return fail(error.message)


def _list(library, *, as_json: bool) -> int:
    voices = library.list()
    if as_json:
        print(json.dumps([
            {"name": v.name, "language": v.language, "created": v.created, "samples": [str(p) for p in v.sample_paths],
             "consent": {"name": v.consent.name, "date": v.consent.date, "similarity": v.consent.similarity},
             "problem": v.problem()}
            for v in voices
        ], indent=2, ensure_ascii=False))
        return 0
    if not voices:
        print("No saved voices yet. Add one with `voxdesk voices sentence` and `voxdesk voices add`.")
        return 0
    for voice in voices:
        problem = voice.problem()
        state = f"  ({problem})" if problem else ""
        print(f"{printable(voice.name):<24} {voice.language:<3} added {voice.created[:10]}  "
              f"consent: {printable(voice.consent.name)}, {voice.consent.date}{state}")
    return 0


def _add(library, args: argparse.Namespace) -> int:
    from desktop.cli.progress import ProgressLine
    from desktop.core.voices.recordings import check_lengths, read_consent
    from desktop.core.gpu.fallback import FallbackLog
    from desktop.engines.voices.cloning import VoiceEnrollment
    from desktop.engines.voices.speaker import SpeakerEncoder
    from desktop.engines.transcription.transcriber import Transcriber

    prompt = library.pending_prompt(args.code)
    check_lengths(args.sample, args.consent)  # from the headers: an hour-long file is refused before it is read
    store = whisper_store()
    transcriber = Transcriber(store, FallbackLog())
    enrollment = VoiceEnrollment(library, transcriber, SpeakerEncoder(), whisper_model=args.whisper_model)

    samples = []
    for path in args.sample:
        prepared = enrollment.import_sample(path)
        for issue in prepared.report.issues:
            print(f"{printable(path.name)}: {issue.message}", file=sys.stderr)
        if not prepared.report.accepted:
            return fail(f"The sample {printable(path.name)} cannot be used.")
        if prepared.report.warnings and not args.accept_warnings:
            return fail("Record a better sample, or run again with --accept-warnings to use this one.", 2)
        samples.append(prepared)

    missing = enrollment.missing_whisper_model(prompt.language)
    if missing:
        name, fmt = missing
        bar = ProgressLine(f"Downloading the Whisper {name} model to check the consent recording")
        store.download(name, fmt, progress=bar.bytes)
        bar.done("downloaded")

    consent, rate = read_consent(args.consent)
    line = ProgressLine(f"Adding “{printable(args.voice)}”")
    try:
        voice = enrollment.enroll(args.voice, prompt, samples, consent, rate,
                                  on_status=lambda text: line.update(0.5, text))
    except UserFacingError:
        line.done("not added")
        raise
    finally:
        transcriber.release()
    line.done(f"added; consent of {printable(voice.consent.name)} verified "
              f"(voice similarity {voice.consent.similarity:.2f})")
    return 0
