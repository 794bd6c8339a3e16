"""The Transcribe tab's queue: one row per file, with its length, state, progress and times.

A file's progress is measured only while Whisper listens, and a short recording has a single window,
so until then (and while the transcript is written) its bar is a busy one that names the stage:
a row never sits at 0 % with nothing moving.
"""
from __future__ import annotations

import time
from typing import Callable

from PySide6.QtCore import QAbstractTableModel, QCoreApplication, QModelIndex, QPersistentModelIndex, Qt, QTimer, Slot
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionProgressBar, QStyleOptionViewItem

from desktop.ui.common.i18n import translated
from desktop.core.transcription.stages import Stage
from desktop.ui.common.styles import ERROR_COLOR, WARNING_COLOR
from desktop.workers.transcription_queue import ItemState, QueueItem, TranscriptionQueue

translate = QCoreApplication.translate

BUSY_FRAME_MS = 80  # how often a busy bar moves
BUSY_SWEEP_SECONDS = 1.6  # one pass of its moving block across the bar


def stage_text(stage: Stage | None) -> str:
    """The stage a running file is in, as its progress bar names it."""
    if stage is Stage.READING:
        return translate("QueueModel", "Reading the file")
    if stage is Stage.LOADING:
        return translate("QueueModel", "Loading the model")
    if stage is Stage.LISTENING:
        return translate("QueueModel", "Listening")
    if stage is Stage.WRITING:
        return translate("QueueModel", "Writing the transcript")
    return translate("QueueModel", "Starting")


def is_busy(item: QueueItem) -> bool:
    """Whether a running file is in a stage without measured progress (its bar shows a moving block)."""
    if item.state is not ItemState.RUNNING or item.cancelling:
        return False
    return item.stage is not Stage.LISTENING or item.progress <= 0.0


def format_clock(seconds: float | None) -> str:
    """12:05 or 1:02:05; an em dash when unknown."""
    if seconds is None:
        return "—"
    total = int(round(seconds))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"


class QueueModel(QAbstractTableModel):
    FILE, DURATION, STATUS, PROGRESS, ELAPSED, LEFT = range(6)
    ItemRole = Qt.ItemDataRole.UserRole + 1  # the QueueItem of a row
    ProgressRole = Qt.ItemDataRole.UserRole + 2  # progress as 0..100
    BusyRole = Qt.ItemDataRole.UserRole + 3  # True while the row's bar is a busy one naming its stage

    def __init__(self, queue: TranscriptionQueue, parent=None):
        super().__init__(parent)
        self._queue = queue
        # A mirror of the queue's list, changed only between begin/end calls as Qt requires.
        self._items: list[QueueItem] = list(queue.items)
        # Whether a row's transcript changed since its last export (marked “•”); the tab knows.
        self.changed_since_export: Callable[[QueueItem], bool] = lambda item: False
        queue.item_added.connect(self._on_added)
        queue.item_removed.connect(self._on_removed)
        queue.item_changed.connect(self._on_changed)
        # Elapsed and time-left move on their own while a file runs.
        self._clock = QTimer(self)
        self._clock.setInterval(1000)
        self._clock.timeout.connect(self._tick)
        # A busy bar's block moves between the clock's ticks.
        self._busy_frames = QTimer(self)
        self._busy_frames.setInterval(BUSY_FRAME_MS)
        self._busy_frames.timeout.connect(self._move_busy_bars)

    def item(self, row: int) -> QueueItem:
        return self._items[row]

    def refresh(self, item: QueueItem) -> None:
        """Show the row of item again (its mark changed)."""
        self._on_changed(item)

    def row_of(self, item: QueueItem) -> int:
        """The row of an item, or -1 when it is not listed."""
        for row, candidate in enumerate(self._items):
            if candidate is item:
                return row
        return -1

    @Slot(object)
    def _on_added(self, item: QueueItem) -> None:
        row = len(self._items)
        self.beginInsertRows(QModelIndex(), row, row)
        self._items.append(item)
        self.endInsertRows()

    @Slot(object)
    def _on_removed(self, item: QueueItem) -> None:
        row = self.row_of(item)
        if row >= 0:
            self.beginRemoveRows(QModelIndex(), row, row)
            del self._items[row]
            self.endRemoveRows()

    @Slot(object)
    def _on_changed(self, item: QueueItem) -> None:
        row = self.row_of(item)
        if row >= 0:
            self.dataChanged.emit(self.index(row, 0), self.index(row, self.columnCount() - 1))
        if any(i.state is ItemState.RUNNING for i in self._items):
            if not self._clock.isActive():
                self._clock.start()
        else:
            self._clock.stop()
        if any(is_busy(i) for i in self._items):
            if not self._busy_frames.isActive():
                self._busy_frames.start()
        else:
            self._busy_frames.stop()

    @Slot()
    def _move_busy_bars(self) -> None:
        for row, item in enumerate(self._items):
            if is_busy(item):
                index = self.index(row, self.PROGRESS)
                self.dataChanged.emit(index, index, [self.BusyRole])

    @Slot()
    def _tick(self) -> None:
        for row, item in enumerate(self._items):
            if item.state is ItemState.RUNNING:
                self.dataChanged.emit(self.index(row, self.ELAPSED), self.index(row, self.LEFT))

    # -- Qt model ------------------------------------------------------------------------------

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._items)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else 6

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        return (
            translate("QueueModel", "File"), translate("QueueModel", "Length"), translate("QueueModel", "Status"),
            translate("QueueModel", "Progress"), translate("QueueModel", "Elapsed"),
            translate("QueueModel", "Time left"),
        )[section]

    def retranslate(self) -> None:
        """The interface language changed: the views ask for the headers and statuses again."""
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, self.columnCount() - 1)
        if self._items:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._items) - 1, self.columnCount() - 1))

    def status_text(self, item: QueueItem) -> str:
        if item.state is ItemState.WAITING:
            if self._queue.held:
                return translate("QueueModel", "Waiting: press Start to transcribe it")
            return translate("QueueModel", "Waiting")
        if item.state is ItemState.RUNNING:
            if item.cancelling:
                return translate("QueueModel", "Cancelling…")
            return translated(item.status) or translate("QueueModel", "Starting…")
        if item.state is ItemState.DONE:
            if item.source_problem:
                return translated(item.source_problem)
            if item.transcript is not None and item.transcript.is_empty:
                return translate("QueueModel", "Done: no speech found in this file")
            return " ".join([translate("QueueModel", "Done"), *self._notes(item.transcript)])
        if item.state is ItemState.CANCELLED:
            return translate("QueueModel", "Cancelled")
        return translated(item.status)  # FAILED: the sentence that says what went wrong

    def _notes(self, transcript) -> list[str]:
        """What a finished file's row adds: damage found in the recording, speech left without text."""
        if transcript is None:
            return []
        notes = [translated(warning) for warning in transcript.warnings]
        if len(transcript.gaps) == 1:
            notes.append(translate("QueueModel", "1 stretch of speech could not be transcribed: fill it in below."))
        elif transcript.gaps:
            notes.append(translate("QueueModel", "{count} stretches of speech could not be transcribed: fill them "
                                                 "in below.").format(count=len(transcript.gaps)))
        return ["—", *notes] if notes else []

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        item = self._items[index.row()]
        column = index.column()
        if role == self.ItemRole:
            return item
        if role == self.ProgressRole:
            # A failed file has no progress worth drawing; the status column says what happened.
            return None if item.state is ItemState.FAILED else int(round(item.progress * 100))
        if role == self.BusyRole:
            return is_busy(item)
        if role == Qt.ItemDataRole.DisplayRole:
            if column == self.FILE:
                return f"• {item.path.name}" if self.changed_since_export(item) else item.path.name
            if column == self.DURATION:
                return format_clock(item.duration)
            if column == self.STATUS:
                return self.status_text(item)
            if column == self.PROGRESS:
                if item.state is ItemState.FAILED:
                    return "—"
                return stage_text(item.stage) if is_busy(item) else f"{int(round(item.progress * 100))} %"
            if column == self.ELAPSED:
                return format_clock(item.elapsed)
            if column == self.LEFT:
                return format_clock(item.time_left)
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == self.FILE:
                return str(item.path)
            if column == self.STATUS:
                return self.status_text(item)
        if (role == Qt.ItemDataRole.ForegroundRole and column == self.STATUS
                and (item.state is ItemState.FAILED or item.source_problem)):
            return QBrush(QColor(ERROR_COLOR))
        if (role == Qt.ItemDataRole.ForegroundRole and column == self.STATUS and item.state is ItemState.DONE
                and self._notes(item.transcript)):
            return QBrush(QColor(WARNING_COLOR))  # done, with something for the user to look at
        if role == Qt.ItemDataRole.TextAlignmentRole and column == self.PROGRESS:
            return int(Qt.AlignmentFlag.AlignCenter)
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (self.DURATION, self.ELAPSED, self.LEFT):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


def busy_block(left: int, width: int, now: float) -> tuple[int, int]:
    """(x, width) of a busy bar's moving block at time now: it enters on the left, leaves on the right."""
    block = max(8, width // 4)
    phase = (now % BUSY_SWEEP_SECONDS) / BUSY_SWEEP_SECONDS
    x = left - block + round(phase * (width + block))
    start, end = max(left, x), min(left + width, x + block)
    return start, max(0, end - start)


class ProgressDelegate(QStyledItemDelegate):
    """Draws the progress column as a progress bar; a busy one (a moving block under the stage's name)
    while the file is in a stage without measured progress."""

    def paint(self, painter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        value = index.data(QueueModel.ProgressRole)
        if value is None:
            super().paint(painter, option, index)
            return
        if option.state & QStyle.StateFlag.State_Selected:
            painter.fillRect(option.rect, option.palette.highlight())
        busy = bool(index.data(QueueModel.BusyRole))
        bar = QStyleOptionProgressBar()
        bar.rect = option.rect.adjusted(3, 3, -3, -3)
        bar.minimum = 0
        bar.maximum = 100
        bar.progress = 0 if busy else int(value)
        bar.text = index.data(Qt.ItemDataRole.DisplayRole) if busy else f"{int(value)} %"
        bar.textVisible = True
        bar.state = QStyle.StateFlag.State_Enabled | QStyle.StateFlag.State_Horizontal
        style = option.widget.style() if option.widget is not None else QApplication.style()
        if not busy:
            style.drawControl(QStyle.ControlElement.CE_ProgressBar, bar, painter, option.widget)
            return
        style.drawControl(QStyle.ControlElement.CE_ProgressBarGroove, bar, painter, option.widget)
        inside = bar.rect.adjusted(1, 1, -1, -1)
        x, width = busy_block(inside.left(), inside.width(), time.monotonic())
        if width:
            painter.fillRect(x, inside.top(), width, inside.height(), option.palette.highlight())
        style.drawControl(QStyle.ControlElement.CE_ProgressBarLabel, bar, painter, option.widget)
