"""The segments of one transcript as an editable table: start, end, speaker, text.

Every edit is a core Change (desktop.core.transcription.edits) put on the transcript's undo stack,
and goes into the Transcript at once, so what the user sees is what gets exported.
"""
from __future__ import annotations

import re
import time

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QPointF,
    QSortFilterProxyModel,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QBrush, QColor, QFont, QIcon, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QApplication, QStyle

from desktop.core.speakers.names import name_shown
from desktop.core.transcription import edits
from desktop.core.transcription.cue_checks import ReadingLimits, overlap_warning, segment_warnings
from desktop.core.transcription.edits import Change, EditRefused
from desktop.core.transcription.subtitles import LineLimits
from desktop.core.transcription.transcript import Segment, Transcript
from desktop.ui.common.i18n import translated
from desktop.ui.common.styles import WARNING_COLOR
from desktop.ui.transcribe.editor.document import Applied, TranscriptDocument
from desktop.ui.transcribe.editor.speaker_colours import speaker_colour


_RECOGNISED_ICON: QIcon | None = None


def _recognised_icon() -> QIcon:
    """A small dark badge with a tick, drawn once: the speaker was named as a known voice."""
    global _RECOGNISED_ICON
    if _RECOGNISED_ICON is None:
        pixmap = QPixmap(16, 16)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setBrush(QColor("#1f5fa8"))
        painter.setPen(Qt.PenStyle.NoPen)
        painter.drawEllipse(1, 1, 14, 14)
        pen = QPen(QColor("white"), 2)
        painter.setPen(pen)
        painter.drawPolyline([QPointF(4.5, 8.5), QPointF(7, 11), QPointF(11.5, 5.5)])
        painter.end()
        _RECOGNISED_ICON = QIcon(pixmap)
    return _RECOGNISED_ICON


def _playing_font() -> QFont:
    font = QFont()
    font.setBold(True)
    return font


def format_timestamp(seconds: float) -> str:
    """00:01:02.345 — the way the table shows and accepts times."""
    millis = int(round(max(0.0, seconds) * 1000))
    hours, rest = divmod(millis, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    secs, millis = divmod(rest, 1000)
    return f"{hours:02d}:{minutes:02d}:{secs:02d}.{millis:03d}"


_TIME = re.compile(r"^\s*(?:(\d+):)?(?:(\d+):)?(\d+(?:[.,]\d*)?)\s*$")


def parse_timestamp(text: str) -> float | None:
    """Seconds from '1:02:03.5', '02:03,5', '123.5'; None when it is not a time."""
    match = _TIME.match(text)
    if not match:
        return None
    first, second, secs = match.groups()
    if first is not None and second is not None:
        hours, minutes = int(first), int(second)
    elif first is not None:
        hours, minutes = 0, int(first)
    else:
        hours, minutes = 0, 0
    seconds = float(secs.replace(",", "."))
    if (first is not None and seconds >= 60) or (second is not None and minutes >= 60):
        return None
    return hours * 3600 + minutes * 60 + seconds


ROWS_PER_SLICE = 2_000  # the lines put into the table at one turn of the event loop
# What the "only lines with warnings" filter may spend working out warnings not known yet in one turn of
# the event loop: its first lines whatever they cost, then up to this many seconds of the window's
# thread's CPU (a line of 250 characters takes about 2 ms to cut into cues and judge).
FILTER_LINES_A_TURN = 10
FILTER_CPU_A_TURN = 0.02

_GAP_BACKGROUND = QBrush(QColor("#fff4d6"))  # rows of speech that still needs its text


class SegmentsModel(QAbstractTableModel):
    START, END, SPEAKER, TEXT = range(4)
    SegmentRole = Qt.ItemDataRole.UserRole + 1
    CorrectedSpansRole = Qt.ItemDataRole.UserRole + 2  # [(start, end)] of the glossary's terms in the shown text
    FoundSpansRole = Qt.ItemDataRole.UserRole + 3  # [(start, end)] of what Find and replace looks for, in it
    MisspelledSpansRole = Qt.ItemDataRole.UserRole + 4  # [(start, end)] of the words spelled wrong, in it
    NEW_SPEAKER = 0  # what the speaker editor hands back for "a speaker not in the list yet"

    edit_rejected = Signal(str)  # a sentence saying why an edit was not taken
    edited = Signal(int, int)  # (row, column) of a change taken into the transcript
    changed = Signal(object)  # a Transcript changed by an edit, an undo or a redo
    speakers_changed = Signal()  # a speaker was renamed, joined to another, or a line changed speaker
    about_to_edit = Signal()  # an edit is about to go into the shown transcript
    filled = Signal()  # the last line of a long transcript came into the table (see _fill_some)

    def __init__(self, parent=None):
        super().__init__(parent)
        self._segments: list[Segment] = []
        # The live list is shared with the queue, which appends to it; only rows announced to the
        # views through segment_added() count.
        self._rows = 0
        # A long transcript comes into the table a slice per turn of the event loop (see _fill_some), so
        # that opening 150,000 lines never holds up the window; the views only ever see _rows of them.
        self._filling = QTimer(self)
        self._filling.setInterval(0)
        self._filling.timeout.connect(self._fill_some)
        self._transcript: Transcript | None = None
        self._known_speakers: list[int] | None = None  # see _speaker_numbers; None: not worked out since a change
        self._known_corrections: bool | None = None  # see has_glossary_corrections
        self.document: TranscriptDocument | None = None  # what edits go through (undoable); None: not kept
        self.reading_limits = ReadingLimits()
        self.line_limits = LineLimits()  # how the export cuts lines into cues, which the warnings judge
        # The cue warnings of each line as it was when asked, by id(Segment): an edit puts new Segment
        # objects in, so only the lines it made are worked out again (the export's cutting is not cheap).
        self._cue_warnings: dict[int, tuple[Segment, list]] = {}
        self.playing_row: int | None = None  # the line being heard
        self.found: edits.Search | None = None  # what Find and replace looks for while it is open
        self.spelling = None  # SpellingMarks: the words to underline (English only); None: none
        # The warnings of every line are worked out a slice at a time while the window is idle, so that
        # "only lines with warnings" finds them ready rather than cutting 2,000 lines at once.
        self._warm_row = 0
        self._announce = False  # say which lines the idle work found warnings of (see announce_warnings)
        self._warming = QTimer(self)
        self._warming.setInterval(0)
        self._warming.timeout.connect(self._warm_some_warnings)

    @property
    def transcript(self) -> Transcript | None:
        return self._transcript

    @property
    def editable(self) -> bool:
        return self._transcript is not None

    def spelling_changed(self) -> None:
        """The spell checker is ready or knows other words: the text column is painted again."""
        if self._rows:
            self.dataChanged.emit(self.index(0, self.TEXT), self.index(self._rows - 1, self.TEXT),
                                  [self.MisspelledSpansRole])

    def show_transcript(self, transcript: Transcript | None, document: TranscriptDocument | None = None) -> None:
        """Show a finished transcript; its segments can be edited, through document when there is one
        (undoable), else directly."""
        if self.document is not None:
            self.document.stop_listening(self._on_applied)
        self.document = document
        if document is not None:
            document.listen(self._on_applied)
        self.beginResetModel()
        self._transcript = transcript
        self._cue_warnings = {}
        self._known_speakers = self._known_corrections = None
        self._segments = transcript.segments if transcript is not None else []
        self._rows = min(len(self._segments), ROWS_PER_SLICE)
        self.endResetModel()
        self._fill_rest()
        self._warm_warnings()

    def show_live(self, segments: list[Segment]) -> None:
        """Show the segments of a file still being transcribed; read-only until it is done."""
        if self.document is not None:
            self.document.stop_listening(self._on_applied)
            self.document = None
        self.beginResetModel()
        self._transcript = None
        self._cue_warnings = {}
        self._known_speakers = self._known_corrections = None
        self._segments = segments
        self._rows = min(len(segments), ROWS_PER_SLICE)
        self.endResetModel()
        self._fill_rest()

    def segment_added(self) -> None:
        """The live list grew by one at its end."""
        if not self._filling.isActive():
            self._insert_up_to(min(len(self._segments), self._rows + ROWS_PER_SLICE))
            self._fill_rest()

    @property
    def filling(self) -> bool:
        """Whether lines of the transcript shown are still to come into the table."""
        return self._rows < len(self._segments)

    def show_rows_up_to(self, row: int) -> None:
        """Lines up to row into the table now (a line Find, or an edit, goes to before the rest came)."""
        self._insert_up_to(min(len(self._segments), row + 1))
        self._fill_rest()

    def _fill_rest(self) -> None:
        if self.filling:
            self._filling.start()
        elif self._filling.isActive():
            self._filling.stop()
            self.filled.emit()

    def _fill_some(self) -> None:
        """One slice of a long transcript into the table (the rest at the next turns of the event loop)."""
        self._insert_up_to(min(len(self._segments), self._rows + ROWS_PER_SLICE))
        self._fill_rest()
        if self._transcript is not None and self._warm_row < self._rows and not self._warming.isActive():
            self._warming.start()  # the new lines' warnings too

    def _insert_up_to(self, count: int) -> None:
        if count > self._rows:
            self.beginInsertRows(QModelIndex(), self._rows, count - 1)
            self._rows = count
            self.endInsertRows()

    def retranslate(self) -> None:
        """The interface language changed: the views ask for the headers again."""
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, self.columnCount() - 1)

    def set_playing_row(self, row: int | None) -> None:
        """The line being heard, shown in bold (None: none)."""
        before, self.playing_row = self.playing_row, row
        for changed in {before, row} - {None}:
            if changed < self._rows:
                self.dataChanged.emit(self.index(changed, 0), self.index(changed, self.columnCount() - 1))

    def set_found(self, search: edits.Search | None) -> None:
        """Highlight what search finds in the lines' text (None: nothing), by the rules Find uses."""
        if search == self.found:
            return
        self.found = search
        if self._rows:
            self.dataChanged.emit(self.index(0, self.TEXT), self.index(self._rows - 1, self.TEXT),
                                  [self.FoundSpansRole])

    def segment(self, row: int) -> Segment:
        return self._segments[row]

    # -- Qt model ------------------------------------------------------------------------------

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else self._rows

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else 4

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Vertical:
            return str(section + 1)
        return (self.tr("Start"), self.tr("End"), self.tr("Speaker"), self.tr("Text"))[section]

    def flags(self, index: QModelIndex | QPersistentModelIndex) -> Qt.ItemFlag:
        flags = super().flags(index)
        if index.isValid() and self.editable and (index.column() != self.SPEAKER or self.has_speakers):
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        segment = self._segments[index.row()]
        column = index.column()
        if role == self.SegmentRole:
            return segment
        if role == Qt.ItemDataRole.FontRole and index.row() == self.playing_row:
            return _playing_font()
        if column == self.SPEAKER:
            return self._speaker_data(segment, role)
        gap = self._transcript.gap_at(segment) if self._transcript is not None else None
        if gap is not None and column == self.TEXT:
            return self._gap_data(gap, role)
        if gap is not None and role == Qt.ItemDataRole.BackgroundRole:
            return _GAP_BACKGROUND
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            if column == self.START:
                return format_timestamp(segment.start)
            if column == self.END:
                return format_timestamp(segment.end)
            return segment.text.strip()
        if column == self.TEXT and role == self.CorrectedSpansRole:
            leading = len(segment.text) - len(segment.text.lstrip())
            return [(c.start - leading, c.end - leading) for _, c in edits.standing_corrections(segment)]
        if column == self.TEXT and role == self.FoundSpansRole:
            return self.found.spans(segment.text.strip()) if self.found is not None and self.found.text else []
        if column == self.TEXT and role == self.MisspelledSpansRole:
            if self.spelling is None or self._transcript is None:
                return []
            return [(m.start, m.end) for m in self.spelling.misspellings(segment.text.strip())]
        if column == self.TEXT and role == Qt.ItemDataRole.ToolTipRole:
            return "\n".join([segment.text.strip(), *self._correction_notes(segment),
                              *self._warning_notes(index.row())])
        if column == self.TEXT and role == Qt.ItemDataRole.DecorationRole and self.warnings(index.row()):
            return QApplication.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning)
        if role == Qt.ItemDataRole.TextAlignmentRole and column != self.TEXT:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _correction_notes(self, segment: Segment) -> list[str]:
        """What the glossary changed in the line, said under its text in the tooltip."""
        notes = [self.tr("“{term}”: heard as “{original}”; corrected by the glossary").format(
            term=correction.term, original=correction.original) for _, correction in edits.standing_corrections(segment)]
        return ["", *notes] if notes else []

    def _speaker_data(self, segment: Segment, role: int):
        if segment.speaker is None or self._transcript is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return translated(name_shown(self._transcript.speaker_name(segment.speaker), segment.speaker))
        sure = self._transcript.recognised_confidence(segment.speaker)
        if role == Qt.ItemDataRole.ToolTipRole:
            name = translated(name_shown(self._transcript.speaker_name(segment.speaker), segment.speaker))
            if sure is None:
                return name
            return self.tr("{name}: recognised as a known voice, {sure:.0%} sure").format(name=name, sure=sure)
        if role == Qt.ItemDataRole.DecorationRole and sure is not None:
            return _recognised_icon()
        if role == Qt.ItemDataRole.EditRole:
            return segment.speaker
        if role == Qt.ItemDataRole.BackgroundRole:
            return QBrush(speaker_colour(segment.speaker))
        if role == Qt.ItemDataRole.ForegroundRole:
            return QBrush(QColor("black"))  # on the light speaker colour, whatever the theme
        return None

    # -- cue warnings --------------------------------------------------------------------------

    def warnings(self, row: int) -> list:
        """Why the cues of a line will be hard to read (Messages), as the SRT export cuts it."""
        if self._transcript is None or row >= len(self._segments):
            return []
        own = self._line_warnings(row)
        overlap = overlap_warning(self._transcript, row)
        return own if overlap is None else [*own, overlap]

    def known_warnings(self, row: int) -> list | None:
        """warnings(row) where the line's own are worked out already; None where they are not yet."""
        if self._transcript is None or row >= len(self._segments):
            return []
        known = self._cue_warnings.get(id(self._segments[row]))
        if known is None or known[0] is not self._segments[row]:
            return None
        return self.warnings(row)

    def announce_warnings(self) -> None:
        """Say (dataChanged) of each line whose warnings the idle work finds from now on: a filter that
        could not wait for them shows them as they come."""
        self._announce = True

    def _line_warnings(self, row: int) -> list:
        """The warnings of the line's own cues, worked out once for each Segment."""
        segment = self._segments[row]
        known = self._cue_warnings.get(id(segment))
        if known is None or known[0] is not segment:
            known = self._cue_warnings[id(segment)] = (
                segment, segment_warnings(self._transcript, row, self.reading_limits, self.line_limits))
        return known[1]

    def set_reading_limits(self, limits: ReadingLimits, line_limits: LineLimits | None = None) -> None:
        """Judge the lines by these limits (and cut them into cues by line_limits, when given)."""
        if limits == self.reading_limits and line_limits in (None, self.line_limits):
            return
        self.reading_limits = limits
        if line_limits is not None:
            self.line_limits = line_limits
        self._cue_warnings = {}
        if self._rows:
            self.dataChanged.emit(self.index(0, self.TEXT), self.index(self._rows - 1, self.TEXT))
        self._warm_warnings()

    def warm_all_warnings(self) -> None:
        """Work out every line's warnings now (what the idle slices would do over the next moments)."""
        self._warming.stop()
        for row in range(self._rows if self._transcript is not None else 0):
            self._line_warnings(row)

    def _warm_warnings(self) -> None:
        self._warm_row = 0
        if self._transcript is not None and self._rows:
            self._warming.start()
        else:
            self._warming.stop()

    def _warm_some_warnings(self) -> None:
        """One slice of the idle work: lines already known cost a look-up, the others a cutting."""
        deadline = time.perf_counter() + 0.015
        rows = self._rows if self._transcript is not None else 0
        first = self._warm_row
        while self._warm_row < rows and time.perf_counter() < deadline:
            self._line_warnings(self._warm_row)
            self._warm_row += 1
        if self._announce and self._warm_row > first:
            self.dataChanged.emit(self.index(first, self.TEXT), self.index(self._warm_row - 1, self.TEXT),
                                  [Qt.ItemDataRole.DecorationRole])
        if self._warm_row >= rows:
            self._warming.stop()
            self._announce = False

    def _warning_notes(self, row: int) -> list[str]:
        """Why the line's cues will be hard to read, said under its text in the tooltip."""
        warnings = self.warnings(row)
        return ["", *(f"⚠ {translated(w)}" for w in warnings)] if warnings else []

    # -- speakers ------------------------------------------------------------------------------

    def _speaker_numbers(self) -> list[int]:
        """transcript.speakers, kept until the next change: it looks at every line, and each cell's flags
        ask for it."""
        if self._transcript is None:
            return []
        if self._known_speakers is None:
            self._known_speakers = self._transcript.speakers
        return self._known_speakers

    @property
    def has_speakers(self) -> bool:
        return bool(self._speaker_numbers())

    def speaker_choices(self) -> list[tuple[int, str]]:
        """(number, name) of every speaker of the transcript, in order."""
        return [(number, translated(name_shown(self._transcript.speaker_name(number), number)))
                for number in self._speaker_numbers()]

    def has_glossary_corrections(self) -> bool:
        """Whether a line still has a glossary correction to undo (kept until the next change: the Edit
        menu asks at each click in the table)."""
        if self._transcript is None:
            return False
        if self._known_corrections is None:
            self._known_corrections = any(segment.corrections and edits.standing_corrections(segment)
                                          for segment in self._transcript.segments)
        return self._known_corrections

    def rename_speaker(self, number: int, name: str) -> None:
        """Rename a speaker on every line; a name another speaker has joins the two."""
        if self._transcript is not None:
            self.commit(edits.rename_speaker(self._transcript, number, name), self.SPEAKER)

    # -- edits ---------------------------------------------------------------------------------

    def commit(self, change: Change | None, column: int = TEXT) -> bool:
        """Make a change to the shown transcript, through its document when there is one."""
        if change is None or self._transcript is None:
            return False
        self.about_to_edit.emit()
        if self.document is not None:
            self.document.apply(change, hint=column)
        else:
            change.apply(self._transcript)
            self._show_change(self._transcript, change, column, False)
        return True

    def _on_applied(self, applied: Applied) -> None:
        self._show_change(self._transcript, applied.change, applied.hint, applied.undone)

    def try_edit(self, make) -> bool:
        """commit(make()), saying why in edit_rejected when the edit is refused."""
        try:
            return self.commit(make())
        except EditRefused as refused:
            self.edit_rejected.emit(translated(refused.message))
            return False

    def _show_change(self, transcript: Transcript, change: Change, column: int, undone: bool = False) -> None:
        if transcript is self._transcript:
            self._known_speakers = self._known_corrections = None
            if change.rows_changed or (len(self._segments) != self._rows and not self._filling.isActive()):
                # As many lines as were in the table (those added or removed counted), the rest still to come.
                grown = sum(len(splice.inserted) - len(splice.removed) for splice in change.splices)
                grown = -grown if undone else grown
                self.beginResetModel()
                self._rows = min(len(self._segments), max(self._rows + grown, ROWS_PER_SLICE))
                self.endResetModel()
                self._fill_rest()
            elif change.splices:
                rows = [splice.at for splice in change.splices]
                # A line's neighbours too: whether it overlaps them is one of their warnings.
                first, last = max(0, min(rows) - 1), min(self._rows - 1, max(rows) + 1)
                if first <= last:
                    self.dataChanged.emit(self.index(first, 0), self.index(last, self.columnCount() - 1))
            if change.names_after is not None or column == self.SPEAKER:
                self._speakers_changed()
            self.edited.emit(min(change.first_row, max(0, self._rows - 1)), column)
            self._warm_warnings()
        self.changed.emit(transcript)

    def _speakers_changed(self) -> None:
        if self._rows:
            self.dataChanged.emit(self.index(0, self.SPEAKER), self.index(self._rows - 1, self.SPEAKER))
        self.speakers_changed.emit()

    def _gap_data(self, gap, role: int):
        """An empty row standing for speech no decoding could transcribe: highlighted, and says so."""
        if role == Qt.ItemDataRole.DisplayRole:
            return self.tr("{gap} — type what was said").format(gap=translated(gap.message))
        if role == Qt.ItemDataRole.EditRole:
            return ""
        if role == Qt.ItemDataRole.ToolTipRole:
            return translated(gap.message)
        if role == Qt.ItemDataRole.BackgroundRole:
            return _GAP_BACKGROUND
        if role == Qt.ItemDataRole.ForegroundRole:
            return QBrush(QColor(WARNING_COLOR))
        if role == Qt.ItemDataRole.FontRole:
            font = QFont()
            font.setItalic(True)
            return font
        return None

    def setData(self, index: QModelIndex | QPersistentModelIndex, value, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if not index.isValid() or role != Qt.ItemDataRole.EditRole or self._transcript is None:
            return False
        row, column = index.row(), index.column()
        segment = self._segments[row]
        if column == self.SPEAKER:
            number = int(value)
            if number == self.NEW_SPEAKER:
                number = max(self._speaker_numbers(), default=0) + 1
            return self.commit(edits.set_speaker(self._transcript, row, number), column)
        if column == self.TEXT:
            return self.commit(edits.edit_text(self._transcript, row, str(value)), column)
        seconds = parse_timestamp(str(value))
        if seconds is None:
            self.edit_rejected.emit(self.tr("Type a time like 00:01:02.500."))
            return False
        start = seconds if column == self.START else segment.start
        end = seconds if column == self.END else segment.end
        try:
            return self.commit(edits.set_times(self._transcript, row, start, end), column)
        except EditRefused as refused:
            self.edit_rejected.emit(translated(refused.message))
            return False


class SegmentSearchModel(QSortFilterProxyModel):
    """Shows only the segments whose text contains the search words (any case), and, when asked, only
    those with a cue warning."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.setFilterKeyColumn(SegmentsModel.TEXT)
        self._only_warnings = False
        # Whatever asks the filter to look at lines again (turning "only lines with warnings" on, another
        # transcript, a slice of a long one, the spell checker becoming ready, an edit), it works out the
        # warnings not known yet for a bounded share of each turn of the event loop only (see
        # _may_work_out); the rest are left to the model's idle work, and their lines come into the list
        # as it finds them.
        self._turn_open = False  # whether the filter has worked out a line's warnings in this turn
        self._worked_out = 0  # lines whose warnings the filter worked out this turn
        self._spent = 0.0  # CPU seconds of the window's thread that took

    def _may_work_out(self) -> bool:
        """Whether the filter may work out one more line's warnings in this turn of the event loop: always
        its first few lines (a short transcript is filtered at once), then while it has spent less than its
        share. The share is CPU time of the window's thread, so a machine busy with other work makes a turn
        take longer but never lets it do more."""
        if not self._turn_open:
            self._turn_open, self._worked_out, self._spent = True, 0, 0.0
            QTimer.singleShot(0, self._next_turn)
        self._worked_out += 1
        return self._worked_out <= FILTER_LINES_A_TURN or self._spent < FILTER_CPU_A_TURN

    def _next_turn(self) -> None:
        self._turn_open = False

    def search(self, text: str) -> None:
        self.setFilterFixedString(text.strip())

    def show_only_warnings(self, only: bool) -> None:
        if hasattr(self, "beginFilterChange"):  # Qt 6.10 and later
            self.beginFilterChange()
            self._only_warnings = only
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            self._only_warnings = only
            self.invalidateRowsFilter()

    def filterAcceptsRow(self, source_row: int, source_parent) -> bool:  # noqa: N802 - Qt naming
        if self._only_warnings:
            source = self.sourceModel()
            warnings = source.known_warnings(source_row)
            if warnings is None:
                if not self._may_work_out():
                    source.announce_warnings()  # not known yet: listed once the idle work finds it warns
                    return False
                began = time.thread_time()
                warnings = source.warnings(source_row)
                self._spent += time.thread_time() - began
            if not warnings:
                return False
        return super().filterAcceptsRow(source_row, source_parent)
