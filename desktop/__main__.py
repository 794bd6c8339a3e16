"""`voxdesk`: with no argument, the window; with a subcommand, the same job headless."""
from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from pathlib import Path
from typing import Mapping

NO_DISPLAY = ("VoxDesk cannot open its window because no graphical display was found. Start it from your "
              "desktop session, or use it from this terminal: voxdesk --help")
MISSING_QT_LIBRARIES = ("VoxDesk cannot open its window because system packages that Qt needs for X11 are "
                        "missing. Install them, then start VoxDesk again: {command}")


def _apply_gpu_environment() -> None:
    """Put the user's HSA_OVERRIDE_GFX_VERSION in place before anything can load the HIP runtime; with
    two AMD GPUs, only the discrete one is seen (so an override reaches that one alone)."""
    from desktop.core.gpu.environment import ensure_gpu_environment
    from desktop.core.gpu.multi_gpu import use_discrete_gpu
    from desktop.settings import open_settings

    use_discrete_gpu()
    ensure_gpu_environment(open_settings().get("gpu/hsa_override_gfx_version"))


def _qt_platform_plugin(name: str) -> Path | None:
    """Where Qt will look for the platform plugin `name` (found without importing Qt)."""
    folder = os.environ.get("QT_QPA_PLATFORM_PLUGIN_PATH")
    if not folder:
        spec = importlib.util.find_spec("PySide6")
        if spec is None or not spec.submodule_search_locations:
            return None
        folder = os.path.join(list(spec.submodule_search_locations)[0], "Qt", "plugins", "platforms")
    plugin = Path(folder) / f"libq{name}.so"
    return plugin if plugin.exists() else None


def window_problem(environ: Mapping[str, str]) -> str | None:
    """Why the window cannot open here, as a sentence to act on; None when it can.

    Asked before Qt starts, because Qt aborts the whole process (exit 134) with a message about
    platform plugins that nobody can act on.
    """
    platform = environ.get("QT_QPA_PLATFORM", "").split(":")[0]
    if platform not in ("", "xcb", "wayland"):
        return None  # offscreen, vnc, …: chosen on purpose
    wayland = bool(environ.get("WAYLAND_DISPLAY")) and platform != "xcb"
    if not environ.get("DISPLAY") and not wayland:
        return NO_DISPLAY
    if wayland:
        return None  # Qt uses its Wayland plugin, and falls back to X11 by itself
    plugin = _qt_platform_plugin("xcb")
    if plugin is None:
        return None
    from desktop.core.common.system_packages import install_command, missing_qt_xcb_libraries, packages_for_libraries

    missing = missing_qt_xcb_libraries(plugin)
    if not missing:
        return None
    return MISSING_QT_LIBRARIES.format(command=install_command(packages_for_libraries(missing)))


def build_parser() -> argparse.ArgumentParser:
    from desktop import __version__
    from desktop.cli import clone, doctor, models, speakers, subtitles, synthesize, transcribe, voices, watermark
    from desktop.cli import live

    parser = argparse.ArgumentParser(
        prog="voxdesk",
        description="VoxDesk: transcribe speech to subtitles on your GPU or CPU, speak text, and speak in a "
        "consenting person's voice. "
        "Run without a command to open the window.",
    )
    parser.add_argument("--version", action="version", version=f"VoxDesk {__version__}")
    menu = parser.add_mutually_exclusive_group()
    menu.add_argument("--install-desktop-entry", action="store_true",
                      help="add VoxDesk to your desktop's application menu (for you only), then exit")
    menu.add_argument("--uninstall-desktop-entry", action="store_true",
                      help="remove VoxDesk from your application menu, then exit")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in (transcribe, subtitles, synthesize, clone, voices, speakers, watermark, models, doctor):
        module.add_parser(commands)
    live.add_parser(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    _apply_gpu_environment()
    if not argv:
        problem = window_problem(os.environ)
        if problem is not None:
            print(problem, file=sys.stderr)
            return 1
        from desktop.app import run_gui

        return run_gui(sys.argv[:1])
    args = build_parser().parse_args(argv)
    if args.install_desktop_entry or args.uninstall_desktop_entry:
        return _desktop_entry(install=args.install_desktop_entry)
    if args.command is None:
        build_parser().print_help()
        return 0
    return args.run(args)


def _desktop_entry(*, install: bool) -> int:
    from desktop.core.common import desktop_entry

    try:
        if install:
            entry, _icon = desktop_entry.install()
            print(f"VoxDesk is now in your application menu ({entry}).")
        else:
            removed = desktop_entry.uninstall()
            print("VoxDesk is no longer in your application menu." if removed
                  else "VoxDesk was not in your application menu.")
    except OSError as error:
        print(f"VoxDesk could not change the application menu: {error.strerror or error} ({error.filename}).",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
