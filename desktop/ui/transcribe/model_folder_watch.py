"""Notices models arriving in (or leaving) the model store's folders while the window is open: one
imported with `voxdesk models import` in a terminal, or copied in by IT, shows in the list at once."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal, Slot

SETTLE_MS = 500  # a copy or an import changes a folder many times: one refresh once it has settled


class ModelFolderWatch(QObject):
    changed = Signal()

    def __init__(self, folders: list[Path], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._folders = [str(folder) for folder in folders]
        self._watcher = QFileSystemWatcher(self)
        self._settle = QTimer(self, singleShot=True, interval=SETTLE_MS)
        self._settle.timeout.connect(self.changed)
        self._watcher.directoryChanged.connect(self._on_directory_changed)
        self._watch_existing()

    def _watch_existing(self) -> None:
        """Watch each folder, or where it does not exist yet (before the first model) the nearest folder
        above it that does, to notice it being made."""
        wanted = {_nearest_existing(Path(folder)) for folder in self._folders}
        watched = set(self._watcher.directories())
        if watched - wanted:
            self._watcher.removePaths(sorted(watched - wanted))
        if wanted - watched:
            self._watcher.addPaths(sorted(wanted - watched))

    @Slot(str)
    def _on_directory_changed(self, _path: str) -> None:
        self._watch_existing()  # a folder made since, such as the first imported model's
        self._settle.start()


def _nearest_existing(folder: Path) -> str:
    while not folder.is_dir() and folder.parent != folder:
        folder = folder.parent
    return str(folder)
