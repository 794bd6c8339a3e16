"""The licence Coqui asks about before some voice models are downloaded, shown as a dialog."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

from desktop.core.speech.tts_catalog import TtsModel
from desktop.core.speech.tts_licences import LicenceTerms
from desktop.ui.common.i18n import translated


class LicenceDialog(QDialog):
    """Shows the terms Coqui would ask for on the terminal; accepting is recorded by the caller."""

    def __init__(self, model: TtsModel, terms: LicenceTerms, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        title = translated(model.title)
        self.setWindowTitle(self.tr("Licence of {title}").format(title=title))
        self.setMinimumWidth(480)
        intro = QLabel(self.tr("“{title}” is published under the {licence} licence. Before it is downloaded, "
                               "please confirm:").format(title=title, licence=terms.licence))
        intro.setWordWrap(True)
        statements = QLabel("\n".join(f"• {translated(s)}" for s in terms.statements))
        statements.setWordWrap(True)
        statements.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        link = QLabel(f'<a href="{terms.url}">{terms.url}</a>' if terms.url else "")
        link.setOpenExternalLinks(True)
        self.agree_box = QCheckBox(self.tr("I confirm one of the statements above"))
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.accept_button = self.buttons.addButton(self.tr("Accept and download"),
                                                    QDialogButtonBox.ButtonRole.AcceptRole)
        self.accept_button.setEnabled(False)
        self.agree_box.toggled.connect(self.accept_button.setEnabled)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        for widget in (intro, statements, link, self.agree_box, self.buttons):
            layout.addWidget(widget)
