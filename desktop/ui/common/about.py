"""Help → About VoxDesk."""
from __future__ import annotations

import html
import platform

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from desktop import APP_NAME, __version__
from desktop.core.common.i18n import N_
from desktop.core.common.paths import data_dir
from desktop.resources import resource_path
from desktop.ui.common.i18n import translated

CREDITS = (
    (N_("AboutDialog", "Whisper speech recognition"), "OpenAI", "MIT"),
    ("faster-whisper, CTranslate2", "SYSTRAN, OpenNMT", "MIT"),
    ("PyAV, FFmpeg", N_("AboutDialog", "PyAV authors, FFmpeg developers"), "BSD, LGPL"),
    ("Qt for Python", "The Qt Company", "LGPL"),
    ("PyTorch", N_("AboutDialog", "PyTorch contributors"), "BSD"),
)


class AboutDialog(QDialog):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setMinimumWidth(460)

        logo = QLabel()
        logo.setPixmap(QIcon(str(resource_path("icons", "app.svg"))).pixmap(96, 96))
        logo.setAlignment(Qt.AlignmentFlag.AlignTop)

        self.text = QLabel()
        self.text.setWordWrap(True)
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        row = QHBoxLayout()
        row.addWidget(logo)
        row.addWidget(self.text, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(buttons)
        self.retranslate()

    def retranslate(self) -> None:
        """Set every text; called at start and when the interface language changes."""
        self.setWindowTitle(self.tr("About {app}").format(app=APP_NAME))
        credits = "".join(
            f"<li>{html.escape(translated(what))} — {html.escape(translated(who))} ({html.escape(licence)})</li>"
            for what, who, licence in CREDITS
        )
        summary = self.tr("Turns recordings and videos into transcripts and subtitles, speaks text aloud and "
                          "clones voices with consent, in Chinese, English and many other languages, on the GPU "
                          "or the CPU.")
        built_with = self.tr("Built with:")
        kept_in = self.tr("Models and logs are kept in:")
        self.text.setText(
            f"<h2>{APP_NAME} {html.escape(__version__)}</h2>"
            f"<p>{html.escape(summary)}</p>"
            f"<p>{html.escape(built_with)}</p><ul>{credits}</ul>"
            f"<p>{html.escape(kept_in)}<br><code>{html.escape(str(data_dir()))}</code></p>"
            f"<p><small>Python {html.escape(platform.python_version())}, "
            f"Qt for Python {html.escape(pyside_version)}</small></p>"
        )

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
