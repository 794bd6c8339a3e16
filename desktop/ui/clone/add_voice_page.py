"""The "Add a voice" page of the Clone tab: who it is, the sample, the consent, then save.

One recorder serves both steps: first the sample (SampleStep: the passage to read, the quality
check), then the consent sentence (ConsentStep). A take or an imported file goes to the step shown.
"Check consent and save" hands both recordings to the VoiceEnrollment on a worker thread: VoxDesk's
own Whisper listens to the consent recording and Resemblyzer compares it with the sample.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

import numpy as np
from PySide6.QtCore import QEvent, Qt, Signal, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop.core.common.errors import UserFacingError
from desktop.core.common.i18n import N_
from desktop.core.common.recorder import Recording
from desktop.core.voices.consent import ConsentPrompt
from desktop.core.voices.library import Voice, VoiceLibrary
from desktop.engines.voices.cloning import VoiceEnrollment
from desktop.ui.clone.consent_step import ConsentStep
from desktop.ui.clone.languages import add_languages, interface_language
from desktop.ui.clone.recorder_widget import RecorderWidget
from desktop.ui.clone.sample_step import SampleStep
from desktop.ui.common.i18n import translated
from desktop.ui.common.styles import ERROR_STYLE, OK_STYLE
from desktop.ui.common.tab_jobs import TabJobs
from desktop.workers.job import Job, JobReport


class AddVoicePage(QWidget):
    voice_saved = Signal(object)  # the Voice just saved

    def __init__(self, settings, library: VoiceLibrary, enrollment: VoiceEnrollment, jobs: TabJobs,
                 play: Callable[[np.ndarray, int], None], recorder: RecorderWidget,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._settings = settings  # the clone/* options of desktop.settings
        self._library = library
        self._enrollment = enrollment
        self._jobs = jobs
        self._play = play
        self.recorder = recorder
        self.sample_step = SampleStep(enrollment, self)
        self.consent_step = ConsentStep(library, self)
        self._step: SampleStep | ConsentStep = self.sample_step
        self._note: tuple[str, str] = ("", "")  # the sentence at the bottom (str or core Message), its style
        self._build()
        device = settings.get("clone/input_device")
        if device:
            self.recorder.select_device(device)
        self._connect()
        self.show_sample_step()
        self.retranslate()

    def _build(self) -> None:
        self.step_label = QLabel()
        self.step_label.setWordWrap(True)
        self.step_label.setStyleSheet("font-weight: bold;")
        self.import_button = QPushButton()
        self.play_take_button = QPushButton()
        self.sample_step_button = QPushButton()
        self.consent_step_button = QPushButton()
        self.save_voice_button = QPushButton()
        self.add_progress = QLabel()
        self.add_progress.setWordWrap(True)
        self.add_progress.setTextFormat(Qt.TextFormat.PlainText)  # it may quote what Whisper heard
        self.next_hint = QLabel()  # why "Next" cannot be pressed yet
        self.next_hint.setWordWrap(True)
        self.next_hint.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)

        take_buttons = QHBoxLayout()
        for button in (self.import_button, self.play_take_button):
            take_buttons.addWidget(button)
        take_buttons.addStretch(1)  # keeps the buttons compact when there is no hint
        take_buttons.addWidget(self.next_hint, 4)
        take_buttons.addWidget(self.sample_step_button)
        take_buttons.addWidget(self.consent_step_button)
        layout = QVBoxLayout(self)
        layout.addLayout(self._who())
        layout.addWidget(self.step_label)
        layout.addWidget(self.recorder, 1)
        layout.addLayout(take_buttons)
        layout.addWidget(self.sample_step.quality_label)
        layout.addWidget(self.consent_step.consent_label)
        layout.addWidget(self.save_voice_button)
        layout.addWidget(self.add_progress)

    def _who(self) -> QFormLayout:
        """The voice's name, the speaker's name and the language they speak."""
        self.voice_name_edit = QLineEdit()
        self.speaker_name_edit = QLineEdit()
        self.add_language_combo = QComboBox()
        add_languages(self.add_language_combo)
        self.add_language_combo.setCurrentIndex(self.add_language_combo.findData(interface_language()))
        self.voice_name_label, self.speaker_name_label, self.add_language_label = QLabel(), QLabel(), QLabel()
        who = QFormLayout()
        who.addRow(self.voice_name_label, self.voice_name_edit)
        who.addRow(self.speaker_name_label, self.speaker_name_edit)
        who.addRow(self.add_language_label, self.add_language_combo)
        return who

    def retranslate(self) -> None:
        """Set every text; called at start and when the interface language changes."""
        self.voice_name_edit.setPlaceholderText(self.tr("e.g. Reception announcements"))
        self.speaker_name_edit.setPlaceholderText(self.tr("The full name of the person who speaks"))
        self.voice_name_label.setText(self.tr("Name of the voice:"))
        self.speaker_name_label.setText(self.tr("Speaker's name:"))
        self.add_language_label.setText(self.tr("Language:"))
        self.import_button.setText(self.tr("Import recording…"))
        self.import_button.setToolTip(self.tr("Use an existing recording (any audio or video file) instead."))
        self.play_take_button.setText(self.tr("Play back"))
        self.sample_step_button.setText(self.tr("Back to the sample"))
        self.consent_step_button.setText(self.tr("Next: consent sentence"))
        self.save_voice_button.setText(self.tr("Check consent and save the voice"))
        self._show_heading()
        self._show_next_hint()
        self.sample_step.retranslate()
        self.consent_step.retranslate()
        self.add_progress.setText(translated(self._note[0]))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def _connect(self) -> None:
        self.add_language_combo.currentIndexChanged.connect(self._on_language_changed)
        self.recorder.recorded.connect(self._on_recorded)
        self.recorder.recording_started.connect(self._update_actions)
        self.import_button.clicked.connect(self._ask_import)
        self.play_take_button.clicked.connect(self.play_take)
        self.consent_step_button.clicked.connect(self.show_consent_step)
        self.sample_step_button.clicked.connect(self.show_sample_step)
        self.save_voice_button.clicked.connect(self.save_voice)
        for edit in (self.voice_name_edit, self.speaker_name_edit):
            edit.textChanged.connect(lambda _text: self._update_actions())
        self._jobs.changed.connect(self._update_actions)

    # -- the steps -----------------------------------------------------------------------------

    @property
    def add_language(self) -> str:
        return self.add_language_combo.currentData()

    @Slot()
    def _on_language_changed(self) -> None:
        self.consent_step.clear()  # the sentence is in the other language now
        if self._step is self.sample_step:
            self.show_sample_step()
        else:
            self.show_consent_step()

    @Slot()
    def show_sample_step(self) -> None:
        self._show(self.sample_step)

    @Slot()
    def show_consent_step(self) -> None:
        """Show the consent sentence (with a fresh code) for the speaker to read."""
        try:
            self.consent_step.prepare(self.speaker_name_edit.text(), self.add_language)
        except UserFacingError as error:
            self._say(error.message, ERROR_STYLE)
            return
        self._show(self.consent_step)

    def _show(self, step: SampleStep | ConsentStep) -> None:
        self._step = step
        text, target = step.script(self.add_language)
        self.recorder.set_script("", text, target, recorded=step.playable() is not None)
        self._show_take_length(step)
        self._show_heading()
        self._update_actions()

    def _show_heading(self) -> None:
        """The step's heading and the title of the text to read, in the interface language."""
        heading = self._step.heading()
        if heading is not None:
            self.step_label.setText(heading)
            self.recorder.script_title.setText(self._step.script_title())

    # -- the recordings ------------------------------------------------------------------------

    @Slot(object)
    def _on_recorded(self, recording: Recording) -> None:
        self._step.take(recording)
        self._settings.set("clone/input_device", recording.device)
        self._after_take(self._step)

    @Slot()
    def _ask_import(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Choose a recording"), str(Path.home()),
                                              self.tr("Audio and video files (*.*)"))
        if path:
            self.import_recording(Path(path))

    def import_recording(self, path: Path) -> Job:
        """Use a file as the sample or as the consent recording (whichever step is shown)."""
        step, read = self._step, self._step.reader()

        def done(value) -> None:
            step.use(value)
            self._after_take(step)

        self._say(N_("AddVoicePage", "Reading “{name}”…").format(name=path.name))
        return self._jobs.start("import", lambda _report: read(path), on_result=done,
                                on_failed=lambda message: self._say(message, ERROR_STYLE))

    def _after_take(self, step: SampleStep | ConsentStep) -> None:
        if step is self._step:
            self.recorder.show_take(step.playable() is not None)
            self._show_take_length(step)
        if step is self.sample_step:
            self._say("")  # the quality check under the recorder now speaks for the new sample
        self._update_actions()

    def _show_take_length(self, step: SampleStep | ConsentStep) -> None:
        """The recorder's time shows the length of the step's take, recorded or imported (a sample
        as it is kept, without the silence around the speech)."""
        clip = step.playable()
        if clip is not None:
            samples, rate = clip
            self.recorder.show_length(len(samples) / rate)

    @Slot()
    def play_take(self) -> None:
        clip = self._step.playable()
        if clip is not None:
            self._play(*clip)

    # -- saving --------------------------------------------------------------------------------

    @Slot()
    def save_voice(self) -> Job | None:
        """Check the consent recording (Whisper + speaker check) and save the voice, on a worker thread."""
        sample, consent = self.sample_step.sample, self.consent_step
        if sample is None or consent.audio is None or consent.prompt is None or self._jobs.running("enroll"):
            return None
        missing = self._enrollment.missing_whisper_model(consent.prompt.language)
        if missing:
            self._say(N_("AddVoicePage", "VoxDesk needs the Whisper “{name}” model to check the consent "
                         "recording. Download it in the Transcribe tab, then try again.").format(name=missing[0]),
                      ERROR_STYLE)
            return None
        name, prompt, enrollment = self.voice_name_edit.text(), consent.prompt, self._enrollment
        audio, rate = consent.audio

        def work(report: JobReport) -> Voice:
            return enrollment.enroll(name, prompt, [sample], audio, rate, on_status=report.message,
                                     cancelled=report.cancelled)

        self._say(N_("AddVoicePage", "Checking the consent recording…"))
        return self._jobs.start("enroll", work, on_result=lambda voice: self._on_saved(voice, prompt),
                                on_message=self._say,
                                on_failed=lambda message: self._say(message, ERROR_STYLE))

    def _on_saved(self, voice: Voice, prompt: ConsentPrompt) -> None:
        self._library.forget_prompt(prompt.code)
        self._say(N_("AddVoicePage", "Saved the voice “{name}”. You can now use it on the Speak page.").format(
            name=voice.name), OK_STYLE)
        self.sample_step.clear()
        self.consent_step.clear()
        self.voice_name_edit.clear()
        self.show_sample_step()
        self.voice_saved.emit(voice)

    # -- state ---------------------------------------------------------------------------------

    def _show_next_hint(self) -> None:
        """Next to a disabled "Next": what is still missing before the consent step."""
        hint = ""
        if self._step is self.sample_step and not self.recorder.is_recording:
            if self.sample_step.sample is None:
                hint = self.tr("To go on, record the text above or import a recording.")
            elif not self.sample_step.ready:
                hint = self.tr("To go on, record the text again (see why below).")
            elif not self.speaker_name_edit.text().strip():
                hint = self.tr("To go on, type the speaker's name at the top.")
        elif self._step is self.consent_step and not self.recorder.is_recording:
            if not self.consent_step.ready:
                hint = self.tr("To save, record the sentence above or import a recording of it.")
            elif not self.voice_name_edit.text().strip():
                hint = self.tr("To save, type a name for the voice at the top.")
        self.next_hint.setText(hint)
        self.next_hint.setVisible(bool(hint))
        self.consent_step_button.setToolTip(hint or self.tr("The speaker reads a sentence that says they agree."))

    def _say(self, text: str, style: str = "") -> None:
        """A sentence at the bottom of the page (a core Message is shown in the interface language)."""
        self._note = (text, style)
        self.add_progress.setText(translated(text))
        self.add_progress.setStyleSheet(style)

    def _update_actions(self) -> None:
        recording = self.recorder.is_recording
        adding = self._jobs.running("enroll")
        on_sample = self._step is self.sample_step
        # Each step shows only its own lines and buttons.
        self.consent_step_button.setVisible(on_sample)
        self.sample_step.quality_label.setVisible(on_sample)
        self.sample_step_button.setVisible(not on_sample)
        self.consent_step.consent_label.setVisible(not on_sample)
        self.save_voice_button.setVisible(not on_sample)
        sample_ok = self.sample_step.ready
        self.consent_step_button.setEnabled(sample_ok and bool(self.speaker_name_edit.text().strip())
                                            and not recording)
        self._show_next_hint()
        self.import_button.setEnabled(not recording and not self._jobs.running("import") and not adding)
        self.play_take_button.setEnabled(not recording and self._step.playable() is not None)
        self.save_voice_button.setEnabled(sample_ok and self.consent_step.ready and not recording
                                          and not adding and bool(self.voice_name_edit.text().strip()))
