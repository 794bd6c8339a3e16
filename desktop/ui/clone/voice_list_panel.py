"""The saved voices, on the left of the Clone tab: play a voice's sample, rename it, delete it.

The list is read from the VoiceLibrary again whenever it may have changed (a voice added here or by
the command line, or deleted in the file manager); `voices_listed` then carries the voices, so the
Speak page offers the same ones.
"""
from __future__ import annotations

from typing import Callable

import numpy as np
from PySide6.QtCore import QEvent, Qt, Signal, Slot
from PySide6.QtWidgets import (
    QGroupBox,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop.core.common.errors import UserFacingError
from desktop.core.common.i18n import N_
from desktop.core.voices.library import Voice, VoiceLibrary, VoiceNotFound
from desktop.ui.clone.languages import language_name
from desktop.ui.common.i18n import translated
from desktop.ui.common.styles import ERROR_STYLE
from desktop.ui.common.tab_jobs import TabJobs

NO_VOICES = N_("VoiceListPanel", "No voices yet. Add one on the “Add a voice” page.")
MAX_LIST_WIDTH = 360  # the list grows to show a whole entry up to this width; longer names are elided


class VoiceListPanel(QGroupBox):
    voices_listed = Signal(list)  # the voices just read from the library

    def __init__(self, library: VoiceLibrary, jobs: TabJobs, play: Callable[[np.ndarray, int], None],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._library = library
        self._jobs = jobs
        self._play = play
        self._note: tuple[str, str] = ("", "")  # the sentence under the list (str or core Message), its style
        self.voice_list = QListWidget()
        self.voice_list.setMinimumWidth(180)
        self.voice_list.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.voice_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.play_sample_button = QPushButton()
        self.rename_button = QPushButton()
        self.delete_button = QPushButton()
        self.voices_message = QLabel()
        self.voices_message.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.voice_list, 1)
        row = QHBoxLayout()
        for button in (self.play_sample_button, self.rename_button, self.delete_button):
            row.addWidget(button)
        layout.addLayout(row)
        layout.addWidget(self.voices_message)

        self.voice_list.currentRowChanged.connect(lambda _row: self._update_actions())
        self.play_sample_button.clicked.connect(self.play_voice_sample)
        self.rename_button.clicked.connect(self._ask_rename)
        self.delete_button.clicked.connect(self._ask_delete)
        jobs.changed.connect(self._update_actions)
        self.retranslate()

    def retranslate(self) -> None:
        """Set every text; called at start and when the interface language changes."""
        self.setTitle(self.tr("Saved voices"))
        self.play_sample_button.setText(self.tr("Play sample"))
        self.rename_button.setText(self.tr("Rename…"))
        self.delete_button.setText(self.tr("Delete"))
        self.refresh()
        self.voices_message.setText(translated(self._note[0]))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    # -- the list ------------------------------------------------------------------------------

    def refresh(self) -> None:
        """Read the library again (a voice may have been added by the CLI or deleted outside VoxDesk)."""
        selected = self.selected_voice()
        voices = self._library.list()
        self.voice_list.clear()
        for voice in voices:
            item = self._item(voice)
            self.voice_list.addItem(item)
            if selected is not None and voice.id == selected.id:
                self.voice_list.setCurrentItem(item)
        if not voices:
            self._say(NO_VOICES)
        elif self._note[0] == NO_VOICES:
            self._say("")
        self._fit_width()
        self._update_actions()
        self.voices_listed.emit(voices)

    def _fit_width(self) -> None:
        """Make the list wide enough for its entries, so none hides behind a scrollbar."""
        metrics = self.voice_list.fontMetrics()
        widest = max((metrics.horizontalAdvance(self.voice_list.item(i).text())
                      for i in range(self.voice_list.count())), default=0)
        frame = 2 * self.voice_list.frameWidth() + self.voice_list.verticalScrollBar().sizeHint().width()
        self.voice_list.setMinimumWidth(min(MAX_LIST_WIDTH, max(180, widest + frame + 12)))

    def _item(self, voice: Voice) -> QListWidgetItem:
        problem = voice.problem()
        if problem:
            text = self.tr("{name} · {language} · added {date} (unusable)")
        else:
            text = self.tr("{name} · {language} · added {date}")
        item = QListWidgetItem(text.format(name=voice.name, language=language_name(voice.language),
                                           date=voice.created[:10]))
        item.setData(Qt.ItemDataRole.UserRole, voice.id)
        item.setToolTip(translated(problem) or self.tr("Consent of {name}, {date}").format(
            name=voice.consent.name, date=voice.consent.date))
        return item

    def selected_voice(self) -> Voice | None:
        item = self.voice_list.currentItem()
        if item is None:
            return None
        try:
            return self._library.get(item.data(Qt.ItemDataRole.UserRole))
        except VoiceNotFound:
            return None

    @Slot(object)
    def report_missing(self, message: str) -> None:
        """A voice turned out to be gone from the library: say so, and list the voices still there."""
        self._say(message, ERROR_STYLE)
        self.refresh()

    # -- the buttons ---------------------------------------------------------------------------

    @Slot()
    def play_voice_sample(self) -> None:
        item = self.voice_list.currentItem()
        if item is None:
            return
        try:
            voice = self._library.get(item.data(Qt.ItemDataRole.UserRole))
        except VoiceNotFound as error:
            self.report_missing(error.message)
            return
        from desktop.core.common.audio import decode, probe

        try:
            rate = probe(voice.sample_paths[0]).sample_rate
            self._play(decode(voice.sample_paths[0], sample_rate=rate), rate)
        except UserFacingError as error:
            self._say(error.message, ERROR_STYLE)

    @Slot()
    def _ask_rename(self) -> None:
        voice = self.selected_voice()
        if voice is None:
            return
        name, ok = QInputDialog.getText(self, self.tr("Rename the voice"), self.tr("New name:"), text=voice.name)
        if ok:
            self.rename_voice(voice, name)

    def rename_voice(self, voice: Voice, new_name: str) -> bool:
        try:
            self._library.rename(voice, new_name)
        except UserFacingError as error:
            self._say(error.message, ERROR_STYLE)
            self.refresh()
            return False
        self._say(N_("VoiceListPanel", "Renamed to “{name}”.").format(name=new_name.strip()))
        self.refresh()
        return True

    @Slot()
    def _ask_delete(self) -> None:
        voice = self.selected_voice()
        if voice is None:
            return
        answer = QMessageBox.question(
            self, self.tr("Delete the voice?"),
            self.tr("Delete “{name}” with its recordings and consent record? This cannot be undone.").format(
                name=voice.name))
        if answer == QMessageBox.StandardButton.Yes:
            self.delete_voice(voice)

    def delete_voice(self, voice: Voice) -> None:
        try:
            self._library.delete(voice)
        except VoiceNotFound:
            pass  # already gone: what the user wanted
        except UserFacingError as error:
            self._say(error.message, ERROR_STYLE)
        else:
            self._say(N_("VoiceListPanel", "Deleted “{name}”.").format(name=voice.name))
        self.refresh()

    def _say(self, text: str, style: str = "") -> None:
        """A sentence under the list (a core Message is shown in the interface language)."""
        self._note = (text, style)
        self.voices_message.setText(translated(text))
        self.voices_message.setStyleSheet(style)

    def _update_actions(self) -> None:
        has_voice = self.voice_list.currentItem() is not None
        for button in (self.play_sample_button, self.rename_button, self.delete_button):
            button.setEnabled(has_voice and not self._jobs.running("enroll"))
