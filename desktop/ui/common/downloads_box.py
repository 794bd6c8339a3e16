"""The Settings group box "Downloads": where models are downloaded from, and shared model folders."""
from __future__ import annotations

from PySide6.QtCore import QEvent, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QWidget,
)

from desktop.core.common.download_sources import SOURCE_CHOICES, SOURCE_NAMES, normalized_custom_url
from desktop.settings import Settings
from desktop.ui.common.folder_list_editor import FolderListEditor
from desktop.ui.common.i18n import translated
from desktop.ui.common.styles import WARNING_STYLE

SOURCE_KEY = "downloads/source"
URL_KEY = "downloads/custom_url"
FOLDERS_KEY = "models/shared_folders"


class DownloadsBox(QGroupBox):
    """Edits the download source and the shared model folders; writes them only in save()."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.source_combo = QComboBox()
        for choice in SOURCE_CHOICES:
            self.source_combo.addItem("", choice)
        self.url_edit = QLineEdit()
        self.url_problem = QLabel()
        self.url_problem.setStyleSheet(WARNING_STYLE)
        self.url_problem.setWordWrap(True)
        self.folders = FolderListEditor()
        self.folders_note = QLabel()
        self.folders_note.setWordWrap(True)
        self.source_label, self.url_label, self.folders_label = QLabel(), QLabel(), QLabel()
        self._lay_out()

        self.source_combo.currentIndexChanged.connect(self._update_url_state)
        self.url_edit.textChanged.connect(self._update_url_state)
        self.retranslate()
        self._update_url_state()

    def _lay_out(self) -> None:
        form = QFormLayout(self)
        form.addRow(self.source_label, self.source_combo)
        form.addRow(self.url_label, self.url_edit)
        form.addRow("", self.url_problem)
        form.addRow(self.folders_label, self.folders)
        form.addRow("", self.folders_note)

    def retranslate(self) -> None:
        self.setTitle(self.tr("Downloads"))
        for index, choice in enumerate(SOURCE_CHOICES):
            self.source_combo.setItemText(index, translated(SOURCE_NAMES[choice]))
        self.source_combo.setToolTip(self.tr(
            "Automatic tries Hugging Face first and switches to hf-mirror.com when Hugging Face cannot be reached "
            "within a few seconds."))
        self.source_label.setText(self.tr("Download models from:"))
        self.url_label.setText(self.tr("Company mirror address:"))
        self.url_edit.setPlaceholderText(self.tr("https://… (a mirror of Hugging Face in your company)"))
        self.folders_label.setText(self.tr("Shared model folders:"))
        self.folders.chooser_title = self.tr("Choose a shared model folder")
        self.folders_note.setText(self.tr(
            "Folders your IT department fills with models, searched before anything is downloaded. VoxDesk only "
            "reads them."))
        self._update_url_state()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    # -- settings ---------------------------------------------------------------------------------

    def load(self, settings: Settings) -> None:
        self.source_combo.setCurrentIndex(max(0, self.source_combo.findData(settings.get(SOURCE_KEY))))
        self.url_edit.setText(settings.get(URL_KEY))
        self.folders.set_value(settings.get(FOLDERS_KEY))

    def values(self) -> dict[str, str]:
        return {
            SOURCE_KEY: self.source_combo.currentData(),
            URL_KEY: normalized_custom_url(self.url_edit.text()) or self.url_edit.text().strip(),
            FOLDERS_KEY: self.folders.value(),
        }

    def save(self, settings: Settings) -> set[str]:
        """Write what changed; the keys written."""
        changed = set()
        for key, value in self.values().items():
            if value != settings.get(key):
                settings.set(key, value)
                changed.add(key)
        return changed

    # -- editing ----------------------------------------------------------------------------------

    def add_folder(self, folder: str) -> None:
        self.folders.add_folder(folder)

    @Slot()
    def _update_url_state(self) -> None:
        custom = self.source_combo.currentData() == "custom"
        self.url_edit.setEnabled(custom)
        bad = custom and normalized_custom_url(self.url_edit.text()) is None
        self.url_problem.setVisible(bad)
        if bad:
            self.url_problem.setText(self.tr("Enter the mirror's address, starting with https:// or http://."))
