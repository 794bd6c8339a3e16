"""*Transcribe again…*: the choices for decoding a few lines again (model, language, prompt), then the
progress of that decoding with Cancel. The dialog only shows; TranscribeAgain runs the job."""
from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop.core.transcription.region_rerun import Region
from desktop.ui.common.i18n import translated
from desktop.ui.common.styles import ERROR_STYLE
from desktop.ui.transcribe.model_picker import ModelPicker


class TranscribeAgainDialog(QDialog):
    """Window-modal while open, so the lines cannot change under the decoding."""

    start_requested = Signal()  # the user chose: decode the stretch with the choices shown
    cancel_requested = Signal()  # the user wants the decoding under way stopped

    def __init__(self, region: Region, parent: QWidget | None = None):
        super().__init__(parent)
        self._region = region
        self._running = False
        self._cancelling = False
        self.setWindowModality(Qt.WindowModality.WindowModal)
        self._build()
        self.retranslate()
        self.setMinimumWidth(460)
        self.start_button.setFocus()  # Enter starts, as the default button; Cancel is not the first stop

    def _build(self) -> None:
        self.intro_label = QLabel()
        self.intro_label.setWordWrap(True)
        self.model_combo = ModelPicker()
        self.language_combo = QComboBox()
        self.prompt_edit = QLineEdit()
        self.prompt_edit.setClearButtonEnabled(True)
        self.model_label = QLabel()
        self.model_label.setBuddy(self.model_combo)
        self.language_label = QLabel()
        self.language_label.setBuddy(self.language_combo)
        self.prompt_label = QLabel()
        self.prompt_label.setBuddy(self.prompt_edit)
        self.status_label = QLabel()
        self.status_label.setWordWrap(True)
        self.status_label.setTextFormat(Qt.TextFormat.PlainText)
        self.status_label.hide()
        self.progress_bar = QProgressBar()
        self.progress_bar.setRange(0, 1000)
        self.progress_bar.setTextVisible(False)
        self.progress_bar.hide()
        self.start_button = QPushButton()
        self.start_button.setDefault(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.buttons.addButton(self.start_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.cancel_button = self.buttons.button(QDialogButtonBox.StandardButton.Cancel)
        self.start_button.clicked.connect(self._on_start)
        self.buttons.rejected.connect(self.reject)

        form = QFormLayout()
        form.addRow(self.model_label, self.model_combo)
        form.addRow(self.language_label, self.language_combo)
        form.addRow(self.prompt_label, self.prompt_edit)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro_label)
        layout.addLayout(form)
        layout.addWidget(self.status_label)
        layout.addWidget(self.progress_bar)
        layout.addWidget(self.buttons)

    def retranslate(self) -> None:
        region = self._region
        self.setWindowTitle(self.tr("Transcribe again"))
        self.intro_label.setText(self.tr(
            "VoxDesk listens again to {span} of the recording and puts what it hears in place of {lines}. "
            "Edit → Undo brings the old lines back.").format(span=region.span, lines=translated(region.lines_named)))
        self.model_label.setText(self.tr("Model:"))
        self.model_combo.setToolTip(self.tr("The models on this computer. A larger one hears more accurately, "
                                            "and takes longer."))
        self.language_label.setText(self.tr("Language:"))
        self.prompt_label.setText(self.tr("Initial prompt:"))
        self.prompt_edit.setPlaceholderText(self.tr("Optional: names or terms, spelled as you want them"))
        self.start_button.setText(self.tr("&Transcribe again"))
        self.model_combo.retranslate()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    # -- the choices ---------------------------------------------------------------------------

    def model(self) -> str | None:
        return self.model_combo.currentData()

    def language(self) -> str | None:
        """The language chosen, None for Auto-detect."""
        code = self.language_combo.currentData()
        return None if code in (None, "auto") else code

    def prompt(self) -> str | None:
        return self.prompt_edit.text().strip() or None

    # -- the decoding --------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self._running

    @Slot()
    def _on_start(self) -> None:
        if not self._running and self.model():
            self.start_requested.emit()

    def show_running(self) -> None:
        """The decoding started: the choices wait, the progress shows."""
        self._running, self._cancelling = True, False
        for widget in (self.model_combo, self.language_combo, self.prompt_edit, self.start_button):
            widget.setEnabled(False)
        self.progress_bar.setValue(0)
        self.progress_bar.show()
        self.status_label.setStyleSheet("")
        self.show_status(self.tr("Starting…"))
        self.cancel_button.setEnabled(True)
        self.adjustSize()  # room for the status and the progress, without squeezing the choices

    def show_status(self, text: str) -> None:
        if not self._cancelling:
            self.status_label.setText(text)
            self.status_label.show()

    def show_progress(self, fraction: float) -> None:
        self.progress_bar.setValue(round(fraction * self.progress_bar.maximum()))

    def show_failure(self, sentence: str) -> None:
        """The decoding ended without lines to put in: say why, and let the user choose again."""
        self._running = self._cancelling = False
        for widget in (self.model_combo, self.language_combo, self.prompt_edit, self.start_button):
            widget.setEnabled(True)
        self.progress_bar.hide()
        self.status_label.setStyleSheet(ERROR_STYLE)
        self.status_label.setText(sentence)
        self.status_label.show()
        self.cancel_button.setEnabled(True)
        self.start_button.setFocus()
        self.adjustSize()

    def reject(self) -> None:
        """Cancel, Escape or the window's close button: a decoding under way is stopped first; the dialog
        closes once it has stopped (``finish``)."""
        if self._running:
            if not self._cancelling:
                self._cancelling = True
                self.status_label.setText(self.tr("Cancelling…"))
                self.cancel_button.setEnabled(False)
                self.cancel_requested.emit()
            return
        super().reject()

    def finish(self, replaced: bool) -> None:
        """The decoding is over: the lines were replaced (accepted), or it was cancelled."""
        self._running = self._cancelling = False
        self.accept() if replaced else super().reject()
