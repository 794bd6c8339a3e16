"""A status bar whose messages end in "…" where they would run into the permanent labels (the device
line), with the whole sentence in the tooltip. Qt's own paints a long message under them."""
from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QStatusBar, QWidget

_GAP = 12  # pixels between the message and the first permanent label


class ElidingStatusBar(QStatusBar):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._message = ""
        self._clear_timer = QTimer(self, singleShot=True)
        self._clear_timer.timeout.connect(self.clearMessage)
        self.messageChanged.connect(self._on_message_changed)

    def showMessage(self, text: str, timeout: int = 0) -> None:  # noqa: N802 - Qt naming
        """As QStatusBar's; currentMessage() gives the whole text back."""
        self._clear_timer.stop()
        self._message = text
        self.setToolTip(text)
        self._show_elided()
        if timeout > 0:
            self._clear_timer.start(timeout)

    def currentMessage(self) -> str:  # noqa: N802 - Qt naming
        return self._message

    def clearMessage(self) -> None:  # noqa: N802 - Qt naming
        self._clear_timer.stop()
        self._message = ""
        super().clearMessage()

    def message_room(self) -> int:
        """Pixels the message may take: up to the first permanent label shown."""
        lefts = [child.x() for child in self.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly)
                 if child.isVisible() and child.x() > 0]
        right = min(lefts, default=self.width())
        margins = self.contentsMargins()
        return max(0, right - margins.left() - _GAP)

    def addPermanentWidget(self, widget: QWidget, stretch: int = 0) -> None:  # noqa: N802 - Qt naming
        super().addPermanentWidget(widget, stretch)
        widget.installEventFilter(self)  # a label that grows (the device found) leaves the message less room

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt naming
        if event.type() in (QEvent.Type.Move, QEvent.Type.Resize, QEvent.Type.Show, QEvent.Type.Hide):
            self._elide_later()
        return False

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt naming
        super().resizeEvent(event)
        self._elide_later()

    def _elide_later(self) -> None:
        if self._message:
            QTimer.singleShot(0, self._show_elided)  # after the permanent labels have moved

    def _show_elided(self) -> None:
        if self._message:
            super().showMessage(self.fontMetrics().elidedText(self._message, Qt.TextElideMode.ElideRight,
                                                               self.message_room()))

    def _on_message_changed(self, text: str) -> None:
        if not text and self._message:  # cleared by Qt itself (a widget's status tip took its place)
            self._message = ""
            self.setToolTip("")
