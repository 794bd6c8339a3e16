"""Settings…: the options that are not on a tab (engine, device, Chinese script, subtitle lines, GPU
override, interface language)."""
from __future__ import annotations

from PySide6.QtCore import QRegularExpression
from PySide6.QtGui import QRegularExpressionValidator
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from desktop.settings import Settings

# Interface languages offered; a translation that is not installed falls back to English.
UI_LANGUAGES = (("", None), ("en", "English"), ("zh_CN", "中文（简体）"))


class SettingsDialog(QDialog):
    """Edits a Settings object; nothing is written until OK."""

    def __init__(self, settings: Settings, parent: QWidget | None = None):
        super().__init__(parent)
        self._settings = settings
        self._changed: set[str] = set()
        self.setWindowTitle(self.tr("Settings"))
        self.setMinimumWidth(480)

        self.engine_combo = QComboBox()
        self.engine_combo.addItem(self.tr("Automatic (recommended)"), "auto")
        self.engine_combo.addItem(self.tr("openai-whisper (PyTorch; fastest on a GPU)"), "torch")
        self.engine_combo.addItem(self.tr("faster-whisper (CTranslate2; fastest on the CPU)"), "ct2")
        self.device_combo = QComboBox()
        self.device_combo.addItem(self.tr("Automatic: the GPU when it works, else the CPU"), "auto")
        self.device_combo.addItem(self.tr("GPU"), "gpu")
        self.device_combo.addItem(self.tr("CPU"), "cpu")

        self.script_combo = QComboBox()
        self.script_combo.addItem(self.tr("Simplified (简体)"), "simplified")
        self.script_combo.addItem(self.tr("Traditional (繁體)"), "traditional")
        self.script_combo.addItem(self.tr("As recognised"), "original")

        recognition = QGroupBox(self.tr("Speech recognition"))
        form = QFormLayout(recognition)
        form.addRow(self.tr("Engine:"), self.engine_combo)
        form.addRow(self.tr("Run on:"), self.device_combo)
        form.addRow(self.tr("Chinese script:"), self.script_combo)

        self.lines_spin = self._spin(1, 4)
        self.latin_spin = self._spin(20, 80, self.tr(" characters"))
        self.cjk_spin = self._spin(8, 40, self.tr(" characters"))
        subtitles_box = QGroupBox(self.tr("Subtitle lines"))
        subtitles_form = QFormLayout(subtitles_box)
        subtitles_form.addRow(self.tr("Lines per subtitle, at most:"), self.lines_spin)
        subtitles_form.addRow(self.tr("Line length for Latin text, at most:"), self.latin_spin)
        subtitles_form.addRow(self.tr("Line length for Chinese text, at most:"), self.cjk_spin)

        self.language_combo = QComboBox()
        for code, name in UI_LANGUAGES:
            self.language_combo.addItem(name or self.tr("Same as the system"), code)
        self.gfx_edit = QLineEdit()
        self.gfx_edit.setPlaceholderText(self.tr("Empty: not needed on most computers"))
        self.gfx_edit.setValidator(QRegularExpressionValidator(QRegularExpression(r"^(\d{1,2}\.\d{1,2}\.\d{1,2})?$")))
        self.gfx_edit.setToolTip(self.tr(
            "Some AMD Radeon cards work only when told to act as a close relative, e.g. 10.3.0 for "
            "RX 6000 cards or 11.0.0 for RX 7600. Help → Doctor suggests the value when one is needed."
        ))
        startup = QGroupBox(self.tr("Applied the next time VoxDesk starts"))
        startup_form = QFormLayout(startup)
        startup_form.addRow(self.tr("Interface language:"), self.language_combo)
        startup_form.addRow(self.tr("GPU compatibility version:"), self.gfx_edit)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(recognition)
        layout.addWidget(subtitles_box)
        layout.addWidget(startup)
        note = QLabel(self.tr("The model, language and task are chosen on the Transcribe tab."))
        note.setWordWrap(True)
        layout.addWidget(note)
        layout.addWidget(buttons)
        self._load()

    @staticmethod
    def _spin(low: int, high: int, suffix: str = "") -> QSpinBox:
        spin = QSpinBox()
        spin.setRange(low, high)
        spin.setSuffix(suffix)
        return spin

    def _spins(self) -> tuple:
        return (
            (self.lines_spin, "subtitles/max_lines"),
            (self.latin_spin, "subtitles/max_latin_chars"),
            (self.cjk_spin, "subtitles/max_cjk_chars"),
        )

    def _fields(self) -> dict[str, object]:
        return {
            "engine/choice": self.engine_combo.currentData(),
            "device/choice": self.device_combo.currentData(),
            "transcribe/chinese_script": self.script_combo.currentData(),
            **{key: spin.value() for spin, key in self._spins()},
            "ui/language": self.language_combo.currentData(),
            "gpu/hsa_override_gfx_version": self.gfx_edit.text().strip(),
        }

    def _load(self) -> None:
        for combo, key in ((self.engine_combo, "engine/choice"), (self.device_combo, "device/choice"),
                           (self.script_combo, "transcribe/chinese_script"), (self.language_combo, "ui/language")):
            index = combo.findData(self._settings.get(key))
            combo.setCurrentIndex(max(0, index))
        for spin, key in self._spins():
            spin.setValue(self._settings.get(key))
        self.gfx_edit.setText(self._settings.get("gpu/hsa_override_gfx_version"))

    def accept(self) -> None:
        self._changed = set()
        for key, value in self._fields().items():
            if value != self._settings.get(key):
                self._settings.set(key, value)
                self._changed.add(key)
        self._settings.sync()
        super().accept()

    def changed(self) -> set[str]:
        """The keys OK changed (empty after Cancel)."""
        return set(self._changed)
