"""`voxdesk clone --voice NAME --text … --output out.wav`: the Clone tab's Speak, headless."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from desktop.cli.common import (
    fail,
    save_speech_file,
    stop_on_ctrl_c,
    stopped_part_way,
    text_to_speak,
    voice_model_store,
)
from desktop.core.common.errors import Cancelled, UserFacingError
from desktop.core.common.printable import printable


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


def run(args: argparse.Namespace) -> int:
    from desktop.cli.progress import ProgressLine
    from desktop.core.gpu.fallback import FallbackLog
    from desktop.core.voices.library import VoiceLibrary
    from desktop.engines.voices.cloning import ENGINES, CloneSettings, VoiceCloner, match_label
    from desktop.engines.voices.speaker import SpeakerEncoder
    from desktop.engines.speech.tts import SpeechSynthesizer

    try:
        text = text_to_speak(args)
        voice = VoiceLibrary().get(args.voice)
    except UserFacingError as error:
        return fail(error.message, 2)

    store = voice_model_store()
    cloner = VoiceCloner(store, SpeechSynthesizer(store, FallbackLog()), SpeakerEncoder())
    if not cloner.licence_accepted(args.engine):
        terms = cloner.licence_terms(args.engine)
        if not args.accept_licence:
            print(f"{ENGINES[args.engine].title} is published under the {terms.licence} licence.\n{terms.text}",
                  file=sys.stderr)
            return fail("Run the command again with --accept-licence to confirm these terms, "
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

    line = ProgressLine(f"Speaking as “{printable(voice.name)}”")
    try:
        with stop_on_ctrl_c() as stop:
            result = cloner.speak(voice, text, settings, on_progress=line.update, cancelled=stop.is_set)
    except UserFacingError as error:
        line.done("failed")
        return fail(error.message)
    except (Cancelled, KeyboardInterrupt):
        line.done("cancelled; nothing was written")
        return 130
    finally:
        cloner.release()
    if not result.speech.complete:
        return stopped_part_way(line, result.speech)
    if not save_speech_file(line, args.output, result.samples, result.sample_rate, overwrite=args.overwrite):
        return 1
    score = f"{result.match_score:.2f} ({match_label(result.match_score)})" if result.match_score is not None \
        else (result.match_note or "not measured")
    line.done(f"{result.speech.duration:.1f} s written to {printable(args.output)}; voice match: {score}")
    return 0
