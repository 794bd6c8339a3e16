"""A button that chooses which glossaries apply, remembered under a Settings key (the Transcribe tab, live captions)."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, Signal, Slot
from PySide6.QtWidgets import QMenu, QPushButton, QWidget

from desktop.core.common.shared_models import split_folder_list
from desktop.settings import Settings


class GlossaryPicker(QPushButton):  # a push button keeps room for its menu's arrow beside the text
    changed = Signal()

    def __init__(self, settings: Settings, key: str, parent: QWidget | None = None):
        super().__init__(parent)
        self._settings, self._key = settings, key
        self.setMenu(QMenu(self))
        self.menu().aboutToShow.connect(self.refresh)
        self.refresh()

    def chosen_paths(self) -> tuple[str, ...]:
        """The chosen glossaries that are still there (one removed since is left out)."""
        remembered = split_folder_list(self._settings.get(self._key))
        present = {str(entry.path) for entry in self._settings.glossary_library().entries()}
        return tuple(path for path in remembered if path in present)

    @Slot()
    def refresh(self) -> None:
        menu = self.menu()
        menu.clear()
        chosen = set(self.chosen_paths())
        entries = self._settings.glossary_library().entries()
        for entry in entries:
            label = entry.name + (" " + self.tr("(shared)") if entry.shared else "")
            action = menu.addAction(label)
            action.setCheckable(True)
            action.setChecked(str(entry.path) in chosen)
            action.setData(str(entry.path))
            action.toggled.connect(self._save)
        if not entries:
            menu.addAction(self.tr("No glossaries yet: Tools → Glossaries…")).setEnabled(False)
        self._show_choice()

    @Slot()
    def _save(self) -> None:
        paths = [a.data() for a in self.menu().actions() if a.isCheckable() and a.isChecked()]
        self._settings.set(self._key, "\n".join(paths))
        self._show_choice()
        self.changed.emit()

    def _show_choice(self) -> None:
        names = [Path(path).stem for path in self.chosen_paths()]
        self.setText(self.tr("Glossaries: {names}").replace("{names}", ", ".join(names)) if names
                     else self.tr("Glossaries: none"))
        self.setToolTip(self.tr("The office's names and terms: Whisper is told them, and what it mishears as "
                                "one of them is corrected in the transcript."))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self._show_choice()
        super().changeEvent(event)
