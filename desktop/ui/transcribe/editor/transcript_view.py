"""The transcript table: typing on a selected line edits that line without losing what it says."""
from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QPersistentModelIndex, QPointF, Qt, QTimer
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QColor,
    QKeyEvent,
    QPainter,
    QPalette,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextOption,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHeaderView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QWidget,
)

from desktop.ui.transcribe.editor.line_editor import LineEditor, misspelled_format
from desktop.ui.transcribe.editor.segments_model import SegmentsModel

if TYPE_CHECKING:
    from desktop.ui.transcribe.editor.spelling_marks import SpellingMarks


CORRECTED_BACKGROUND = QColor("#d6ecff")  # behind a term the glossary put in, light in any theme
CORRECTED_TEXT = QColor("black")
FOUND_BACKGROUND = QColor("#ffe066")  # behind what Find and replace looks for, as browsers mark matches


class LineTextDelegate(QStyledItemDelegate):
    """Edits a line's text (or times) keeping what it says, the caret at the end. Escape cancels, as in
    every Qt editor. The terms the glossary put in a line are painted highlighted, and so is what Find and
    replace looks for while it is open; words spelled wrong are underlined, in the open editor too."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.open_editor: LineEditor | None = None  # the editor while one is open
        self.spelling: SpellingMarks | None = None  # the words to underline as a line is typed; None: none

    def set_spelling(self, spelling: SpellingMarks) -> None:
        """Underline the words these marks find as a line's text is typed."""
        self.spelling = spelling
        spelling.changed.connect(self._spelling_changed)

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem,
                     index: QModelIndex | QPersistentModelIndex) -> QWidget:
        editor = LineEditor(parent, self.spelling if index.column() == SegmentsModel.TEXT else None)
        editor.setFrame(False)
        self.open_editor = editor
        return editor

    def _spelling_changed(self) -> None:
        """The checker is ready or knows other words: the line being typed is looked at again."""
        if self.open_editor is not None:
            self.open_editor.underline_misspellings()

    def setEditorData(self, editor: QWidget, index: QModelIndex | QPersistentModelIndex) -> None:  # noqa: N802
        """The line's text for an editor opening; for an open one only when the line itself changed. Qt
        gives an open editor the cell's text again whenever that one cell is said to change, also for
        its warnings or its underlines (a transcript of one line), which would throw away what was typed."""
        text = index.data(Qt.ItemDataRole.EditRole)
        if isinstance(editor, LineEditor):
            if editor.given_text == text:
                return
            editor.given_text = text
        super().setEditorData(editor, index)

    def destroyEditor(self, editor: QWidget, index: QModelIndex | QPersistentModelIndex) -> None:
        if editor is self.open_editor:
            self.open_editor = None
        super().destroyEditor(editor, index)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        spans = self.highlighted_spans(index)
        if not spans:
            super().paint(painter, option, index)
            return
        # The cell as the style draws it (background, selection, icon) without its text, then the
        # text as a document whose corrected spans have their own background.
        item = QStyleOptionViewItem(option)
        self.initStyleOption(item, index)
        text, item.text = item.text, ""
        style = item.widget.style() if item.widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, item, painter, item.widget)
        item.text = text  # the text's rectangle depends on it
        area = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, item, item.widget)
        document = self._document(text, spans, item, area.width())
        context = QAbstractTextDocumentLayout.PaintContext()
        selected = bool(item.state & QStyle.StateFlag.State_Selected)
        context.palette.setColor(QPalette.ColorRole.Text, item.palette.color(
            QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text))
        painter.save()
        painter.setClipRect(area)
        top = area.top() + max(0.0, (area.height() - document.size().height()) / 2)
        painter.translate(QPointF(area.left(), top))
        document.documentLayout().draw(painter, context)
        painter.restore()

    @staticmethod
    def highlighted_spans(index: QModelIndex | QPersistentModelIndex) -> list[tuple[int, int, QColor | None]]:
        """(start, end, background) of each highlighted stretch of the cell's text; matches over corrections.
        A background of None: a word spelled wrong, underlined with a red wave instead."""
        if index.column() != SegmentsModel.TEXT:
            return []
        corrected = index.data(SegmentsModel.CorrectedSpansRole) or []
        found = index.data(SegmentsModel.FoundSpansRole) or []
        misspelled = index.data(SegmentsModel.MisspelledSpansRole) or []
        return [*((start, end, None) for start, end in misspelled),
                *((start, end, CORRECTED_BACKGROUND) for start, end in corrected),
                *((start, end, FOUND_BACKGROUND) for start, end in found)]

    def text_offset_at(self, index: QModelIndex | QPersistentModelIndex, point, option: QStyleOptionViewItem) -> int:
        """The place in the cell's text under a point of the view's viewport (for the spelling menu)."""
        item = QStyleOptionViewItem(option)
        self.initStyleOption(item, index)
        style = item.widget.style() if item.widget is not None else QApplication.style()
        area = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, item, item.widget)
        document = self._document(item.text, [], item, area.width())
        top = area.top() + max(0.0, (area.height() - document.size().height()) / 2)
        return document.documentLayout().hitTest(QPointF(point.x() - area.left(), point.y() - top),
                                                 Qt.HitTestAccuracy.FuzzyHit)

    @staticmethod
    def _document(text: str, spans: list[tuple[int, int, QColor]], item: QStyleOptionViewItem,
                  width: int) -> QTextDocument:
        document = QTextDocument()
        document.setDocumentMargin(2)  # as far from the cell's edge as the style puts its text
        document.setDefaultFont(item.font)
        option = QTextOption()
        option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        document.setDefaultTextOption(option)
        document.setPlainText(text)
        document.setTextWidth(width)
        for start, end, background in spans:
            if background is None:
                highlighted = misspelled_format()
            else:
                highlighted = QTextCharFormat()
                highlighted.setBackground(background)
                highlighted.setForeground(CORRECTED_TEXT)  # dark on the light background, whatever the theme
            cursor = QTextCursor(document)
            cursor.setPosition(max(0, start))
            cursor.setPosition(min(len(text), end), QTextCursor.MoveMode.KeepAnchor)
            cursor.mergeCharFormat(highlighted)
        return document


class TranscriptView(QTableView):
    """Rows are selected whole; a key typed on a selected row opens its text for editing and types the
    key at the end of it. F2, Enter and a double-click open it too.

    A row is as tall as its wrapped text, but only the rows in sight are measured (after each scroll,
    resize or change): Qt's own ResizeToContents measures every row each time rows come or go, which
    for a transcript of 150,000 lines held the window up for minutes."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.text_delegate = LineTextDelegate(self)
        self.setItemDelegate(self.text_delegate)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                             | QAbstractItemView.EditTrigger.EditKeyPressed
                             | QAbstractItemView.EditTrigger.AnyKeyPressed)
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        # The columns sized to their contents look at the rows in sight only, not at a thousand more.
        self.horizontalHeader().setResizeContentsPrecision(0)
        self._fitting = QTimer(self)
        self._fitting.setSingleShot(True)
        self._fitting.setInterval(0)
        self._fitting.timeout.connect(self.fit_rows_in_sight)
        self.verticalScrollBar().valueChanged.connect(self._fit_soon)
        self.horizontalHeader().sectionResized.connect(self._fit_soon)

    def setModel(self, model) -> None:  # noqa: N802 - Qt naming
        super().setModel(model)
        if model is not None:
            for signal in (model.modelReset, model.rowsInserted, model.rowsRemoved, model.dataChanged,
                           model.layoutChanged):
                signal.connect(self._fit_soon)

    def _fit_soon(self, *_args) -> None:
        self._fitting.start()  # once, at the next turn of the event loop, however many changes came

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt naming
        super().resizeEvent(event)
        self._fit_soon()

    def fit_rows_in_sight(self) -> None:
        """Each row in sight as tall as its text needs (a row grown pushes the next ones down, so the
        rows in sight are looked for again until the last fits)."""
        model = self.model()
        if model is None or not model.rowCount():
            return
        row = max(0, self.rowAt(0))
        height = self.viewport().height()
        while row < model.rowCount():
            if self.isRowHidden(row):
                row += 1
                continue
            self.resizeRowToContents(row)
            if self.rowViewportPosition(row) + self.rowHeight(row) >= height:
                break
            row += 1

    def selected_rows(self) -> list[int]:
        """The selected lines as rows of the view's model, in order."""
        return sorted({index.row() for index in self.selectionModel().selectedRows()})

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt naming
        if self.state() != QAbstractItemView.State.EditingState and self._opens_editing(event):
            index = self.currentIndex()
            if index.isValid() and index.column() != SegmentsModel.TEXT:
                # Typing goes into the line's text, whichever cell of the row was current.
                self.selectionModel().setCurrentIndex(index.siblingAtColumn(SegmentsModel.TEXT),
                                                      QItemSelectionModel.SelectionFlag.NoUpdate)
            if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.currentIndex().isValid():
                if self.edit(self.currentIndex(), QAbstractItemView.EditTrigger.EditKeyPressed, event):
                    return
        super().keyPressEvent(event)

    @staticmethod
    def _opens_editing(event: QKeyEvent) -> bool:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_F2):
            return True
        if event.modifiers() & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
                                | Qt.KeyboardModifier.MetaModifier):
            return False
        text = event.text()
        return bool(text) and text.isprintable() and bool(text.strip())
