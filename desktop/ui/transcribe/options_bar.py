"""The choices for the next file: the Whisper model, the language, the task and the initial prompt."""
from __future__ import annotations

from PySide6.QtCore import QEvent, Signal, Slot
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

from desktop.core.transcription.languages import WHISPER_LANGUAGES
from desktop.core.transcription.model_advice import CHINESE_HINT, needs_chinese_hint
from desktop.core.transcription.options import (
    BATCH_SIZE,
    CHINESE_SCRIPT,
    DEVICE,
    ENGINE,
    INITIAL_PROMPT,
    LANGUAGE,
    MODEL,
    TASK,
)
from desktop.core.transcription.speed_records import SpeedRecords, machine_key
from desktop.engines.transcription.transcriber import TranscribeSettings
from desktop.settings import Settings
from desktop.ui.common.i18n import translated
from desktop.ui.common.styles import WARNING_STYLE
from desktop.ui.common.tab_jobs import TabJobs
from desktop.ui.transcribe.glossary_picker import GlossaryPicker
from desktop.ui.transcribe.model_picker import ModelPicker
from desktop.ui.transcribe.server_box import configured_server
from desktop.ui.transcribe.speakers_choice import SpeakersCombo
from desktop.workers.job import JobReport, JobRunner

_LANGUAGES_FIRST = ("zh", "en")  # the two languages VoxDesk's users speak most, right under Auto-detect
_NATIVE_NAMES = {"zh": "中文", "en": "English"}


def select_data(combo: QComboBox, value) -> None:
    """Make the item holding value current; the first item when none does."""
    index = combo.findData(value)
    combo.setCurrentIndex(index if index >= 0 else 0)


class OptionsBar(QWidget):
    model_changed = Signal()  # the user chose another model: the loaded one only holds memory now
    models_listed = Signal(object)  # the model list was read again: its CatalogEntry list

    def __init__(self, settings: Settings, store, runner: JobRunner, parent: QWidget | None = None):
        super().__init__(parent)
        self._settings = settings
        self._store = store
        self._jobs = TabJobs(runner, self)
        self._speeds = SpeedRecords()  # how fast each model ran here, shown in the model list
        self._build()
        self._load_choices()
        self.model_combo.activated.connect(self._on_model_chosen)
        self.language_combo.activated.connect(self.save_choices)
        self.task_combo.activated.connect(self.save_choices)
        self.speakers_combo.activated.connect(self.save_choices)
        self.prompt_edit.editingFinished.connect(self.save_choices)
        self.model_combo.currentIndexChanged.connect(self._update_chinese_hint)
        self.language_combo.currentIndexChanged.connect(self._update_chinese_hint)
        self.retranslate()
        self._update_chinese_hint()

    def _build(self) -> None:
        self.model_combo = ModelPicker()
        self.model_combo.setMinimumWidth(200)
        self.language_combo = QComboBox()
        self.language_combo.setMinimumWidth(160)
        self.language_combo.addItem("", "auto")
        for code in _LANGUAGES_FIRST:
            self.language_combo.addItem(_NATIVE_NAMES[code], code)
        self.language_combo.insertSeparator(self.language_combo.count())
        self._fill_other_languages()
        self.speakers_combo = SpeakersCombo()
        self.speakers_label = QLabel()
        self.speakers_label.setBuddy(self.speakers_combo)
        self.task_combo = QComboBox()
        for task in TASK.choices:
            self.task_combo.addItem("", task)
        self.prompt_edit = QLineEdit()
        self.prompt_edit.setClearButtonEnabled(True)
        self.prompt_edit.setMinimumWidth(220)

        self.model_label = QLabel()
        self.language_label = QLabel()
        self.task_label = QLabel()
        self.prompt_label = QLabel()
        self.prompt_label.setBuddy(self.prompt_edit)
        choices_row = QHBoxLayout()
        choices_row.addWidget(self.model_label)
        choices_row.addWidget(self.model_combo)
        choices_row.addSpacing(12)
        choices_row.addWidget(self.language_label)
        choices_row.addWidget(self.language_combo)
        choices_row.addSpacing(12)
        choices_row.addWidget(self.speakers_label)
        choices_row.addWidget(self.speakers_combo)
        choices_row.addSpacing(12)
        choices_row.addWidget(self.task_label)
        choices_row.addWidget(self.task_combo)
        choices_row.addStretch(1)
        prompt_row = QHBoxLayout()
        prompt_row.addWidget(self.prompt_label)
        prompt_row.addWidget(self.prompt_edit, 1)
        self.glossary_picker = GlossaryPicker(self._settings, "transcribe/glossaries")
        prompt_row.addWidget(self.glossary_picker)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(choices_row)
        layout.addLayout(prompt_row)
        self.chinese_hint = QLabel()  # small or larger for Chinese: shown under the choices when it applies
        self.chinese_hint.setStyleSheet(WARNING_STYLE)
        self.chinese_hint.setWordWrap(True)
        self.chinese_hint.hide()
        layout.addWidget(self.chinese_hint)

    def _fill_other_languages(self) -> None:
        """The rest of Whisper's languages under the separator, by name in the interface language."""
        from PySide6.QtCore import QCollator

        combo = self.language_combo
        first_other = len(_LANGUAGES_FIRST) + 2  # Auto-detect, the two first languages, the separator
        while combo.count() > first_other:
            combo.removeItem(first_other)
        collator = QCollator()  # the interface's locale: pinyin order for Chinese names
        names = [(translated(name), code) for code, name in WHISPER_LANGUAGES.items() if code not in _LANGUAGES_FIRST]
        for name, code in sorted(names, key=lambda pair: collator.sortKey(pair[0])):
            combo.addItem(name, code)

    def retranslate(self) -> None:
        """Set every text; called at start and when the interface language changes."""
        self.model_combo.setToolTip(self.tr("Larger models are more accurate and slower. "
                                            "A model is downloaded the first time it is used."))
        self.model_label.setText(self.tr("Model:"))
        self.language_label.setText(self.tr("Language:"))
        self.task_label.setText(self.tr("Task:"))
        self.prompt_label.setText(self.tr("Initial prompt:"))
        self.language_combo.setItemText(0, self.tr("Auto-detect"))
        chosen_language = self.language_combo.currentData()
        self._fill_other_languages()
        select_data(self.language_combo, chosen_language)
        self.task_combo.setItemText(self.task_combo.findData("transcribe"), self.tr("Transcribe"))
        self.task_combo.setItemText(self.task_combo.findData("translate"), self.tr("Translate to English"))
        self.task_combo.setToolTip(translated(TASK.help))
        self.prompt_edit.setToolTip(translated(INITIAL_PROMPT.help))
        self.prompt_edit.setPlaceholderText(self.tr("Optional: names or terms, spelled as you want them"))
        self.model_combo.retranslate()
        self.chinese_hint.setText(translated(CHINESE_HINT))
        self.speakers_label.setText(self.tr("Label speakers:"))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    # -- the user's choices --------------------------------------------------------------------

    def _load_choices(self) -> None:
        settings = self._settings
        model = settings.get("transcribe/model")
        self.model_combo.addItem(model, model)  # until the full list is read
        select_data(self.language_combo, settings.get("transcribe/language"))
        select_data(self.task_combo, settings.get("transcribe/task"))
        select_data(self.speakers_combo, settings.get("transcribe/speakers"))
        self.prompt_edit.setText(settings.get("transcribe/initial_prompt"))

    @Slot()
    def save_choices(self) -> None:
        self._settings.set("transcribe/language", self.language_combo.currentData())
        self._settings.set("transcribe/task", self.task_combo.currentData())
        self._settings.set("transcribe/speakers", self.speakers_combo.currentData())
        self._settings.set("transcribe/initial_prompt", self.prompt_edit.text().strip())

    @property
    def app_settings(self) -> Settings:
        """The user's Settings this bar reads and remembers its choices in."""
        return self._settings

    def transcribe_settings(self) -> TranscribeSettings:
        """The choices for the next file, as the Transcriber takes them."""
        language = self.language_combo.currentData()
        return TranscribeSettings(
            model=self.model_combo.currentData() or self._settings.get(MODEL.settings_key),
            engine=self._settings.get(ENGINE.settings_key),
            device=self._settings.get(DEVICE.settings_key),
            language=LANGUAGE.from_stored(language),
            task=self.task_combo.currentData(),
            initial_prompt=self.prompt_edit.text().strip() or None,
            chinese_script=self._settings.get(CHINESE_SCRIPT.settings_key),
            server=configured_server(self._settings),
            speakers=self.speakers_combo.currentData(),
            batch_size=BATCH_SIZE.from_stored(self._settings.get(BATCH_SIZE.settings_key)),
            glossary_files=self.glossary_picker.chosen_paths(),
            **self._settings.decoding_choices(),  # beam size, VAD, word timings, temperature, text before
        )

    # -- the model list ------------------------------------------------------------------------

    def refresh_models(self, select: str | None = None) -> None:
        """Fill the model list (official and imported, marking what is on this computer)."""
        store, speeds, settings = self._store, self._speeds, self._settings
        engine, device = settings.get("engine/choice"), settings.get("device/choice")

        def work(report: JobReport) -> tuple[list, dict[str, float]]:
            return store.catalog(), speeds.factors(machine_key(), engine=engine, device=device)

        if select is not None:
            self._settings.set("transcribe/model", select)
        self._jobs.start("list models", work, on_result=self._on_models_listed)

    @Slot(bool)
    def set_offline(self, offline: bool) -> None:
        """Whether a download found no connection: the list then shows models to download as download-only."""
        self.model_combo.set_offline(offline)

    def suggest_for_device(self, report) -> None:
        """The model this computer's GPU affords (``model_for_device``): marked in the list, and chosen when
        the user has not chosen one yet."""
        from desktop.core.transcription.model_for_device import recommended_model

        factors = self._speeds.factors(machine_key(), device="gpu") if report.gpu_available else {}
        advice = recommended_model(report.gpu_available, report.memory_total, factors)
        self.model_combo.set_recommended(advice.model, advice.reason)
        if not self._settings.is_set("transcribe/model") and advice.model != self._settings.get("transcribe/model"):
            self.refresh_models(select=advice.model)

    def _on_models_listed(self, listing: tuple[list, dict[str, float]]) -> None:
        entries, factors = listing
        self.model_combo.show_models(entries, factors, self._settings.get("transcribe/model"))
        self._update_chinese_hint()
        self.models_listed.emit(entries)

    @Slot()
    def _update_chinese_hint(self) -> None:
        model = self.model_combo.currentData() or self._settings.get("transcribe/model")
        self.chinese_hint.setVisible(needs_chinese_hint(self.language_combo.currentData(), model))

    @Slot(int)
    def _on_model_chosen(self, index: int) -> None:
        name = self.model_combo.itemData(index)
        if name and name != self._settings.get("transcribe/model"):
            self._settings.set("transcribe/model", name)
            self.model_changed.emit()

    def shutdown(self) -> None:
        """The window is closing: keep the choices (a prompt still being typed has not sent editingFinished)."""
        self.save_choices()
        self._jobs.cancel_all()
