"""The message after an export: where the files went, with *Open file* and *Open folder*, so that the
subtitles can be checked or sent on at once. It does not block: the window goes on working under it."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QMessageBox, QWidget

translate = QCoreApplication.translate


class ExportDoneMessage(QMessageBox):
    """Open file is offered when one file was written, Open folder when they all went to one folder."""

    def __init__(self, paths: list[Path], parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("export-done")
        self.setIcon(QMessageBox.Icon.Information)
        self.setWindowTitle(translate("ExportDone", "Export finished"))
        folders = {path.parent for path in paths}
        if len(paths) == 1:
            self.setText(translate("ExportDone", "“{name}” was saved in {folder}.").format(
                name=paths[0].name, folder=paths[0].parent))
        else:
            self.setText(translate("ExportDone", "{count} files were saved.").format(count=len(paths)))
        self._file = paths[0] if len(paths) == 1 else None
        self._folder = next(iter(folders)) if len(folders) == 1 else None
        self.open_file_button = self.addButton(translate("ExportDone", "Open &file"),
                                               QMessageBox.ButtonRole.ActionRole) if self._file else None
        self.open_folder_button = self.addButton(translate("ExportDone", "Open f&older"),
                                                 QMessageBox.ButtonRole.ActionRole) if self._folder else None
        self.close_button = self.addButton(QMessageBox.StandardButton.Close)
        self.setDefaultButton(self.open_file_button or self.open_folder_button or self.close_button)
        self.buttonClicked.connect(self._on_clicked)

    def _on_clicked(self, button) -> None:
        if self._file is not None and button is self.open_file_button:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(self._file)))
        elif self._folder is not None and button is self.open_folder_button:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(self._folder)))
