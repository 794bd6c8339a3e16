"""Every test runs with its own data folder and settings file, and Qt without a screen.

Fixtures shared by several test folders: ``no_stdin`` and the tiny voice models ``tiny_folders``.
"""
import builtins
import io
import os
import sys
import tempfile

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Qt fixes the settings location at the first QSettings; make that a throw-away folder.
os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="voxdesk-config-")


@pytest.fixture(autouse=True)
def isolated_user_folders(tmp_path_factory, monkeypatch):
    """Models, voices and QSettings go to throw-away folders, never the real home."""
    root = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("VOXDESK_DATA_DIR", str(root / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(root / "config"))
    return root


@pytest.fixture
def no_stdin(monkeypatch):
    """Fail the test if anything asks on the terminal (Coqui's licence prompt uses input())."""

    def refuse(*_args, **_kwargs):
        raise AssertionError("something tried to read from stdin")

    monkeypatch.setattr(builtins, "input", refuse)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))


@pytest.fixture(scope="module")
def tiny_folders(tmp_path_factory):
    """Two tiny Coqui voice model folders (see tests.helpers.tiny_tts): one voice, and several."""
    from tests.helpers.tiny_tts import build_multi_speaker_vits, build_single_speaker_vits

    root = tmp_path_factory.mktemp("tiny-models")
    return {
        "single": build_single_speaker_vits(root / "tiny-english"),
        "multi": build_multi_speaker_vits(root / "tiny-voices"),
    }
