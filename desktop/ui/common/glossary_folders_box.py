"""The Settings group box "Shared glossaries": read-only folders of glossaries that IT fills for everyone."""
from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QGroupBox, QLabel, QVBoxLayout, QWidget

from desktop.settings import Settings
from desktop.ui.common.folder_list_editor import FolderListEditor

FOLDERS_KEY = "glossaries/shared_folders"


class GlossaryFoldersBox(QGroupBox):
    """Edits the shared glossary folders; writes them only in save()."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.folders = FolderListEditor()
        self.note = QLabel()
        self.note.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.folders)
        layout.addWidget(self.note)
        self.retranslate()

    def retranslate(self) -> None:
        self.setTitle(self.tr("Shared glossaries"))
        self.folders.chooser_title = self.tr("Choose a shared glossary folder")
        self.note.setText(self.tr("Folders your IT department fills with glossaries (.txt files of names and terms) "
                                  "for everyone. VoxDesk only reads them."))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def load(self, settings: Settings) -> None:
        self.folders.set_value(settings.get(FOLDERS_KEY))

    def save(self, settings: Settings) -> set[str]:
        """Write the folders if they changed; the keys written."""
        value = self.folders.value()
        if value == settings.get(FOLDERS_KEY):
            return set()
        settings.set(FOLDERS_KEY, value)
        return {FOLDERS_KEY}

    def add_folder(self, folder: str) -> None:
        self.folders.add_folder(folder)
