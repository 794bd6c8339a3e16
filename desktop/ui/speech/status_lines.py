"""The two lines under the Synthesize tab's buttons: what is happening, and what went wrong."""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from desktop.ui.common.i18n import translated
from desktop.ui.common.styles import ERROR_STYLE


class StatusLines(QWidget):
    """Each sentence is a str or a core Message; a Message is said again in a new interface language."""

    said = Signal(str)  # every status or error sentence, in the interface language, for the window's status bar

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._status: str = ""
        self._error: str = ""
        self.status_label = QLabel()
        self.status_label.setWordWrap(True)
        self.status_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error_label = QLabel()
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet(ERROR_STYLE)
        self.error_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error_label.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.status_label)
        layout.addWidget(self.error_label)

    def retranslate(self) -> None:
        self.status_label.setText(translated(self._status))
        self.error_label.setText(translated(self._error))

    @Slot(object)
    def set_status(self, text: str) -> None:
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
