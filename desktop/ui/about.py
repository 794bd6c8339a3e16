"""Help → About VoxDesk."""
from __future__ import annotations

import html
import platform

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import Qt
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from desktop import APP_NAME, __version__
from desktop.core.paths import data_dir
from desktop.resources import resource_path

CREDITS = (
    ("Whisper speech recognition", "OpenAI", "MIT"),
    ("faster-whisper and CTranslate2", "SYSTRAN, OpenNMT", "MIT"),
    ("PyAV and FFmpeg", "PyAV authors, FFmpeg developers", "BSD, LGPL"),
    ("Qt for Python", "The Qt Company", "LGPL"),
    ("PyTorch", "PyTorch contributors", "BSD"),
)


class AboutDialog(QDialog):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("About {app}").format(app=APP_NAME))
        self.setMinimumWidth(460)

        logo = QLabel()
        logo.setPixmap(QIcon(str(resource_path("icons", "app.svg"))).pixmap(96, 96))
        logo.setAlignment(Qt.AlignmentFlag.AlignTop)

        credits = "".join(
            f"<li>{html.escape(what)} — {html.escape(who)} ({html.escape(licence)})</li>"
            for what, who, licence in CREDITS
        )
        text = QLabel(
            f"<h2>{APP_NAME} {html.escape(__version__)}</h2>"
            f"<p>{html.escape(self.tr('Turns recordings and videos into transcripts and subtitles, in Chinese, English and many other languages, on the GPU or the CPU.'))}</p>"
            f"<p>{html.escape(self.tr('Built with:'))}</p><ul>{credits}</ul>"
            f"<p>{html.escape(self.tr('Models and logs are kept in:'))}<br><code>{html.escape(str(data_dir()))}</code></p>"
            f"<p><small>Python {html.escape(platform.python_version())}, Qt for Python {html.escape(pyside_version)}</small></p>"
        )
        text.setWordWrap(True)
        text.setTextFormat(Qt.TextFormat.RichText)
        text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        row = QHBoxLayout()
        row.addWidget(logo)
        row.addWidget(text, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(buttons)
