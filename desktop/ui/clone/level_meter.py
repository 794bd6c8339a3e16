"""The microphone level meter of the recorder: loudness as a bar, the peak as a line, a red clip zone."""
from __future__ import annotations

from PySide6.QtCore import QEvent, QRectF
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

METER_FLOOR_DBFS = -60.0
CLIP_ZONE_DBFS = -3.0  # the red part of the meter: this loud is about to distort
_PEAK_HOLD_TICKS = 30  # about one second


def _fraction(dbfs: float) -> float:
    return min(1.0, max(0.0, (dbfs - METER_FLOOR_DBFS) / -METER_FLOOR_DBFS))


class LevelMeter(QWidget):
    """A horizontal meter: RMS as a bar, the peak as a line held for a second, a red clip zone."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.peak_dbfs = self.rms_dbfs = self._held_peak = METER_FLOOR_DBFS
        self._hold = 0
        self.clip_seen = False  # a sample reached full scale during this take
        self.setMinimumSize(220, 22)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.retranslate()

    def retranslate(self) -> None:
        self.setToolTip(self.tr("Speak at a level that stays out of the red part of the meter."))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def set_levels(self, peak_dbfs: float, rms_dbfs: float, clipping: bool = False) -> None:
        self.peak_dbfs, self.rms_dbfs = peak_dbfs, rms_dbfs
        if peak_dbfs >= self._held_peak or self._hold <= 0:
            self._held_peak, self._hold = peak_dbfs, _PEAK_HOLD_TICKS
        else:
            self._hold -= 1
        self.clip_seen = self.clip_seen or clipping
        self.update()

    def reset(self) -> None:
        self.peak_dbfs = self.rms_dbfs = self._held_peak = METER_FLOOR_DBFS
        self.clip_seen = False
        self.update()

    def paintEvent(self, _event) -> None:  # noqa: N802 - Qt naming
        painter = QPainter(self)
        area = QRectF(self.rect()).adjusted(1, 1, -1, -1)
        painter.fillRect(area, QColor(40, 40, 40))
        clip_x = area.left() + area.width() * _fraction(CLIP_ZONE_DBFS)
        painter.fillRect(QRectF(clip_x, area.top(), area.right() - clip_x, area.height()),
                         QColor(120, 25, 25) if not self.clip_seen else QColor(220, 30, 30))
        rms_width = area.width() * _fraction(self.rms_dbfs)
        colour = QColor(220, 30, 30) if self.rms_dbfs >= CLIP_ZONE_DBFS else QColor(60, 180, 75)
        painter.fillRect(QRectF(area.left(), area.top() + 3, rms_width, area.height() - 6), colour)
        peak_x = area.left() + area.width() * _fraction(self._held_peak)
        painter.setPen(QPen(QColor(255, 255, 255) if self._held_peak < CLIP_ZONE_DBFS else QColor(255, 80, 80), 2))
        painter.drawLine(int(peak_x), int(area.top()), int(peak_x), int(area.bottom()))
        painter.end()
