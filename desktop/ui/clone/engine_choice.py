"""The "Voice model" row of the Speak page: which engine speaks (XTTS v2 or OpenVoice v2) and where its
model is; each is explained in words in its tooltip, licence included."""
from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal, Slot
from PySide6.QtWidgets import QComboBox, QFileDialog, QHBoxLayout, QPushButton, QWidget

from desktop.engines.voices.cloning import ENGINES, CloneSettings
from desktop.ui.common.i18n import translated


class EngineChoice(QWidget):
    changed = Signal()  # another engine was chosen
    model_folder_chosen = Signal(str)

    def __init__(self, settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._settings = settings  # the clone/* options of desktop.settings
        self.engine_combo = QComboBox()
        for engine in ENGINES.values():
            self.engine_combo.addItem(translated(engine.title), engine.id)
        self.model_folder_button = QPushButton()
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.engine_combo, 1)
        row.addWidget(self.model_folder_button)
        remembered = self.engine_combo.findData(settings.get("clone/engine"))
        if remembered >= 0:
            self.engine_combo.setCurrentIndex(remembered)
        self._remember()
        self.engine_combo.currentIndexChanged.connect(self._on_changed)
        self.model_folder_button.clicked.connect(self._ask_model_folder)
        self.retranslate()

    def retranslate(self) -> None:
        """Set every text; called at start and when the interface language changes."""
        explained = {
            "xtts": self.tr("XTTS v2 is a voice model that copies the saved voice from its sample and speaks 17 "
                            "languages. Its licence, the CPML (Coqui Public Model License), is a non-commercial "
                            "licence: the speech may not be used for business."),
            "openvoice": self.tr("OpenVoice v2: a standard voice model reads the text, then OpenVoice makes it "
                                 "sound like the saved voice. Its MIT licence allows commercial use."),
        }
        for index, engine in enumerate(ENGINES.values()):
            self.engine_combo.setItemText(index, translated(engine.title))
            self.engine_combo.setItemData(index, explained.get(engine.id, ""), Qt.ItemDataRole.ToolTipRole)
        self._explain_chosen()
        self.model_folder_button.setText(self.tr("Model folder…"))
        self.model_folder_button.setToolTip(self.tr(
            "Where the chosen voice model's files are on this computer: for XTTS v2 its model folder, for "
            "OpenVoice v2 its converter folder (the one with config.json and checkpoint.pth)."))

    def _explain_chosen(self) -> None:
        """The closed list shows the chosen voice model's explanation too."""
        self.engine_combo.setToolTip(self.engine_combo.itemData(self.engine_combo.currentIndex(),
                                                                Qt.ItemDataRole.ToolTipRole) or "")

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    @property
    def engine(self) -> str:
        return self.engine_combo.currentData()

    def clone_settings(self, language: str) -> CloneSettings:
        """The settings to speak in this language with the chosen engine and the remembered model folders."""
        chosen = CloneSettings(
            engine=self.engine,
            language=language,
            converter=self._settings.get("clone/openvoice_converter"),
            base_model=self._settings.get("clone/base_model") or None,
        )
        if self._settings.get("clone/xtts_model"):
            chosen.xtts_model = self._settings.get("clone/xtts_model")
        return chosen

    @Slot()
    def _on_changed(self) -> None:
        self._remember()
        self._explain_chosen()
        self.changed.emit()

    def _remember(self) -> None:
        self._settings.set("clone/engine", ENGINES[self.engine].id)

    @Slot()
    def _ask_model_folder(self) -> None:
        title = self.tr("Choose the XTTS v2 model folder") if self.engine == "xtts" else \
            self.tr("Choose the OpenVoice v2 converter folder")
        folder = QFileDialog.getExistingDirectory(self, title)
        if folder:
            self.set_model_folder(folder)

    def set_model_folder(self, folder: str) -> None:
        key = "clone/xtts_model" if self.engine == "xtts" else "clone/openvoice_converter"
        self._settings.set(key, folder)
        self.model_folder_chosen.emit(folder)

