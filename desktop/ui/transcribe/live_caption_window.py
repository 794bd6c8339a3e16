"""The large caption window: the last two lines in big type, always on top, for a presentation."""
from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from desktop.ui.common.window_places import BOTTOM_EDGE

TENTATIVE_COLOR = "#9e9e9e"  # the line still being spoken
COMMITTED_COLOR = "#ffffff"  # on the window's dark background


class LiveCaptionWindow(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent, Qt.WindowType.Window | Qt.WindowType.WindowStaysOnTopHint)
        self.setObjectName("live-captions")  # its place is remembered (window_places)
        self.setProperty(BOTTOM_EDGE, True)  # under the speaker, as captions are
        self.setStyleSheet("background-color: #111111;")
        self.first_line = QLabel()
        self.second_line = QLabel()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 16, 24, 16)
        for label in (self.first_line, self.second_line):
            label.setWordWrap(True)
            label.setTextFormat(Qt.TextFormat.PlainText)
            font = label.font()
            font.setPointSize(30)
            font.setBold(True)
            label.setFont(font)
            layout.addWidget(label)
        self.resize(1000, 220)
        self.show_lines([], tentative=False)
        self.retranslate()

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Live captions"))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def show_lines(self, lines: list[str], *, tentative: bool) -> None:
        """The last two lines; the second grey when it is still changing."""
        lines = ([""] * 2 + list(lines))[-2:]
        self.first_line.setText(lines[0])
        self.second_line.setText(lines[1])
        self.first_line.setStyleSheet(f"color: {COMMITTED_COLOR};")
        self.second_line.setStyleSheet(f"color: {TENTATIVE_COLOR if tentative else COMMITTED_COLOR};")
