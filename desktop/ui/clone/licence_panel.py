"""The licence panel of the Speak page: shown while the selected engine's terms are not accepted.

XTTS v2 is published under the non-commercial CPML: the user confirms its statements here, once,
before the engine may speak.
"""
from __future__ import annotations

import html

from PySide6.QtCore import QEvent, Signal, Slot
from PySide6.QtWidgets import QCheckBox, QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from desktop.engines.voices.cloning import ENGINES, VoiceCloner
from desktop.ui.common.i18n import translated


class LicencePanel(QFrame):
    accepted = Signal()  # the user accepted the shown engine's licence

    def __init__(self, cloner: VoiceCloner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._cloner = cloner
        self._engine = ""
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.licence_text = QLabel()
        self.licence_text.setWordWrap(True)
        self.licence_text.setOpenExternalLinks(True)
        self.licence_box = QCheckBox()
        self.accept_licence_button = QPushButton()
        layout = QVBoxLayout(self)
        layout.addWidget(self.licence_text)
        row = QHBoxLayout()
        row.addWidget(self.licence_box)
        row.addStretch(1)
        row.addWidget(self.accept_licence_button)
        layout.addLayout(row)
        self.licence_box.toggled.connect(self.accept_licence_button.setEnabled)
        self.accept_licence_button.clicked.connect(self.accept_licence)
        self.retranslate()

    def retranslate(self) -> None:
        """Set every text; called at start and when the interface language changes."""
        self.licence_box.setText(self.tr("I confirm the statements above"))
        self.accept_licence_button.setText(self.tr("Accept the licence"))
        if self._engine:
            self.show_engine(self._engine)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def show_engine(self, engine: str) -> None:
        """Show the engine's terms, or hide the panel when it has none or they are accepted."""
        self._engine = engine
        terms = self._cloner.licence_terms(engine)
        needed = terms is not None and not self._cloner.licence_accepted(engine)
        self.setVisible(needed)
        if needed:
            statements = "<br>".join(f"• {html.escape(translated(s))}" for s in terms.statements)
            link = f'<br><a href="{terms.url}">{terms.url}</a>' if terms.url else ""
            intro = self.tr("{title} is published under the {licence} licence: it may be used for non-commercial "
                            "purposes only. Before using it, please confirm:").format(
                title=translated(ENGINES[engine].title), licence=terms.licence)
            self.licence_text.setText(html.escape(intro) + "<br>" + statements + link)
            self.licence_box.setChecked(False)
            self.accept_licence_button.setEnabled(False)

    @Slot()
    def accept_licence(self) -> None:
        if not self.licence_box.isChecked():
            return
        self._cloner.accept_licence(self._engine)
        self.show_engine(self._engine)
        self.accepted.emit()
