"""The speakers of the shown transcript, each with its colour and its name to change: renaming one
here renames every line of that speaker. A speaker that sounds like a known voice shows the
suggestion ("sounds like Anna — Accept / Not Anna"): nothing is named without the click, and each
click is one undoable edit. Hidden when the transcript has no speakers."""
from __future__ import annotations

from PySide6.QtCore import QEvent, Signal, Slot
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QPushButton, QToolButton, QWidget

from desktop.core.transcription import edits

from desktop.ui.transcribe.editor.segments_model import SegmentsModel
from desktop.ui.transcribe.editor.speaker_colours import speaker_colour


class Suggestion(QWidget):
    """"sounds like Anna — Accept / Not Anna" beside a speaker's name."""

    def __init__(self, name: str, sure: float, parent: QWidget | None = None):
        super().__init__(parent)
        self.name, self.sure = name, sure
        self.label = QLabel()
        self.accept_button = QPushButton()
        self.refuse_button = QPushButton()
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 8, 0)
        row.setSpacing(4)
        for widget in (self.label, self.accept_button, self.refuse_button):
            row.addWidget(widget)
        self.retranslate()

    def retranslate(self) -> None:
        self.label.setText(self.tr("sounds like {name} —").format(name=self.name))
        self.accept_button.setText(self.tr("Accept"))
        self.accept_button.setToolTip(self.tr("Name this speaker {name} on every line ({sure:.0%} sure).").format(
            name=self.name, sure=self.sure))
        self.refuse_button.setText(self.tr("Not {name}").format(name=self.name))
        self.refuse_button.setToolTip(self.tr("This speaker is not {name}: VoxDesk will not suggest {name} for "
                                              "them in this transcript again.").format(name=self.name))


class SpeakersBar(QWidget):
    remember_requested = Signal(int)  # "Remember this voice as…" for this speaker number

    def __init__(self, segments: SegmentsModel, parent: QWidget | None = None):
        super().__init__(parent)
        self._segments = segments
        self._shown: tuple = ()
        self.name_edits: dict[int, QLineEdit] = {}  # by speaker number
        self.suggestions: dict[int, Suggestion] = {}  # by speaker number, for those with one
        self.remember_buttons: dict[int, QToolButton] = {}
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
        for suggestion in self.suggestions.values():
            suggestion.retranslate()
        for button in self.remember_buttons.values():
            button.setText("…")
            button.setToolTip(self.tr("Remember this voice as…"))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    @Slot()
    def refresh(self) -> None:
        """One name box per speaker of the transcript, as it is now."""
        choices = self._segments.speaker_choices()
        transcript = self._segments.transcript
        suggested = dict(transcript.suggested) if transcript is not None else {}
        self.setVisible(bool(choices))
        shown = (tuple(choices), tuple(sorted(suggested.items())))
        if shown == self._shown:
            return
        self._shown = shown
        for widget in (*self.name_edits.values(), *self.suggestions.values(), *self.remember_buttons.values()):
            self._row.removeWidget(widget)
            widget.deleteLater()
        self.name_edits, self.suggestions, self.remember_buttons = {}, {}, {}
        position = 1
        for number, name in choices:
            edit = QLineEdit(name)
            edit.setMaximumWidth(180)
            edit.setStyleSheet(f"QLineEdit {{ background: {speaker_colour(number).name()}; color: black; }}")
            edit.editingFinished.connect(lambda n=number, e=edit: self._rename(n, e))
            self._row.insertWidget(position, edit)
            self.name_edits[number] = edit
            remember = QToolButton()
            remember.clicked.connect(lambda _checked=False, n=number: self.remember_requested.emit(n))
            self._row.insertWidget(position + 1, remember)
            self.remember_buttons[number] = remember
            position += 2
            if number in suggested:
                suggestion = Suggestion(*suggested[number])
                suggestion.accept_button.clicked.connect(lambda _checked=False, n=number: self.accept(n))
                suggestion.refuse_button.clicked.connect(lambda _checked=False, n=number: self.refuse(n))
                self._row.insertWidget(position, suggestion)
                self.suggestions[number] = suggestion
                position += 1
        self.retranslate()

    def accept(self, number: int) -> None:
        """Name the speaker as the voice it sounds like: one undoable edit."""
        if self._segments.transcript is not None:
            self._segments.commit(edits.accept_suggestion(self._segments.transcript, number), SegmentsModel.SPEAKER)

    def refuse(self, number: int) -> None:
        """"Not Anna": the suggestion goes and is never made again for this speaker; one undoable edit."""
        if self._segments.transcript is not None:
            self._segments.commit(edits.refuse_suggestion(self._segments.transcript, number), SegmentsModel.SPEAKER)

    def _rename(self, number: int, edit: QLineEdit) -> None:
        names = dict(self._segments.speaker_choices())
        if number not in names or edit.text() == names[number]:
            return
        self._segments.rename_speaker(number, edit.text())
        # A name cleaned up, cleared or joined to another speaker shows as the transcript has it now.
        names = dict(self._segments.speaker_choices())
        if number in names:
            edit.setText(names[number])
