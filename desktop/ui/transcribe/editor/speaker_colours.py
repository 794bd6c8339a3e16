"""A colour per speaker, light enough to read black text on, told apart by people with colour blindness
as far as eight colours allow (Okabe–Ito hues, lightened)."""
from __future__ import annotations

from PySide6.QtGui import QColor

_PALETTE = ("#cfe6f7", "#fde2c4", "#cdeedf", "#f6d0e4", "#fbf3bf", "#d9d3f2", "#e4e4e4", "#c9ecf3")


def speaker_colour(number: int) -> QColor:
    """The background of speaker number's lines (1, 2, …; repeats after eight)."""
    return QColor(_PALETTE[(number - 1) % len(_PALETTE)])
