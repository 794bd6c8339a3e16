"""Speaker names as transcripts and exports show them.

A speaker is a number (1, 2, …, in order of first appearance); its name is the user's, or
"Speaker 1"… until the user gives one ("说话人1"… in Chinese transcripts: the name is part of the
transcript and its exports, so it follows the transcript's language, not the window's). Exports put the name in front of the line: "Anna: " in
Latin-script transcripts, "张伟：" (full-width colon, no space) in Chinese ones.
"""
from __future__ import annotations

from desktop.core.common.i18n import N_

_CHINESE_LANGUAGES = ("zh", "yue")
MAX_NAME_CHARS = 60  # a name, not a paragraph: it starts every subtitle line


def default_name(number: int, chinese: bool = False) -> str:
    return f"说话人{number}" if chinese else f"Speaker {number}"


def is_default_name(name: str, number: int) -> bool:
    return name in (default_name(number), default_name(number, chinese=True))


def name_shown(name: str, number: int) -> str:
    """A speaker's name as the window shows it: a name nobody gave in the interface's language (a
    Message, translated where it is shown), a name the user gave as it was typed. Exports keep the
    transcript's own (default_name)."""
    return N_("Speakers", "Speaker {number}").format(number=number) if is_default_name(name, number) else name


def clean_name(name: str) -> str:
    """A name as typed, fit for a subtitle line: one line, no surrounding spaces, no markup brackets,
    at most MAX_NAME_CHARS characters."""
    single_line = " ".join(str(name).split())
    return single_line.replace("<", "").replace(">", "").strip()[:MAX_NAME_CHARS].strip()


def is_chinese(language: str | None, text: str = "") -> bool:
    """Whether a transcript counts as Chinese for its speaker prefixes: by its language, or, when that
    is unknown, by most of its letters being Chinese characters."""
    if language:
        return language.lower() in _CHINESE_LANGUAGES
    han = sum(1 for ch in text if "\u4e00" <= ch <= "\u9fff")
    letters = sum(1 for ch in text if ch.isalpha())
    return letters > 0 and han * 2 > letters


def prefix(name: str, chinese: bool) -> str:
    """What starts a line of this speaker in SRT and TXT."""
    return f"{name}：" if chinese else f"{name}: "
