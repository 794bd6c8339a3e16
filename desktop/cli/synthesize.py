"""`voxdesk synthesize`: the Synthesize tab's path, headless: text in, a WAV or MP3 file out."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from desktop.cli.common import (
    fail,
    voice_model_store,
    save_speech_file,
    stop_on_ctrl_c,
    stopped_part_way,
    text_to_speak,
    warn_on_fallback,
)
from desktop.core.common.errors import UserFacingError
from desktop.core.common.model_origin import unverified_note
from desktop.core.common.printable import printable


def add_parser(commands) -> None:
    parser = commands.add_parser(
        "synthesize",
        help="read text aloud with a voice model and save it as a WAV or MP3 file",
        description="Read text aloud with a Coqui voice model (on the CPU) and save it as a WAV or MP3 file.",
    )
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--text", help="the text to read")
    source.add_argument("--text-file", type=Path, metavar="FILE", help="a plain-text file to read")
    source.add_argument("--list-models", action="store_true",
                        help="list the voice models: size, languages, licence, and which are on this computer")
    parser.add_argument("--model", default=None,
                        help="a model name from --list-models, an imported one (imported/NAME), or a model "
                             "folder (default: the voice the window chooses for the language)")
    parser.add_argument("--speaker", default=None, help="a voice of a multi-speaker model (default: its first)")
    parser.add_argument("--language", default="auto", help="auto, en or zh (default: auto)")
    parser.add_argument("--speed", type=float, default=1.0, help="0.5 (slow) to 2.0 (fast); default 1.0")
    parser.add_argument("--output", "-o", type=Path, help="the file to write: .wav or .mp3")
    parser.add_argument("--normalize", action="store_true", help="even out the loudness to about -16 LUFS")
    parser.add_argument("--overwrite", action="store_true", help="replace the output file if it exists")
    parser.add_argument("--gpu", action="store_true", help="experimental: run on the GPU, falling back to the CPU")
    parser.add_argument("--no-watermark", action="store_true",
                        help="leave out the inaudible watermark (default: as chosen in the window's Settings, "
                             "which marks speech)")
    parser.add_argument("--accept-licence", action="store_true",
                        help="accept the model's licence terms (shown when a model needs this)")
    parser.set_defaults(run=run)


def _list_models(store) -> int:
    models = store.catalog()
    for model in models:
        size = f"{model.size_mb} MB" if model.size_mb else "size ?"
        mark = "downloaded" if model.downloaded else ""
        if model.unverified_source:
            mark += f", not verified: from {printable(model.unverified_source)}"
        print(f"{model.name:<52} {','.join(model.languages[:4]):<12} {size:>9}  {model.licence:<16} {mark}")
    for source in dict.fromkeys(m.unverified_source for m in models if m.unverified_source):
        print("\n" + unverified_note(source))
    return 0


def _download(store, name: str, accept_licence: bool) -> bool:
    """Download a voice model; False when its licence needs accepting and --accept-licence was not given."""
    from desktop.cli.progress import ProgressLine

    model = store.get(name)
    terms = store.licence_terms(name)
    if terms is not None and not store.licence_accepted(name):
        if not accept_licence:
            print(f"“{printable(model.title)}” is published under the {terms.licence} licence.\n{terms.text}",
                  file=sys.stderr)
            return False
        store.accept_licence(name)
    bar = ProgressLine(f"Downloading the voice model “{printable(model.title)}”")
    store.download(name, progress=bar.bytes)
    bar.done("downloaded")
    return True


def _watermark_chosen() -> bool:
    """Whether Settings asks for the watermark (it does unless the user turned it off there)."""
    from desktop.settings import open_settings

    return bool(open_settings().get("synthesize/watermark"))


def _default_voice(store, language: str | None, text: str) -> str:
    """The voice the window would choose for this language (for "auto": the language most of the text is
    in), the best measured among those on this computer or recommended."""
    from desktop.core.speech.tts_catalog import default_voice

    if language is None:
        chinese = sum(1 for ch in text if "\u4e00" <= ch <= "\u9fff")
        latin = sum(1 for ch in text if ch.isascii() and ch.isalpha())
        language = "zh" if chinese > latin else "en"
    try:
        catalog = store.catalog()
    except UserFacingError:
        catalog = []
    return default_voice(language, catalog)


def run(args: argparse.Namespace) -> int:
    from desktop.core.gpu.fallback import FallbackLog
    from desktop.engines.speech.tts import SpeechSynthesizer, SynthesisSettings

    store = voice_model_store()
    if args.list_models:
        try:
            return _list_models(store)
        except UserFacingError as error:
            return fail(error.message)
    if args.text is None and args.text_file is None:
        return fail("Give the text with --text \"…\" or --text-file FILE.", 2)
    if args.output is None:
        return fail("Say where to save the speech with --output FILE.wav (or .mp3).", 2)
    language = None if args.language in ("auto", "", None) else args.language
    try:
        text = text_to_speak(args)
    except UserFacingError as error:
        return fail(error.message, 2)

    fallbacks = FallbackLog()
    warn_on_fallback(fallbacks)
    synthesizer = SpeechSynthesizer(store, fallbacks)
    settings = SynthesisSettings(
        model=args.model or _default_voice(store, language, text),
        speaker=args.speaker,
        language=language,
        speed=args.speed,
        use_gpu=args.gpu,
        watermark=not args.no_watermark and _watermark_chosen(),
    )

    try:
        synthesizer.plan(text, settings)
        missing = synthesizer.missing_model(settings)
        if missing and not _download(store, missing, args.accept_licence):
            return fail("Run the command again with --accept-licence to confirm these terms.", 2)
    except UserFacingError as error:
        return fail(error.message)
    except KeyboardInterrupt:
        print("\nDownload cancelled; it continues where it stopped next time.", file=sys.stderr)
        return 130

    return _speak_and_save(synthesizer, text, settings, args, fallbacks)


def _exit_status(error: UserFacingError) -> int:
    """2 for a voice file that is not what it claims to be (bad input, like a bad argument), else 1."""
    from desktop.core.speech.piper_voices import DamagedVoice

    return 2 if isinstance(error, DamagedVoice) else 1


def _speak_and_save(synthesizer, text: str, settings, args: argparse.Namespace, fallbacks) -> int:
    from desktop.cli.progress import ProgressLine
    from desktop.engines.speech.tts import SpeechSynthesizer
    from desktop.engines.speech.two_voices import TwoVoiceSpeech

    line = ProgressLine("Speaking")
    # Text mixing Chinese and English: each language read by a voice of its own.
    voices = TwoVoiceSpeech(synthesizer, SpeechSynthesizer(synthesizer.store, fallbacks))
    try:
        with stop_on_ctrl_c() as stop:
            speech = voices.synthesize(
                text, settings,
                on_progress=lambda fraction: line.update(fraction),
                on_note=lambda note: print(f"Note: {note}", file=sys.stderr),
                cancelled=stop.is_set,
            )
    except UserFacingError as error:
        line.done("failed")
        return fail(error.message, _exit_status(error))
    except KeyboardInterrupt:
        line.done("cancelled; nothing was written")
        return 130
    if not speech.complete:
        return stopped_part_way(line, speech)
    if not save_speech_file(line, args.output, speech.samples, speech.sample_rate, overwrite=args.overwrite,
                            normalize=args.normalize):
        return 1
    if voices.last_note:
        print(f"Note: {voices.last_note}", file=sys.stderr)
    voices.release()
    where = synthesizer.loaded.device if synthesizer.loaded else "CPU"
    line.done(f"{len(speech.sentences)} sentences, {speech.duration:.1f} s of speech on the {where}, "
              f"written to {args.output}")
    synthesizer.release()
    return 0
