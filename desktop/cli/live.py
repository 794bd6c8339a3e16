"""`voxdesk live`: captions from a microphone (or what the computer plays) in the terminal, as people speak.

Committed lines are printed to stdout as they come; at the end (--duration, Ctrl-C, or the device
going away) the transcript is written to --output. The recording is written from the first second,
to --save-audio or else to ``live/`` in the data folder, and named on stderr when it starts and ends.
"""
from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
import time
from pathlib import Path

from desktop.cli.common import fail, warn_on_fallback, whisper_store
from desktop.cli.transcription_options import add_option
from desktop.core.common.errors import UserFacingError
from desktop.core.common.printable import printable
from desktop.core.transcription import options as declared


def add_parser(commands) -> None:
    parser = commands.add_parser(
        "live",
        help="live captions from a microphone or from what this computer plays",
        description="Caption speech as it is spoken, from a microphone or a \"Monitor of …\" source (what this "
                    "computer plays). Lines are printed as they are final; Ctrl-C stops. The recording is written "
                    "as it is made, to --save-audio FILE.flac or else to the live folder of VoxDesk's data folder "
                    "(~/.local/share/VoxDesk/live), and its name is printed when it starts and when it ends.",
    )
    parser.add_argument("--device", default=None, metavar="NAME",
                        help="what to listen to: a device or sound-server source name, or part of it (default: the "
                             "system's default input); --list-devices shows them")
    parser.add_argument("--list-devices", action="store_true", help="list what can be listened to, then exit")
    add_option(parser, declared.LANGUAGE)
    add_option(parser, declared.MODEL, more_help="or a path, as for voxdesk transcribe")
    add_option(parser, declared.ENGINE, choices=declared.LOCAL_ENGINES)
    # --device is what to listen to here; the model's device is --compute.
    add_option(parser, declared.DEVICE, flag="--compute", dest="compute_device")
    parser.add_argument("--output", type=Path, default=None, metavar="FILE",
                        help="write the transcript at the end: FILE.txt, .srt, .vtt or .json")
    parser.add_argument("--overwrite", action="store_true", help="replace --output if it exists")
    parser.add_argument("--save-audio", type=Path, default=None, metavar="FILE.flac",
                        help="record to this FLAC file (it must not exist yet; a recording is never replaced) "
                             "instead of a new file in VoxDesk's data folder")
    parser.add_argument("--glossary", action="append", default=[], metavar="FILE",
                        help="a glossary whose terms Whisper is told and the captions are corrected with; repeatable")
    parser.add_argument("--duration", type=_seconds, default=None, metavar="SECONDS",
                        help="stop by itself after this many seconds")
    parser.set_defaults(run=run)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value <= 24 * 3600:
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0 and at most 86400, not {text!r}")
    return value


def run(args: argparse.Namespace) -> int:
    from desktop.core.common.recorder import capture_devices

    try:
        devices = capture_devices()
    except UserFacingError as error:
        return fail(error.message)
    if args.list_devices:
        for device in devices:
            print(_describe(device))
        return 0
    try:
        fmt = _output_format(args)
        _check_recording_path(args.save_audio)
        device = _chosen(devices, args.device)
    except UserFacingError as error:
        return fail(error.message, 2)
    try:
        engine, settings = _engine(args)
    except UserFacingError as error:
        return fail(error.message)
    except KeyboardInterrupt:
        print("\nCancelled.", file=sys.stderr)
        return 130
    return _caption(args, device, engine, settings, fmt)


def _describe(device) -> str:
    text = f"What this computer plays ({device.label})" if device.monitor else device.label
    if device.pulse_source:
        text += f"  [source {device.pulse_source}]"
    return text + ("  [default]" if device.is_default else "")


def _chosen(devices: list, name: str | None):
    if not devices:
        raise UserFacingError("Nothing to listen to was found. Plug in a microphone or headset and try again.")
    if name is None:
        return devices[0]
    for exact in (True, False):
        for device in devices:
            names = [device.name, device.pulse_source or ""]
            if any(n == name if exact else name.lower() in n.lower() for n in names if n):
                return device
    raise UserFacingError(f"There is no input called {name!r}. Run voxdesk live --list-devices to see the names.")


def _output_format(args: argparse.Namespace) -> str | None:
    from desktop.core.transcription.subtitles import FORMATS

    output = args.output
    if output is None:
        return None
    fmt = output.suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise UserFacingError(f"--output must end in {', '.join('.' + f for f in FORMATS)}, not {output.name!r}.")
    if output.exists() and not args.overwrite:
        raise UserFacingError(f"{printable(output)} already exists. Use --overwrite to replace it.")
    if not output.parent.is_dir():
        raise UserFacingError(f"The folder {printable(output.parent)} does not exist.")
    return fmt


def _check_recording_path(path: Path | None) -> None:
    """UserFacingError unless --save-audio names a new FLAC file in a folder that exists."""
    if path is None:
        return
    if path.suffix.lower() != ".flac":
        raise UserFacingError(f"--save-audio must end in .flac (the recording is FLAC), not {printable(path.name)!r}.")
    if os.path.lexists(path):
        raise UserFacingError(f"{printable(path)} already exists, and a recording is never replaced. Choose "
                              f"another name for --save-audio.")
    if not path.parent.is_dir():
        raise UserFacingError(f"The folder {printable(path.parent)} does not exist.")


def _engine(args: argparse.Namespace):
    from desktop.cli.progress import ProgressLine
    from desktop.core.gpu.fallback import FallbackLog
    from desktop.engines.transcription.live.engine import load_live_engine, missing_model
    from desktop.engines.transcription.transcriber import TranscribeSettings

    settings = TranscribeSettings(model=args.model, engine=args.engine, device=args.compute_device,
                                  language=None if args.language in ("auto", "") else args.language)
    fallbacks = FallbackLog()
    warn_on_fallback(fallbacks)
    store = whisper_store()  # the shared model folders and the download source, as for transcribe
    missing = missing_model(store, settings, fallbacks)
    if missing:
        name, fmt = missing
        bar = ProgressLine(f"Downloading the {name} model")
        store.download(name, fmt, progress=bar.bytes)
        bar.done("downloaded")
    print(f"Loading the {args.model} model…", file=sys.stderr)
    return load_live_engine(store, settings, fallbacks), settings


def _caption(args: argparse.Namespace, device, engine, settings, fmt: str | None) -> int:
    from desktop.core.transcription.transcript import clock
    from desktop.engines.transcription.live.captioner import LiveOptions
    from desktop.engines.transcription.live.session import LiveSession

    def show(line) -> None:
        print(f"[{clock(line.segment.start)}] {line.segment.text.strip()}", flush=True)

    from desktop.core.glossary.glossary_file import all_terms, load_glossaries

    glossaries, problems = load_glossaries(args.glossary)
    for problem in problems:  # that glossary is left out; the captions start all the same
        print(f"voxdesk: {problem}", file=sys.stderr)
    session = LiveSession(engine, LiveOptions.following(settings, glossary=tuple(all_terms(glossaries))),
                          device=device, recording=args.save_audio, on_commit=show,
                          on_problem=lambda text: print(f"voxdesk: {text}", file=sys.stderr),
                          on_warning=lambda text: print(f"Warning: {text}", file=sys.stderr, flush=True))
    stop = threading.Event()
    try:
        session.start()
    except UserFacingError as error:
        engine.close()
        return fail(error.message)
    print(f"Listening to {printable(device.name)}; Ctrl-C stops. Recording to {printable(session.recording_path)}",
          file=sys.stderr)
    with _ctrl_c_sets(stop):
        started = time.monotonic()
        while not stop.wait(0.2) and not session.ended:
            if args.duration is not None and time.monotonic() - started >= args.duration:
                break
        result = session.stop()
    engine.close()
    print(f"Recording kept: {printable(result.recording)} ({clock(result.seconds)})", file=sys.stderr)
    status = 1 if result.note else 0
    if fmt is not None:
        status = _write(args.output, fmt, result, args.overwrite) or status
    return status


def _write(output: Path, fmt: str, result, overwrite: bool) -> int:
    from desktop.core.transcription import subtitles
    from desktop.core.transcription.transcript import clock

    transcript = result.lines.transcript(duration=result.seconds, source=str(result.recording))
    if transcript.is_empty:
        # As `voxdesk transcribe` does: an empty subtitle file would look like a result, and with
        # --overwrite it would replace yesterday's notes with nothing.
        print(f"No speech was heard in the {clock(result.seconds)} recorded, so {printable(output)} was not written. "
              f"The recording is kept in {printable(result.recording)}.", file=sys.stderr)
        return 0
    try:
        subtitles.export(transcript, output, fmt, overwrite=overwrite)
    except UserFacingError as error:
        return fail(f"{error.message} The recording is kept in {printable(result.recording)}.")
    print(f"Written {printable(output)}", file=sys.stderr)
    return 0


class _ctrl_c_sets:
    """Ctrl-C sets the event (the session then stops and writes everything); a second one stops at once."""

    def __init__(self, event: threading.Event):
        self._event = event
        self._previous = None

    def __enter__(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return

        def on_interrupt(_signum, _frame) -> None:
            if self._event.is_set():
                raise KeyboardInterrupt
            self._event.set()
            print("\nStopping: captioning the last words and closing the recording…", file=sys.stderr)

        self._previous = signal.signal(signal.SIGINT, on_interrupt)

    def __exit__(self, *_exc) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)
