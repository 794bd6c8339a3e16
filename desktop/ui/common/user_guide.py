"""Help → User guide: a short guide that ships with VoxDesk (resources/guide), shown offline in the
interface's language."""
from __future__ import annotations

from PySide6.QtCore import QEvent, QLocale
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

from desktop.resources import resource_path

GUIDE_LANGUAGES = ("en", "zh_CN")  # one resources/guide/user-guide.<language>.md each


def guide_text(locale: QLocale | None = None) -> str:
    """The guide's Markdown in the language of ``locale`` (the interface's by default), else English."""
    name = (locale or QLocale()).name()
    language = next((code for code in GUIDE_LANGUAGES if name == code or name.split("_")[0] == code), "en")
    return resource_path("guide", f"user-guide.{language}.md").read_text(encoding="utf-8")


class UserGuideDialog(QDialog):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.browser = QTextBrowser(self)
        self.browser.setOpenLinks(False)  # the guide is read here; nothing is fetched from anywhere
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser, 1)
        layout.addWidget(buttons)
        self.resize(720, 620)
        self.retranslate()

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("VoxDesk user guide"))
        self.browser.setMarkdown(guide_text())

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
