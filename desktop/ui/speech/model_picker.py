"""Which voice model speaks, and how: the model list and its description, "Import model folder…",
the language, the speed and the GPU switch. Every choice is remembered in the settings.

The list shows the recommended voices, then the others on this computer, then "More voices…", which
opens the whole catalog with each entry's language in words. Entries that need a download say so;
when the download server cannot be reached they are shown as download-only and cannot be chosen.
Until the user chooses, the voice is the default of the interface's language."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import QCheckBox, QComboBox, QFileDialog, QHBoxLayout, QLabel, QPushButton, QSlider, QVBoxLayout, QWidget

from desktop.core.common.errors import UserFacingError
from desktop.core.common.i18n import N_
from desktop.core.common.model_origin import unverified_note
from desktop.core.speech.piper_voices import is_piper_name
from desktop.core.speech.tts_catalog import (
    CURATED,
    DEFAULT_FOR_LANGUAGE,
    IMPORTED_PREFIX,
    RECOMMENDED,
    TtsModel,
    default_voice,
)
from desktop.ui.common.i18n import interface_locale, translated, translation_name
from desktop.ui.common.tab_jobs import TabJobs
from desktop.workers.job import Job, JobReport

_LANGUAGE_CHOICES = (("auto", ""), ("en", "English"), ("zh", "中文"))  # "" : "Automatic", translated
MORE_VOICES = "more-voices"  # the item data of "More voices…"


class ModelPicker(QWidget):
    """The model and how it speaks; the Synthesize tab reads the choices from here."""

    model_changed = Signal()  # another model was chosen (or the list changed under it)
    gpu_toggled = Signal(bool)
    folder_chosen = Signal(object)  # the Path of a model folder to import (Coqui or Piper)
    import_progress = Signal(float)  # 0..1 of a model folder being copied
    imported = Signal(object)  # the TtsModel just imported, now chosen
    import_ended = Signal()  # an import finished, failed or was cancelled: its "Copying…" is over
    status = Signal(object)  # a sentence for the status line (a core Message)
    failed = Signal(object)  # a sentence saying what went wrong

    def __init__(self, settings, store, jobs: TabJobs, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._settings = settings
        self._store = store
        self._jobs = jobs
        self._models: dict[str, TtsModel] = {}
        self._show_all = False  # "More voices…" was chosen: the whole catalog is listed
        self._offline = False  # the download server could not be reached
        self._chosen: str | None = None  # the model chosen before "More voices…"
        self._build()
        self.model_combo.currentIndexChanged.connect(self._on_model_changed)
        self.language_combo.currentIndexChanged.connect(self._on_language_changed)
        self.speed_slider.valueChanged.connect(self._on_speed_changed)
        self.gpu_box.toggled.connect(self._on_gpu_toggled)
        self.import_button.clicked.connect(self.choose_import_folder)

    def _build(self) -> None:
        self.model_label, self.language_label, self.speed_title = QLabel(), QLabel(), QLabel()
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

        model_row = QHBoxLayout()
        for widget, stretch in ((self.model_label, 0), (self.model_combo, 1), (self.import_button, 0)):
            model_row.addWidget(widget, stretch)
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
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(model_row)
        layout.addWidget(self.model_info)
        layout.addLayout(choice_row)

    def retranslate(self) -> None:
        self.model_label.setText(self.tr("Model:"))
        self.model_combo.setToolTip(self.tr("The voice model. It is downloaded the first time it is used."))
        self.import_button.setText(self.tr("Import model folder…"))
        self.import_button.setToolTip(self.tr("Use a voice model folder copied to this computer: a Coqui model "
                                              "(model file, config.json and any speaker files) or a Piper voice "
                                              "(its .onnx and .onnx.json)."))
        self.language_label.setText(self.tr("Language:"))
        self.language_combo.setItemText(0, self.tr("Automatic"))
        self.language_combo.setToolTip(self.tr("The language of the text. Automatic lets a multilingual "
                                               "model choose per sentence."))
        self.speed_title.setText(self.tr("Speed:"))
        self._show_speed()
        self.gpu_box.setText(self.tr("Use the GPU for speech (experimental)"))
        self.gpu_box.setToolTip(self.tr("Speech runs well on the CPU. On the GPU it may be faster or slower; "
                                        "if the GPU fails, VoxDesk continues on the CPU."))
        for index in range(self.model_combo.count()):
            model = self._models.get(self.model_combo.itemData(index))
            if model is not None:
                self.model_combo.setItemText(index, self._model_label(model))
            elif self.model_combo.itemData(index) == MORE_VOICES:
                self.model_combo.setItemText(index, self.tr("More voices…"))
        self._describe_selected()

    def load_choices(self) -> None:
        """Show the choices remembered from the last time (the model list is filled too)."""
        self.refresh_models(select=self._settings.get("synthesize/model"))
        language = self._settings.get("synthesize/language")
        self.language_combo.setCurrentIndex(max(0, self.language_combo.findData(language)))
        self.speed_slider.setValue(min(200, max(50, int(self._settings.get("synthesize/speed")))))
        self._show_speed()
        self.gpu_box.setChecked(bool(self._settings.get("synthesize/use_gpu")))

    # -- what was chosen ------------------------------------------------------------------------

    def selected_model(self) -> TtsModel | None:
        return self._models.get(self.model_combo.currentData())

    def model_name(self) -> str:
        name = self.model_combo.currentData()
        return name if name and name != MORE_VOICES else DEFAULT_FOR_LANGUAGE["en"]

    def interface_language(self) -> str:
        """"zh" in the Chinese interface, else "en"."""
        translation = translation_name(interface_locale(self._settings.get("ui/language")))
        return translation.split("_")[0] if translation else "en"

    def set_offline(self, offline: bool) -> None:
        """Whether the download server is out of reach: download-only entries cannot be chosen then."""
        if offline != self._offline:
            self._offline = offline
            self.refresh_models()

    def language(self) -> str | None:
        """The chosen language code, or None for "Automatic"."""
        language = self.language_combo.currentData()
        return None if language in (None, "auto") else language

    def speed(self) -> float:
        return self.speed_slider.value() / 100.0

    def use_gpu(self) -> bool:
        return self.gpu_box.isChecked()

    def select_model(self, name: str) -> None:
        index = self.model_combo.findData(name)
        if index >= 0:
            self.model_combo.setCurrentIndex(index)

    def set_speaking(self, speaking: bool) -> None:
        """While speech is being made the model and the device stay as they are."""
        for widget in (self.model_combo, self.import_button, self.gpu_box):
            widget.setEnabled(not speaking)

    # -- the model list -------------------------------------------------------------------------

    def refresh_models(self, select: str | None = None) -> None:
        """Fill the model list: the recommended voices, those on this computer, then "More voices…"."""
        current = select or self.model_combo.currentData()
        try:
            catalog = self._store.catalog()
        except UserFacingError as error:
            self.failed.emit(error.message)
            catalog = []
        self._models = {m.name: m for m in catalog}
        if not current or current == MORE_VOICES:
            current = self._chosen if current == MORE_VOICES and self._chosen else \
                default_voice(self.interface_language(), catalog)
        recommended = sorted((m for m in catalog if m.name in RECOMMENDED), key=lambda m: RECOMMENDED.index(m.name))
        local = [m for m in catalog if m.name not in RECOMMENDED and m.downloaded]
        rest = [m for m in catalog if m.name not in RECOMMENDED and not m.downloaded]
        if any(m.name == current for m in rest):
            self._show_all = True  # a remembered choice from the whole catalog stays visible
        rest.sort(key=lambda m: (self._languages_in_words(m), self._model_label(m)))
        self.model_combo.blockSignals(True)
        self.model_combo.clear()
        for group in (recommended, local, rest if self._show_all else []):
            if group and self.model_combo.count():
                self.model_combo.insertSeparator(self.model_combo.count())
            for model in group:
                self.model_combo.addItem(self._model_label(model), model.name)
                if model.unverified_source:
                    self.model_combo.setItemData(self.model_combo.count() - 1,
                                                 translated(unverified_note(model.unverified_source)),
                                                 Qt.ItemDataRole.ToolTipRole)
                if self._offline and not model.downloaded:
                    self.model_combo.model().item(self.model_combo.count() - 1).setEnabled(False)
        if not self._show_all and rest:
            self.model_combo.insertSeparator(self.model_combo.count())
            self.model_combo.addItem(self.tr("More voices…"), MORE_VOICES)
        index = self.model_combo.findData(current)
        self.model_combo.setCurrentIndex(index if index >= 0 else 0)
        self._chosen = self.model_combo.currentData()
        self.model_combo.blockSignals(False)

    def _model_label(self, model: TtsModel) -> str:
        """The entry's name, its language in words where the name is a raw identifier, and whether it is here."""
        if model.name in CURATED or model.name.startswith(IMPORTED_PREFIX):
            name = translated(model.title)
        elif is_piper_name(model.name):
            name = self.tr("{languages} · {title}").format(languages=self._languages_in_words(model),
                                                          title=model.title)
        else:  # Coqui's own "tts_models/<language>/<dataset>/<model>"
            parts = model.name.split("/")
            name = self.tr("{languages} · {title}").format(languages=self._languages_in_words(model),
                                                          title=" · ".join(parts[2:]) or model.title)
        if model.unverified_source:
            return f"⚠ {name}"
        if model.downloaded:
            return self.tr("✓ {name}").format(name=name)
        if self._offline:
            return self.tr("{name} — download only, no connection now").format(name=name)
        return self.tr("{name} — needs a download").format(name=name)

    def _languages_in_words(self, model: TtsModel) -> str:
        from desktop.engines.speech.tts import LANGUAGE_NAMES

        names = [translated(LANGUAGE_NAMES.get(c, c)) for c in model.languages[:3]]
        text = self.tr(", ").join(names)
        if len(model.languages) > 3:
            text += self.tr(" and {count} more").format(count=len(model.languages) - 3)
        return text

    def _describe_selected(self) -> None:
        model = self.selected_model()
        self.model_info.setText(self._describe(model) if model is not None else "")

    def _describe(self, model: TtsModel) -> str:
        from desktop.engines.speech.tts import LANGUAGE_NAMES

        languages = self.tr(", ").join(translated(LANGUAGE_NAMES.get(c, c)) for c in model.languages[:6])
        if len(model.languages) > 6:
            languages += self.tr(" and {count} more").format(count=len(model.languages) - 6)
        size = self.tr("about {size} MB").format(size=model.size_mb) if model.size_mb else self.tr("size not known")
        if model.downloaded:
            where = self.tr("on this computer")
        elif self._offline:
            where = self.tr("needs a download, and the download server cannot be reached now")
        else:
            where = self.tr("downloaded when first used")
        text = self.tr("{languages} · {size} · licence: {licence} · {where}").format(
            languages=languages, size=size, licence=translated(model.licence), where=where)
        if model.description:
            text += "\n" + translated(model.description)
        if model.unverified_source:
            text += "\n" + translated(unverified_note(model.unverified_source))
        return text

    @Slot()
    def _on_model_changed(self, *_args) -> None:
        if self.model_combo.currentData() == MORE_VOICES:
            self._show_all = True
            self.refresh_models(select=self._chosen)
            QTimer.singleShot(0, self.model_combo.showPopup)
            return
        self._chosen = self.model_combo.currentData()
        model = self.selected_model()
        if model is not None:
            self._settings.set("synthesize/model", model.name)
        self._describe_selected()
        self.speed_slider.setEnabled(True)  # until the loaded model says it cannot change speed
        self.model_changed.emit()

    @Slot()
    def _on_language_changed(self, *_args) -> None:
        language = self.language_combo.currentData()
        self._settings.set("synthesize/language", language)
        model = self.selected_model()
        if language != "auto" and model is not None and not model.speaks(language):
            # A language the model cannot speak: offer the curated default for it.
            self.select_model(default_voice(language, list(self._models.values())))
            self.status.emit(N_("SynthesizeTab", "Switched to “{title}”, which speaks the chosen language.").format(
                title=self.selected_model().title if self.selected_model() else ""))

    @Slot(int)
    def _on_speed_changed(self, value: int) -> None:
        self._show_speed()
        self._settings.set("synthesize/speed", int(value))

    def _show_speed(self) -> None:
        self.speed_label.setText(self.tr("{percent}%").format(percent=self.speed_slider.value()))

    @Slot(bool)
    def _on_gpu_toggled(self, on: bool) -> None:
        self._settings.set("synthesize/use_gpu", bool(on))
        self.gpu_toggled.emit(bool(on))

    # -- importing a model folder ---------------------------------------------------------------

    @Slot()
    def choose_import_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Choose a voice model folder (Coqui or Piper)"))
        if folder:
            self.folder_chosen.emit(Path(folder))

    def import_folder(self, folder: Path) -> Job:
        """Copy a model folder (Coqui or Piper) into the store on a worker thread; the model is chosen when done."""
        store = self._store

        def work(report: JobReport) -> TtsModel:
            report.message(N_("SynthesizeTab", "Copying the model…"))
            return store.import_folder(folder, progress=lambda d, t: report.progress(d / t if t else 0),
                                       cancelled=report.cancelled)

        return self._jobs.start("import", work, on_message=self.status.emit, on_progress=self.import_progress.emit,
                                on_result=self._on_imported, on_failed=self._on_import_failed,
                                on_cancelled=self._on_import_cancelled)

    def _on_import_failed(self, message) -> None:
        self._end_import("")
        self.failed.emit(message)

    def _on_import_cancelled(self) -> None:
        self._end_import(N_("SynthesizeTab", "The import was cancelled; nothing was added."))

    def _end_import(self, status) -> None:
        """Whatever the outcome, "Copying the model…" no longer stands in the status line."""
        self.status.emit(status)
        self.import_ended.emit()

    def _on_imported(self, model: TtsModel) -> None:
        self.import_ended.emit()
        self.refresh_models(select=model.name)
        self._on_model_changed()
        self.imported.emit(model)
        self.status.emit(N_("SynthesizeTab", "The model “{title}” was imported and is now chosen.").format(
            title=model.title))
