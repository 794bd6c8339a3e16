"""The selected file's waveform with its lines as coloured spans: click to play from there, drag a
line's edge to retime it (one undoable edit, refused with the core's sentence where it would overlap
or run backwards). The wheel scrolls, Ctrl+wheel zooms; the view follows the playhead."""
from __future__ import annotations

from operator import attrgetter

import numpy as np
from PySide6.QtCore import QLineF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPaintEvent, QPen, QWheelEvent
from PySide6.QtWidgets import QScrollBar, QSizePolicy, QVBoxLayout, QWidget

from desktop.core.transcription.transcript import Transcript
from desktop.core.transcription.waveform import Peaks
from desktop.ui.transcribe.editor.speaker_colours import speaker_colour

LINES_PER_SLICE = 20_000  # the lines made into arrays at one turn of the event loop
EDGE_GRAB_PX = 5  # how near a line's edge the pointer picks it up
_DEFAULT_SECONDS_SHOWN = 30.0
_MOST_PIXELS_PER_SECOND = 400.0
_SPAN_COLOUR = QColor("#cfe6f7")
_WAVE_COLOUR = QColor("#3c4043")
_PLAYHEAD_COLOUR = QColor("#d93025")
_SELECTED_EDGE = QColor("#1a73e8")


def _distinct(values: np.ndarray) -> np.ndarray:
    """np.unique's answer, sorted; np.unique itself imports numpy.ma on its first call, which held up
    the window for most of a second at the first paint."""
    ordered = np.sort(values, kind="stable")
    return ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))] if len(ordered) else ordered


class _LineArrays:
    """A transcript's lines as arrays: (start, end) and speaker (-1: none) of each, filled in slices."""

    def __init__(self, segments: list):
        self.segments = segments
        self.times = np.zeros((len(segments), 2), dtype=np.float64)
        self.speakers = np.full(len(segments), -1, dtype=np.int64)
        self.built = 0  # rows filled so far, from the first

    def fill(self, first: int, end: int) -> None:
        part = self.segments[first:end]
        count = len(part)
        self.times[first:first + count, 0] = np.fromiter(map(attrgetter("start"), part), np.float64, count)
        self.times[first:first + count, 1] = np.fromiter(map(attrgetter("end"), part), np.float64, count)
        self.speakers[first:first + count] = [-1 if segment.speaker is None else segment.speaker
                                              for segment in part]
        if first <= self.built:
            self.built = max(self.built, first + count)


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
        # The lines' times and speakers as arrays, made once per change of the lines rather than at each
        # paint and pointer move (150,000 lines took a second each time), a slice per turn of the event loop.
        self._lines: _LineArrays | None = None
        self._building: _LineArrays | None = None
        self._builder = QTimer(self)
        self._builder.setInterval(0)
        self._builder.timeout.connect(self._build_some)

    # -- what is shown -------------------------------------------------------------------------

    def show_recording(self, duration: float, transcript: Transcript | None) -> None:
        self.duration, self.transcript = max(0.0, duration), transcript
        self._lines = None
        self.lines_changed()
        self.peaks, self.first_second, self.playhead, self._drag = None, 0.0, None, None
        self.pixels_per_second = 0.0
        self._zoomed = False
        self.update()
        self.view_changed.emit()

    def show_lines(self, transcript: Transcript | None) -> None:
        """The same recording's lines, changed (an edit, an undo) or another transcript of it."""
        self.transcript = transcript
        self.lines_changed()

    def lines_changed(self, top_left=None, bottom_right=None, *_roles) -> None:
        """The lines changed (from top_left's row to bottom_right's, when the model says which)."""
        segments = self.transcript.segments if self.transcript is not None else []
        shown = self._lines
        if (top_left is not None and top_left.isValid() and shown is not None and shown.segments is segments
                and len(shown.times) == len(segments)
                and bottom_right.row() - top_left.row() < LINES_PER_SLICE and self._building is None):
            shown.fill(top_left.row(), bottom_right.row() + 1)  # an edit of a few lines: at once
        else:
            self._building = _LineArrays(segments)  # shown as they are until the new ones are made
            self._build_some()
        self.update()

    def _build_some(self) -> None:
        building = self._building
        if building is None:
            self._builder.stop()
            return
        building.fill(building.built, building.built + LINES_PER_SLICE)
        if building.built < len(building.times):
            self._builder.start()
            return
        self._builder.stop()
        self._lines, self._building = building, None
        self.update()

    def line_times(self) -> tuple[np.ndarray, np.ndarray]:
        """The lines' (start, end) in seconds, one row each, and their speakers (-1: none), as last made
        whole: after a change of many lines, the ones before it for the moments the new ones take."""
        if self._lines is None:
            return np.empty((0, 2)), np.empty(0, dtype=np.int64)
        return self._lines.times, self._lines.speakers

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
        times, speakers = self.line_times()
        if not len(times):
            return
        if self._drag is not None and self._drag[0] < min(len(segments), len(times)):
            times = times.copy()
            times[self._drag[0]] = self._shown_times(self._drag[0])
        lefts = np.floor((times[:, 0] - self.first_second) * self._scale())
        rights = np.maximum(np.ceil((times[:, 1] - self.first_second) * self._scale()), lefts + 1)
        visible = (rights >= 0) & (lefts <= width)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for speaker in _distinct(speakers[visible]).tolist():
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
            edges = _distinct(np.concatenate((left, right)))
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
        if self.transcript is None or not self.transcript.segments:
            return None
        times, _speakers = self.line_times()
        if not len(times):
            return None
        distances = np.abs((times - self.first_second) * self._scale() - x)
        row, column = np.unravel_index(int(np.argmin(distances)), distances.shape)  # a start before an end
        if distances[row, column] > EDGE_GRAB_PX or row >= len(self.transcript.segments):
            return None
        return int(row), ("start", "end")[int(column)]

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


_MOST_SCROLL_STEPS = 2**31 - 1  # a scroll bar holds a 32-bit int


class WaveformStrip(QWidget):
    """The canvas and a scroll bar under it, for a recording longer than what is shown. The bar moves in
    tenths of a second, or in coarser steps where a (broken) time too far out would not fit its range."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.canvas = WaveformCanvas()
        self.scroll_bar = QScrollBar(Qt.Orientation.Horizontal)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.canvas)
        layout.addWidget(self.scroll_bar)
        self._steps_per_second = 10.0
        self.canvas.view_changed.connect(self._update_scroll_bar)
        self.scroll_bar.valueChanged.connect(lambda value: self.canvas.scroll_to(value / self._steps_per_second))

    def _update_scroll_bar(self) -> None:
        canvas = self.canvas
        shown = canvas.seconds_shown() if canvas.width() else 0.0
        hidden = max(0.0, canvas.duration - shown)
        self._steps_per_second = min(10.0, _MOST_SCROLL_STEPS / max(hidden, shown, 1.0))

        def steps(seconds: float) -> int:
            return int(min(max(0.0, seconds * self._steps_per_second), _MOST_SCROLL_STEPS))
        self.scroll_bar.blockSignals(True)
        self.scroll_bar.setRange(0, steps(hidden))
        self.scroll_bar.setPageStep(max(1, steps(shown)))
        self.scroll_bar.setValue(steps(canvas.first_second))
        self.scroll_bar.blockSignals(False)
        self.scroll_bar.setVisible(self.scroll_bar.maximum() > 0)  # only when there is more to see
