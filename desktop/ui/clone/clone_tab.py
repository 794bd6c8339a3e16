"""The Clone tab: record a consenting person's voice once, then speak any text in it.

Left: the saved voices (play a sample, rename, delete). Right, two pages:

- "Add a voice": who it is, a sample (recorded while reading the passage on screen, or imported),
  its quality check, the consent sentence with the person's name, today's date and a fresh code
  (recorded or imported), then "Check consent and save": VoxDesk's own Whisper listens to the consent
  recording and Resemblyzer compares it with the sample, on a worker thread.
- "Speak": text, voice, language and engine (the engine's licence shown next to the Speak button;
  XTTS's CPML must be accepted here first), speech made sentence by sentence and played as it comes,
  Cancel, Save as WAV, and the voice match score.

Everything heavy runs through the JobRunner; every service comes in through the constructor.
"""
from __future__ import annotations

import html
import logging
from pathlib import Path
from typing import Any, Callable

import numpy as np
from PySide6.QtCore import QEvent, QLocale, Qt, Signal, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from desktop.core.voices.consent import ConsentPrompt
from desktop.core.common.errors import UserFacingError
from desktop.core.common.i18n import N_
from desktop.core.common.recorder import InputDevice, Recorder, Recording, input_devices, refresh_devices
from desktop.core.voices.quality import PreparedSample, QualityReport
from desktop.core.voices.library import Voice, VoiceLibrary, VoiceNotFound
from desktop.engines.voices.cloning import ENGINES, CloneResult, CloneSettings, VoiceCloner, VoiceEnrollment, match_label
from desktop.engines.speech.tts import SpokenSentence
from desktop.resources import resource_path
from desktop.ui.common.i18n import translated
from desktop.ui.clone.recorder_widget import RecorderWidget
from desktop.ui.common.stream_player import StreamPlayer
from desktop.workers.job import Job, JobReport, JobRunner

log = logging.getLogger(__name__)

_ERROR_STYLE = "color: #b3261e;"
_WARNING_STYLE = "color: #8a5300;"
_OK_STYLE = "color: #1e6b2e;"
_LANGUAGES = (("en", "English"), ("zh", "中文 (Chinese)"))


def reading_passage(language: str) -> str:
    return resource_path("reading", f"{language}.txt").read_text(encoding="utf-8").strip()


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
        devices: Callable[[], list[InputDevice]] = input_devices,
        refresh: Callable[[], None] = refresh_devices,
    ) -> None:
        super().__init__(parent)
        self.library = library
        self._enrollment = enrollment
        self._cloner = cloner
        self._runner = runner
        self.choices = settings  # the remembered choices: clone/* options of desktop.settings
        self.player = player or StreamPlayer(self)
        self._recorder_factory = recorder_factory
        self._devices = devices
        self._refresh = refresh
        self.sample: PreparedSample | None = None
        self.consent_audio: tuple[np.ndarray, int] | None = None
        self.prompt: ConsentPrompt | None = None
        self._recording_for = "sample"  # or "consent"
        self._jobs: dict[str, Job] = {}
        self._callbacks: dict[Job, tuple[str, Callable, Callable]] = {}
        self._spoken: list[SpokenSentence] = []
        self.result: CloneResult | None = None
        self._closing = False
        # The sentences shown under each part (str, or a core Message), and their style.
        self._voices_note: tuple[str, str] = ("", "")
        self._add_note: tuple[str, str] = ("", "")
        self._speak_note: tuple[str, str] = ("", "")
        self._build()
        self._load_choices()
        self._connect()
        self.refresh_voices()
        self._show_sample_step()
        self.retranslate()
        self._update_actions()

    # -- building ------------------------------------------------------------------------------

    def _build(self) -> None:
        # Saved voices.
        self.voice_list = QListWidget()
        self.voice_list.setMinimumWidth(180)
        self.play_sample_button = QPushButton()
        self.rename_button = QPushButton()
        self.delete_button = QPushButton()
        self.voices_message = QLabel()
        self.voices_message.setWordWrap(True)
        self.voices_box = voices_box = QGroupBox()
        voices_layout = QVBoxLayout(voices_box)
        voices_layout.addWidget(self.voice_list, 1)
        row = QHBoxLayout()
        for button in (self.play_sample_button, self.rename_button, self.delete_button):
            row.addWidget(button)
        voices_layout.addLayout(row)
        voices_layout.addWidget(self.voices_message)

        self.pages = QTabWidget()
        self.pages.addTab(_scrolled(self._build_speak_page()), "")
        self.pages.addTab(_scrolled(self._build_add_page()), "")

        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(voices_box)
        splitter.addWidget(self.pages)
        splitter.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(splitter)

    def _build_add_page(self) -> QWidget:
        page = QWidget()
        self.voice_name_edit = QLineEdit()
        self.speaker_name_edit = QLineEdit()
        self.add_language_combo = QComboBox()
        for code, name in _LANGUAGES:
            self.add_language_combo.addItem(name, code)
        if QLocale().language() == QLocale.Language.Chinese:
            # Most people reading a Chinese interface record their voice in Chinese.
            self.add_language_combo.setCurrentIndex(self.add_language_combo.findData("zh"))
        who = QFormLayout()
        self.voice_name_label, self.speaker_name_label, self.add_language_label = QLabel(), QLabel(), QLabel()
        who.addRow(self.voice_name_label, self.voice_name_edit)
        who.addRow(self.speaker_name_label, self.speaker_name_edit)
        who.addRow(self.add_language_label, self.add_language_combo)

        self.step_label = QLabel()
        self.step_label.setWordWrap(True)
        self.step_label.setStyleSheet("font-weight: bold;")
        self.recorder = RecorderWidget(recorder_factory=self._recorder_factory, devices=self._devices,
                                       refresh=self._refresh)
        self.import_button = QPushButton()
        self.play_take_button = QPushButton()
        self.sample_step_button = QPushButton()
        self.consent_step_button = QPushButton()
        self.quality_label = QLabel()
        self.quality_label.setWordWrap(True)
        self.consent_label = QLabel()
        self.consent_label.setWordWrap(True)
        self.save_voice_button = QPushButton()
        self.add_progress = QLabel()
        self.add_progress.setWordWrap(True)

        take_buttons = QHBoxLayout()
        for button in (self.import_button, self.play_take_button):
            take_buttons.addWidget(button)
        take_buttons.addStretch(1)
        take_buttons.addWidget(self.sample_step_button)
        take_buttons.addWidget(self.consent_step_button)
        layout = QVBoxLayout(page)
        layout.addLayout(who)
        layout.addWidget(self.step_label)
        layout.addWidget(self.recorder, 1)
        layout.addLayout(take_buttons)
        layout.addWidget(self.quality_label)
        layout.addWidget(self.consent_label)
        layout.addWidget(self.save_voice_button)
        layout.addWidget(self.add_progress)
        return page

    def _build_speak_page(self) -> QWidget:
        page = QWidget()
        self.speak_voice_combo = QComboBox()
        self.speak_language_combo = QComboBox()
        for code, name in _LANGUAGES:
            self.speak_language_combo.addItem(name, code)
        self.engine_combo = QComboBox()
        for engine in ENGINES.values():
            self.engine_combo.addItem(translated(engine.title), engine.id)
        self.model_folder_button = QPushButton()
        self.engine_info = QLabel()
        self.engine_info.setWordWrap(True)
        form = QFormLayout()
        self.voice_label, self.speak_language_label, self.engine_label = QLabel(), QLabel(), QLabel()
        form.addRow(self.voice_label, self.speak_voice_combo)
        form.addRow(self.speak_language_label, self.speak_language_combo)
        engine_row = QHBoxLayout()
        engine_row.addWidget(self.engine_combo, 1)
        engine_row.addWidget(self.model_folder_button)
        form.addRow(self.engine_label, engine_row)

        self.editor = QPlainTextEdit()

        # The licence panel: shown while the selected engine's terms are not accepted.
        self.licence_panel = QFrame()
        self.licence_panel.setFrameShape(QFrame.Shape.StyledPanel)
        self.licence_text = QLabel()
        self.licence_text.setWordWrap(True)
        self.licence_text.setOpenExternalLinks(True)
        self.licence_box = QCheckBox()
        self.accept_licence_button = QPushButton()
        panel_layout = QVBoxLayout(self.licence_panel)
        panel_layout.addWidget(self.licence_text)
        panel_row = QHBoxLayout()
        panel_row.addWidget(self.licence_box)
        panel_row.addStretch(1)
        panel_row.addWidget(self.accept_licence_button)
        panel_layout.addLayout(panel_row)

        self.speak_button = QPushButton()
        self.cancel_button = QPushButton()
        self.play_button = QPushButton()
        self.save_button = QPushButton()
        self.licence_label = QLabel()
        self.licence_label.setWordWrap(True)  # a long licence line wraps instead of pushing the buttons out
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setTextVisible(True)
        self.match_label = QLabel()
        self.match_label.setWordWrap(True)
        self.speak_message = QLabel()
        self.speak_message.setWordWrap(True)
        buttons = QHBoxLayout()
        buttons.addWidget(self.speak_button)
        buttons.addWidget(self.licence_label)
        buttons.addStretch(1)
        for button in (self.cancel_button, self.play_button, self.save_button):
            buttons.addWidget(button)
        layout = QVBoxLayout(page)
        layout.addLayout(form)
        layout.addWidget(self.engine_info)
        layout.addWidget(self.editor, 1)
        layout.addWidget(self.licence_panel)
        layout.addLayout(buttons)
        layout.addWidget(self.progress)
        layout.addWidget(self.match_label)
        layout.addWidget(self.speak_message)
        return page

    def retranslate(self) -> None:
        """Set every text, including those that depend on where the user is; called at start and when
        the interface language changes."""
        self.play_sample_button.setText(self.tr("Play sample"))
        self.rename_button.setText(self.tr("Rename…"))
        self.delete_button.setText(self.tr("Delete"))
        self.voices_box.setTitle(self.tr("Saved voices"))
        self.pages.setTabText(0, self.tr("Speak"))
        self.pages.setTabText(1, self.tr("Add a voice"))
        # Add a voice
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
        self.consent_step_button.setToolTip(self.tr("The speaker reads a sentence that says they agree."))
        self.save_voice_button.setText(self.tr("Check consent and save the voice"))
        self._show_step()
        if self.sample is not None:
            self.quality_label.setText(self._describe(self.sample.report))
        self._show_consent_state()
        # Speak
        for index, engine in enumerate(ENGINES.values()):
            self.engine_combo.setItemText(index, translated(engine.title))
        self.model_folder_button.setText(self.tr("Model folder…"))
        self.model_folder_button.setToolTip(self.tr("Where the selected engine's model files are."))
        self.voice_label.setText(self.tr("Voice:"))
        self.speak_language_label.setText(self.tr("Language:"))
        self.engine_label.setText(self.tr("Engine:"))
        self.editor.setPlaceholderText(self.tr("Type the text to speak in the chosen voice."))
        self.licence_box.setText(self.tr("I confirm the statements above"))
        self.accept_licence_button.setText(self.tr("Accept the licence"))
        self.speak_button.setText(self.tr("Speak"))
        self.cancel_button.setText(self.tr("Cancel"))
        self.play_button.setText(self.tr("Play"))
        self.save_button.setText(self.tr("Save as WAV…"))
        self.licence_label.setToolTip(self.tr("The licence of the selected engine."))
        self._show_engine()
        self._show_match()
        # The lists and the sentences under each part
        self.refresh_voices()
        for label, (text, style) in ((self.voices_message, self._voices_note), (self.add_progress, self._add_note),
                                     (self.speak_message, self._speak_note)):
            label.setText(translated(text))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def _connect(self) -> None:
        self.voice_list.currentRowChanged.connect(lambda _row: self._update_actions())
        self.play_sample_button.clicked.connect(self.play_voice_sample)
        self.rename_button.clicked.connect(self._ask_rename)
        self.delete_button.clicked.connect(self._ask_delete)
        self.add_language_combo.currentIndexChanged.connect(self._on_add_language_changed)
        self.recorder.recorded.connect(self._on_recorded)
        self.recorder.recording_started.connect(self._update_actions)
        self.import_button.clicked.connect(self._ask_import)
        self.play_take_button.clicked.connect(self.play_take)
        self.consent_step_button.clicked.connect(self.show_consent_step)
        self.sample_step_button.clicked.connect(self._show_sample_step)
        self.save_voice_button.clicked.connect(self.save_voice)
        for widget in (self.voice_name_edit, self.speaker_name_edit):
            widget.textChanged.connect(lambda _text: self._update_actions())
        self.engine_combo.currentIndexChanged.connect(self._on_engine_changed)
        self.speak_language_combo.currentIndexChanged.connect(
            lambda _i: self.choices.set("clone/language", self.speak_language_combo.currentData()))
        self.model_folder_button.clicked.connect(self._ask_model_folder)
        self.licence_box.toggled.connect(self.accept_licence_button.setEnabled)
        self.accept_licence_button.clicked.connect(self.accept_licence)
        self.speak_button.clicked.connect(self.speak)
        self.cancel_button.clicked.connect(self.cancel)
        self.play_button.clicked.connect(self.player.toggle)
        self.save_button.clicked.connect(self._ask_save)
        self.player.failed.connect(self._speak_error)
        self.editor.textChanged.connect(self._update_actions)

    def _load_choices(self) -> None:
        _select(self.engine_combo, self.choices.get("clone/engine"))
        _select(self.speak_language_combo, self.choices.get("clone/language"))
        device = self.choices.get("clone/input_device")
        if device:
            self.recorder.select_device(device)
        self._on_engine_changed()

    # -- the voice list ------------------------------------------------------------------------

    def refresh_voices(self) -> None:
        """Read the library again (a voice may have been added by the CLI or deleted outside VoxDesk)."""
        selected = self.selected_voice()
        wanted = self.speak_voice_combo.currentData()
        self.voice_list.clear()
        self.speak_voice_combo.clear()
        for voice in self.library.list():
            language = dict(_LANGUAGES).get(voice.language, voice.language)
            problem = voice.problem()
            if problem:
                text = self.tr("{name} · {language} · added {date} (unusable)")
            else:
                text = self.tr("{name} · {language} · added {date}")
            item = QListWidgetItem(text.format(name=voice.name, language=language, date=voice.created[:10]))
            item.setData(Qt.ItemDataRole.UserRole, voice.id)
            item.setToolTip(translated(problem) or self.tr("Consent of {name}, {date}").format(
                name=voice.consent.name, date=voice.consent.date))
            self.voice_list.addItem(item)
            self.speak_voice_combo.addItem(voice.name, voice.id)
            if selected is not None and voice.id == selected.id:
                self.voice_list.setCurrentItem(item)
        if wanted:
            _select(self.speak_voice_combo, wanted)
        if not self.voice_list.count():
            self._voices_status(N_("CloneTab", "No voices yet. Add one on the “Add a voice” page."))
        self._update_actions()

    def selected_voice(self) -> Voice | None:
        item = self.voice_list.currentItem()
        if item is None:
            return None
        try:
            return self.library.get(item.data(Qt.ItemDataRole.UserRole))
        except VoiceNotFound:
            return None

    def _voice_by_id(self, voice_id: str | None) -> Voice | None:
        if not voice_id:
            return None
        try:
            return self.library.get(voice_id)
        except VoiceNotFound as error:
            self._voices_error(error.message)
            self.refresh_voices()
            return None

    @Slot()
    def play_voice_sample(self) -> None:
        item = self.voice_list.currentItem()
        voice = self._voice_by_id(item.data(Qt.ItemDataRole.UserRole) if item else None)
        if voice is None:
            return
        from desktop.core.common.audio import decode, probe

        try:
            rate = probe(voice.sample_paths[0]).sample_rate
            self._play(decode(voice.sample_paths[0], sample_rate=rate), rate)
        except UserFacingError as error:
            self._voices_error(error.message)

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
            self.library.rename(voice, new_name)
        except UserFacingError as error:
            self._voices_error(error.message)
            self.refresh_voices()
            return False
        self._voices_status(N_("CloneTab", "Renamed to “{name}”.").format(name=new_name.strip()))
        self.refresh_voices()
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
            self.library.delete(voice)
        except VoiceNotFound:
            pass  # already gone: what the user wanted
        except UserFacingError as error:
            self._voices_error(error.message)
        else:
            self._voices_status(N_("CloneTab", "Deleted “{name}”.").format(name=voice.name))
        self.refresh_voices()

    def _voices_error(self, message: str) -> None:
        self._voices_status(message, _ERROR_STYLE)

    def _voices_status(self, text: str, style: str = "") -> None:
        """A sentence under the voice list (a core Message is shown in the interface language)."""
        self._voices_note = (text, style)
        self.voices_message.setText(translated(text))
        self.voices_message.setStyleSheet(style)

    # -- adding a voice: the sample --------------------------------------------------------------

    @property
    def add_language(self) -> str:
        return self.add_language_combo.currentData()

    @Slot()
    def _on_add_language_changed(self) -> None:
        self.prompt = None  # the sentence is in the other language now
        self.consent_audio = None
        if self._recording_for == "sample":
            self._show_sample_step()
        else:
            self.show_consent_step()

    @Slot()
    def _show_sample_step(self) -> None:
        self._recording_for = "sample"
        self.recorder.set_script("", reading_passage(self.add_language), (15.0, 30.0))
        self._show_step()
        self._update_actions()

    def _show_step(self) -> None:
        """The step's heading and the title of the text to read, in the interface language."""
        if self._recording_for == "sample":
            self.step_label.setText(self.tr("Step 1 of 2: record the voice. Read the text below aloud at your "
                                            "normal pace, then press Stop."))
            self.recorder.script_title.setText(self.tr("Read aloud:"))
        elif self.prompt is not None:
            self.step_label.setText(self.tr("Step 2 of 2: consent. {name} reads this sentence aloud, including "
                                            "the code.").format(name=self.prompt.name))
            self.recorder.script_title.setText(self.tr("Consent sentence:"))

    @Slot()
    def show_consent_step(self) -> None:
        """Show the consent sentence (with a fresh code) for the speaker to read."""
        if self.prompt is None or self.prompt.name != " ".join(self.speaker_name_edit.text().split()) \
                or self.prompt.language != self.add_language:
            try:
                self.prompt = self.library.issue_prompt(self.speaker_name_edit.text(), self.add_language)
            except UserFacingError as error:
                self._add_status(error.message, _ERROR_STYLE)
                return
            self.consent_audio = None
        self._recording_for = "consent"
        self.recorder.set_script("", self.prompt.text, None)
        self._show_step()
        self._update_actions()

    @Slot(object)
    def _on_recorded(self, recording: Recording) -> None:
        if self._recording_for == "consent":
            self.consent_audio = (recording.samples, recording.sample_rate)
            self._show_consent_state()
        else:
            self.set_sample(self._enrollment.prepare_recording(recording.samples, recording.sample_rate))
        self.choices.set("clone/input_device", recording.device)
        self._update_actions()

    @Slot()
    def _ask_import(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Choose a recording"), str(Path.home()),
                                              self.tr("Audio and video files (*.*)"))
        if path:
            self.import_recording(Path(path))

    def import_recording(self, path: Path) -> Job:
        """Use a file as the sample or as the consent recording (whichever step is shown)."""
        purpose = self._recording_for
        enrollment = self._enrollment

        def work(_report: JobReport):
            if purpose == "sample":
                return enrollment.import_sample(path)
            from desktop.core.common.audio import decode, probe

            rate = max(16000, min(48000, probe(path).sample_rate))
            return decode(path, sample_rate=rate), rate

        def done(value) -> None:
            if purpose == "sample":
                self.set_sample(value)
            else:
                self.consent_audio = value
                self._show_consent_state()
            self._update_actions()

        self._add_status(N_("CloneTab", "Reading “{name}”…").format(name=path.name))
        return self._start("import", Job(work, name="import recording"), done,
                           lambda message: self._add_status(message, _ERROR_STYLE))

    def set_sample(self, sample: PreparedSample) -> None:
        self.sample = sample
        self.quality_label.setText(self._describe(sample.report))
        refused = not sample.report.accepted
        self.quality_label.setStyleSheet(_ERROR_STYLE if refused else
                                         _WARNING_STYLE if sample.report.warnings else _OK_STYLE)
        self._add_status("")

    def _describe(self, report: QualityReport) -> str:
        if not report.issues:
            return self.tr("The sample is good: {seconds:.0f} seconds of clear speech.").format(
                seconds=report.duration)
        lines = [translated(issue.message) for issue in report.issues]
        if not report.accepted:
            lines.insert(0, self.tr("This sample cannot be used:"))
        else:
            lines.insert(0, self.tr("The sample can be used, but:"))
        return "\n".join(lines)

    def _show_consent_state(self) -> None:
        if self.consent_audio is None:
            self.consent_label.setText("")
            return
        samples, rate = self.consent_audio
        self.consent_label.setText(self.tr("Consent recording: {seconds:.0f} seconds. Press “Check consent and "
                                           "save the voice”.").format(seconds=len(samples) / rate))
        self.consent_label.setStyleSheet("")

    @Slot()
    def play_take(self) -> None:
        if self._recording_for == "consent" and self.consent_audio is not None:
            self._play(*self.consent_audio)
        elif self.sample is not None:
            self._play(self.sample.samples, self.sample.sample_rate)

    # -- adding a voice: consent and saving ------------------------------------------------------

    @Slot()
    def save_voice(self) -> Job | None:
        """Check the consent recording (Whisper + speaker check) and save the voice, on a worker thread."""
        if self.sample is None or self.consent_audio is None or self.prompt is None or "enroll" in self._jobs:
            return None
        missing = self._enrollment.missing_whisper_model(self.prompt.language)
        if missing:
            self._add_status(N_("CloneTab", "VoxDesk needs the Whisper “{name}” model to check the consent "
                                "recording. Download it in the Transcribe tab, then try again.").format(name=missing[0]),
                             _ERROR_STYLE)
            return None
        name, prompt, sample = self.voice_name_edit.text(), self.prompt, self.sample
        consent, rate = self.consent_audio
        enrollment = self._enrollment

        def work(report: JobReport) -> Voice:
            return enrollment.enroll(name, prompt, [sample], consent, rate, on_status=report.message,
                                     cancelled=report.cancelled)

        def done(voice: Voice) -> None:
            self.library.forget_prompt(prompt.code)
            self._add_status(N_("CloneTab", "Saved the voice “{name}”. You can now use it on the Speak page.").format(
                name=voice.name), _OK_STYLE)
            self.sample = self.consent_audio = self.prompt = None
            self.quality_label.setText("")
            self.consent_label.setText("")
            self.voice_name_edit.clear()
            self._show_sample_step()
            self.refresh_voices()
            _select(self.speak_voice_combo, voice.id)

        job = Job(work, name="add voice")
        job.message.connect(self._add_status)
        self._add_status(N_("CloneTab", "Checking the consent recording…"))
        return self._start("enroll", job, done, lambda message: self._add_status(message, _ERROR_STYLE))

    def _add_status(self, text: str, style: str = "") -> None:
        """A sentence under the "Add a voice" page (a core Message is shown in the interface language)."""
        self._add_note = (text, style)
        self.add_progress.setText(translated(text))
        self.add_progress.setStyleSheet(style)

    # -- speaking --------------------------------------------------------------------------------

    @property
    def engine(self) -> str:
        return self.engine_combo.currentData()

    @Slot()
    def _on_engine_changed(self) -> None:
        self.choices.set("clone/engine", ENGINES[self.engine].id)
        self._show_engine()
        self._update_actions()

    def _show_engine(self) -> None:
        engine = ENGINES[self.engine]
        self.engine_info.setText(translated(engine.summary))
        self.licence_label.setText(translated(engine.licence_line))
        self._show_licence_panel()

    def _show_licence_panel(self) -> None:
        terms = self._cloner.licence_terms(self.engine)
        needed = terms is not None and not self._cloner.licence_accepted(self.engine)
        self.licence_panel.setVisible(needed)
        if needed:
            statements = "<br>".join(f"• {html.escape(translated(s))}" for s in terms.statements)
            link = f'<br><a href="{terms.url}">{terms.url}</a>' if terms.url else ""
            intro = self.tr("{title} is published under the {licence} licence: it may be used for non-commercial "
                            "purposes only. Before using it, please confirm:").format(
                title=translated(ENGINES[self.engine].title), licence=terms.licence)
            self.licence_text.setText(html.escape(intro) + "<br>" + statements + link)
            self.licence_box.setChecked(False)
            self.accept_licence_button.setEnabled(False)

    @Slot()
    def accept_licence(self) -> None:
        if not self.licence_box.isChecked():
            return
        self._cloner.accept_licence(self.engine)
        self._show_licence_panel()
        self._update_actions()

    @Slot()
    def _ask_model_folder(self) -> None:
        title = self.tr("Choose the XTTS v2 model folder") if self.engine == "xtts" else \
            self.tr("Choose the OpenVoice v2 converter folder")
        folder = QFileDialog.getExistingDirectory(self, title)
        if folder:
            self.set_model_folder(folder)

    def set_model_folder(self, folder: str) -> None:
        key = "clone/xtts_model" if self.engine == "xtts" else "clone/openvoice_converter"
        self.choices.set(key, folder)
        self._speak_status(N_("CloneTab", "Model folder: {folder}").format(folder=folder))

    def clone_settings(self) -> CloneSettings:
        settings = CloneSettings(
            engine=self.engine,
            language=self.speak_language_combo.currentData(),
            converter=self.choices.get("clone/openvoice_converter"),
            base_model=self.choices.get("clone/base_model") or None,
        )
        if self.choices.get("clone/xtts_model"):
            settings.xtts_model = self.choices.get("clone/xtts_model")
        return settings

    @Slot()
    def speak(self) -> Job | None:
        if "speak" in self._jobs or self._closing:
            return None
        voice = self._voice_by_id(self.speak_voice_combo.currentData())
        if voice is None:
            self._speak_error(N_("CloneTab", "Choose a saved voice first, or add one on the “Add a voice” page."))
            return None
        text, settings, cloner = self.editor.toPlainText(), self.clone_settings(), self._cloner
        self.player.stop()
        self._spoken = []
        self.result = None
        self.match_label.setText("")
        self._speak_status("")
        self.progress.setValue(0)
        self.progress.setFormat(self.tr("Starting…"))

        def work(report: JobReport) -> CloneResult:
            return cloner.speak(voice, text, settings, on_sentence=report.partial, on_progress=report.progress,
                                on_status=report.message, cancelled=report.cancelled)

        job = Job(work, name="speak in a voice")
        job.partial.connect(self._on_sentence)
        job.message.connect(self._speak_status)
        job.was_cancelled.connect(self._on_cancelled)
        return self._start("speak", job, self._on_spoken, self._on_speak_failed)

    @Slot(object)
    def _on_sentence(self, spoken: SpokenSentence) -> None:
        if not self._spoken:
            self.player.begin(spoken.sample_rate)
        self._spoken.append(spoken)
        self.player.add(spoken.index, spoken.samples)
        self.progress.setValue(int(1000 * len(self._spoken) / spoken.total))
        self.progress.setFormat(self.tr("Sentence {done} of {total}").format(done=len(self._spoken),
                                                                             total=spoken.total))
        self._update_actions()

    def _on_spoken(self, result: CloneResult) -> None:
        self.player.end_of_input()
        self.result = result
        self.progress.setValue(1000)
        self.progress.setFormat(self.tr("{seconds:.0f} s of speech").format(seconds=result.speech.duration))
        self._show_match()
        if result.speech.complete:
            self._speak_status(N_("CloneTab", "Done. Play it again or save it as a WAV file."))
        else:
            self._speak_status(N_("CloneTab", "Done (cancelled part-way). Play it again or save it as a WAV file."))

    def _show_match(self) -> None:
        result = self.result
        if result is None:
            self.match_label.setText("")
        elif result.match_score is None:
            self.match_label.setText(self.tr("Voice match: not measured. {note}").format(
                note=translated(result.match_note or "")))
        else:
            self.match_label.setText(self.tr("Voice match: {score:.0%} ({label})").format(
                score=max(0.0, result.match_score), label=translated(match_label(result.match_score))))

    def _on_speak_failed(self, message: str) -> None:
        self.player.end_of_input()
        self.progress.setFormat(self.tr("Stopped"))
        self._speak_error(message)
        if "no longer in the voice library" in message or "consent" in message:
            self.refresh_voices()

    @Slot()
    def _on_cancelled(self) -> None:
        self.player.end_of_input()
        self._speak_status(N_("CloneTab", "Cancelled before the first sentence was ready."))

    @Slot()
    def cancel(self) -> None:
        job = self._jobs.get("speak")
        if job is not None:
            job.cancel()
            self._speak_status(N_("CloneTab", "Stopping after this sentence…"))

    def speech_samples(self) -> tuple[np.ndarray, int]:
        if not self._spoken:
            return np.zeros(0, np.float32), 0
        return np.concatenate([s.samples for s in self._spoken]), self._spoken[0].sample_rate

    @Slot()
    def _ask_save(self) -> None:
        folder = self.choices.get("clone/save_folder") or str(Path.home())
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Save the speech"), str(Path(folder) / "speech.wav"),
                                              self.tr("WAV audio (*.wav)"),
                                              options=QFileDialog.Option.DontConfirmOverwrite)
        if not path:
            return
        target = Path(path) if path.lower().endswith(".wav") else Path(path + ".wav")
        if target.exists() and not self._confirm_replace(target):
            return
        self.choices.set("clone/save_folder", str(target.parent))
        self.save_to(target, overwrite=target.exists())

    def save_to(self, path: Path, *, overwrite: bool = False) -> Job | None:
        samples, rate = self.speech_samples()
        if not len(samples):
            self._speak_error(N_("CloneTab", "There is no speech to save yet. Press Speak first."))
            return None
        from desktop.core.common.audio_out import save_speech

        def work(_report: JobReport) -> Path:
            return save_speech(path, samples, rate, overwrite=overwrite)

        return self._start("save", Job(work, name="save cloned speech"),
                           lambda saved: self._speak_status(N_("CloneTab", "Saved “{name}”.").format(name=saved.name)),
                           self._speak_error)

    def _confirm_replace(self, path: Path) -> bool:
        answer = QMessageBox.question(self, self.tr("Replace the file?"),
                                      self.tr("“{name}” already exists. Replace it?").format(name=path.name))
        return answer == QMessageBox.StandardButton.Yes

    def _speak_status(self, text: str) -> None:
        """A sentence under the Speak page (a core Message is shown in the interface language)."""
        self._speak_note = (text, "")
        self.speak_message.setText(translated(text))
        self.speak_message.setStyleSheet("")
        if text:
            self.status_message.emit(translated(text))

    def _speak_error(self, text: str) -> None:
        self._speak_note = (text, _ERROR_STYLE)
        self.speak_message.setText(translated(text))
        self.speak_message.setStyleSheet(_ERROR_STYLE)

    # -- shared ----------------------------------------------------------------------------------

    def _play(self, samples: np.ndarray, rate: int) -> None:
        self.player.begin(rate)
        self.player.add(0, samples)
        self.player.end_of_input()

    def _start(self, key: str, job: Job, on_result, on_failure) -> Job:
        # Bound slots of this widget, not closures: Qt then queues each call to the GUI thread.
        # (A plain function connected to a job's signal would run on the job's own thread.)
        job.result.connect(self._job_result)
        job.failed.connect(self._job_failed)
        job.finished.connect(self._job_finished)
        self._jobs[key] = job
        self._callbacks[job] = (key, on_result, on_failure)
        self._runner.start(job)
        self._update_actions()
        return job

    @Slot(object)
    def _job_result(self, value: Any) -> None:
        entry = self._callbacks.get(self.sender())
        if entry is not None and not self._closing:
            entry[1](value)

    @Slot(object)
    def _job_failed(self, message: str) -> None:
        entry = self._callbacks.get(self.sender())
        if entry is not None and not self._closing:
            entry[2](message)

    @Slot()
    def _job_finished(self) -> None:
        job = self.sender()
        entry = self._callbacks.pop(job, None)
        if entry is not None and self._jobs.get(entry[0]) is job:
            del self._jobs[entry[0]]
        self._update_actions()

    @property
    def busy(self) -> bool:
        return bool(self._jobs) or self.recorder.is_recording

    def _update_actions(self) -> None:
        recording = self.recorder.is_recording
        adding = "enroll" in self._jobs
        has_voice = self.voice_list.currentItem() is not None
        for button in (self.play_sample_button, self.rename_button, self.delete_button):
            button.setEnabled(has_voice and not adding)
        on_sample = self._recording_for == "sample"
        self.consent_step_button.setVisible(on_sample)
        self.sample_step_button.setVisible(not on_sample)
        sample_ok = self.sample is not None and self.sample.report.accepted
        self.consent_step_button.setEnabled(sample_ok and bool(self.speaker_name_edit.text().strip())
                                            and not recording)
        self.import_button.setEnabled(not recording and "import" not in self._jobs and not adding)
        self.play_take_button.setEnabled(not recording and (self.consent_audio is not None if not on_sample
                                                            else self.sample is not None))
        self.save_voice_button.setEnabled(sample_ok and self.consent_audio is not None and not recording
                                          and not adding and bool(self.voice_name_edit.text().strip()))
        speaking = "speak" in self._jobs
        licence_ok = self._cloner.licence_accepted(self.engine)
        self.speak_button.setEnabled(not speaking and licence_ok and self.speak_voice_combo.count() > 0
                                     and bool(self.editor.toPlainText().strip()))
        self.cancel_button.setEnabled(speaking)
        self.play_button.setEnabled(bool(self._spoken))
        self.save_button.setEnabled(bool(self._spoken) and "save" not in self._jobs)

    def showEvent(self, event) -> None:  # noqa: N802 - Qt naming
        super().showEvent(event)
        if not self.busy:
            self.refresh_voices()

    def shutdown(self) -> None:
        """The window is closing: stop recording, playing and speaking."""
        self._closing = True
        self.recorder.stop()
        self.player.stop()
        for job in list(self._jobs.values()):
            job.cancel()


def _scrolled(page: QWidget) -> QScrollArea:
    """The page in a scroll area: in a small window it scrolls instead of squeezing its rows together."""
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setWidget(page)
    return area


def _select(combo: QComboBox, data: Any) -> None:
    index = combo.findData(data)
    if index >= 0:
        combo.setCurrentIndex(index)
