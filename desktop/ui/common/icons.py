"""The app's icons, by the name of their SVG file."""
from __future__ import annotations

from PySide6.QtGui import QIcon

from desktop.resources import resource_path


def icon(name: str) -> QIcon:
    return QIcon(str(resource_path("icons", f"{name}.svg")))
