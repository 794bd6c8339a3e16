"""The language list of the live-captions window: Chinese and English first."""
from __future__ import annotations

from PySide6.QtWidgets import QComboBox

from desktop.core.transcription.languages import WHISPER_LANGUAGES
from desktop.ui.common.i18n import translated

_FIRST = (("zh", "中文"), ("en", "English"))


def fill_languages(combo: QComboBox) -> None:
    """Auto-detect (its text set by the owner), 中文, English, then every other language Whisper knows."""
    combo.addItem("", "auto")
    for code, name in _FIRST:
        combo.addItem(name, code)
    combo.insertSeparator(combo.count())
    first = {code for code, _ in _FIRST}
    names = sorted((translated(name), code) for code, name in WHISPER_LANGUAGES.items() if code not in first)
    for name, code in names:
        combo.addItem(name, code)

