"""The voices of the chosen model, each with a Preview button; loading the model finds them."""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QToolButton, QVBoxLayout, QWidget

from desktop.core.common.i18n import N_
from desktop.engines.speech.tts import SpeechSynthesizer, SynthesisSettings
from desktop.engines.speech.voice import VoiceInfo
from desktop.ui.common.i18n import translated
from desktop.ui.common.tab_jobs import TabJobs
from desktop.workers.job import JobReport


class VoicePanel(QWidget):
    """Loads the chosen model on a worker thread (the old one is released) and lists its voices."""

    loaded = Signal(object)  # the VoiceInfo of the model now loaded
    preview_requested = Signal(str)  # the voice to hear a sample of
    status = Signal(object)  # a sentence for the status line
    failed = Signal(object)  # the sentence saying why the model could not be loaded

    def __init__(self, settings, synthesizer: SpeechSynthesizer, jobs: TabJobs,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._settings = settings
        self._synthesizer = synthesizer
        self._jobs = jobs
        self.info: VoiceInfo | None = None  # of the model whose voices are listed
        self._loading = 0  # counts load() calls: only the last one's answer is shown...
        self._model: str | None = None  # ...and only when it is about the model chosen now
        self._hint: str = ""  # what voice_hint says (str, or a Message), to say it again

        self.voice_label = QLabel()
        self.voice_list = QListWidget()
        self.voice_list.setMinimumWidth(200)
        self.voice_hint = QLabel()
        self.voice_hint.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.voice_label)
        layout.addWidget(self.voice_list, 1)
        layout.addWidget(self.voice_hint)
        self.voice_list.currentItemChanged.connect(self._on_voice_changed)

    def retranslate(self) -> None:
        self.voice_label.setText(self.tr("Voice:"))
        self.voice_list.setToolTip(self.tr("Choose a voice; “Preview” lets you hear it first."))
        for button in self.voice_list.findChildren(QToolButton):
            self._name_preview_button(button)
        self.set_hint(self._hint)

    def _name_preview_button(self, button: QToolButton) -> None:
        button.setText(self.tr("Preview"))
        button.setToolTip(self.tr("Hear a short sample of this voice"))

    def set_hint(self, text: str) -> None:
        """The line under the voice list (str, or a Message shown in the interface language)."""
        self._hint = text
        self.voice_hint.setText(translated(text))

    # -- loading --------------------------------------------------------------------------------

    @property
    def loading(self) -> bool:
        return self._jobs.running("voices")

    def forget(self, model: str | None) -> None:
        """Another model was chosen: its voices are not known yet."""
        self._model = model
        self.info = None
        self.voice_list.clear()

    def load(self, settings: SynthesisSettings) -> None:
        """Load the model of settings on a worker thread; `loaded` or `failed` follows."""
        self._jobs.cancel("voices")
        self._loading += 1
        ticket = self._loading
        self._model = settings.model
        synthesizer = self._synthesizer
        self.set_hint(N_("SynthesizeTab", "Loading the voices…"))

        def work(report: JobReport) -> VoiceInfo:
            return synthesizer.voice_info(settings, on_status=report.message)

        self._jobs.start("voices", work, on_message=self.status.emit,
                         on_result=lambda info: self._on_loaded(ticket, info),
                         on_failed=lambda message: self._on_failed(ticket, message))

    def _on_loaded(self, ticket: int, info: VoiceInfo) -> None:
        if ticket != self._loading or info.model != self._model:
            return
        self.info = info
        self.voice_list.clear()
        self.setVisible(info.multi_speaker)
        if info.multi_speaker:
            self._list(info.speakers)
        self.loaded.emit(info)

    def _on_failed(self, ticket: int, message: str) -> None:
        if ticket == self._loading:
            self.set_hint("")
            self.failed.emit(message)

    # -- the list -------------------------------------------------------------------------------

    def _list(self, speakers: list[str]) -> None:
        wanted = self._settings.get("synthesize/speaker")
        for name in speakers:
            item = QListWidgetItem(self.voice_list)
            item.setData(Qt.ItemDataRole.UserRole, name)
            row = QWidget()
            row_layout = QHBoxLayout(row)
            row_layout.setContentsMargins(4, 0, 4, 0)
            row_layout.addWidget(QLabel(name), 1)
            preview = QToolButton()
            preview.setObjectName(f"preview:{name}")
            self._name_preview_button(preview)
            preview.clicked.connect(lambda _checked=False, speaker=name: self.preview_requested.emit(speaker))
            row_layout.addWidget(preview)
            item.setSizeHint(row.sizeHint())
            self.voice_list.setItemWidget(item, row)
            if name == wanted:
                self.voice_list.setCurrentItem(item)
        if self.voice_list.currentItem() is None:
            self.voice_list.setCurrentRow(0)
        self.set_hint(N_("SynthesizeTab", "{count} voices").format(count=len(speakers)))

    def voices(self) -> list[str]:
        return [self.voice_list.item(i).data(Qt.ItemDataRole.UserRole) for i in range(self.voice_list.count())]

    def current_voice(self) -> str | None:
        item = self.voice_list.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item is not None else None

    def select_voice(self, name: str) -> None:
        for i in range(self.voice_list.count()):
            if self.voice_list.item(i).data(Qt.ItemDataRole.UserRole) == name:
                self.voice_list.setCurrentRow(i)

    def set_previews_enabled(self, enabled: bool) -> None:
        for button in self.voice_list.findChildren(QToolButton):
            button.setEnabled(enabled)

    def _on_voice_changed(self, current: QListWidgetItem | None, _previous=None) -> None:
        if current is not None:
            self._settings.set("synthesize/speaker", current.data(Qt.ItemDataRole.UserRole))
