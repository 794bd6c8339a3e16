"""The languages a voice is recorded and spoken in, as the Clone tab offers them."""
from __future__ import annotations

from PySide6.QtCore import QLocale
from PySide6.QtWidgets import QComboBox

LANGUAGES = (("en", "English"), ("zh", "中文"))  # (code, the name in that language, as language menus write it)


def language_name(code: str) -> str:
    return dict(LANGUAGES).get(code, code)


def add_languages(combo: QComboBox) -> None:
    """Fill the combo with the languages; each item's data is the language code."""
    for code, name in LANGUAGES:
        combo.addItem(name, code)


def interface_language() -> str:
    """The language of the interface as a voice language: most people reading a Chinese interface speak
    Chinese."""
    return "zh" if QLocale().language() == QLocale.Language.Chinese else "en"
