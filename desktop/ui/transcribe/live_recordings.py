"""Where the window keeps live-caption recordings: a Recordings folder under the user's Documents
(as the desktop names it, through QStandardPaths), or the folder chosen in Settings."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QDir, QStandardPaths

from desktop.settings import Settings

RECORDINGS_KEY = "live/recordings_folder"


def default_recordings_folder() -> Path:
    """Documents/Recordings, in the interface's words ("文档/录音" on a Chinese desktop)."""
    documents = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return Path(documents or QDir.homePath()) / QCoreApplication.translate("LiveRecordings", "Recordings")


def recordings_folder(settings: Settings) -> Path:
    chosen = str(settings.get(RECORDINGS_KEY) or "").strip()
    return Path(chosen).expanduser() if chosen else default_recordings_folder()
