"""A list of folders with "Add folder…" and "Remove" beside it: the shared model folders and the
shared glossary folders of Settings → Downloads.

The folders are a Settings value of one folder a line (desktop.core.common.shared_models.split_folder_list).
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, Slot
from PySide6.QtWidgets import QFileDialog, QHBoxLayout, QListWidget, QPushButton, QVBoxLayout, QWidget

from desktop.core.common.shared_models import split_folder_list


class FolderListEditor(QWidget):
    """Folders to add (each once) and remove; the box that holds it reads and writes the setting."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.chooser_title = ""  # the title of the folder chooser, set by the box in its own words
        self.folder_list = QListWidget()
        self.folder_list.setMaximumHeight(80)
        self.add_button, self.remove_button = QPushButton(), QPushButton()
        buttons = QVBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.folder_list, 1)
        row.addLayout(buttons)
        self.add_button.clicked.connect(self.choose_folder)
        self.remove_button.clicked.connect(self.remove_selected_folder)
        self.folder_list.itemSelectionChanged.connect(self._update_buttons)
        self.retranslate()
        self._update_buttons()

    def retranslate(self) -> None:
        self.add_button.setText(self.tr("Add folder…"))
        self.remove_button.setText(self.tr("Remove"))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    # -- the setting's value ----------------------------------------------------------------------

    def set_value(self, value: str) -> None:
        """Show the folders of a setting's value (one a line)."""
        self.folder_list.clear()
        self.folder_list.addItems(split_folder_list(value))
        self._update_buttons()

    def value(self) -> str:
        """The folders shown, as the setting stores them."""
        return "\n".join(self._folders())

    # -- editing ----------------------------------------------------------------------------------

    @Slot()
    def choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.chooser_title)
        if folder:
            self.add_folder(folder)

    def add_folder(self, folder: str) -> None:
        if folder not in self._folders():
            self.folder_list.addItem(folder)
        self._update_buttons()

    @Slot()
    def remove_selected_folder(self) -> None:
        for item in self.folder_list.selectedItems():
            self.folder_list.takeItem(self.folder_list.row(item))
        self._update_buttons()

    def _folders(self) -> list[str]:
        return [self.folder_list.item(i).text() for i in range(self.folder_list.count())]

    @Slot()
    def _update_buttons(self) -> None:
        self.remove_button.setEnabled(bool(self.folder_list.selectedItems()))
