"""The "Label speakers" choice next to the language: Off, Automatic, or 2 to 8 speakers."""
from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QComboBox, QWidget

from desktop.core.speakers.choice import AUTO, OFF
from desktop.core.transcription.options import SPEAKERS


class SpeakersCombo(QComboBox):
    """Its data is the choice as TranscribeSettings.speakers and the settings take it."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        for choice in SPEAKERS.choices:
            self.addItem("", choice)
        self.retranslate()

    def retranslate(self) -> None:
        self.setToolTip(self.tr("Say who speaks on each line. Automatic finds how many people speak; "
                                "if you know, choose the number."))
        for index in range(self.count()):
            choice = self.itemData(index)
            if choice == OFF:
                self.setItemText(index, self.tr("Off"))
            elif choice == AUTO:
                self.setItemText(index, self.tr("Automatic"))
            else:
                self.setItemText(index, self.tr("{count} speakers").format(count=choice))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
