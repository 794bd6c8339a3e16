"""`voxdesk clone --voice NAME --text … --output out.wav`: the Clone tab's Speak, headless."""
from __future__ import annotations

import argparse
import signal
import sys
import threading
from pathlib import Path

from desktop.core.errors import Cancelled, UserFacingError


def add_parser(commands) -> None:
    parser = commands.add_parser(
        "clone",
        help="speak text in a saved voice and save it as a WAV or MP3 file",
        description="Speak text in a voice from `voxdesk voices list` (on the CPU) and save it. The voice "
                    "must have a verified consent recording.",
    )
    parser.add_argument("--voice", required=True, metavar="NAME", help="a saved voice")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--text", help="the text to speak")
    source.add_argument("--text-file", type=Path, metavar="FILE", help="a plain-text file to speak")
    parser.add_argument("--output", "-o", type=Path, required=True, help="the file to write: .wav or .mp3")
    parser.add_argument("--engine", choices=("xtts", "openvoice"), default="xtts",
                        help="xtts: XTTS v2, non-commercial CPML licence; openvoice: OpenVoice v2, MIT licence")
    parser.add_argument("--language", default=None, help="en or zh (default: the voice's language)")
    parser.add_argument("--speed", type=float, default=1.0, help="0.5 (slow) to 2.0 (fast)")
    parser.add_argument("--xtts-model", default=None, help="an XTTS v2 model folder (default: the downloaded one)")
    parser.add_argument("--converter", default=None, help="the OpenVoice v2 converter folder")
    parser.add_argument("--base-model", default=None, help="the Coqui voice model OpenVoice converts")
    parser.add_argument("--accept-licence", action="store_true", help="accept XTTS v2's CPML licence terms")
    parser.add_argument("--overwrite", action="store_true", help="replace the output file if it exists")
    parser.set_defaults(run=run)


def _fail(message: str, code: int = 1) -> int:
    print(f"voxdesk: {message}", file=sys.stderr)
    return code


def run(args: argparse.Namespace) -> int:
    from desktop.cli.progress import ProgressLine
    from desktop.core.atomic import ExportExists
    from desktop.core.audio_out import format_for, save_speech
    from desktop.core.fallback import FallbackLog
    from desktop.core.sentences import read_text_file
    from desktop.core.tts_models import open_store
    from desktop.core.voices import VoiceLibrary
    from desktop.engines.cloning import ENGINES, CloneSettings, VoiceCloner, match_label
    from desktop.engines.speaker import SpeakerEncoder
    from desktop.engines.tts import SpeechSynthesizer

    if not 0.5 <= args.speed <= 2.0:
        return _fail("--speed must be between 0.5 and 2.0.", 2)
    try:
        format_for(args.output)
        text = args.text if args.text is not None else read_text_file(args.text_file)
        voice = VoiceLibrary().get(args.voice)
    except UserFacingError as error:
        return _fail(error.message, 2)
    if args.output.exists() and not args.overwrite:
        return _fail(f"{args.output} already exists. Use --overwrite to replace it.", 2)
    if not args.output.parent.is_dir():
        return _fail(f"The folder {args.output.parent} does not exist.", 2)

    store = open_store()
    cloner = VoiceCloner(store, SpeechSynthesizer(store, FallbackLog()), SpeakerEncoder())
    if not cloner.licence_accepted(args.engine):
        terms = cloner.licence_terms(args.engine)
        if not args.accept_licence:
            print(f"{ENGINES[args.engine].title} is published under the {terms.licence} licence.\n{terms.text}",
                  file=sys.stderr)
            return _fail("Run the command again with --accept-licence to confirm these terms, "
                         "or use --engine openvoice.", 2)
        cloner.accept_licence(args.engine)

    settings = CloneSettings(
        engine=args.engine,
        language=args.language or voice.language,
        speed=args.speed,
        converter=args.converter or "",
        base_model=args.base_model,
    )
    if args.xtts_model:
        settings.xtts_model = args.xtts_model

    # Ctrl-C stops after the sentence being made; a second Ctrl-C stops at once.
    stop = threading.Event()
    previous = signal.getsignal(signal.SIGINT)

    def on_interrupt(_signum, _frame) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()
        print("\nStopping after this sentence (Ctrl-C again to stop at once)…", file=sys.stderr)

    line = ProgressLine(f"Speaking as “{voice.name}”")
    in_main_thread = threading.current_thread() is threading.main_thread()
    if in_main_thread:
        signal.signal(signal.SIGINT, on_interrupt)
    try:
        result = cloner.speak(voice, text, settings, on_progress=line.update, cancelled=stop.is_set)
    except UserFacingError as error:
        line.done("failed")
        return _fail(error.message)
    except (Cancelled, KeyboardInterrupt):
        line.done("cancelled; nothing was written")
        return 130
    finally:
        if in_main_thread:
            signal.signal(signal.SIGINT, previous)
        cloner.release()
    if not result.speech.complete:
        line.done(f"cancelled after {len(result.speech.sentences)} of {result.speech.total} sentences; "
                  "nothing was written")
        return 130
    try:
        save_speech(args.output, result.samples, result.sample_rate, overwrite=args.overwrite)
    except ExportExists as error:
        line.done("not saved")
        return _fail(f"{error.message} Use --overwrite to replace it.")
    except UserFacingError as error:
        line.done("not saved")
        return _fail(error.message)
    score = f"{result.match_score:.2f} ({match_label(result.match_score)})" if result.match_score is not None \
        else (result.match_note or "not measured")
    line.done(f"{result.speech.duration:.1f} s written to {args.output}; voice match: {score}")
    return 0
