"""The Speak page of the Clone tab: text, voice, language and engine, speech played as it comes.

The engine's licence is shown next to the Speak button (XTTS's CPML must be accepted in the licence
panel first). Speech is made sentence by sentence on a worker thread and each sentence is played as
soon as it is ready; Cancel stops after the current sentence, Save writes a WAV file, and the voice
match score says how close the speech sounds to the voice's sample.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any
import numpy as np
from PySide6.QtCore import QEvent, Signal, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop.core.common.i18n import N_
from desktop.core.voices.library import Voice, VoiceLibrary, VoiceNotFound
from desktop.engines.speech.tts import SpokenSentence
from desktop.engines.voices.cloning import ENGINES, CloneResult, CloneSettings, VoiceCloner, match_label
from desktop.ui.clone.engine_choice import EngineChoice
from desktop.ui.clone.languages import add_languages, interface_language
from desktop.ui.clone.licence_panel import LicencePanel
from desktop.ui.common.i18n import translated
from desktop.ui.common.replace_prompt import ask_replace
from desktop.ui.common.stream_player import StreamPlayer
from desktop.ui.common.styles import ERROR_STYLE
from desktop.ui.common.tab_jobs import TabJobs
from desktop.workers.job import Job, JobReport


class SpeakPanel(QWidget):
    status_message = Signal(str)
    voice_missing = Signal(object)  # the chosen voice is gone from the library: the sentence saying so
    voices_outdated = Signal()  # speaking failed in a way that says the voice list is out of date

    def __init__(self, settings, library: VoiceLibrary, cloner: VoiceCloner, jobs: TabJobs, player: StreamPlayer,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._settings = settings  # the clone/* options of desktop.settings
        self._library = library
        self._cloner = cloner
        self._jobs = jobs
        self._player = player
        self.spoken: list[SpokenSentence] = []  # the sentences of the latest speech, as they came
        self.result: CloneResult | None = None
        self._note: tuple[str, str] = ("", "")  # the sentence under the page (str or core Message), its style
        self._voice_languages: dict[str, str] = {}  # voice id -> the language it was recorded in
        self._build()
        self._load_settings()
        self._connect()
        self.retranslate()

    def _build(self) -> None:
        self.speak_voice_combo = QComboBox()
        self.speak_language_combo = QComboBox()
        add_languages(self.speak_language_combo)
        self.engine_choice = EngineChoice(self._settings)
        self.engine_info = QLabel()
        self.engine_info.setWordWrap(True)
        self.editor = QPlainTextEdit()
        self.licence_panel = LicencePanel(self._cloner)
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

        layout = QVBoxLayout(self)
        layout.addLayout(self._form())
        layout.addWidget(self.engine_info)
        layout.addWidget(self.editor, 1)
        layout.addWidget(self.licence_panel)
        buttons = QHBoxLayout()
        buttons.addWidget(self.speak_button)
        buttons.addWidget(self.licence_label)
        buttons.addStretch(1)
        for button in (self.cancel_button, self.play_button, self.save_button):
            buttons.addWidget(button)
        layout.addLayout(buttons)
        layout.addWidget(self.progress)
        layout.addWidget(self.match_label)
        layout.addWidget(self.speak_message)

    def _form(self) -> QFormLayout:
        form = QFormLayout()
        self.voice_label, self.speak_language_label, self.engine_label = QLabel(), QLabel(), QLabel()
        form.addRow(self.voice_label, self.speak_voice_combo)
        form.addRow(self.speak_language_label, self.speak_language_combo)
        form.addRow(self.engine_label, self.engine_choice)
        return form

    def retranslate(self) -> None:
        """Set every text; called at start and when the interface language changes."""
        self.voice_label.setText(self.tr("Voice:"))
        self.speak_language_label.setText(self.tr("Language:"))
        self.engine_label.setText(self.tr("Voice model:"))
        self.engine_label.setToolTip(self.tr("The voice model that speaks the text in the saved voice."))
        self.editor.setPlaceholderText(self.tr("Type the text to speak in the chosen voice."))
        self.speak_button.setText(self.tr("Speak"))
        self.cancel_button.setText(self.tr("Cancel"))
        self.play_button.setText(self.tr("Play"))
        self.save_button.setText(self.tr("Save as WAV…"))
        if self.speak_voice_combo.currentData() is None:
            self._follow_voice_language()  # the interface language may have changed
        self._describe_engine()
        self._show_match()
        self.speak_message.setText(translated(self._note[0]))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def _connect(self) -> None:
        self.engine_choice.changed.connect(self._on_engine_changed)
        self.engine_choice.model_folder_chosen.connect(
            lambda folder: self._status(N_("SpeakPanel", "Model folder: {folder}").format(folder=folder)))
        self.speak_voice_combo.currentIndexChanged.connect(lambda _i: self._follow_voice_language())
        self.licence_panel.accepted.connect(self._update_actions)
        self.speak_button.clicked.connect(self.speak)
        self.cancel_button.clicked.connect(self.cancel)
        self.play_button.clicked.connect(self._player.toggle)
        self.save_button.clicked.connect(self._ask_save)
        self._player.failed.connect(self._error)
        self.editor.textChanged.connect(self._update_actions)
        self._jobs.changed.connect(self._update_actions)

    def _load_settings(self) -> None:
        self._follow_voice_language()
        self._on_engine_changed()

    def _follow_voice_language(self) -> None:
        """Speak in the chosen voice's own language; with no voice chosen, in the interface's."""
        language = self._voice_languages.get(self.speak_voice_combo.currentData()) or interface_language()
        _select(self.speak_language_combo, language)

    # -- the voices ----------------------------------------------------------------------------

    @Slot(list)
    def set_voices(self, voices: list[Voice]) -> None:
        """Offer these voices, keeping the chosen one when it is still there."""
        wanted = self.speak_voice_combo.currentData()
        self._voice_languages = {voice.id: voice.language for voice in voices}
        self.speak_voice_combo.clear()
        for voice in voices:
            self.speak_voice_combo.addItem(voice.name, voice.id)
        if wanted:
            self.select_voice(wanted)
        self._update_actions()

    def select_voice(self, voice_id: str) -> None:
        _select(self.speak_voice_combo, voice_id)

    def _chosen_voice(self) -> Voice | None:
        voice_id = self.speak_voice_combo.currentData()
        if not voice_id:
            return None
        try:
            return self._library.get(voice_id)
        except VoiceNotFound as error:
            self.voice_missing.emit(error.message)
            return None

    # -- the engine ----------------------------------------------------------------------------

    @property
    def engine(self) -> str:
        return self.engine_choice.engine

    @Slot()
    def _on_engine_changed(self) -> None:
        if self._note[1] == ERROR_STYLE and not self._jobs.running("speak"):
            self._status("")  # the error was about the other engine (its missing model, say)
        self._describe_engine()
        self.licence_panel.show_engine(self.engine)
        self._update_actions()

    def _describe_engine(self) -> None:
        engine = ENGINES[self.engine]
        self.engine_info.setText(translated(engine.summary))
        self.licence_label.setText(translated(engine.licence_line))
        if engine.commercial_use:
            explained = self.tr("The licence of the chosen voice model: {licence} allows commercial use.")
        else:
            explained = self.tr("The licence of the chosen voice model: {licence} is a non-commercial licence, so "
                                "the speech may not be used for business.")
        self.licence_label.setToolTip(explained.format(licence=engine.licence))

    def clone_settings(self) -> CloneSettings:
        return self.engine_choice.clone_settings(self.speak_language_combo.currentData())

    # -- speaking ------------------------------------------------------------------------------

    @Slot()
    def speak(self) -> Job | None:
        if self._jobs.running("speak"):
            return None
        voice = self._chosen_voice()
        if voice is None:
            self._error(N_("SpeakPanel", "Choose a saved voice first, or add one on the “Add a voice” page."))
            return None
        text, chosen, cloner = self.editor.toPlainText(), self.clone_settings(), self._cloner
        self._player.stop()
        self.spoken = []
        self.result = None
        self.match_label.setText("")
        self._status("")
        self.progress.setValue(0)
        self.progress.setFormat(self.tr("Starting…"))

        def work(report: JobReport) -> CloneResult:
            return cloner.speak(voice, text, chosen, on_sentence=report.partial, on_progress=report.progress,
                                on_status=report.message, cancelled=report.cancelled)

        return self._jobs.start("speak", work, on_result=self._on_spoken, on_failed=self._on_speak_failed,
                                on_cancelled=self._on_cancelled, on_message=self._status,
                                on_partial=self._on_sentence)

    def _on_sentence(self, sentence: SpokenSentence) -> None:
        if not self.spoken:
            self._player.begin(sentence.sample_rate)
        self.spoken.append(sentence)
        self._player.add(sentence.index, sentence.samples)
        self.progress.setValue(int(1000 * len(self.spoken) / sentence.total))
        self.progress.setFormat(self.tr("Sentence {done} of {total}").format(done=len(self.spoken),
                                                                             total=sentence.total))
        self._update_actions()

    def _on_spoken(self, result: CloneResult) -> None:
        self._player.end_of_input()
        self.result = result
        self.progress.setValue(1000)
        self.progress.setFormat(self.tr("{seconds:.0f} s of speech").format(seconds=result.speech.duration))
        self._show_match()
        if result.speech.complete:
            self._status(N_("SpeakPanel", "Done. Play it again or save it as a WAV file."))
        else:
            self._status(N_("SpeakPanel", "Done (cancelled part-way). Play it again or save it as a WAV file."))

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
        self._player.end_of_input()
        self.progress.setFormat(self.tr("Stopped"))
        self._error(message)
        if "no longer in the voice library" in message or "consent" in message:
            self.voices_outdated.emit()

    def _on_cancelled(self) -> None:
        self._player.end_of_input()
        self._status(N_("SpeakPanel", "Cancelled before the first sentence was ready."))

    @Slot()
    def cancel(self) -> None:
        if self._jobs.running("speak"):
            self._jobs.cancel("speak")
            self._status(N_("SpeakPanel", "Stopping after this sentence…"))

    # -- saving --------------------------------------------------------------------------------

    def speech_samples(self) -> tuple[np.ndarray, int]:
        if not self.spoken:
            return np.zeros(0, np.float32), 0
        return np.concatenate([s.samples for s in self.spoken]), self.spoken[0].sample_rate

    @Slot()
    def _ask_save(self) -> None:
        folder = self._settings.get("clone/save_folder") or str(Path.home())
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Save the speech"), str(Path(folder) / "speech.wav"),
                                              self.tr("WAV audio (*.wav)"),
                                              options=QFileDialog.Option.DontConfirmOverwrite)
        if not path:
            return
        target = Path(path) if path.lower().endswith(".wav") else Path(path + ".wav")
        if target.exists() and not ask_replace(self, [target]):
            return
        self._settings.set("clone/save_folder", str(target.parent))
        self.save_to(target, overwrite=target.exists())

    def save_to(self, path: Path, *, overwrite: bool = False) -> Job | None:
        samples, rate = self.speech_samples()
        if not len(samples):
            self._error(N_("SpeakPanel", "There is no speech to save yet. Press Speak first."))
            return None
        from desktop.core.common.audio_out import save_speech

        def work(_report: JobReport) -> Path:
            return save_speech(path, samples, rate, overwrite=overwrite)

        return self._jobs.start(
            "save", work, on_failed=self._error,
            on_result=lambda saved: self._status(N_("SpeakPanel", "Saved “{name}”.").format(name=saved.name)))

    # -- state ---------------------------------------------------------------------------------

    def _status(self, text: str) -> None:
        """A sentence under the page (a core Message is shown in the interface language)."""
        self._note = (text, "")
        self.speak_message.setText(translated(text))
        self.speak_message.setStyleSheet("")
        if text:
            self.status_message.emit(translated(text))

    def _error(self, text: str) -> None:
        self._note = (text, ERROR_STYLE)
        self.speak_message.setText(translated(text))
        self.speak_message.setStyleSheet(ERROR_STYLE)

    def _update_actions(self) -> None:
        speaking = self._jobs.running("speak")
        licence_ok = self._cloner.licence_accepted(self.engine)
        self.speak_button.setEnabled(not speaking and licence_ok and self.speak_voice_combo.count() > 0
                                     and bool(self.editor.toPlainText().strip()))
        self.cancel_button.setEnabled(speaking)
        self.play_button.setEnabled(bool(self.spoken))
        self.save_button.setEnabled(bool(self.spoken) and not self._jobs.running("save"))


def _select(combo: QComboBox, data: Any) -> None:
    index = combo.findData(data)
    if index >= 0:
        combo.setCurrentIndex(index)
