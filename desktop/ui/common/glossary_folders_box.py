"""The Settings group box "Shared glossaries": read-only folders of glossaries that IT fills for everyone."""
from __future__ import annotations

from PySide6.QtCore import QEvent, Slot
from PySide6.QtWidgets import QFileDialog, QGroupBox, QHBoxLayout, QLabel, QListWidget, QPushButton, QVBoxLayout, QWidget

from desktop.core.common.shared_models import split_folder_list
from desktop.settings import Settings

FOLDERS_KEY = "glossaries/shared_folders"


class GlossaryFoldersBox(QGroupBox):
    """Edits the shared glossary folders; writes them only in save()."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.folder_list = QListWidget()
        self.folder_list.setMaximumHeight(80)
        self.add_button, self.remove_button = QPushButton(), QPushButton()
        self.note = QLabel()
        self.note.setWordWrap(True)
        buttons = QVBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        row = QHBoxLayout()
        row.addWidget(self.folder_list, 1)
        row.addLayout(buttons)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(self.note)
        self.add_button.clicked.connect(self.choose_folder)
        self.remove_button.clicked.connect(self.remove_selected_folder)
        self.folder_list.itemSelectionChanged.connect(self._update_buttons)
        self.retranslate()
        self._update_buttons()

    def retranslate(self) -> None:
        self.setTitle(self.tr("Shared glossaries"))
        self.add_button.setText(self.tr("Add folder…"))
        self.remove_button.setText(self.tr("Remove"))
        self.note.setText(self.tr("Folders your IT department fills with glossaries (.txt files of names and terms) "
                                  "for everyone. VoxDesk only reads them."))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def load(self, settings: Settings) -> None:
        self.folder_list.clear()
        self.folder_list.addItems(split_folder_list(settings.get(FOLDERS_KEY)))
        self._update_buttons()

    def save(self, settings: Settings) -> set[str]:
        """Write the folders if they changed; the keys written."""
        value = "\n".join(self.folder_list.item(i).text() for i in range(self.folder_list.count()))
        if value == settings.get(FOLDERS_KEY):
            return set()
        settings.set(FOLDERS_KEY, value)
        return {FOLDERS_KEY}

    @Slot()
    def choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Choose a shared glossary folder"))
        if folder:
            self.add_folder(folder)

    def add_folder(self, folder: str) -> None:
        if folder not in {self.folder_list.item(i).text() for i in range(self.folder_list.count())}:
            self.folder_list.addItem(folder)
        self._update_buttons()

    @Slot()
    def remove_selected_folder(self) -> None:
        for item in self.folder_list.selectedItems():
            self.folder_list.takeItem(self.folder_list.row(item))
        self._update_buttons()

    @Slot()
    def _update_buttons(self) -> None:
        self.remove_button.setEnabled(bool(self.folder_list.selectedItems()))
