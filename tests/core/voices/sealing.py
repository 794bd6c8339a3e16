"""Helpers for tests of sealed voices: a consent code espeak-ng says clearly, and the install's key
handed to a VoxDesk process started by a test."""
from __future__ import annotations

import os
from datetime import date
from pathlib import Path
from unittest import mock

from desktop.core.voices.consent import ConsentPrompt
from desktop.core.voices.library import VoiceLibrary
from desktop.core.voices.seal import KEY_FILE, config_folder, install_key

ESPEAK_CODE = "4821"  # espeak-ng reads some numbers in ways Whisper base mishears; this one it hears


class EspeakDay(date):
    """The day the consent sentences of the tests are dated (tests/conftest.py). The sentence carries
    its date, and after some dates Whisper base mishears espeak-ng's robotic reading of the rest of it
    ("December 1, 2026. I read at my voice maybe used"), so a test run's outcome would hang on the
    calendar. People read the sentence themselves; the date is no part of what these tests check."""

    @classmethod
    def today(cls) -> "EspeakDay":
        return cls(2026, 11, 30)


def issue_clear_code(library: VoiceLibrary, name: str = "Alex Reader", language: str = "en") -> ConsentPrompt:
    """library.issue_prompt(), with the code 4821."""
    with mock.patch("secrets.randbelow", lambda _limit: int(ESPEAK_CODE) - 1000):
        return library.issue_prompt(name, language)


def share_install_key() -> dict[str, str]:
    """The environment for a child process that must use this process's key (read once per process,
    so possibly from the config folder of an earlier test)."""
    target = config_folder() / KEY_FILE
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as stream:
            stream.write(install_key().hex())
    return {**os.environ, "XDG_CONFIG_HOME": str(Path(target).parents[1])}
