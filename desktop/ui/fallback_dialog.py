"""The list of every GPU -> CPU fallback of this session: when, which job, which step, the error, the fix."""
from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop.core.fallback import FallbackEvent


def tr(text: str) -> str:
    return QCoreApplication.translate("FallbackDialog", text)


class FallbackDialog(QDialog):
    COLUMNS = ("When", "Job", "Stage", "Error", "Suggested fix")

    def __init__(self, events: list[FallbackEvent], parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(tr("CPU fallbacks"))
        self.resize(900, 380)
        self._events: list[FallbackEvent] = []

        intro = QLabel(tr("These jobs could not finish on the GPU, so VoxDesk finished them on the CPU."))
        intro.setWordWrap(True)

        self.table = QTableWidget(0, len(self.COLUMNS), self)
        self.table.setHorizontalHeaderLabels([tr(name) for name in self.COLUMNS])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setWordWrap(True)
        header = self.table.horizontalHeader()
        for column in range(3):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setVisible(False)
        self.table.itemSelectionChanged.connect(self._show_selected)

        # The selected row in full, as selectable text: errors and fixes are long and worth copying.
        self.details = QPlainTextEdit(self)
        self.details.setReadOnly(True)
        self.details.setMaximumHeight(110)

        copy = QPushButton(tr("Copy all"), self)
        copy.clicked.connect(self.copy_all)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.addButton(copy, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.details)
        layout.addWidget(buttons)

        for event in events:
            self.add_event(event)
        if events:
            self.table.selectRow(0)

    def add_event(self, event: FallbackEvent) -> None:
        """Append a row; the dialog stays current while it is open."""
        self._events.append(event)
        row = self.table.rowCount()
        self.table.insertRow(row)
        values = (event.when.strftime("%H:%M:%S"), event.job, event.stage, event.error, event.fix)
        for column, value in enumerate(values):
            item = QTableWidgetItem(value)
            item.setToolTip(value)
            if column == 0:
                item.setData(Qt.ItemDataRole.UserRole, event.when.isoformat(timespec="seconds"))
            self.table.setItem(row, column, item)
        self.table.resizeRowToContents(row)

    def showEvent(self, event) -> None:  # noqa: N802 - Qt naming
        super().showEvent(event)
        self.table.resizeRowsToContents()  # the columns have their real widths only now

    def events(self) -> list[FallbackEvent]:
        return list(self._events)

    def _describe(self, event: FallbackEvent) -> str:
        return "\n".join([
            f"{tr('When')}: {event.when.strftime('%Y-%m-%d %H:%M:%S')}",
            f"{tr('Job')}: {event.job}",
            f"{tr('Stage')}: {event.stage}",
            f"{tr('Error')}: {event.error}",
            f"{tr('Suggested fix')}: {event.fix}",
        ])

    def _show_selected(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        if rows:
            self.details.setPlainText(self._describe(self._events[rows[0].row()]))

    def copy_all(self) -> None:
        QGuiApplication.clipboard().setText("\n\n".join(self._describe(e) for e in self._events))
