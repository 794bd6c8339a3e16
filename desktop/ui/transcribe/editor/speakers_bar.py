"""The speakers of the shown transcript, each with its colour and its name to change: renaming one
here renames every line of that speaker. Hidden when the transcript has no speakers."""
from __future__ import annotations

from PySide6.QtCore import QEvent, Slot
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QWidget

from desktop.ui.transcribe.editor.segments_model import SegmentsModel
from desktop.ui.transcribe.editor.speaker_colours import speaker_colour


class SpeakersBar(QWidget):
    def __init__(self, segments: SegmentsModel, parent: QWidget | None = None):
        super().__init__(parent)
        self._segments = segments
        self._shown: list[tuple[int, str]] = []
        self.name_edits: dict[int, QLineEdit] = {}  # by speaker number
        self.label = QLabel()
        self._row = QHBoxLayout(self)
        self._row.setContentsMargins(0, 0, 0, 0)
        self._row.addWidget(self.label)
        self._row.addStretch(1)
        segments.modelReset.connect(self.refresh)
        segments.speakers_changed.connect(self.refresh)
        self.retranslate()
        self.refresh()

    def retranslate(self) -> None:
        self.label.setText(self.tr("Speakers:"))
        for edit in self.name_edits.values():
            edit.setToolTip(self.tr("Type a name and press Enter: every line of this speaker gets it."))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    @Slot()
    def refresh(self) -> None:
        """One name box per speaker of the transcript, as it is now."""
        choices = self._segments.speaker_choices()
        self.setVisible(bool(choices))
        if choices == self._shown:
            return
        self._shown = choices
        for edit in self.name_edits.values():
            self._row.removeWidget(edit)
            edit.deleteLater()
        self.name_edits = {}
        for position, (number, name) in enumerate(choices, 1):
            edit = QLineEdit(name)
            edit.setMaximumWidth(180)
            edit.setStyleSheet(f"QLineEdit {{ background: {speaker_colour(number).name()}; color: black; }}")
            edit.editingFinished.connect(lambda n=number, e=edit: self._rename(n, e))
            self._row.insertWidget(position, edit)
            self.name_edits[number] = edit
        self.retranslate()

    def _rename(self, number: int, edit: QLineEdit) -> None:
        names = dict(self._segments.speaker_choices())
        if number not in names or edit.text() == names[number]:
            return
        self._segments.rename_speaker(number, edit.text())
        # A name cleaned up, cleared or joined to another speaker shows as the transcript has it now.
        names = dict(self._segments.speaker_choices())
        if number in names:
            edit.setText(names[number])
