"""Settings…: the options that are not on a tab, on four pages. Transcription (where it runs, Chinese
script, subtitle lines), Downloads (where models come from) and General (interface language, the
watermark on synthesized speech) are for everyone; Advanced holds what IT sets up: the engine and how
many pieces it decodes together, the office's transcription server and the GPU compatibility version."""
from __future__ import annotations

from PySide6.QtCore import QEvent, QRegularExpression
from PySide6.QtGui import QGuiApplication, QRegularExpressionValidator
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from desktop.core.transcription.options import BATCH_SIZE, CHINESE_SCRIPT, DEVICE, LOCAL_ENGINES
from desktop.settings import Settings
from desktop.ui.common.decoding_box import DecodingBox
from desktop.ui.common.downloads_box import DownloadsBox
from desktop.ui.common.glossary_folders_box import GlossaryFoldersBox
from desktop.ui.common.i18n import UI_LANGUAGES, translated
from desktop.ui.transcribe.live_recordings import RECORDINGS_KEY, default_recordings_folder
from desktop.ui.transcribe.server_box import ServerSettingsBox
from desktop.workers.job import JobRunner

_ROOM_AROUND_A_PAGE = 220  # pixels of a screen's height a page leaves for the rest of the dialog and its frame


class SettingsDialog(QDialog):
    """Edits a Settings object; nothing is written until OK."""

    def __init__(self, settings: Settings, parent: QWidget | None = None, runner: JobRunner | None = None):
        super().__init__(parent)
        self._settings = settings
        self._changed: set[str] = set()
        self.setMinimumWidth(480)

        self._build_recognition_box()
        self._build_engine_box()
        self._build_subtitles_box()
        self._build_reading_box()
        self._build_speech_box()
        self._build_interface_box()
        self._build_recordings_box()
        self._build_startup_box()
        self.decoding_box = DecodingBox()
        self.downloads_box = DownloadsBox()
        self.glossary_folders_box = GlossaryFoldersBox()
        self.server_box = ServerSettingsBox(self, runner=runner)
        self._lay_out(self._build_buttons())
        self.retranslate()
        self._load()

    def _build_recognition_box(self) -> None:
        self.device_combo = self._combo(*DEVICE.choices)
        self.script_combo = self._combo(*CHINESE_SCRIPT.choices)
        self.recognition_box = QGroupBox()
        form = QFormLayout(self.recognition_box)
        self.device_label, self.script_label = QLabel(), QLabel()
        form.addRow(self.device_label, self.device_combo)
        form.addRow(self.script_label, self.script_combo)

    def _build_engine_box(self) -> None:
        """The Advanced page's engine choices; Automatic is right on nearly every computer."""
        self.engine_combo = self._combo(*LOCAL_ENGINES)
        self.engine_box = QGroupBox()
        form = QFormLayout(self.engine_box)
        self.engine_label = QLabel()
        form.addRow(self.engine_label, self.engine_combo)
        self.batch_spin, self.batch_label = self._spin(0, BATCH_SIZE.high), QLabel()  # 0: automatic
        form.addRow(self.batch_label, self.batch_spin)

    def _build_subtitles_box(self) -> None:
        self.lines_spin = self._spin(1, 4)
        self.latin_spin = self._spin(20, 80)
        self.cjk_spin = self._spin(8, 40)
        self.subtitles_box = QGroupBox()
        subtitles_form = QFormLayout(self.subtitles_box)
        self.lines_label, self.latin_label, self.cjk_label = QLabel(), QLabel(), QLabel()
        subtitles_form.addRow(self.lines_label, self.lines_spin)
        subtitles_form.addRow(self.latin_label, self.latin_spin)
        subtitles_form.addRow(self.cjk_label, self.cjk_spin)

    def _build_reading_box(self) -> None:
        """How fast a subtitle may ask to be read and how long it stays: the editor warns past these."""
        self.latin_cps_spin = self._seconds_spin(5.0, 40.0, 1, 1.0)
        self.chinese_cps_spin = self._seconds_spin(2.0, 30.0, 1, 1.0)
        self.min_seconds_spin = self._seconds_spin(0.1, 5.0, 1, 0.1)
        self.max_seconds_spin = self._seconds_spin(1.0, 30.0, 1, 0.5)
        self.reading_box = QGroupBox()
        form = QFormLayout(self.reading_box)
        self.latin_cps_label, self.chinese_cps_label = QLabel(), QLabel()
        self.min_seconds_label, self.max_seconds_label = QLabel(), QLabel()
        form.addRow(self.latin_cps_label, self.latin_cps_spin)
        form.addRow(self.chinese_cps_label, self.chinese_cps_spin)
        form.addRow(self.min_seconds_label, self.min_seconds_spin)
        form.addRow(self.max_seconds_label, self.max_seconds_spin)

    def _build_speech_box(self) -> None:
        self.watermark_box = QCheckBox()
        self.speech_box = QGroupBox()
        QVBoxLayout(self.speech_box).addWidget(self.watermark_box)

    def _build_interface_box(self) -> None:
        # Each language's name is written in that language, so it can be found whatever is shown now.
        self.language_combo = QComboBox()
        for code, name in UI_LANGUAGES:
            self.language_combo.addItem(name or "", code)
        self.interface_box = QGroupBox()
        interface_form = QFormLayout(self.interface_box)
        self.language_label = QLabel()
        interface_form.addRow(self.language_label, self.language_combo)

    def _build_recordings_box(self) -> None:
        """Where live captions keep their recordings: empty is Documents/Recordings."""
        self.recordings_edit = QLineEdit()
        self.recordings_edit.setClearButtonEnabled(True)
        self.recordings_button = QPushButton()
        self.recordings_button.clicked.connect(self._choose_recordings_folder)
        self.recordings_box = QGroupBox()
        row = QHBoxLayout()
        row.addWidget(self.recordings_edit, 1)
        row.addWidget(self.recordings_button)
        form = QFormLayout(self.recordings_box)
        self.recordings_label = QLabel()
        form.addRow(self.recordings_label, row)

    def _choose_recordings_folder(self) -> None:
        start = self.recordings_edit.text().strip() or str(default_recordings_folder().parent)
        folder = QFileDialog.getExistingDirectory(self, self.tr("Where live recordings are kept"), start)
        if folder:
            self.recordings_edit.setText(folder)

    def _build_startup_box(self) -> None:
        self.gfx_edit = QLineEdit()
        self.gfx_edit.setValidator(QRegularExpressionValidator(QRegularExpression(r"^(\d{1,2}\.\d{1,2}\.\d{1,2})?$")))
        self.startup_box = QGroupBox()
        startup_form = QFormLayout(self.startup_box)
        self.gfx_label = QLabel()
        startup_form.addRow(self.gfx_label, self.gfx_edit)

    def _build_buttons(self) -> QDialogButtonBox:
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        return buttons

    def _lay_out(self, buttons: QDialogButtonBox) -> None:
        # Pages, so the dialog fits a laptop screen (1366×768) however many options there are.
        self.pages = QTabWidget()
        self.transcription_page = self._page(self.recognition_box, self.decoding_box, self.subtitles_box,
                                             self.reading_box)
        self.downloads_page = self._page(self.downloads_box, self.glossary_folders_box)
        self.general_page = self._page(self.interface_box, self.recordings_box, self.speech_box)
        self.advanced_page = self._scrolled(self._page(self.engine_box, self.server_box, self.startup_box))
        for page in (self.transcription_page, self.downloads_page, self.general_page, self.advanced_page):
            self.pages.addTab(page, "")
        self.note = QLabel()
        self.note.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.pages)
        layout.addWidget(self.note)
        layout.addWidget(buttons)

    @staticmethod
    def _page(*boxes: QWidget) -> QWidget:
        page = QWidget()
        column = QVBoxLayout(page)
        for box in boxes:
            column.addWidget(box)
        column.addStretch(1)
        return page

    def _scrolled(self, page: QWidget) -> QScrollArea:
        """A page that scrolls rather than push the dialog past a laptop screen's height."""
        area = QScrollArea()
        area.setWidgetResizable(True)
        area.setFrameShape(QScrollArea.Shape.NoFrame)
        area.setWidget(page)
        # As tall as its content up to what the screen leaves for it beside the dialog's title bar,
        # tabs, note and buttons (and a panel or taskbar); past that it scrolls. 1366×768 needs no scroll.
        # The height is set once the texts are in (_fit_scrolled), as they decide the content's.
        return area

    def _fit_scrolled(self) -> None:
        area = self.advanced_page
        screen = self.parentWidget().screen() if self.parentWidget() is not None else QGuiApplication.primaryScreen()
        room = screen.availableGeometry().height() - _ROOM_AROUND_A_PAGE if screen is not None else 500
        area.setMinimumHeight(min(area.widget().sizeHint().height(), max(300, room)))

    def retranslate(self) -> None:
        """Set every text; called at start and when the interface language changes."""
        self.setWindowTitle(self.tr("Settings"))
        for page, title in ((self.transcription_page, self.tr("Transcription")),
                            (self.downloads_page, self.tr("Downloads")),
                            (self.general_page, self.tr("General")),
                            (self.advanced_page, self.tr("Advanced"))):
            self.pages.setTabText(self.pages.indexOf(page), title)
        self._name_items(self.engine_combo, {
            "auto": self.tr("Automatic (recommended)"),
            "torch": self.tr("The engine for graphics cards (openai-whisper)"),
            "ct2": self.tr("The engine for processors (faster-whisper)"),
        })
        self._name_items(self.device_combo, {
            "auto": self.tr("Automatic: the graphics card when it works, else the processor"),
            "gpu": self.tr("The graphics card"), "cpu": self.tr("The processor"),
        })
        self._name_items(self.script_combo, {
            "simplified": self.tr("Simplified (简体)"), "traditional": self.tr("Traditional (繁體)"),
            "original": self.tr("As recognised"),
        })
        self.recognition_box.setTitle(self.tr("Speech recognition"))
        self.engine_box.setTitle(self.tr("Transcription engine"))
        self.engine_label.setText(self.tr("Engine:"))
        self.device_label.setText(self.tr("Run on:"))
        self.script_label.setText(self.tr("Chinese script:"))
        self.script_combo.setToolTip(translated(CHINESE_SCRIPT.help))
        self.batch_label.setText(self.tr("Pieces of speech worked on together:"))
        self.batch_spin.setSpecialValueText(self.tr("Automatic"))
        self.batch_spin.setToolTip(translated(BATCH_SIZE.help))
        self.subtitles_box.setTitle(self.tr("Subtitle lines"))
        self.lines_label.setText(self.tr("Lines per subtitle, at most:"))
        self.latin_label.setText(self.tr("Line length for Latin text, at most:"))
        self.cjk_label.setText(self.tr("Line length for Chinese text, at most:"))
        for spin in (self.latin_spin, self.cjk_spin):
            spin.setSuffix(self.tr(" characters"))
        self.reading_box.setTitle(self.tr("Reading speed"))
        self.reading_box.setToolTip(self.tr("The transcript's table warns about subtitles past these limits, "
                                            "as does “voxdesk subtitles check”."))
        self.latin_cps_label.setText(self.tr("Characters a second for Latin text, at most:"))
        self.chinese_cps_label.setText(self.tr("Characters a second for Chinese text, at most:"))
        self.min_seconds_label.setText(self.tr("On screen, at least:"))
        self.max_seconds_label.setText(self.tr("On screen, at most:"))
        for spin in (self.min_seconds_spin, self.max_seconds_spin):
            spin.setSuffix(self.tr(" s"))
        self.speech_box.setTitle(self.tr("Speech synthesis"))
        self.watermark_box.setText(self.tr("Mark synthesized speech with an inaudible watermark"))
        self.watermark_box.setToolTip(self.tr(
            "Anyone can then check with Tools → Check for a VoxDesk watermark… that the speech came from VoxDesk. "
            "Cloned voices are always marked."
        ))
        self.interface_box.setTitle(self.tr("Interface"))
        self.language_label.setText(self.tr("Interface language:"))
        self.language_combo.setItemText(0, self.tr("Same as the system"))
        self.language_combo.setToolTip(self.tr("The window switches language as soon as you press OK."))
        self.recordings_box.setTitle(self.tr("Live captions"))
        self.recordings_label.setText(self.tr("Keep recordings in:"))
        self.recordings_edit.setPlaceholderText(str(default_recordings_folder()))
        self.recordings_edit.setToolTip(self.tr("Empty: a Recordings folder in your Documents."))
        self.recordings_button.setText(self.tr("Choose…"))
        self.startup_box.setTitle(self.tr("Graphics card, applied the next time VoxDesk starts"))
        self.gfx_label.setText(self.tr("GPU compatibility version:"))
        self.gfx_edit.setPlaceholderText(self.tr("Empty: not needed on most computers"))
        self.gfx_edit.setToolTip(self.tr(
            "Some AMD Radeon cards work only when told to act as a close relative, e.g. 10.3.0 for "
            "RX 6000 cards or 11.0.0 for RX 7600. Help → Doctor suggests the value when one is needed."
        ))
        self.note.setText(self.tr("The model, language and task are chosen on the Transcribe tab."))
        self._fit_scrolled()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    @staticmethod
    def _combo(*values: str) -> QComboBox:
        combo = QComboBox()
        for value in values:
            combo.addItem("", value)
        return combo

    @staticmethod
    def _name_items(combo: QComboBox, names: dict[str, str]) -> None:
        """Each item's text by its value, whatever order the declaration lists the values in."""
        for value, name in names.items():
            combo.setItemText(combo.findData(value), name)

    @staticmethod
    def _spin(low: int, high: int) -> QSpinBox:
        spin = QSpinBox()
        spin.setRange(low, high)
        return spin

    @staticmethod
    def _seconds_spin(low: float, high: float, decimals: int, step: float) -> QDoubleSpinBox:
        spin = QDoubleSpinBox()
        spin.setRange(low, high)
        spin.setDecimals(decimals)
        spin.setSingleStep(step)
        return spin

    def _spins(self) -> tuple:
        return (
            (self.lines_spin, "subtitles/max_lines"),
            (self.latin_spin, "subtitles/max_latin_chars"),
            (self.cjk_spin, "subtitles/max_cjk_chars"),
            (self.batch_spin, "engine/batch_size"),
            (self.latin_cps_spin, "subtitles/latin_cps"),
            (self.chinese_cps_spin, "subtitles/chinese_cps"),
            (self.min_seconds_spin, "subtitles/min_seconds"),
            (self.max_seconds_spin, "subtitles/max_seconds"),
        )

    def _fields(self) -> dict[str, object]:
        return {
            "engine/choice": self.engine_combo.currentData(),
            "device/choice": self.device_combo.currentData(),
            "transcribe/chinese_script": self.script_combo.currentData(),
            **{key: spin.value() for spin, key in self._spins()},
            "synthesize/watermark": self.watermark_box.isChecked(),
            "ui/language": self.language_combo.currentData(),
            "gpu/hsa_override_gfx_version": self.gfx_edit.text().strip(),
            RECORDINGS_KEY: self.recordings_edit.text().strip(),
            **self.server_box.fields(),
            **self.decoding_box.fields(),
        }

    def _load(self) -> None:
        for combo, key in ((self.engine_combo, "engine/choice"), (self.device_combo, "device/choice"),
                           (self.script_combo, "transcribe/chinese_script"), (self.language_combo, "ui/language")):
            index = combo.findData(self._settings.get(key))
            combo.setCurrentIndex(max(0, index))
        for spin, key in self._spins():
            spin.setValue(self._settings.get(key))
        self.watermark_box.setChecked(self._settings.get("synthesize/watermark"))
        self.gfx_edit.setText(self._settings.get("gpu/hsa_override_gfx_version"))
        self.recordings_edit.setText(str(self._settings.get(RECORDINGS_KEY) or ""))
        self.downloads_box.load(self._settings)
        self.glossary_folders_box.load(self._settings)
        self.server_box.load(self._settings)
        self.decoding_box.load(self._settings)

    def accept(self) -> None:
        if not self.server_box.valid():
            return
        self.server_box.save_key()
        self._changed = set()
        for key, value in self._fields().items():
            if value != self._settings.get(key):
                self._settings.set(key, value)
                self._changed.add(key)
        self._changed |= self.downloads_box.save(self._settings)
        self._changed |= self.glossary_folders_box.save(self._settings)
        self._settings.sync()
        super().accept()

    def changed(self) -> set[str]:
        """The keys OK changed (empty after Cancel)."""
        return set(self._changed)
