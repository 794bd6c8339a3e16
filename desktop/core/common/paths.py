"""Where VoxDesk keeps its data on disk.

Everything lives under one root folder: ``$XDG_DATA_HOME/VoxDesk`` (``~/.local/share/VoxDesk`` when
that variable is unset). ``VOXDESK_DATA_DIR`` replaces the whole root, for tests and portable installs.
These functions only compute paths; callers create the folders when they first write to them.
"""
from __future__ import annotations

import os
from pathlib import Path

APP_DIR_NAME = "VoxDesk"


def data_dir() -> Path:
    """The root folder for models, voices and logs."""
    override = os.environ.get("VOXDESK_DATA_DIR")
    if override:
        return Path(override).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME", "")
    # The XDG spec says a relative value is invalid and must be ignored.
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".local" / "share"
    return base / APP_DIR_NAME


def models_dir() -> Path:
    """The root of the Whisper model store (see ``desktop.core.transcription.whisper_models.ModelStore``)."""
    return data_dir() / "models"


def voices_dir() -> Path:
    """Saved voice profiles: samples, consent records, metadata."""
    return data_dir() / "voices"


def known_voices_dir() -> Path:
    """Known voices for naming speakers: embeddings and agreements, no recordings."""
    return data_dir() / "known-voices"


def log_dir() -> Path:
    """Log files; the "Details" of an error point here."""
    return data_dir() / "logs"
