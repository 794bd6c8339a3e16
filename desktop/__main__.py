"""`voxdesk`: with no argument, the window; with a subcommand, the same job headless."""
from __future__ import annotations

import argparse
import sys


def _apply_gpu_environment() -> None:
    """Put the user's HSA_OVERRIDE_GFX_VERSION in place before anything can load the HIP runtime."""
    from desktop.core.gpu.environment import ensure_gpu_environment
    from desktop.settings import open_settings

    ensure_gpu_environment(open_settings().get("gpu/hsa_override_gfx_version"))


def build_parser() -> argparse.ArgumentParser:
    from desktop import __version__
    from desktop.cli import clone, doctor, models, synthesize, transcribe, voices

    parser = argparse.ArgumentParser(
        prog="voxdesk",
        description="VoxDesk: transcribe speech to subtitles on your GPU or CPU, speak text, and speak in a "
        "consenting person's voice. "
        "Run without a command to open the window.",
    )
    parser.add_argument("--version", action="version", version=f"VoxDesk {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in (transcribe, synthesize, clone, voices, models, doctor):
        module.add_parser(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    _apply_gpu_environment()
    if not argv:
        from desktop.app import run_gui

        return run_gui(sys.argv[:1])
    args = build_parser().parse_args(argv)
    if args.command is None:
        build_parser().print_help()
        return 0
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
