"""Text from outside made safe to show and to save: a server's or a model's transcript, a transcript
autosaved before it was checked, text typed into the editor.

Taken out: control characters (NUL, BEL, ESC and the rest of C0 and C1, with whole terminal escape
sequences), the bidirectional embeddings, overrides and isolates that make text display in another
order than it is stored (U+202A–U+202E, U+2066–U+2069), and invisible junk (byte order mark, zero-width
space, word joiner). A lone surrogate, which no file encoding can hold, becomes U+FFFD, the character
for "unreadable", so the reader still sees that something was there. Line breaks of every kind become
spaces, or "\\n" where the text may have lines. Everything else is kept: every script, combining marks,
the joiners that are part of spelling (Persian) or of emoji.
"""
from __future__ import annotations

import re

_ESCAPE_SEQUENCE = r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # CSI, and OSC (a title)
_CONTROL = r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f]"  # C0 and C1 but tab, line breaks and NEL
_BIDI = r"[\u202a-\u202e\u2066-\u2069]"
_INVISIBLE = r"[\u200b\u2060\ufeff]"
_UNSAFE = re.compile("|".join((_ESCAPE_SEQUENCE, _CONTROL, _BIDI, _INVISIBLE)))
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_LINE_BREAK = re.compile(r"\r\n|[\r\n\x85\u2028\u2029]")


def clean_text(text: str, *, newlines: bool = False) -> str:
    """``text`` without what is unsafe (see the module), its line breaks as "\\n" when ``newlines``,
    else as spaces; a tab is a space."""
    text = _SURROGATE.sub("\ufffd", _UNSAFE.sub("", text))
    return _LINE_BREAK.sub("\n" if newlines else " ", text).replace("\t", " ")
