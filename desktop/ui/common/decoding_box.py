"""The Settings group box "Decoding": how Whisper decodes each file, laid out from the options'
one declaration (``core.transcription.options.DECODING``): each option's widget, name, tooltip, range
and Settings key are its declaration's. Those marked advanced are folded under "More decoding options"."""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QGroupBox, QSpinBox, QToolButton, QVBoxLayout, QWidget

from desktop.core.transcription.options import DECODING, TranscriptionOption
from desktop.settings import Settings
from desktop.ui.common.i18n import translated


class DecodingBox(QGroupBox):
    """Edits the decoding options; the dialog writes ``fields()`` on OK."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.editors: dict[str, QWidget] = {}  # by Settings key
        self.more_button = QToolButton()
        self.more_button.setCheckable(True)
        self.more_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.more_button.setAutoRaise(True)
        self.more = QWidget()  # the advanced options, folded until asked for
        form, more_form = QFormLayout(), QFormLayout(self.more)
        more_form.setContentsMargins(0, 0, 0, 0)
        for option in DECODING:
            editor = self._editor_for(option)
            self.editors[option.settings_key] = editor
            target = more_form if option.advanced else form
            if isinstance(editor, QCheckBox):
                target.addRow(editor)
            else:
                target.addRow(translated(option.label), editor)
        self.more.setVisible(False)
        self.more_button.toggled.connect(self._fold)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.more_button)
        layout.addWidget(self.more)
        self._fold(False)
        self.retranslate()

    @staticmethod
    def _editor_for(option: TranscriptionOption) -> QWidget:
        """A check box for yes or no, a spin box for a whole number, a list for numbers to pick from."""
        if option.choices == (True, False):
            return QCheckBox()
        if option.low is not None and option.high is not None:
            spin = QSpinBox()
            spin.setRange(option.low, option.high)
            return spin
        combo = QComboBox()
        for value in option.stored_choices():
            combo.addItem(str(value), value)
        return combo

    def _fold(self, unfolded: bool) -> None:
        self.more.setVisible(unfolded)
        self.more_button.setArrowType(Qt.ArrowType.DownArrow if unfolded else Qt.ArrowType.RightArrow)

    def retranslate(self) -> None:
        self.setTitle(self.tr("Decoding"))
        self.more_button.setText(self.tr("More decoding options"))
        self.more_button.setToolTip(self.tr("Right as they are for nearly every recording."))
        for option in DECODING:
            editor = self.editors[option.settings_key]
            editor.setToolTip(translated(option.help))
            if isinstance(editor, QCheckBox):
                editor.setText(translated(option.label))
            elif isinstance(editor, QComboBox) and option.automatic is not None:
                editor.setItemText(editor.findData(option.automatic), self.tr("Automatic"))
            label = self._label_of(editor)
            if label is not None:
                label.setText(translated(option.label))

    def _label_of(self, editor: QWidget):
        for form in self.findChildren(QFormLayout):
            label = form.labelForField(editor)
            if label is not None:
                return label
        return None

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def load(self, settings: Settings) -> None:
        for key, editor in self.editors.items():
            value = settings.get(key)
            if isinstance(editor, QCheckBox):
                editor.setChecked(bool(value))
            elif isinstance(editor, QSpinBox):
                editor.setValue(int(value))
            else:
                editor.setCurrentIndex(max(0, editor.findData(value)))

    def fields(self) -> dict[str, Any]:
        """Each option's value as Settings stores it, by its key."""
        values: dict[str, Any] = {}
        for key, editor in self.editors.items():
            if isinstance(editor, QCheckBox):
                values[key] = editor.isChecked()
            elif isinstance(editor, QSpinBox):
                values[key] = editor.value()
            else:
                values[key] = editor.currentData()
        return values
