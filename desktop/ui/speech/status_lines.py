"""The two lines under the Synthesize tab's buttons: what is happening (with *Open folder* after a
save), and what went wrong."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QUrl, Signal, Slot
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from desktop.ui.common.i18n import translated
from desktop.ui.common.styles import ERROR_STYLE


class StatusLines(QWidget):
    """Each sentence is a str or a core Message; a Message is said again in a new interface language."""

    said = Signal(str)  # every status or error sentence, in the interface language, for the window's status bar

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._status: str = ""
        self._error: str = ""
        self._folder: Path | None = None  # the folder a file was just saved in, for "Open folder"
        self.status_label = QLabel()
        self.status_label.setWordWrap(True)
        self.status_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error_label = QLabel()
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet(ERROR_STYLE)
        self.error_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error_label.hide()
        self.open_folder_button = QPushButton()
        self.open_folder_button.hide()
        self.open_folder_button.clicked.connect(self.open_folder)
        status_row = QHBoxLayout()
        status_row.addWidget(self.status_label, 1)
        status_row.addWidget(self.open_folder_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(status_row)
        layout.addWidget(self.error_label)
        self.retranslate()

    def retranslate(self) -> None:
        self.status_label.setText(translated(self._status))
        self.error_label.setText(translated(self._error))
        self.open_folder_button.setText(self.tr("Open folder"))
        self.open_folder_button.setToolTip(self.tr("Show the folder the speech was saved in."))

    @Slot(object, object)
    def show_saved(self, text: str, folder: Path) -> None:
        """Say where a file was saved, with "Open folder" beside it until the next sentence."""
        self.set_status(text)
        self._folder = Path(folder)
        self.open_folder_button.show()

    @Slot()
    def open_folder(self) -> None:
        if self._folder is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(self._folder)))

    @Slot(object)
    def set_status(self, text: str) -> None:
        self._folder = None
        self.open_folder_button.hide()
        self._status = text
        self.status_label.setText(translated(text))
        if text:
            self.said.emit(translated(text))

    @Slot(object)
    def show_error(self, message: str) -> None:
        self._error = message
        self.error_label.setText(translated(message))
        self.error_label.show()
        self.said.emit(translated(message))

    def clear_error(self) -> None:
        self._error = ""
        self.error_label.clear()
        self.error_label.hide()

    def error_text(self) -> str:
        return self.error_label.text()
