"""The application-menu entry and icon for this user (freedesktop.org layout), and their removal."""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from desktop.core.common.atomic import atomic_write_bytes
from desktop.resources import resource_path

ENTRY_NAME = "voxdesk.desktop"
ICON_NAME = "voxdesk.svg"


def data_home(environ=os.environ) -> Path:
    return Path(environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")


def entry_path(environ=os.environ) -> Path:
    return data_home(environ) / "applications" / ENTRY_NAME


def icon_path(environ=os.environ) -> Path:
    return data_home(environ) / "icons" / "hicolor" / "scalable" / "apps" / ICON_NAME


def launcher_command() -> str:
    """How the menu starts this installation of VoxDesk: the `voxdesk` being run, else python -m desktop."""
    invoked = Path(sys.argv[0])
    if invoked.name == "voxdesk" and invoked.exists():
        argv = [str(invoked.absolute())]
    else:
        argv = [sys.executable, "-m", "desktop"]
    # Desktop-entry quoting: an argument with a space or a quote goes inside double quotes.
    return " ".join(f'"{a}"' if any(c in a for c in ' "\'\\') else a for a in argv)


def install(environ=os.environ) -> tuple[Path, Path]:
    """Write the menu entry and the icon; the paths written."""
    template = resource_path(ENTRY_NAME).read_text(encoding="utf-8")
    lines = [f"Exec={launcher_command()}" if line.startswith("Exec=") else line for line in template.splitlines()]
    entry, icon = entry_path(environ), icon_path(environ)
    for path in (entry, icon):
        path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(icon, resource_path("icons", "app.svg").read_bytes(), overwrite=True)
    atomic_write_bytes(entry, ("\n".join(lines) + "\n").encode("utf-8"), overwrite=True)
    _refresh_menu(entry.parent)
    return entry, icon


def uninstall(environ=os.environ) -> list[Path]:
    """Remove the menu entry and the icon; the paths that were there."""
    removed = []
    for path in (entry_path(environ), icon_path(environ)):
        if path.is_file() or path.is_symlink():
            path.unlink()
            removed.append(path)
    _refresh_menu(entry_path(environ).parent)
    return removed


def _refresh_menu(folder: Path) -> None:
    """Most desktops watch the folder; update-desktop-database helps the others, where it exists."""
    tool = shutil.which("update-desktop-database")
    if tool and folder.is_dir():
        import subprocess

        subprocess.run([tool, str(folder)], capture_output=True, timeout=30, check=False)
