"""The Synthesize tab: type or paste text, hear it read in a natural voice, save it as a file.

Speak runs the engine on a JobRunner thread, one sentence at a time; each finished sentence comes
back as a partial result and goes straight to the StreamPlayer, so the first sentence plays while
the rest are still being made. The sentence being played is highlighted in the editor. Cancel stops
within one sentence and keeps what was made. Models that are not on the computer yet are downloaded
first (with their licence shown in a dialog when Coqui asks for one).
"""
from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
from PySide6.QtCore import QEvent, Qt, Signal, Slot
from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSlider,
    QSplitter,
    QTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop.core.common.errors import UserFacingError
from desktop.core.gpu.fallback import FallbackLog
from desktop.core.common.i18n import N_
from desktop.core.speech.tts_models import (
    CURATED,
    DEFAULT_FOR_LANGUAGE,
    LicenceTerms,
    TtsModel,
    default_model,
)
from desktop.engines.speech.tts import SpeechSynthesizer, SpokenSentence, SynthesisSettings, VoiceInfo
from desktop.ui.common.i18n import translated
from desktop.ui.common.stream_player import PAUSED, PLAYING, StreamPlayer
from desktop.workers.job import Job, JobReport, JobRunner

log = logging.getLogger(__name__)

_ERROR_STYLE = "color: #b3261e;"
_HIGHLIGHT = QColor(255, 236, 153)
_LANGUAGE_CHOICES = (("auto", ""), ("en", "English"), ("zh", "中文 (Chinese)"))  # "" : "Automatic", translated
# Where speech runs, as the status bar shows it.
ON_CPU = N_("SynthesizeTab", "CPU")
ON_GPU = N_("SynthesizeTab", "GPU (experimental)")


def utf16_offset(text: str, index: int) -> int:
    """Qt counts positions in UTF-16 code units: an emoji is one Python character but two units."""
    return len(text[:index].encode("utf-16-le")) // 2


# --- dialogs -------------------------------------------------------------------------------------


class LicenceDialog(QDialog):
    """Shows the terms Coqui would ask for on the terminal; accepting is recorded by the caller."""

    def __init__(self, model: TtsModel, terms: LicenceTerms, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        title = translated(model.title)
        self.setWindowTitle(self.tr("Licence of {title}").format(title=title))
        self.setMinimumWidth(480)
        intro = QLabel(self.tr("“{title}” is published under the {licence} licence. Before it is downloaded, "
                               "please confirm:").format(title=title, licence=terms.licence))
        intro.setWordWrap(True)
        statements = QLabel("\n".join(f"• {translated(s)}" for s in terms.statements))
        statements.setWordWrap(True)
        statements.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        link = QLabel(f'<a href="{terms.url}">{terms.url}</a>' if terms.url else "")
        link.setOpenExternalLinks(True)
        self.agree_box = QCheckBox(self.tr("I confirm one of the statements above"))
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.accept_button = self.buttons.addButton(self.tr("Accept and download"),
                                                    QDialogButtonBox.ButtonRole.AcceptRole)
        self.accept_button.setEnabled(False)
        self.agree_box.toggled.connect(self.accept_button.setEnabled)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        for widget in (intro, statements, link, self.agree_box, self.buttons):
            layout.addWidget(widget)


class ModelDownloadDialog(QDialog):
    """Downloads one voice model with a progress bar and Cancel; starts when opened.

    Exactly one of downloaded, failed or cancelled is emitted, then the dialog closes.
    """

    downloaded = Signal()
    failed = Signal(object)  # the sentence saying what went wrong (str, or a core Message)
    cancelled = Signal()

    def __init__(self, store, runner: JobRunner, model: TtsModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._store = store
        self._runner = runner
        self._model = model
        self._job: Job | None = None
        self.setWindowTitle(self.tr("Downloading a voice model"))
        self.setMinimumWidth(460)
        if model.size_mb:
            text = self.tr("VoxDesk needs the voice model “{title}” (about {size} MB). It is downloaded once and "
                           "then kept on this computer.")
        else:
            text = self.tr("VoxDesk needs the voice model “{title}”. It is downloaded once and then kept on this "
                           "computer.")
        explanation = QLabel(text.format(title=translated(model.title), size=model.size_mb))
        explanation.setWordWrap(True)
        self.bar = QProgressBar()
        self.bar.setRange(0, 0)
        self.bytes_label = QLabel(self.tr("Connecting…"))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        for widget in (explanation, self.bar, self.bytes_label, buttons):
            layout.addWidget(widget)

    def open(self) -> None:
        super().open()
        self._start()

    def _start(self) -> None:
        if self._job is not None:
            return
        store, name = self._store, self._model.name

        def work(report: JobReport) -> None:
            last = [-1]

            def progress(done: int, total: int | None) -> None:
                step = int(done * 200 / total) if total else done // 1_000_000
                if step != last[0]:
                    last[0] = step
                    report.partial((done, total))

            store.download(name, progress=progress, cancelled=report.cancelled)

        # Bound slots of this dialog, so Qt delivers them on the GUI thread.
        job = Job(work, name=f"download {name}")
        job.partial.connect(self._on_progress)
        job.result.connect(self._on_downloaded)
        job.failed.connect(self._on_failed)
        job.was_cancelled.connect(self._on_cancelled)
        self._job = job
        self._runner.start(job)

    @Slot(object)
    def _on_progress(self, value: tuple[int, int | None]) -> None:
        done, total = value
        if total:
            self.bar.setRange(0, 1000)
            self.bar.setValue(int(done * 1000 / total))
            self.bytes_label.setText(self.tr("{done:.0f} of {total:.0f} MB").format(done=done / 1e6, total=total / 1e6))
        else:
            self.bytes_label.setText(self.tr("{done:.0f} MB").format(done=done / 1e6))

    @Slot(object)
    def _on_downloaded(self, _value: object) -> None:
        self._end(self.downloaded)

    @Slot(object)
    def _on_failed(self, message: str) -> None:
        self._end(self.failed, message)

    @Slot()
    def _on_cancelled(self) -> None:
        self._end(self.cancelled)

    def _end(self, signal, *args) -> None:
        self._job = None
        signal.emit(*args)
        self.done(QDialog.DialogCode.Accepted if signal is self.downloaded else QDialog.DialogCode.Rejected)

    def reject(self) -> None:
        if self._job is not None:
            self.bytes_label.setText(self.tr("Stopping…"))
            self._job.cancel()  # the dialog closes when the job says it stopped
            return
        super().reject()


# --- the tab -------------------------------------------------------------------------------------


class SynthesizeTab(QWidget):
    status_message = Signal(str)  # a sentence for the window's status bar
    synthesis_device = Signal(object)  # where speech synthesis runs: "CPU", "GPU" or a Message like ON_GPU
    # Emitted from whichever thread records a fallback; Qt queues it to this widget's (GUI) thread.
    _fallback_recorded = Signal(object)

    def __init__(
        self,
        settings,
        synthesizer: SpeechSynthesizer,
        runner: JobRunner,
        fallback_log: FallbackLog,
        parent: QWidget | None = None,
        *,
        player: StreamPlayer | None = None,
    ) -> None:
        super().__init__(parent)
        self._synthesizer = synthesizer
        self._store = synthesizer.store
        self._runner = runner
        self._fallback_log = fallback_log
        self.choices = settings  # the remembered choices: synthesize/* options of desktop.settings
        self.player = player or StreamPlayer(self)
        self._speak_job: Job | None = None
        self._voices_job: Job | None = None
        self._preview_job: Job | None = None
        self._save_job: Job | None = None
        self._dialog: QDialog | None = None
        self._voice_info: VoiceInfo | None = None
        self._spoken: list[SpokenSentence] = []  # the sentences of the last run, in order
        self._spoken_text = ""  # the editor's text when they were made
        self._sample_rate = 0
        self._run_total = 0
        self._run_text = ""  # the text of the run in progress
        self._run_made = 0  # sentences it made so far
        self._playing_preview = False
        self._closing = False
        self._status: str = ""  # the status line and the error shown (str, or a core Message)
        self._error: str = ""
        self._build()
        self._load_choices()
        self._connect()
        self._watch_fallbacks(fallback_log)
        self._on_model_changed()
        self.retranslate()
        self._update_actions()

    def _watch_fallbacks(self, fallback_log: FallbackLog) -> None:
        """Say at once when speech falls back from the GPU to the CPU (the status bar counts it too)."""
        self._fallback_recorded.connect(self._on_fallback)
        signal = self._fallback_recorded
        subscriber = lambda event: signal.emit(event)  # noqa: E731 - must not hold the widget itself
        fallback_log.subscribe(subscriber)
        self.destroyed.connect(lambda *_: fallback_log.unsubscribe(subscriber))

    @Slot(object)
    def _on_fallback(self, event) -> None:
        from desktop.engines.speech.tts import JOB_NAME

        if event.job == JOB_NAME:
            self.synthesis_device.emit(ON_CPU)
            self._set_status(N_("SynthesizeTab", "The GPU failed, so speech continues on the CPU. {fix}").format(
                fix=event.fix))

    # -- building ------------------------------------------------------------------------------

    def _build(self) -> None:
        self.model_combo = QComboBox()
        self.model_combo.setMinimumWidth(300)
        self.import_button = QPushButton()
        self.model_info = QLabel()
        self.model_info.setWordWrap(True)
        self.model_info.setStyleSheet("color: palette(mid);")

        self.language_combo = QComboBox()
        for code, name in _LANGUAGE_CHOICES:
            self.language_combo.addItem(name, code)
        self.speed_slider = QSlider(Qt.Orientation.Horizontal)
        self.speed_slider.setRange(50, 200)
        self.speed_slider.setSingleStep(5)
        self.speed_slider.setPageStep(25)
        self.speed_slider.setMinimumWidth(140)
        self.speed_label = QLabel()
        self.gpu_box = QCheckBox()

        self.voice_list = QListWidget()
        self.voice_list.setMinimumWidth(200)
        self.voice_hint = QLabel()
        self.voice_hint.setWordWrap(True)
        self._voice_hint: str = ""  # what voice_hint says (str, or a Message), to say it again
        voice_box = QWidget()
        voice_layout = QVBoxLayout(voice_box)
        voice_layout.setContentsMargins(0, 0, 0, 0)
        self.voice_label = QLabel()
        voice_layout.addWidget(self.voice_label)
        voice_layout.addWidget(self.voice_list, 1)
        voice_layout.addWidget(self.voice_hint)

        self.editor = QPlainTextEdit()
        self.open_button = QPushButton()
        self.count_label = QLabel()
        editor_box = QWidget()
        editor_layout = QVBoxLayout(editor_box)
        editor_layout.setContentsMargins(0, 0, 0, 0)
        editor_top = QHBoxLayout()
        self.text_label = QLabel()
        editor_top.addWidget(self.text_label)
        editor_top.addStretch(1)
        editor_top.addWidget(self.count_label)
        editor_top.addWidget(self.open_button)
        editor_layout.addLayout(editor_top)
        editor_layout.addWidget(self.editor, 1)

        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(editor_box)
        splitter.addWidget(voice_box)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 1)
        splitter.setChildrenCollapsible(False)
        self.voice_panel = voice_box

        self.speak_button = QPushButton()
        self.speak_button.setDefault(True)
        self.cancel_button = QPushButton()
        self.play_button = QPushButton()
        self.stop_button = QPushButton()
        self.save_button = QPushButton()
        self.normalize_box = QCheckBox()
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setTextVisible(True)
        self.progress.setFormat("")
        self.status_label = QLabel()
        self.status_label.setWordWrap(True)
        self.status_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error_label = QLabel()
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet(_ERROR_STYLE)
        self.error_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error_label.hide()

        model_row = QHBoxLayout()
        self.model_label, self.language_label, self.speed_title = QLabel(), QLabel(), QLabel()
        model_row.addWidget(self.model_label)
        model_row.addWidget(self.model_combo, 1)
        model_row.addWidget(self.import_button)
        choice_row = QHBoxLayout()
        choice_row.addWidget(self.language_label)
        choice_row.addWidget(self.language_combo)
        choice_row.addSpacing(16)
        choice_row.addWidget(self.speed_title)
        choice_row.addWidget(self.speed_slider)
        choice_row.addWidget(self.speed_label)
        choice_row.addSpacing(16)
        choice_row.addWidget(self.gpu_box)
        choice_row.addStretch(1)
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
        layout.addLayout(model_row)
        layout.addWidget(self.model_info)
        layout.addLayout(choice_row)
        layout.addWidget(splitter, 1)
        layout.addLayout(action_row)
        layout.addWidget(self.progress)
        layout.addWidget(self.status_label)
        layout.addWidget(self.error_label)
        self.setMinimumSize(720, 480)

    def retranslate(self) -> None:
        """Set every text; called at start and when the interface language changes. The text being
        edited, the speech made and the choices stay as they are."""
        self.model_label.setText(self.tr("Model:"))
        self.model_combo.setToolTip(self.tr("The voice model. It is downloaded the first time it is used."))
        self.import_button.setText(self.tr("Import model folder…"))
        self.import_button.setToolTip(self.tr("Use a Coqui model folder copied to this computer "
                                              "(model file, config.json and any speaker files)."))
        self.language_label.setText(self.tr("Language:"))
        self.language_combo.setItemText(0, self.tr("Automatic"))
        self.language_combo.setToolTip(self.tr("The language of the text. Automatic lets a multilingual "
                                               "model choose per sentence."))
        self.speed_title.setText(self.tr("Speed:"))
        self._on_speed_changed(self.speed_slider.value())
        self.gpu_box.setText(self.tr("Use the GPU for speech (experimental)"))
        self.gpu_box.setToolTip(self.tr("Speech runs well on the CPU. On the GPU it may be faster or slower; "
                                        "if the GPU fails, VoxDesk continues on the CPU."))
        self.voice_label.setText(self.tr("Voice:"))
        self.voice_list.setToolTip(self.tr("Choose a voice; “Preview” lets you hear it first."))
        for button in self.voice_list.findChildren(QToolButton):
            button.setText(self.tr("Preview"))
            button.setToolTip(self.tr("Hear a short sample of this voice"))
        self._hint(self._voice_hint)
        self.text_label.setText(self.tr("Text:"))
        self.editor.setPlaceholderText(self.tr("Type or paste the text to read aloud: a notice, an "
                                               "announcement, a training script. Chinese, English or both."))
        self.open_button.setText(self.tr("Open text file…"))
        self._on_text_changed()
        self.speak_button.setText(self.tr("Speak"))
        self.cancel_button.setText(self.tr("Cancel"))
        self.stop_button.setText(self.tr("Stop"))
        self.save_button.setText(self.tr("Save…"))
        self.normalize_box.setText(self.tr("Even out the loudness for speech (−16 LUFS)"))
        for index in range(self.model_combo.count()):
            model = self._models.get(self.model_combo.itemData(index))
            if model is not None:
                self.model_combo.setItemText(index, self._model_label(model))
        model = self.selected_model()
        self.model_info.setText(self._describe(model) if model is not None else "")
        self.status_label.setText(translated(self._status))
        self.error_label.setText(translated(self._error))
        self._update_actions()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def _hint(self, text: str) -> None:
        """The line under the voice list (str, or a Message shown in the interface language)."""
        self._voice_hint = text
        self.voice_hint.setText(translated(text))

    def _connect(self) -> None:
        self.model_combo.currentIndexChanged.connect(self._on_model_changed)
        self.language_combo.currentIndexChanged.connect(self._on_language_changed)
        self.speed_slider.valueChanged.connect(self._on_speed_changed)
        self.gpu_box.toggled.connect(self._on_gpu_toggled)
        self.normalize_box.toggled.connect(lambda on: self.choices.set("synthesize/normalize", bool(on)))
        self.voice_list.currentItemChanged.connect(self._on_voice_changed)
        self.editor.textChanged.connect(self._on_text_changed)
        self.import_button.clicked.connect(self.choose_import_folder)
        self.open_button.clicked.connect(self.choose_text_file)
        self.speak_button.clicked.connect(self.speak)
        self.cancel_button.clicked.connect(self.cancel)
        self.play_button.clicked.connect(self.play_or_pause)
        self.stop_button.clicked.connect(self.stop_playing)
        self.save_button.clicked.connect(self.choose_save_file)
        self.player.sentence_changed.connect(self._highlight_sentence)
        self.player.state_changed.connect(lambda _state: self._update_actions())
        self.player.finished.connect(self._on_playback_finished)
        self.player.failed.connect(self._show_error)

    def _load_choices(self) -> None:
        self.refresh_models(select=self.choices.get("synthesize/model"))
        language = self.choices.get("synthesize/language")
        self.language_combo.setCurrentIndex(max(0, self.language_combo.findData(language)))
        self.speed_slider.setValue(min(200, max(50, int(self.choices.get("synthesize/speed")))))
        self._on_speed_changed(self.speed_slider.value())
        self.gpu_box.setChecked(bool(self.choices.get("synthesize/use_gpu")))
        self.normalize_box.setChecked(bool(self.choices.get("synthesize/normalize")))
        self._on_text_changed()
        self.synthesis_device.emit(ON_GPU if self.gpu_box.isChecked() else ON_CPU)

    # -- models --------------------------------------------------------------------------------

    def refresh_models(self, select: str | None = None) -> None:
        """Fill the model list: the curated models, then those on this computer, then the rest."""
        current = select or self.model_combo.currentData()
        try:
            catalog = self._store.catalog()
        except UserFacingError as error:
            self._show_error(error.message)
            catalog = []
        self._models = {m.name: m for m in catalog}
        self.model_combo.blockSignals(True)
        self.model_combo.clear()
        curated = [m for m in catalog if m.name in CURATED]
        local = [m for m in catalog if m.name not in CURATED and m.downloaded]
        rest = [m for m in catalog if m.name not in CURATED and not m.downloaded]
        for group in (curated, local, rest):
            if group and self.model_combo.count():
                self.model_combo.insertSeparator(self.model_combo.count())
            for model in group:
                self.model_combo.addItem(self._model_label(model), model.name)
        index = self.model_combo.findData(current)
        self.model_combo.setCurrentIndex(index if index >= 0 else 0)
        self.model_combo.blockSignals(False)

    def _model_label(self, model: TtsModel) -> str:
        mark = "✓ " if model.downloaded else ""
        return f"{mark}{translated(model.title)}"

    def selected_model(self) -> TtsModel | None:
        return self._models.get(self.model_combo.currentData())

    def select_model(self, name: str) -> None:
        index = self.model_combo.findData(name)
        if index >= 0:
            self.model_combo.setCurrentIndex(index)

    def _describe(self, model: TtsModel) -> str:
        from desktop.engines.speech.tts import LANGUAGE_NAMES

        languages = self.tr(", ").join(translated(LANGUAGE_NAMES.get(c, c)) for c in model.languages[:6])
        if len(model.languages) > 6:
            languages += self.tr(" and {count} more").format(count=len(model.languages) - 6)
        size = self.tr("about {size} MB").format(size=model.size_mb) if model.size_mb else self.tr("size not known")
        where = self.tr("on this computer") if model.downloaded else self.tr("downloaded when first used")
        text = self.tr("{languages} · {size} · licence: {licence} · {where}").format(
            languages=languages, size=size, licence=model.licence, where=where)
        if model.description:
            text += "\n" + translated(model.description)
        return text

    @Slot()
    def _on_model_changed(self, *_args) -> None:
        model = self.selected_model()
        self._voice_info = None
        self.voice_list.clear()
        if model is None:
            self.model_info.setText("")
            self._update_actions()
            return
        self.choices.set("synthesize/model", model.name)
        self.model_info.setText(self._describe(model))
        self.speed_slider.setEnabled(True)
        if model.downloaded:
            if self.isVisible():
                self._load_voices()
            # else: loaded when the tab is first shown, so starting VoxDesk loads no voice model
        else:
            self.voice_panel.setVisible(model.multi_speaker)
            self._hint(N_("SynthesizeTab", "The voices appear here once the model is downloaded."))
        self._update_actions()

    def showEvent(self, event) -> None:  # noqa: N802 - Qt naming
        super().showEvent(event)
        model = self.selected_model()
        if model is not None and model.downloaded and self._voice_info is None and self._voices_job is None:
            self._load_voices()

    def _load_voices(self) -> None:
        """Load the chosen model on a worker thread (the old one is released) and list its voices."""
        if self._voices_job is not None:
            self._voices_job.cancel()
        settings = self.synthesis_settings()
        synthesizer = self._synthesizer
        self._hint(N_("SynthesizeTab", "Loading the voices…"))

        def work(report: JobReport) -> VoiceInfo:
            return synthesizer.voice_info(settings, on_status=report.message)

        job = Job(work, name="load voice model")
        job.message.connect(self._set_status)
        job.result.connect(self._on_voices_loaded)
        job.failed.connect(self._on_voices_failed)
        job.finished.connect(self._on_job_finished)
        self._voices_job = job
        self._runner.start(job)
        self._update_actions()

    @Slot(object)
    def _on_voices_loaded(self, info: VoiceInfo) -> None:
        if self.sender() is not self._voices_job or info.model != self.model_combo.currentData():
            return
        self._voice_info = info
        self._set_status(N_("SynthesizeTab", "“{title}” is ready.").format(title=info.title))
        self.synthesis_device.emit(info.device)
        self.speed_slider.setEnabled(info.can_change_speed)
        self.voice_list.clear()
        self.voice_panel.setVisible(info.multi_speaker)
        if not info.multi_speaker:
            return
        wanted = self.choices.get("synthesize/speaker")
        for name in info.speakers:
            item = QListWidgetItem(self.voice_list)
            item.setData(Qt.ItemDataRole.UserRole, name)
            row = QWidget()
            row_layout = QHBoxLayout(row)
            row_layout.setContentsMargins(4, 0, 4, 0)
            row_layout.addWidget(QLabel(name), 1)
            preview = QToolButton()
            preview.setText(self.tr("Preview"))
            preview.setObjectName(f"preview:{name}")
            preview.setToolTip(self.tr("Hear a short sample of this voice"))
            preview.clicked.connect(lambda _checked=False, speaker=name: self.preview_voice(speaker))
            row_layout.addWidget(preview)
            item.setSizeHint(row.sizeHint())
            self.voice_list.setItemWidget(item, row)
            if name == wanted:
                self.voice_list.setCurrentItem(item)
        if self.voice_list.currentItem() is None:
            self.voice_list.setCurrentRow(0)
        self._hint(N_("SynthesizeTab", "{count} voices").format(count=len(info.speakers)))
        self._update_actions()

    @Slot(object)
    def _on_voices_failed(self, message: str) -> None:
        if self.sender() is self._voices_job:
            self._hint("")
            self._show_error(message)

    def voices(self) -> list[str]:
        return [self.voice_list.item(i).data(Qt.ItemDataRole.UserRole) for i in range(self.voice_list.count())]

    def select_voice(self, name: str) -> None:
        for i in range(self.voice_list.count()):
            if self.voice_list.item(i).data(Qt.ItemDataRole.UserRole) == name:
                self.voice_list.setCurrentRow(i)

    @Slot()
    def _on_voice_changed(self, current: QListWidgetItem | None, _previous=None) -> None:
        if current is not None:
            self.choices.set("synthesize/speaker", current.data(Qt.ItemDataRole.UserRole))

    @Slot()
    def _on_language_changed(self, *_args) -> None:
        language = self.language_combo.currentData()
        self.choices.set("synthesize/language", language)
        model = self.selected_model()
        if language != "auto" and model is not None and not model.speaks(language):
            # A language the model cannot speak: offer the curated default for it.
            self.select_model(default_model(language))
            self._set_status(N_("SynthesizeTab", "Switched to “{title}”, which speaks the chosen language.").format(
                title=self.selected_model().title if self.selected_model() else ""))

    @Slot(int)
    def _on_speed_changed(self, value: int) -> None:
        self.speed_label.setText(self.tr("{percent}%").format(percent=value))
        self.choices.set("synthesize/speed", int(value))

    @Slot(bool)
    def _on_gpu_toggled(self, on: bool) -> None:
        self.choices.set("synthesize/use_gpu", bool(on))
        if self.selected_model() is not None and self.selected_model().downloaded and self._speak_job is None:
            self._load_voices()
        else:
            self.synthesis_device.emit(ON_GPU if on else ON_CPU)

    def synthesis_settings(self) -> SynthesisSettings:
        language = self.language_combo.currentData()
        item = self.voice_list.currentItem()
        return SynthesisSettings(
            model=self.model_combo.currentData() or DEFAULT_FOR_LANGUAGE["en"],
            speaker=item.data(Qt.ItemDataRole.UserRole) if item is not None else None,
            language=None if language in (None, "auto") else language,
            speed=self.speed_slider.value() / 100.0,
            use_gpu=self.gpu_box.isChecked(),
        )

    # -- importing a model folder --------------------------------------------------------------

    @Slot()
    def choose_import_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Choose a Coqui model folder"))
        if folder:
            self.import_folder(Path(folder))

    def import_folder(self, folder: Path) -> Job:
        store = self._store

        def work(report: JobReport) -> TtsModel:
            report.message(N_("SynthesizeTab", "Copying the model…"))
            return store.import_folder(folder, progress=lambda d, t: report.progress(d / t if t else 0),
                                       cancelled=report.cancelled)

        job = Job(work, name="import voice model")
        job.message.connect(self._set_status)
        job.progress.connect(self._on_import_progress)
        job.result.connect(self._on_imported)
        job.failed.connect(self._show_error)
        self._clear_error()
        self._runner.start(job)
        return job

    @Slot(float)
    def _on_import_progress(self, fraction: float) -> None:
        self.progress.setValue(int(fraction * 1000))
        self.progress.setFormat(self.tr("Copying the model… {percent}%").format(percent=int(fraction * 100)))

    @Slot(object)
    def _on_imported(self, model: TtsModel) -> None:
        self.progress.setValue(0)
        self.progress.setFormat("")
        self.refresh_models(select=model.name)
        self._on_model_changed()
        self._set_status(N_("SynthesizeTab", "The model “{title}” was imported and is now chosen.").format(
            title=model.title))

    # -- text ----------------------------------------------------------------------------------

    @Slot()
    def choose_text_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open a text file"), "",
                                              self.tr("Text files (*.txt);;All files (*)"))
        if path:
            self.open_text_file(Path(path))

    def open_text_file(self, path: Path) -> bool:
        """Put the text of a .txt file in the editor; False (with the reason shown) when it cannot be read."""
        from desktop.core.speech.sentences import read_text_file

        try:
            text = read_text_file(path)
        except UserFacingError as error:
            self._show_error(error.message)
            return False
        self._clear_error()
        self.editor.setPlainText(text)
        self._set_status(N_("SynthesizeTab", "Opened “{name}”.").format(name=path.name))
        return True

    @Slot()
    def _on_text_changed(self) -> None:
        count = len(self.editor.toPlainText())
        self.count_label.setText(self.tr("{count} characters").format(count=f"{count:,}"))
        if self._spoken and self.editor.toPlainText() != self._spoken_text:
            self.editor.setExtraSelections([])  # the highlight no longer matches the text
        self._update_actions()

    @Slot(int)
    def _highlight_sentence(self, index: int) -> None:
        if index < 0 or self._playing_preview or index >= len(self._spoken) \
                or self.editor.toPlainText() != self._spoken_text:
            self.editor.setExtraSelections([])
            return
        sentence = self._spoken[index].sentence
        text = self._spoken_text
        selection = QTextEdit.ExtraSelection()
        cursor = QTextCursor(self.editor.document())
        cursor.setPosition(utf16_offset(text, sentence.start))
        cursor.setPosition(utf16_offset(text, sentence.end), QTextCursor.MoveMode.KeepAnchor)
        fmt = QTextCharFormat()
        fmt.setBackground(_HIGHLIGHT)
        selection.cursor = cursor
        selection.format = fmt
        self.editor.setExtraSelections([selection])
        self.editor.setTextCursor(QTextCursor(cursor.block()))
        self.editor.ensureCursorVisible()

    def highlighted_text(self) -> str:
        """The text highlighted in the editor (the sentence being played), or ""."""
        selections = self.editor.extraSelections()
        return selections[0].cursor.selectedText() if selections else ""

    # -- speaking ------------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        return self._speak_job is not None

    @Slot()
    def speak(self) -> None:
        """Speak the editor's text with the chosen model (downloading it first if needed)."""
        if self._speak_job is not None or self._closing:
            return
        self._clear_error()
        text = self.editor.toPlainText()
        settings = self.synthesis_settings()
        try:
            self._synthesizer.plan(text, settings)
            missing = self._synthesizer.missing_model(settings)
        except UserFacingError as error:
            self._show_error(error.message)
            return
        if missing:
            self._fetch_model(missing, then=self.speak)
            return
        self._start_speaking(text, settings)

    def _start_speaking(self, text: str, settings: SynthesisSettings) -> None:
        # What the last run made stays playable until this run's first sentence replaces it, so a
        # run that fails at once (say, text the model cannot read) loses nothing.
        self.player.stop()
        self._run_text = text
        self._run_made = 0
        self._playing_preview = False
        self.editor.setExtraSelections([])
        self.editor.setReadOnly(True)
        self.progress.setValue(0)
        self.progress.setFormat(self.tr("Starting…"))
        self._set_status("")
        synthesizer = self._synthesizer

        def work(report: JobReport):
            return synthesizer.synthesize(
                text, settings,
                on_sentence=report.partial,
                on_progress=report.progress,
                on_status=report.message,
                on_note=report.message,
                cancelled=report.cancelled,
            )

        job = Job(work, name="speak")
        job.partial.connect(self._on_sentence_made)
        job.message.connect(self._set_status)
        job.result.connect(self._on_speech_done)
        job.failed.connect(self._on_speech_failed)
        job.was_cancelled.connect(self._on_speech_cancelled)
        job.finished.connect(self._on_job_finished)
        self._speak_job = job
        self._runner.start(job)
        self._update_actions()

    @Slot(object)
    def _on_sentence_made(self, spoken: SpokenSentence) -> None:
        if self.sender() is not self._speak_job:
            return
        if self._run_made == 0:
            self._spoken = []
            self._spoken_text = self._run_text
            self._sample_rate = spoken.sample_rate
            self.player.begin(spoken.sample_rate)
        self._run_made += 1
        self._spoken.append(spoken)
        self._run_total = spoken.total
        self.player.add(spoken.index, spoken.samples)
        self.progress.setValue(int(1000 * len(self._spoken) / spoken.total))
        self.progress.setFormat(self.tr("Sentence {done} of {total}").format(done=len(self._spoken), total=spoken.total))
        self._update_actions()

    @Slot(object)
    def _on_speech_done(self, speech) -> None:
        self.player.end_of_input()
        self.progress.setValue(1000)
        self.progress.setFormat(self.tr("{count} sentences · {seconds:.0f} s of speech").format(
            count=len(self._spoken), seconds=speech.duration))
        self._set_status(N_("SynthesizeTab", "Done. Play it again or save it as a file."))
        if self._synthesizer.loaded is not None:
            self.synthesis_device.emit(self._synthesizer.loaded.device)

    @Slot(object)
    def _on_speech_failed(self, message: str) -> None:
        self.player.end_of_input()
        self.progress.setFormat(self.tr("Stopped") if self._run_made else "")
        self._show_error(message)
        if self._synthesizer.loaded is not None:
            self.synthesis_device.emit(self._synthesizer.loaded.device)

    @Slot()
    def _on_speech_cancelled(self) -> None:
        self.player.end_of_input()
        made = self._run_made
        if made:
            self._set_status(N_("SynthesizeTab", "Cancelled. The first {made} of {total} sentences were made; you "
                                "can play and save them.").format(made=made, total=self._run_total))
        else:
            self._set_status(N_("SynthesizeTab", "Cancelled before the first sentence was ready."))
        self.progress.setFormat(self.tr("Cancelled after sentence {done}").format(done=made))

    @Slot()
    def cancel(self) -> None:
        """Stop making speech after the current sentence; what was made is kept."""
        if self._speak_job is not None:
            self._speak_job.cancel()
            self._set_status(N_("SynthesizeTab", "Stopping after this sentence…"))

    @Slot()
    def _on_job_finished(self) -> None:
        """Any of the tab's jobs ended (always after its result, failure or cancel)."""
        job = self.sender()
        for attribute in ("_speak_job", "_voices_job", "_preview_job", "_save_job"):
            if getattr(self, attribute) is job:
                setattr(self, attribute, None)
        if self._speak_job is None:
            self.editor.setReadOnly(False)
        self._update_actions()

    # -- playing -------------------------------------------------------------------------------

    def speech_samples(self) -> np.ndarray:
        """Everything made by the last run (or as much as was made before a cancel)."""
        if not self._spoken:
            return np.zeros(0, dtype=np.float32)
        return np.concatenate([s.samples for s in self._spoken])

    @Slot()
    def play_or_pause(self) -> None:
        state = self.player.state
        if state == PLAYING:
            self.player.pause()
        elif state == PAUSED:
            self.player.play()
        elif self._spoken:
            self._playing_preview = False
            self.player.begin(self._sample_rate)
            for spoken in list(self._spoken):
                self.player.add(spoken.index, spoken.samples)
            if self._speak_job is None:
                self.player.end_of_input()

    @Slot()
    def stop_playing(self) -> None:
        self.player.stop()
        self.editor.setExtraSelections([])

    @Slot()
    def _on_playback_finished(self) -> None:
        self._playing_preview = False
        self.editor.setExtraSelections([])
        self._update_actions()

    def preview_voice(self, speaker: str) -> None:
        """Play a short sample of one voice of the loaded model."""
        if self._speak_job is not None or self._preview_job is not None:
            return
        self._clear_error()
        settings = self.synthesis_settings()
        settings.speaker = speaker
        synthesizer = self._synthesizer

        def work(report: JobReport):
            return synthesizer.preview(settings, cancelled=report.cancelled, on_status=report.message)

        job = Job(work, name=f"preview {speaker}")
        job.message.connect(self._set_status)
        job.result.connect(self._on_preview_ready)
        job.failed.connect(self._show_error)
        job.finished.connect(self._on_job_finished)
        self._preview_job = job
        self._runner.start(job)
        self._set_status(N_("SynthesizeTab", "Preparing a sample of “{voice}”…").format(voice=speaker))
        self._update_actions()

    @Slot(object)
    def _on_preview_ready(self, speech) -> None:
        if self._closing or not speech.sentences:
            return
        self._playing_preview = True
        self.player.begin(speech.sample_rate)
        self.player.add(0, speech.samples)
        self.player.end_of_input()
        self._set_status("")

    # -- saving --------------------------------------------------------------------------------

    @Slot()
    def choose_save_file(self) -> None:
        folder = self.choices.get("synthesize/save_folder") or str(Path.home())
        path, chosen_filter = QFileDialog.getSaveFileName(
            self, self.tr("Save the speech"), str(Path(folder) / self.tr("speech.wav")),
            self.tr("WAV audio (*.wav);;MP3 audio (*.mp3)"),
            options=QFileDialog.Option.DontConfirmOverwrite,  # asked below, once, in VoxDesk's words
        )
        if not path:
            return
        target = Path(path)
        if target.suffix.lower() not in (".wav", ".mp3"):
            target = target.with_name(target.name + (".mp3" if "mp3" in chosen_filter.lower() else ".wav"))
        self.choices.set("synthesize/save_folder", str(target.parent))
        self.save_to(target)

    def save_to(self, path: Path, *, overwrite: bool = False) -> Job | None:
        """Save what was made to path (WAV or MP3 from the extension) on a worker thread.

        An existing file is replaced only after the user says so.
        """
        samples = self.speech_samples()
        if not len(samples):
            self._show_error(N_("SynthesizeTab", "There is no speech to save yet. Press Speak first."))
            return None
        from desktop.core.common.atomic import ExportExists
        from desktop.core.common.audio_out import save_speech

        rate, normalize = self._sample_rate, self.normalize_box.isChecked()

        def work(_report: JobReport) -> tuple[str, Path]:
            try:
                return "saved", save_speech(path, samples, rate, normalize=normalize, overwrite=overwrite)
            except ExportExists:
                return "exists", path

        job = Job(work, name="save speech")
        job.result.connect(self._on_save_done)
        job.failed.connect(self._show_error)
        job.finished.connect(self._on_job_finished)
        self._save_job = job
        self._clear_error()
        self._runner.start(job)
        self._update_actions()
        return job

    @Slot(object)
    def _on_save_done(self, outcome: tuple[str, Path]) -> None:
        what, path = outcome
        if what == "saved":
            self._set_status(N_("SynthesizeTab", "Saved “{name}”.").format(name=path.name))
        elif self._ask_replace(path):
            self.save_to(path, overwrite=True)
        else:
            self._set_status(N_("SynthesizeTab", "Not saved: “{name}” was kept as it was.").format(name=path.name))

    def _ask_replace(self, path: Path) -> bool:
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Replace the file?"),
                          self.tr("“{name}” already exists in {folder}. Replace it?").format(
                              name=path.name, folder=path.parent),
                          QMessageBox.StandardButton.NoButton, self)
        replace = box.addButton(self.tr("Replace"), QMessageBox.ButtonRole.DestructiveRole)
        box.addButton(self.tr("Keep the existing file"), QMessageBox.ButtonRole.RejectRole)
        box.exec()
        return box.clickedButton() is replace

    # -- downloads -----------------------------------------------------------------------------

    def _fetch_model(self, name: str, then) -> None:
        """Download a model (after its licence, if it has one), then call then()."""
        model = self._store.get(name)
        terms = self._store.licence_terms(name)
        if terms is not None and not self._store.licence_accepted(name):
            dialog = LicenceDialog(model, terms, self)
            dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            self._dialog = dialog

            def accepted() -> None:
                self._store.accept_licence(name)
                self._fetch_model(name, then)

            dialog.accepted.connect(accepted)
            dialog.rejected.connect(lambda: self._set_status(
                N_("SynthesizeTab", "The licence was not accepted, so the model was not downloaded.")))
            dialog.open()
            return
        dialog = ModelDownloadDialog(self._store, self._runner, model, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self._dialog = dialog

        def downloaded() -> None:
            self.refresh_models(select=self.model_combo.currentData())
            self._on_model_changed()
            then()

        dialog.downloaded.connect(downloaded)
        dialog.failed.connect(self._show_error)
        dialog.cancelled.connect(lambda: self._set_status(N_("SynthesizeTab", "The download was cancelled; it "
                                                             "continues where it stopped next time.")))
        dialog.open()

    # -- state ---------------------------------------------------------------------------------

    def _update_actions(self) -> None:
        speaking = self._speak_job is not None
        has_text = bool(self.editor.toPlainText().strip())
        has_speech = bool(self._spoken)
        state = self.player.state
        self.speak_button.setEnabled(not speaking and has_text and self._preview_job is None)
        self.cancel_button.setEnabled(speaking)
        self.play_button.setEnabled(has_speech or state != "stopped")
        self.play_button.setText(self.tr("Pause") if state == PLAYING else self.tr("Play"))
        self.stop_button.setEnabled(state != "stopped")
        self.save_button.setEnabled(has_speech and self._save_job is None)
        self.model_combo.setEnabled(not speaking)
        self.import_button.setEnabled(not speaking)
        self.gpu_box.setEnabled(not speaking)
        for i in range(self.voice_list.count()):
            row = self.voice_list.itemWidget(self.voice_list.item(i))
            if row is not None:
                for button in row.findChildren(QToolButton):
                    button.setEnabled(not speaking and self._preview_job is None)

    @Slot(object)
    def _set_status(self, text: str) -> None:
        """The status line (a core Message is shown in the interface language, also after a switch)."""
        self._status = text
        self.status_label.setText(translated(text))
        if text:
            self.status_message.emit(translated(text))

    @Slot(object)
    def _show_error(self, message: str) -> None:
        self._error = message
        self.error_label.setText(translated(message))
        self.error_label.show()
        self.status_message.emit(translated(message))

    def _clear_error(self) -> None:
        self._error = ""
        self.error_label.clear()
        self.error_label.hide()

    def error_text(self) -> str:
        """The error shown under the buttons, or "" when there is none."""
        return self.error_label.text()

    def shutdown(self) -> None:
        """The window is closing: stop speaking, playing, previews and downloads."""
        self._closing = True
        for job in (self._speak_job, self._voices_job, self._preview_job):
            if job is not None:
                job.cancel()
        if self._dialog is not None:
            try:
                self._dialog.reject()
            except RuntimeError:
                pass  # the dialog was already deleted
        self.player.stop()
