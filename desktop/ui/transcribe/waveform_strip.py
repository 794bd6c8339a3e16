"""The selected file's waveform with its lines as coloured spans: click to play from there, drag a
line's edge to retime it (one undoable edit, refused with the core's sentence where it would overlap
or run backwards). The wheel scrolls, Ctrl+wheel zooms; the view follows the playhead."""
from __future__ import annotations


import numpy as np
from PySide6.QtCore import QLineF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPaintEvent, QPen, QWheelEvent
from PySide6.QtWidgets import QScrollBar, QSizePolicy, QVBoxLayout, QWidget

from desktop.core.transcription.transcript import Transcript
from desktop.core.transcription.waveform import Peaks
from desktop.ui.transcribe.speaker_colours import speaker_colour

EDGE_GRAB_PX = 5  # how near a line's edge the pointer picks it up
_DEFAULT_SECONDS_SHOWN = 30.0
_MOST_PIXELS_PER_SECOND = 400.0
_SPAN_COLOUR = QColor("#cfe6f7")
_WAVE_COLOUR = QColor("#3c4043")
_PLAYHEAD_COLOUR = QColor("#d93025")
_SELECTED_EDGE = QColor("#1a73e8")


class WaveformCanvas(QWidget):
    seek_requested = Signal(float)  # seconds clicked
    retime_requested = Signal(int, float, float)  # row, new start, new end
    view_changed = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setMinimumHeight(72)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setMouseTracking(True)
        self.peaks: Peaks | None = None
        self.transcript: Transcript | None = None
        self.duration = 0.0
        self.first_second = 0.0  # at the left edge
        self.pixels_per_second = 0.0  # 0: not yet fitted to the width
        self._zoomed = False  # the user zoomed: keep the scale when the width changes
        self.playhead: float | None = None
        self.selected_row: int | None = None
        self._drag: tuple[int, str, float] | None = None  # row, "start"/"end", time shown while dragging

    # -- what is shown -------------------------------------------------------------------------

    def show_recording(self, duration: float, transcript: Transcript | None) -> None:
        self.duration, self.transcript = max(0.0, duration), transcript
        self.peaks, self.first_second, self.playhead, self._drag = None, 0.0, None, None
        self.pixels_per_second = 0.0
        self._zoomed = False
        self.update()
        self.view_changed.emit()

    def set_peaks(self, peaks: Peaks | None) -> None:
        self.peaks = peaks
        if peaks is not None and peaks.duration > self.duration:
            self.duration = peaks.duration  # the sound itself is the measure, not what the header said
            if not self._zoomed:
                self.pixels_per_second = 0.0
            self.view_changed.emit()
        self.update()

    def _scale(self) -> float:
        if not self.pixels_per_second:
            width = max(1, self.width())
            shown = min(self.duration or _DEFAULT_SECONDS_SHOWN, _DEFAULT_SECONDS_SHOWN)
            self.pixels_per_second = width / max(shown, 1.0)
        return self.pixels_per_second

    def seconds_shown(self) -> float:
        return self.width() / self._scale()

    def x_of(self, seconds: float) -> float:
        return (seconds - self.first_second) * self._scale()

    def seconds_at(self, x: float) -> float:
        return min(max(0.0, self.first_second + x / self._scale()), self.duration or float("inf"))

    def scroll_to(self, first_second: float) -> None:
        last = max(0.0, self.duration - self.seconds_shown())
        first_second = min(max(0.0, first_second), last)
        if first_second != self.first_second:
            self.first_second = first_second
            self.update()
            self.view_changed.emit()

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt naming
        super().resizeEvent(event)
        if not self._zoomed:
            self.pixels_per_second = 0.0  # fitted again to the new width
        self.view_changed.emit()  # what is shown, and the scroll bar, follow the width

    def zoom(self, factor: float, around_x: float) -> None:
        anchor = self.seconds_at(around_x)
        fit = self.width() / max(self.duration, 1.0)
        self.pixels_per_second = min(max(self._scale() * factor, fit), _MOST_PIXELS_PER_SECOND)
        self._zoomed = True
        self.scroll_to(anchor - around_x / self.pixels_per_second)
        self.update()
        self.view_changed.emit()

    def set_playhead(self, seconds: float | None) -> None:
        moved = (seconds is None) != (self.playhead is None) or (
            seconds is not None and abs(self.x_of(seconds) - self.x_of(self.playhead)) >= 1)
        self.playhead = seconds
        if not moved:
            return  # repaint only when the playhead moves by a pixel or more
        if seconds is not None and self._drag is None:
            shown = self.seconds_shown()
            if not self.first_second <= seconds < self.first_second + shown:
                self.scroll_to(seconds - shown * 0.1)  # page on, the playhead near the left
        self.update()

    # -- drawing -------------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt naming
        painter = QPainter(self)
        width, height = self.width(), self.height()
        painter.fillRect(self.rect(), self.palette().base())
        self._paint_spans(painter, width, height)
        if self.peaks is not None:
            middle = height / 2
            lows, highs = self.peaks.columns(self.first_second, 1.0 / self._scale(), width)
            painter.setPen(QPen(_WAVE_COLOUR, 1))
            painter.drawLines([QLineF(x + 0.5, middle - high * middle, x + 0.5, middle - low * middle)
                               for x, (low, high) in enumerate(zip(lows.tolist(), highs.tolist())) if high > low])
        if self.playhead is not None:
            x = self.x_of(self.playhead)
            if 0 <= x <= width:
                painter.setPen(QPen(_PLAYHEAD_COLOUR, 2))
                painter.drawLine(QLineF(x, 0, x, height))
        painter.end()

    def _paint_spans(self, painter: QPainter, width: int, height: int) -> None:
        """The lines as spans, one batch of rectangles and edges per speaker, in whole pixels: spans
        that touch on screen become one, so a zoomed-out two-hour transcript costs no more to draw
        than the strip has pixels, and the painter is called a few times per paint."""
        if self.transcript is None or not self.transcript.segments:
            return
        segments = self.transcript.segments
        times = np.array([self._shown_times(row) for row in range(len(segments))], dtype=np.float64) \
            if self._drag is not None else np.array([(s.start, s.end) for s in segments], dtype=np.float64)
        speakers = np.array([-1 if s.speaker is None else s.speaker for s in segments])
        lefts = np.floor((times[:, 0] - self.first_second) * self._scale())
        rights = np.maximum(np.ceil((times[:, 1] - self.first_second) * self._scale()), lefts + 1)
        visible = (rights >= 0) & (lefts <= width)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for speaker in np.unique(speakers[visible]).tolist():
            chosen = visible & (speakers == speaker)
            left, right = np.clip(lefts[chosen], -1, width + 1), np.clip(rights[chosen], -1, width + 1)
            colour = speaker_colour(speaker) if speaker >= 0 else _SPAN_COLOUR
            # Spans that touch or overlap on screen are drawn as one.
            starts_run = np.concatenate(([True], left[1:] > right[:-1]))
            run_left = left[starts_run]
            run_right = np.maximum.reduceat(right, np.flatnonzero(starts_run))
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(colour)
            painter.drawRects([QRectF(a, 0, b - a, height) for a, b in zip(run_left.tolist(), run_right.tolist())])
            edges = np.unique(np.concatenate((left, right)))
            painter.setPen(QPen(colour.darker(130), 1))
            painter.drawLines([QLineF(x + 0.5, 0, x + 0.5, height) for x in edges.tolist()])
        painter.setBrush(Qt.BrushStyle.NoBrush)
        if self.selected_row is not None and self.selected_row < len(segments):
            start, end = self._shown_times(self.selected_row)
            painter.setPen(QPen(_SELECTED_EDGE, 2))
            painter.drawLines([QLineF(self.x_of(start), 0, self.x_of(start), height),
                               QLineF(self.x_of(end), 0, self.x_of(end), height)])

    def _shown_times(self, row: int) -> tuple[float, float]:
        segment = self.transcript.segments[row]
        if self._drag is not None and self._drag[0] == row:
            return (self._drag[2], segment.end) if self._drag[1] == "start" else (segment.start, self._drag[2])
        return segment.start, segment.end

    # -- the pointer ---------------------------------------------------------------------------

    def edge_at(self, x: float) -> tuple[int, str] | None:
        """The line's edge (row, "start" or "end") under x, the nearest one within EDGE_GRAB_PX."""
        if self.transcript is None:
            return None
        best = None
        for row, segment in enumerate(self.transcript.segments):
            for which, seconds in (("start", segment.start), ("end", segment.end)):
                distance = abs(self.x_of(seconds) - x)
                if distance <= EDGE_GRAB_PX and (best is None or distance < best[0]):
                    best = (distance, row, which)
        return None if best is None else (best[1], best[2])

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt naming
        if event.button() != Qt.MouseButton.LeftButton:
            return super().mousePressEvent(event)
        edge = self.edge_at(event.position().x())
        if edge is not None:
            row, which = edge
            segment = self.transcript.segments[row]
            self._drag = (row, which, segment.start if which == "start" else segment.end)
        else:
            self.seek_requested.emit(self.seconds_at(event.position().x()))

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt naming
        x = event.position().x()
        if self._drag is not None:
            self._drag = (self._drag[0], self._drag[1], self.seconds_at(x))
            self.update()
        else:
            self.setCursor(Qt.CursorShape.SizeHorCursor if self.edge_at(x) is not None
                           else Qt.CursorShape.PointingHandCursor)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt naming
        if self._drag is None or event.button() != Qt.MouseButton.LeftButton:
            return super().mouseReleaseEvent(event)
        row, which, _ = self._drag
        self._drag = (row, which, self.seconds_at(event.position().x()))
        start, end = self._shown_times(row)
        self._drag = None
        self.update()
        self.retime_requested.emit(row, start, end)

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 - Qt naming
        steps = event.angleDelta().y() / 120 or event.angleDelta().x() / 120
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self.zoom(1.25 ** steps, event.position().x())
        else:
            self.scroll_to(self.first_second - steps * self.seconds_shown() / 8)
        event.accept()


class WaveformStrip(QWidget):
    """The canvas and a scroll bar under it, for a recording longer than what is shown."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.canvas = WaveformCanvas()
        self.scroll_bar = QScrollBar(Qt.Orientation.Horizontal)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.canvas)
        layout.addWidget(self.scroll_bar)
        self.canvas.view_changed.connect(self._update_scroll_bar)
        self.scroll_bar.valueChanged.connect(lambda value: self.canvas.scroll_to(value / 10))

    def _update_scroll_bar(self) -> None:
        canvas = self.canvas
        shown = canvas.seconds_shown() if canvas.width() else 0.0
        self.scroll_bar.blockSignals(True)
        self.scroll_bar.setRange(0, int(max(0.0, canvas.duration - shown) * 10))
        self.scroll_bar.setPageStep(max(1, int(shown * 10)))
        self.scroll_bar.setValue(int(canvas.first_second * 10))
        self.scroll_bar.blockSignals(False)
        self.scroll_bar.setVisible(self.scroll_bar.maximum() > 0)  # only when there is more to see
