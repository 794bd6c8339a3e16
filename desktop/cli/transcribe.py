"""`voxdesk transcribe FILE...`: the window's transcription path, headless."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from desktop.cli.common import fail, warn_on_fallback, whisper_store
from desktop.cli.transcription_options import add_option, whole_number
from desktop.core.common.errors import Cancelled, UserFacingError
from desktop.core.common.printable import printable
from desktop.core.transcription import options as declared


def add_parser(commands) -> None:
    parser = commands.add_parser(
        "transcribe",
        help="transcribe audio or video files to subtitles",
        description="Transcribe audio or video files and write subtitles next to them (or into --output-dir).",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="audio or video files")
    add_option(parser, declared.MODEL, more_help="or a path to a .pt file / CTranslate2 folder")
    add_option(parser, declared.ENGINE, more_help="server: the transcription server of --server")
    add_option(parser, declared.DEVICE)
    add_option(parser, declared.LANGUAGE)
    add_option(parser, declared.TASK)
    add_option(parser, declared.INITIAL_PROMPT)
    parser.add_argument("--glossary", action="append", default=[], metavar="FILE",
                        help="a glossary (one term per line, optionally a tab and the spellings it is misheard as): "
                             "Whisper is told its terms and the transcript is corrected with them; repeatable")
    add_option(parser, declared.BEAM_SIZE)
    add_option(parser, declared.BATCH_SIZE)
    add_option(parser, declared.CHINESE_SCRIPT)
    add_option(parser, declared.SPEAKERS, parse=_speakers, metavar="off|auto|N")
    parser.add_argument("--max-lines", type=whole_number(1, 10), default=2, metavar="N",
                        help="subtitle lines per cue at most, 1 to 10 (default: 2)")
    parser.add_argument("--max-line-width", type=whole_number(1, 500), default=42, metavar="N",
                        help="characters per subtitle line of Latin text at most, 1 to 500 (default: 42)")
    parser.add_argument("--max-cjk-chars", type=whole_number(1, 250), default=18, metavar="N",
                        help="characters per subtitle line with Chinese in it at most, 1 to 250; each counts as two Latin ones (default: 18)")
    parser.add_argument("--server", default=None, metavar="URL",
                        help="an OpenAI-compatible Whisper server (vLLM, faster-whisper-server), e.g. http://gpu-server:8000; "
                             "its API key comes from VOXDESK_SERVER_KEY. If it fails, --model runs on this computer")
    parser.add_argument("--server-model", default="", metavar="NAME",
                        help="the model name the server knows (default: the first it lists)")
    parser.add_argument("--server-concurrency", type=whole_number(1, 16), default=4, metavar="N",
                        help="pieces of audio sent to the server at once, 1 to 16 (default: 4)")
    parser.add_argument("--format", default="srt", help="comma-separated: srt,vtt,txt,json (default: srt)")
    parser.add_argument("--output-dir", type=Path, default=None, help="where to write (default: next to each file)")
    parser.add_argument("--overwrite", action="store_true", help="replace files that already exist")
    parser.set_defaults(run=run)


def _speakers(text: str) -> str:
    """An argparse type: off, auto or a number of speakers; anything else is refused in one line (exit 2)."""
    from desktop.core.speakers.choice import parse

    try:
        return parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _formats(text: str) -> list[str]:
    from desktop.core.transcription.subtitles import FORMATS

    formats = [f.strip().lower() for f in text.split(",") if f.strip()]
    unknown = [f for f in formats if f not in FORMATS]
    if unknown or not formats:
        raise SystemExit(f"voxdesk: unknown format {', '.join(unknown) or text!r}; choose from {', '.join(FORMATS)}")
    return formats


def _untranscribed(transcript) -> str:
    """What the file's line adds about speech that could not be transcribed, if there was some."""
    count = len(transcript.gaps)
    if not count:
        return ""
    stretches = "1 stretch" if count == 1 else f"{count} stretches"
    return f"; {stretches} of speech could not be transcribed"


def _print_notes(path: Path, transcript) -> None:
    """Under the file's line: what was wrong with the recording, and where speech is missing."""
    for warning in transcript.warnings:
        print(f"Warning: {printable(path.name)}: {warning}", file=sys.stderr)
    for gap in transcript.gaps:
        print(f"  {gap.message}", file=sys.stderr)


def _unique(paths: list[str]) -> list[Path]:
    seen, result = set(), []
    for name in paths:
        path = Path(name)
        key = path.resolve()
        if key not in seen:
            seen.add(key)
            result.append(path)
    return result


def run(args: argparse.Namespace) -> int:
    if args.server is None:
        # The model runs here: its engine process starts now and loads Python and its modules while
        # this one imports its own (half a second on a 2-core computer).
        from desktop.engines.transcription.process.started_ahead import start_ahead

        start_ahead()
    from desktop.cli.progress import ProgressLine
    from desktop.core.gpu.fallback import FallbackLog
    from desktop.core.transcription.export_plan import plan_exports
    from desktop.engines.transcription.known_answer import GpuProof
    from desktop.engines.transcription.transcriber import Transcriber

    formats = _formats(args.format)
    if args.output_dir is not None and not args.output_dir.is_dir():
        return fail(f"the output folder {printable(args.output_dir)} does not exist.", 2)
    try:
        settings = _settings(args)
    except UserFacingError as error:
        return fail(error.message, 2)
    files = _unique(args.files)
    # Decided before any work, so a file's names never depend on which others failed.
    targets = plan_exports(files, formats, args.output_dir)
    # A file whose subtitles could not be written is refused now, before the model loads, not after decoding.
    refused = _unwritable(files, targets, args.overwrite)
    if len(refused) == len(files):
        print(f"{len(files)} of {len(files)} files failed.", file=sys.stderr)
        return 1
    fallbacks = FallbackLog()
    warn_on_fallback(fallbacks)
    store = whisper_store()
    transcriber = Transcriber(store, fallbacks, gpu_proof=GpuProof())
    try:
        missing = transcriber.missing_model(settings)
        if missing:
            name, fmt = missing
            bar = ProgressLine(f"Downloading the {name} model")
            store.download(name, fmt, progress=bar.bytes)
            bar.done("downloaded")
    except UserFacingError as error:
        return fail(error.message)
    except KeyboardInterrupt:
        print("\nDownload cancelled.", file=sys.stderr)
        return 130

    failed = len(refused)
    for number, path in enumerate(files, 1):
        if number in refused:
            continue
        line = ProgressLine(f"[{number}/{len(files)}] {printable(path.name)}")
        try:
            failed += not _transcribe_one(transcriber, path, settings, targets[number - 1], args, line)
        except (Cancelled, KeyboardInterrupt):
            line.done("cancelled")
            return 130
    transcriber.release()
    if failed:
        print(f"{failed} of {len(files)} files failed.", file=sys.stderr)
    return 1 if failed else 0


def _unwritable(files: list[Path], targets: list[dict[str, Path]], overwrite: bool) -> set[int]:
    """The numbers (from 1) of the files whose subtitles cannot be written (one exists and --overwrite
    is not given, or its folder takes no file), each said on its own line."""
    from desktop.cli.progress import ProgressLine
    from desktop.core.common.atomic import ExportExists, check_writable

    refused = set()
    for number, (path, paths) in enumerate(zip(files, targets), 1):
        try:
            for target in paths.values():
                check_writable(target, overwrite=overwrite)
        except UserFacingError as error:
            line = ProgressLine(f"[{number}/{len(files)}] {printable(path.name)}")
            hint = " Use --overwrite to replace it." if isinstance(error, ExportExists) else ""
            line.done(f"failed: {error.message}{hint}")
            refused.add(number)
    return refused


def _settings(args: argparse.Namespace):
    from desktop.engines.transcription.transcriber import TranscribeSettings

    return TranscribeSettings(
        model=args.model,
        engine=args.engine,
        device=args.device,
        language=None if args.language in ("auto", "") else args.language,
        task=args.task,
        initial_prompt=args.initial_prompt,
        beam_size=args.beam_size,
        chinese_script=args.chinese_script,
        server=_server(args),
        speakers=args.speakers,
        batch_size=args.batch_size,
        glossary_files=tuple(args.glossary),
    )


def _server(args: argparse.Namespace):
    """The server of --server, with its key from VOXDESK_SERVER_KEY (else the one saved in the window)."""
    import os

    from desktop.core.transcription.server_config import ServerConfig, server_url

    if args.server is None:
        if args.engine == "server":
            raise UserFacingError("--engine server needs the server's address: --server URL.")
        return None
    return ServerConfig(server_url(args.server), model=args.server_model.strip(), use="always",
                        concurrency=args.server_concurrency, api_key=os.environ.get("VOXDESK_SERVER_KEY"))


def _transcribe_one(transcriber, path: Path, settings, targets: dict[str, Path], args: argparse.Namespace,
                    line) -> bool:
    """Transcribe one file and write its subtitle files (format -> path, from the run's export plan);
    False when it failed (said on `line`)."""
    from desktop.core.common.atomic import ExportExists
    from desktop.core.transcription import subtitles

    limits = subtitles.LineLimits(
        max_lines=args.max_lines, max_latin_chars=args.max_line_width, max_cjk_chars=args.max_cjk_chars
    )
    try:
        transcript = transcriber.transcribe_file(
            path, settings, on_progress=line.update, on_note=lambda note: print(f"Note: {note}", file=sys.stderr)
        )
        if transcript.is_empty:
            line.done("no speech found; nothing written")
            _print_notes(path, transcript)
            return True
        written = [subtitles.export(transcript, target, fmt, overwrite=args.overwrite, limits=limits)
                   for fmt, target in targets.items()]
    except ExportExists as error:
        line.done(f"failed: {error.message} Use --overwrite to replace it.")
        return False
    except UserFacingError as error:
        line.done(f"failed: {error.message}")
        return False
    line.done("written " + ", ".join(printable(p) for p in written) + _untranscribed(transcript))
    _print_notes(path, transcript)
    return True
