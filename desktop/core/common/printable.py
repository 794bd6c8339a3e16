"""Names from outside (file names, device and voice names, what a server said) made safe to show.

A file name may hold anything but "/" and NUL: an escape sequence that recolours or clears the
terminal, a newline that makes one message look like two, a right-to-left override that shows
"gpj.exe" as "exe.jpg", or bytes that are not UTF-8 at all (Python keeps them as lone surrogates,
which a terminal cannot even print). printable() writes each such character as a visible escape
(\\x1b, \\n, \\u202e) and leaves everything else, Chinese and emoji included, as it is.
"""
from __future__ import annotations

import os
import unicodedata

# Format characters that reorder or hide text; other format characters (the joiners inside emoji,
# the soft hyphen) are harmless and stay.
_BIDI_AND_INVISIBLE = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff"
)
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def printable(text: str | os.PathLike[str]) -> str:
    """text with control characters, line separators, bidirectional overrides and undecodable bytes
    written as escapes; the same string when it holds none."""
    text = os.fspath(text)
    if text.isprintable() and not any(ch in _BIDI_AND_INVISIBLE for ch in text):
        return text
    return "".join(_escaped(ch) for ch in text)


def _escaped(ch: str) -> str:
    if ch in _NAMED:
        return _NAMED[ch]
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:  # a byte that is not UTF-8, as os.fsdecode keeps it
        return f"\\x{code - 0xDC00:02x}"
    if ch in _BIDI_AND_INVISIBLE or unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp"):
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
    return ch
