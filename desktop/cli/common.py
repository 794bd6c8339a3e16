"""What several `voxdesk` subcommands do alike: error lines, GPU fallback warnings, Ctrl-C while
speaking, and checking and saving a speech file."""
from __future__ import annotations

import argparse
import signal
import sys
import threading
from contextlib import contextmanager
from typing import TYPE_CHECKING, Iterator

from desktop.core.common.errors import UserFacingError
from desktop.core.common.printable import printable

if TYPE_CHECKING:
    from pathlib import Path

    import numpy as np

    from desktop.cli.progress import ProgressLine
    from desktop.core.gpu.fallback import FallbackLog
    from desktop.engines.speech.tts import Speech


def fail(message: str, code: int = 1) -> int:
    """Print ``message`` as the command's error and return ``code`` as its exit status."""
    print(f"voxdesk: {message}", file=sys.stderr)
    return code


def warn_on_fallback(fallbacks: "FallbackLog") -> None:
    """Say on stderr whenever a job falls back from the GPU to the CPU, or from the server to this computer."""
    def warn(e) -> None:
        from desktop.engines.transcription.server.fallback import SERVER_STAGE

        if e.stage == SERVER_STAGE:
            print(f"Warning: {printable(e.job)}: {e.error} Continuing on this computer. {e.fix}", file=sys.stderr)
        else:
            print(f"Warning: {printable(e.job)} fell back from the GPU to the CPU ({e.error}). {e.fix}",
                  file=sys.stderr)

    fallbacks.subscribe(warn)


def text_to_speak(args: argparse.Namespace) -> str:
    """The text of --text or --text-file, once --speed and --output are usable too.

    Raises UserFacingError with the first problem; commands report it with exit status 2.
    """
    from desktop.core.common.audio_out import format_for
    from desktop.core.speech.sentences import read_text_file

    if not 0.5 <= args.speed <= 2.0:
        raise UserFacingError("--speed must be between 0.5 and 2.0.")
    format_for(args.output)
    text = args.text if args.text is not None else read_text_file(args.text_file)
    if args.output.exists() and not args.overwrite:
        raise UserFacingError(f"{printable(args.output)} already exists. Use --overwrite to replace it.")
    if not args.output.parent.is_dir():
        raise UserFacingError(f"The folder {printable(args.output.parent)} does not exist.")
    return text


@contextmanager
def stop_on_ctrl_c() -> Iterator[threading.Event]:
    """An event Ctrl-C sets, so speech stops after the sentence being made; a second Ctrl-C stops at once.

    Signal handlers can only be set in the main thread; elsewhere Ctrl-C keeps its usual meaning.
    """
    stop = threading.Event()

    def on_interrupt(_signum, _frame) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()
        print("\nStopping after this sentence (Ctrl-C again to stop at once)…", file=sys.stderr)

    if threading.current_thread() is not threading.main_thread():
        yield stop
        return
    previous = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, on_interrupt)
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, previous)


def stopped_part_way(line: "ProgressLine", speech: "Speech") -> int:
    """End the progress line for speech stopped before its last sentence; the exit status of a cancel."""
    line.done(f"cancelled after {len(speech.sentences)} of {speech.total} sentences; nothing was written")
    return 130


def save_speech_file(
    line: "ProgressLine", output: "Path", samples: "np.ndarray", sample_rate: int, *, overwrite: bool,
    normalize: bool = False,
) -> bool:
    """Save the speech to ``output``; if it cannot be, end the line with "not saved", say why and return False."""
    from desktop.core.common.atomic import ExportExists
    from desktop.core.common.audio_out import save_speech

    try:
        save_speech(output, samples, sample_rate, normalize=normalize, overwrite=overwrite)
    except ExportExists as error:
        line.done("not saved")
        fail(f"{error.message} Use --overwrite to replace it.")
        return False
    except UserFacingError as error:
        line.done("not saved")
        fail(error.message)
        return False
    return True


def model_sources():
    """Shared model folders and download source as chosen in the window's Settings (plus the environment)."""
    from desktop.settings import chosen_model_sources

    return chosen_model_sources()


def whisper_store():
    """The Whisper model store, searching the shared model folders first (desktop.settings.open_model_stores)."""
    from desktop.settings import open_model_stores

    return open_model_stores().whisper


def voice_model_store():
    """The voice model store, searching the shared model folders first (desktop.settings.open_model_stores)."""
    from desktop.settings import open_model_stores

    return open_model_stores().voices
