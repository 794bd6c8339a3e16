"""The Clone tab: record a consenting person's voice once, then speak any text in it.

Left: the saved voices (VoiceListPanel). Right, two pages: "Speak" (SpeakPanel) and "Add a voice"
(AddVoicePage, with its sample and consent steps). This class only puts them together: one job
tracker, one player and the library's voice list shared between them.

Everything heavy runs through the JobRunner; every service comes in through the constructor.
"""
from __future__ import annotations

from typing import Callable

import numpy as np
from PySide6.QtCore import QEvent, Qt, Signal, Slot
from PySide6.QtWidgets import QFrame, QScrollArea, QSplitter, QTabWidget, QVBoxLayout, QWidget

from desktop.core.common.recorder import microphones
from desktop.core.common.recorder import InputDevice, Recorder, refresh_devices
from desktop.core.voices.library import Voice, VoiceLibrary
from desktop.engines.voices.cloning import VoiceCloner, VoiceEnrollment
from desktop.ui.clone.add_voice_page import AddVoicePage
from desktop.ui.clone.recorder_widget import RecorderWidget
from desktop.ui.clone.sample_step import reading_passage  # noqa: F401 - the passages, for callers of this module
from desktop.ui.clone.speak_panel import SpeakPanel
from desktop.ui.clone.voice_list_panel import VoiceListPanel
from desktop.ui.common.stream_player import StreamPlayer
from desktop.ui.common.tab_jobs import TabJobs
from desktop.workers.job import JobRunner


class CloneTab(QWidget):
    status_message = Signal(str)

    def __init__(
        self,
        settings,
        library: VoiceLibrary,
        enrollment: VoiceEnrollment,
        cloner: VoiceCloner,
        runner: JobRunner,
        parent: QWidget | None = None,
        *,
        player: StreamPlayer | None = None,
        recorder_factory: Callable[[InputDevice | None], Recorder] = lambda device: Recorder(device),
        devices: Callable[[], list[InputDevice]] = microphones,
        refresh: Callable[[], None] = refresh_devices,
    ) -> None:
        super().__init__(parent)
        self.player = player or StreamPlayer(self)
        self.jobs = TabJobs(runner, self)
        self.voices = VoiceListPanel(library, self.jobs, self._play_clip)
        self.speak_panel = SpeakPanel(settings, library, cloner, self.jobs, self.player)
        recorder = RecorderWidget(recorder_factory=recorder_factory, devices=devices, refresh=refresh)
        self.add_voice_page = AddVoicePage(settings, library, enrollment, self.jobs, self._play_clip, recorder)
        self.pages = QTabWidget()
        self.pages.addTab(_scrolled(self.speak_panel), "")
        self.pages.addTab(_scrolled(self.add_voice_page), "")
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.voices)
        splitter.addWidget(self.pages)
        splitter.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(splitter)

        self.voices.voices_listed.connect(self.speak_panel.set_voices)
        self.speak_panel.voice_missing.connect(self.voices.report_missing)
        self.speak_panel.voices_outdated.connect(self.voices.refresh)
        self.speak_panel.status_message.connect(self.status_message)
        self.add_voice_page.voice_saved.connect(self._on_voice_saved)
        self.refresh_voices()
        self.retranslate()

    # The parts of the Add a voice page that callers reach through the tab.
    @property
    def recorder(self) -> RecorderWidget:
        return self.add_voice_page.recorder

    @property
    def speaker_name_edit(self):
        return self.add_voice_page.speaker_name_edit

    @property
    def step_label(self):
        return self.add_voice_page.step_label

    @property
    def add_language(self) -> str:
        return self.add_voice_page.add_language

    def show_consent_step(self) -> None:
        self.add_voice_page.show_consent_step()

    def retranslate(self) -> None:
        """Set the page titles; each part sets its own texts."""
        self.pages.setTabText(0, self.tr("Speak"))
        self.pages.setTabText(1, self.tr("Add a voice"))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def refresh_voices(self) -> None:
        """Read the library again (a voice may have been added by the CLI or deleted outside VoxDesk)."""
        self.voices.refresh()

    @Slot(object)
    def _on_voice_saved(self, voice: Voice) -> None:
        self.refresh_voices()
        self.speak_panel.select_voice(voice.id)

    def _play_clip(self, samples: np.ndarray, rate: int) -> None:
        """Play one whole recording (a voice's sample, a take) through the tab's player."""
        self.player.begin(rate)
        self.player.add(0, samples)
        self.player.end_of_input()

    @property
    def busy(self) -> bool:
        return self.jobs.running() or self.recorder.is_recording

    def showEvent(self, event) -> None:  # noqa: N802 - Qt naming
        super().showEvent(event)
        if not self.busy:
            self.refresh_voices()

    def shutdown(self) -> None:
        """The window is closing: stop recording, playing and speaking."""
        self.recorder.stop()
        self.player.stop()
        self.jobs.cancel_all()


def _scrolled(page: QWidget) -> QScrollArea:
    """The page in a scroll area: in a small window it scrolls instead of squeezing its rows together."""
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setWidget(page)
    return area
