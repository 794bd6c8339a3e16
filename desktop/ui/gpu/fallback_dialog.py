"""The list of every GPU -> CPU fallback of this session: when, which job, which step, the error, the fix."""
from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
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

from desktop.core.gpu.fallback import FallbackEvent
from desktop.ui.common.i18n import translated


class FallbackDialog(QDialog):
    COLUMN_COUNT = 5  # when, job, stage, error, suggested fix

    def __init__(self, events: list[FallbackEvent], parent: QWidget | None = None):
        super().__init__(parent)
        self.resize(900, 380)
        self._events: list[FallbackEvent] = []

        self.intro = QLabel()
        self.intro.setWordWrap(True)

        self.table = QTableWidget(0, self.COLUMN_COUNT, self)
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

        self.copy_button = QPushButton(self)
        self.copy_button.clicked.connect(self.copy_all)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.details)
        layout.addWidget(buttons)

        for event in events:
            self.add_event(event)
        if events:
            self.table.selectRow(0)
        self.retranslate()

    def retranslate(self) -> None:
        """Set every text (the rows too); called at start and when the interface language changes."""
        self._say_what_failed()
        self.table.setHorizontalHeaderLabels(self._headers())
        self.copy_button.setText(self.tr("Copy all"))
        for row, event in enumerate(self._events):
            self._fill_row(row, event)
        self._show_selected()

    def _say_what_failed(self) -> None:
        """The title and the sentence above the list: the GPU, the transcription server, or both."""
        from_server = sum(event.from_server for event in self._events)
        if from_server == 0:
            self.setWindowTitle(self.tr("CPU fallbacks"))
            self.intro.setText(self.tr("These jobs could not finish on the GPU, so VoxDesk finished them on the CPU."))
        elif from_server == len(self._events):
            self.setWindowTitle(self.tr("Server fallbacks"))
            self.intro.setText(self.tr("The transcription server failed on these jobs, so VoxDesk finished them on "
                                       "this computer."))
        else:
            self.setWindowTitle(self.tr("Fallbacks"))
            self.intro.setText(self.tr("These jobs could not finish on the GPU or on the transcription server, so "
                                       "VoxDesk finished them on this computer."))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def _headers(self) -> list[str]:
        return [self.tr("When"), self.tr("Job"), self.tr("Stage"), self.tr("Error"), self.tr("Suggested fix")]

    def add_event(self, event: FallbackEvent) -> None:
        """Append a row; the dialog stays current while it is open."""
        self._events.append(event)
        self._say_what_failed()
        row = self.table.rowCount()
        self.table.insertRow(row)
        self._fill_row(row, event)
        self.table.resizeRowToContents(row)

    def _fill_row(self, row: int, event: FallbackEvent) -> None:
        values = (event.when.strftime("%H:%M:%S"), translated(event.job), translated(event.stage),
                  translated(event.error), translated(event.fix))
        for column, value in enumerate(values):
            item = QTableWidgetItem(value)
            item.setToolTip(value)
            if column == 0:
                item.setData(Qt.ItemDataRole.UserRole, event.when.isoformat(timespec="seconds"))
            self.table.setItem(row, column, item)

    def showEvent(self, event) -> None:  # noqa: N802 - Qt naming
        super().showEvent(event)
        self.table.resizeRowsToContents()  # the columns have their real widths only now

    def events(self) -> list[FallbackEvent]:
        return list(self._events)

    def _describe(self, event: FallbackEvent) -> str:
        values = (event.when.strftime("%Y-%m-%d %H:%M:%S"), translated(event.job), translated(event.stage),
                  translated(event.error), translated(event.fix))
        return "\n".join(self.tr("{name}: {value}").format(name=name, value=value)
                         for name, value in zip(self._headers(), values))

    def _show_selected(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        if rows:
            self.details.setPlainText(self._describe(self._events[rows[0].row()]))

    def copy_all(self) -> None:
        QGuiApplication.clipboard().setText("\n\n".join(self._describe(e) for e in self._events))
