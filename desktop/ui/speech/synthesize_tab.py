"""The Synthesize tab: type or paste text, hear it read in a natural voice, save it as a file.

It composes the parts, each in its own file: the ModelPicker (which model, language, speed, GPU),
the EditorPanel (the text), the VoicePanel (the model's voices), the Speaker (making and playing
speech), the SpeechSaver and the ModelFetcher (licence and download). The tab itself holds the row
of buttons, the progress bar and the status and error lines, and keeps the buttons in step.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6.QtCore import QEvent, Qt, Signal, Slot
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QPlainTextEdit, QPushButton, QSplitter, QVBoxLayout, QWidget

from desktop.core.common.errors import UserFacingError
from desktop.core.common.i18n import N_
from desktop.core.gpu.fallback import FallbackLog
from desktop.engines.speech.tts import SpeechSynthesizer, SpokenSentence, SynthesisSettings
from desktop.engines.speech.voice import VoiceInfo
from desktop.engines.speech.two_voices import TwoVoiceSpeech
from desktop.ui.common.stream_player import PLAYING, STOPPED, StreamPlayer
from desktop.ui.common.tab_jobs import TabJobs
from desktop.ui.speech.editor_panel import EditorPanel
from desktop.ui.speech.model_fetcher import ModelFetcher
from desktop.ui.speech.model_picker import ModelPicker
from desktop.ui.speech.progress_bar import SpeechProgress
from desktop.ui.speech.speaker import Speaker
from desktop.ui.speech.speech_device import SpeechDevice
from desktop.ui.speech.speech_saver import SpeechSaver
from desktop.ui.speech.status_lines import StatusLines
from desktop.ui.speech.voice_panel import VoicePanel
from desktop.workers.job import Job, JobRunner



class SynthesizeTab(QWidget):
    status_message = Signal(str)  # a sentence for the window's status bar
    synthesis_device = Signal(object)  # where speech synthesis runs: "CPU", "GPU" or a Message like ON_GPU

    def __init__(self, settings, synthesizer: SpeechSynthesizer, runner: JobRunner, fallback_log: FallbackLog,
                 parent: QWidget | None = None, *, player: StreamPlayer | None = None) -> None:
        super().__init__(parent)
        self._settings = settings  # the synthesize/* options of desktop.settings
        self._synthesizer = synthesizer
        self._jobs = TabJobs(runner, self)
        self.player = player or StreamPlayer(self)
        self.picker = ModelPicker(settings, synthesizer.store, self._jobs)
        self.editor_panel = EditorPanel()
        self.voice_panel = VoicePanel(settings, synthesizer, self._jobs)
        self.speaker = Speaker(synthesizer, self._jobs, self.player, self, two_voices=TwoVoiceSpeech(
            synthesizer, SpeechSynthesizer(synthesizer.store, fallback_log)))
        self.saver = SpeechSaver(settings, self._jobs, self)
        self.fetcher = ModelFetcher(synthesizer.store, runner, self)
        self.device = SpeechDevice(synthesizer, fallback_log, self)
        self.progress = SpeechProgress()
        self.status_lines = StatusLines()
        self._closing = False
        self._build()
        self._connect()
        self.picker.load_choices()
        self.normalize_box.setChecked(bool(settings.get("synthesize/normalize")))
        self.device.chosen(self.picker.use_gpu())
        self._on_model_changed()
        self.retranslate()
        self._update_actions()

    @property
    def editor(self) -> QPlainTextEdit:
        """The text editor (the window and its tests reach it here)."""
        return self.editor_panel.editor

    def _build(self) -> None:
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.editor_panel)
        splitter.addWidget(self.voice_panel)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 1)
        splitter.setChildrenCollapsible(False)

        self.speak_button = QPushButton()
        self.speak_button.setDefault(True)
        self.cancel_button, self.play_button, self.stop_button = QPushButton(), QPushButton(), QPushButton()
        self.save_button = QPushButton()
        self.normalize_box = QCheckBox()

        action_row = QHBoxLayout()
        for button in (self.speak_button, self.cancel_button):
            action_row.addWidget(button)
        action_row.addSpacing(16)
        for button in (self.play_button, self.stop_button):
            action_row.addWidget(button)
        action_row.addStretch(1)
        action_row.addWidget(self.normalize_box)
        action_row.addWidget(self.save_button)

        layout = QVBoxLayout(self)
        layout.addWidget(self.picker)
        layout.addWidget(splitter, 1)
        layout.addLayout(action_row)
        layout.addWidget(self.progress)
        layout.addWidget(self.status_lines)
        self.setMinimumSize(720, 480)

    def _connect(self) -> None:
        self.status_lines.said.connect(self.status_message)
        self.device.changed.connect(self.synthesis_device)
        self.device.status.connect(self.status_lines.set_status)
        for part in (self.picker, self.editor_panel, self.voice_panel, self.speaker, self.saver, self.fetcher):
            part.status.connect(self.status_lines.set_status)
            part.failed.connect(self.status_lines.show_error)
        self.saver.saved.connect(self.status_lines.show_saved)
        self.picker.model_changed.connect(self._on_model_changed)
        self.picker.gpu_toggled.connect(self._on_gpu_toggled)
        self.picker.folder_chosen.connect(self.import_folder)
        self.picker.import_progress.connect(self.progress.copying)
        self.editor_panel.status.connect(self.status_lines.clear_error)  # a text file was opened
        self.picker.import_ended.connect(lambda: self.progress.clear_text(0))
        self.voice_panel.loaded.connect(self._on_voices_loaded)
        self.voice_panel.preview_requested.connect(self.preview_voice)
        self.editor_panel.text_changed.connect(self._update_actions)
        self.speaker.sentence_made.connect(self._on_sentence_made)
        self.speaker.done.connect(self._on_speech_done)
        self.speaker.failed.connect(self._on_speech_failed)
        self.speaker.cancelled.connect(self._on_speech_cancelled)
        self.fetcher.fetched.connect(self._on_model_fetched)
        self.fetcher.unreachable.connect(self._on_download_unreachable)
        self.normalize_box.toggled.connect(lambda on: self._settings.set("synthesize/normalize", bool(on)))
        self.speak_button.clicked.connect(self.speak)
        self.cancel_button.clicked.connect(self.speaker.cancel)
        self.play_button.clicked.connect(self.speaker.play_or_pause)
        self.stop_button.clicked.connect(self.speaker.stop)
        self.save_button.clicked.connect(self.choose_save_file)
        self.player.sentence_changed.connect(self._highlight_sentence)
        self.player.state_changed.connect(lambda _state: self._update_actions())
        self.player.failed.connect(self.status_lines.show_error)
        self._jobs.changed.connect(self._update_actions)

    def retranslate(self) -> None:
        """Set every text; called at start and when the interface language changes. The text being
        edited, the speech made and the choices stay as they are."""
        for part in (self.picker, self.voice_panel, self.editor_panel, self.status_lines):
            part.retranslate()
        self.speak_button.setText(self.tr("Speak"))
        self.cancel_button.setText(self.tr("Cancel"))
        self.stop_button.setText(self.tr("Stop"))
        self.save_button.setText(self.tr("Save…"))
        self.normalize_box.setText(self.tr("Even out the loudness for speech"))
        self._update_actions()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    # -- the model and its voices ---------------------------------------------------------------

    def synthesis_settings(self) -> SynthesisSettings:
        return SynthesisSettings(model=self.picker.model_name(), speaker=self.voice_panel.current_voice(),
                                 language=self.picker.language(), speed=self.picker.speed(),
                                 use_gpu=self.picker.use_gpu(),
                                 watermark=bool(self._settings.get("synthesize/watermark")))

    @Slot()
    def _on_model_changed(self) -> None:
        model = self.picker.selected_model()
        self.voice_panel.forget(model.name if model is not None else None)
        if model is not None and model.downloaded:
            if self.isVisible():
                self.voice_panel.load(self.synthesis_settings())
            # else: loaded when the tab is first shown, so starting VoxDesk loads no voice model
        elif model is not None:
            self.voice_panel.setVisible(model.multi_speaker)
            self.voice_panel.set_hint(N_("SynthesizeTab", "The voices appear here once the model is downloaded."))
        self._update_actions()

    def showEvent(self, event) -> None:  # noqa: N802 - Qt naming
        super().showEvent(event)
        model = self.picker.selected_model()
        if model is not None and model.downloaded and self.voice_panel.info is None and not self.voice_panel.loading:
            self.voice_panel.load(self.synthesis_settings())

    @Slot(object)
    def _on_voices_loaded(self, info: VoiceInfo) -> None:
        self.status_lines.set_status(N_("SynthesizeTab", "“{title}” is ready.").format(title=info.title))
        self.device.changed.emit(info.device)
        self.picker.speed_slider.setEnabled(info.can_change_speed)
        self._update_actions()

    @Slot(bool)
    def _on_gpu_toggled(self, on: bool) -> None:
        model = self.picker.selected_model()
        if model is not None and model.downloaded and not self.speaker.speaking:
            self.voice_panel.load(self.synthesis_settings())
        else:
            self.device.chosen(on)

    def import_folder(self, folder: Path) -> Job:
        """Copy a Coqui model folder or a Piper voice into VoxDesk and choose it."""
        self.status_lines.clear_error()
        return self.picker.import_folder(folder)

    @Slot()
    def _on_download_unreachable(self) -> None:
        """Without a connection, entries that need a download are shown as download-only."""
        self.picker.set_offline(True)

    @Slot(str)
    def _on_model_fetched(self, _name: str) -> None:
        self.picker.set_offline(False)
        self.picker.refresh_models()
        self._on_model_changed()
        self.speak()

    # -- the text -------------------------------------------------------------------------------

    @Slot(int)
    def _highlight_sentence(self, index: int) -> None:
        spoken = self.speaker.take_sentence(index)
        if spoken is None:
            self.editor_panel.clear_highlight()
        else:
            self.editor_panel.highlight(self.speaker.take.text, spoken.sentence.start, spoken.sentence.end)

    def highlighted_text(self) -> str:
        """The text highlighted in the editor (the sentence being played), or ""."""
        return self.editor_panel.highlighted_text()

    # -- speaking -------------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        return self.speaker.speaking

    @Slot()
    def speak(self) -> None:
        """Speak the editor's text with the chosen model (downloading it first if needed)."""
        if self.speaker.speaking or self._closing:
            return
        self.status_lines.clear_error()
        text = self.editor_panel.text()
        settings = self.synthesis_settings()
        try:
            self._synthesizer.plan(text, settings)
            missing = self._synthesizer.missing_model(settings)
        except UserFacingError as error:
            self.status_lines.show_error(error.message)
            return
        if missing:
            self.fetcher.fetch(missing)
            return
        self.editor_panel.clear_highlight()
        self.progress.starting()
        self.status_lines.set_status("")
        self.speaker.speak(text, settings)

    @Slot(object)
    def _on_sentence_made(self, spoken: SpokenSentence) -> None:
        self.progress.sentence_made(len(self.speaker.take), spoken.total)
        self._update_actions()

    @Slot(object)
    def _on_speech_done(self, speech) -> None:
        self.progress.speech_done(len(self.speaker.take), speech.duration)
        self.device.loaded()

    @Slot(object)
    def _on_speech_failed(self, _message: str) -> None:
        if not self.speaker.previewing:  # the status line shows the sentence
            self.progress.speech_failed(self.speaker.run_made)
            self.device.loaded()

    @Slot()
    def _on_speech_cancelled(self) -> None:
        self.progress.speech_cancelled(self.speaker.run_made)

    # -- playing --------------------------------------------------------------------------------

    def speech_samples(self) -> np.ndarray:
        """Everything made by the last run (or as much as was made before a cancel)."""
        return self.speaker.take.samples()

    def preview_voice(self, speaker: str) -> None:
        """Play a short sample of one voice of the loaded model."""
        if self.speaker.speaking or self.speaker.previewing:
            return
        self.status_lines.clear_error()
        settings = self.synthesis_settings()
        settings.speaker = speaker
        self.speaker.preview(settings)

    # -- saving ---------------------------------------------------------------------------------

    @Slot()
    def choose_save_file(self) -> None:
        target = self.saver.choose_file()
        if target is not None:
            self.save_to(target)

    def save_to(self, path: Path, *, overwrite: bool = False) -> Job | None:
        """Save what was made to path (WAV or MP3 from the extension) on a worker thread.

        An existing file is replaced only after the user says so.
        """
        self.status_lines.clear_error()
        return self.saver.save(path, self.speech_samples(), self.speaker.take.sample_rate,
                               normalize=self.normalize_box.isChecked(), overwrite=overwrite)

    # -- state ----------------------------------------------------------------------------------

    def _update_actions(self) -> None:
        speaking = self.speaker.speaking
        has_text = bool(self.editor_panel.text().strip())
        has_speech = bool(self.speaker.take.sentences)
        state = self.player.state
        self.speak_button.setEnabled(not speaking and has_text and not self.speaker.previewing)
        self.cancel_button.setEnabled(speaking)
        self.play_button.setEnabled(has_speech or state != STOPPED)
        self.play_button.setText(self.tr("Pause") if state == PLAYING else self.tr("Play"))
        self.stop_button.setEnabled(state != STOPPED)
        self.save_button.setEnabled(has_speech and not self.saver.saving)
        self.editor.setReadOnly(speaking)
        self.picker.set_speaking(speaking)
        self.voice_panel.set_previews_enabled(not speaking and not self.speaker.previewing)

    def status_text(self) -> str:
        """The status line under the buttons, in the interface language."""
        return self.status_lines.status_label.text()

    def error_text(self) -> str:
        """The error shown under the buttons, or "" when there is none."""
        return self.status_lines.error_text()

    def shutdown(self) -> None:
        """The window is closing: stop speaking, playing, previews and downloads."""
        self._closing = True
        self._jobs.cancel_all()
        self.fetcher.close()
        self.player.stop()
