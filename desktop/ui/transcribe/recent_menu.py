"""File → Recent transcripts: transcripts saved in earlier sessions, to list again and go on with."""
from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QEvent, Signal, Slot
from PySide6.QtWidgets import QMenu, QWidget

from desktop.core.transcription.autosave import SavedItem


class RecentTranscriptsMenu(QMenu):
    chosen = Signal(object)  # the SavedItem picked

    def __init__(self, recent: Callable[[], list[SavedItem]], parent: QWidget | None = None):
        """recent: the saved transcripts, most recent first; read each time the menu opens."""
        super().__init__(parent)
        self._recent = recent
        self.aboutToShow.connect(self._fill)
        self.retranslate()

    def retranslate(self) -> None:
        self.setTitle(self.tr("&Recent transcripts"))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    @Slot()
    def _fill(self) -> None:
        self.clear()
        recent = self._recent()
        for saved in recent:
            action = self.addAction(saved.source.name)
            action.setToolTip(str(saved.source))
            action.triggered.connect(lambda _checked=False, saved=saved: self.chosen.emit(saved))
        if not recent:
            self.addAction(self.tr("No saved transcripts yet")).setEnabled(False)
