"""Spoken test material made with espeak-ng: consent sentences and reading passages.

Nobody has recorded our consent sentence, so tests let espeak-ng read it. Its English voice is one
Whisper base transcribes reliably; its Chinese voice is not (Whisper hears it as gibberish), so
Chinese is covered by the text-level tests.
"""
from __future__ import annotations

import subprocess
from pathlib import Path

from tests.helpers.tools import require_tool


def speak(text: str, path: Path, *, voice: str = "en-us", words_per_minute: int = 150) -> Path:
    """Write espeak-ng reading text to path (a 22.05 kHz mono WAV) and return path."""
    require_tool("espeak-ng")
    path.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["espeak-ng", "-v", voice, "-s", str(words_per_minute), "-w", str(path), text],
                   check=True, capture_output=True)
    return path
