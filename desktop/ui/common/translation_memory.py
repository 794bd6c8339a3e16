"""Translations follow their English text when code moves a string to another class.

lupdate files a string under its class (the translation context); moving a string to a new widget
makes it a new, unfinished message and drops the old one. Before lupdate runs, the finished
translations are remembered by English text; afterwards each unfinished message whose English text
was translated before gets that translation back. Strings whose English text is new stay unfinished.
"""
from __future__ import annotations

import re

_MESSAGE = re.compile(r"<message>\s*<source>(?P<source>.*?)</source>\s*"
                      r"(?P<comment>(?:<(?:extra)?comment>.*?</(?:extra)?comment>\s*)*)"
                      r"<translation(?P<attributes>[^>]*)>(?P<translation>.*?)</translation>", re.S)


def finished_translations(ts_text: str) -> dict[str, str]:
    """English text (as escaped in the .ts) -> its finished translation."""
    known: dict[str, str] = {}
    for message in _MESSAGE.finditer(ts_text):
        if "unfinished" not in message["attributes"] and "vanished" not in message["attributes"] \
                and message["translation"]:
            known.setdefault(message["source"], message["translation"])
    return known


def carry_over(ts_text: str, known: dict[str, str]) -> tuple[str, int]:
    """ts_text with unfinished messages filled from `known`; and how many were filled."""
    filled = 0

    def fill(message: re.Match) -> str:
        nonlocal filled
        translation = known.get(message["source"])
        if 'type="unfinished"' not in message["attributes"] or translation is None:
            return message[0]
        filled += 1
        start = message[0][: message.start("attributes") - message.start()]
        return f"{start}>{translation}</translation>"

    return _MESSAGE.sub(fill, ts_text), filled
