"""The files to transcribe: the list with each file's progress, and the buttons that add, stop, retry and remove."""
from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QEvent, Qt, Signal, Slot
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.common.tab_jobs import TabJobs
from desktop.ui.common.icons import icon
from desktop.ui.transcribe import remove_prompt
from desktop.ui.transcribe.queue_model import ProgressDelegate, QueueModel
from desktop.workers.job import JobReport, JobRunner
from desktop.workers.transcription_queue import ItemState, QueueItem, TranscriptionQueue


def expand_paths(paths: list[Path]) -> tuple[list[Path], list[Path]]:
    """Files as they are; folders (and their sub-folders) replaced by the audio and video files in them.

    Returns (files, folders in which nothing playable was found). Hidden files and folders are skipped.
    """
    from desktop.core.common.audio import is_media_file

    files: list[Path] = []
    empty: list[Path] = []
    for path in paths:
        if not path.is_dir():
            files.append(path)
            continue
        found = []
        for root, dirs, names in os.walk(path):
            dirs[:] = sorted((d for d in dirs if not d.startswith(".")), key=str.casefold)
            found.extend(Path(root) / n for n in sorted(names, key=str.casefold)
                         if not n.startswith(".") and is_media_file(n))
        if not found:
            empty.append(path)
        files.extend(found)
    return files, empty


class QueuePanel(QWidget):
    selection_changed = Signal()
    status_message = Signal(str)  # a sentence for the window's status bar
    removed = Signal(object, bool)  # (QueueItems taken off the list, keep their saved transcripts)

    def __init__(self, queue: TranscriptionQueue, runner: JobRunner, parent: QWidget | None = None):
        super().__init__(parent)
        self._queue = queue
        self._jobs = TabJobs(runner, self)
        self._build()
        self._connect()
        self.retranslate()
        self._update_buttons()

    def _build(self) -> None:
        self.add_button = QPushButton(icon("add-files"), "")
        self.start_button = QPushButton()
        self.cancel_button = QPushButton(icon("cancel"), "")
        self.cancel_all_button = QPushButton()
        self.retry_button = QPushButton(icon("retry"), "")
        self.remove_button = QPushButton(icon("remove"), "")
        self.model = QueueModel(self._queue, self)
        self.view = self._build_view()
        self.drop_hint = QLabel()
        self.drop_hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.drop_hint.setWordWrap(True)
        self.drop_hint.setStyleSheet("color: palette(mid); font-size: 11pt; padding: 8px;")

        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addStretch(1)
        for button in (self.start_button, self.cancel_button, self.cancel_all_button, self.retry_button,
                       self.remove_button):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(buttons)
        layout.addWidget(self.drop_hint)
        layout.addWidget(self.view, 1)

    def _build_view(self) -> QTableView:
        view = QTableView()
        view.setModel(self.model)
        view.setItemDelegateForColumn(QueueModel.PROGRESS, ProgressDelegate(view))
        view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        view.verticalHeader().hide()
        view.setAlternatingRowColors(True)
        view.setWordWrap(False)
        view.setMinimumHeight(140)
        header = view.horizontalHeader()
        header.setSectionResizeMode(QueueModel.FILE, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(QueueModel.STATUS, QHeaderView.ResizeMode.Stretch)
        for column in (QueueModel.DURATION, QueueModel.ELAPSED, QueueModel.LEFT):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(QueueModel.PROGRESS, QHeaderView.ResizeMode.Fixed)
        header.resizeSection(QueueModel.FILE, 240)
        header.resizeSection(QueueModel.PROGRESS, 110)
        return view

    def _connect(self) -> None:
        self.add_button.clicked.connect(self.choose_files)
        self.start_button.clicked.connect(self._queue.resume)
        self.cancel_button.clicked.connect(lambda: self._queue.cancel(self.selected_items()))
        self.cancel_all_button.clicked.connect(self._queue.cancel_all)
        self.retry_button.clicked.connect(self._queue.retry_failed)
        self.remove_button.clicked.connect(self.remove_selected)
        remove_key = QShortcut(QKeySequence(QKeySequence.StandardKey.Delete), self.view)
        remove_key.setContext(Qt.ShortcutContext.WidgetShortcut)
        remove_key.activated.connect(self.remove_selected)

        self.view.selectionModel().selectionChanged.connect(self._on_selection_changed)
        self.model.rowsInserted.connect(self._on_rows_changed)
        self.model.rowsRemoved.connect(self._on_rows_changed)
        for signal in (self._queue.item_changed, self._queue.item_finished, self._queue.item_removed):
            signal.connect(self._update_buttons)

    def retranslate(self) -> None:
        """Set every text; called at start and when the interface language changes."""
        self.add_button.setText(self.tr("Add files…"))
        self.start_button.setText(self.tr("Start"))
        self.start_button.setToolTip(self.tr("Transcribe the files that were still waiting when VoxDesk closed"))
        self.cancel_button.setText(self.tr("Cancel"))
        self.cancel_all_button.setText(self.tr("Cancel all"))
        self.retry_button.setText(self.tr("Retry failed"))
        self.remove_button.setText(self.tr("Remove"))
        self.cancel_button.setToolTip(self.tr("Stop the selected files"))
        self.remove_button.setToolTip(self.tr("Take the selected files off the list"))
        self.drop_hint.setText(self.tr("Drop recordings, videos or folders here, or click “Add files…”."))
        self.model.retranslate()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    # -- adding files --------------------------------------------------------------------------

    @Slot()
    def choose_files(self) -> None:
        from desktop.core.common.audio import SUPPORTED_EXTENSIONS

        patterns = " ".join(f"*.{ext}" for ext in sorted(SUPPORTED_EXTENSIONS))
        names, _ = QFileDialog.getOpenFileNames(
            self, self.tr("Add recordings or videos"), "",
            self.tr("Audio and video ({patterns});;All files (*)").format(patterns=patterns),
        )
        if names:
            self.add_paths([Path(n) for n in names])

    def add_paths(self, paths: list[Path | str]) -> None:
        """Queue files and the media files inside folders; folders are read on a worker thread."""
        paths = [Path(p) for p in paths]

        def work(report: JobReport) -> tuple[list[Path], list[Path]]:
            return expand_paths(paths)

        self._jobs.start("read dropped folders", work, on_result=self._on_paths_expanded)

    def _on_paths_expanded(self, expanded: tuple[list[Path], list[Path]]) -> None:
        files, empty = expanded
        for folder in empty:
            self.status_message.emit(self.tr("No audio or video files were found in “{name}”.").format(name=folder.name))
        added = self._queue.add(files)
        if files and not added:
            self.status_message.emit(self.tr("These files are already in the list."))
        if added and not self.selected_items():
            self.view.selectRow(self.model.row_of(added[0]))

    # -- the selection -------------------------------------------------------------------------

    def selected_items(self) -> list[QueueItem]:
        rows = sorted({index.row() for index in self.view.selectionModel().selectedRows()})
        return [self.model.item(row) for row in rows]

    def selected_item(self) -> QueueItem | None:
        """The current file when it is selected, else the first selected one."""
        current = self.view.selectionModel().currentIndex()
        selected = self.selected_items()
        if current.isValid() and self.model.item(current.row()) in selected:
            return self.model.item(current.row())
        return selected[0] if selected else None

    @Slot()
    def remove_selected(self) -> None:
        """Take the selected files off the list, asking first what becomes of their saved transcripts."""
        items = self.selected_items()
        if not items:
            return
        keep = True
        with_transcript = [item.path.name for item in items if item.transcript is not None]
        if with_transcript:
            changed = [item.path.name for item in items if self.model.changed_since_export(item)]
            keep = remove_prompt.ask_keep_transcripts(self, with_transcript, changed)
            if keep is None:
                return
        self._queue.remove(items)
        self.removed.emit(items, keep)

    @Slot()
    def _on_selection_changed(self) -> None:
        self.selection_changed.emit()
        self._update_buttons()

    @Slot()
    def _on_rows_changed(self) -> None:
        self.drop_hint.setVisible(self.model.rowCount() == 0)
        self._update_buttons()

    @Slot()
    def _update_buttons(self) -> None:
        states = {item.state for item in self.selected_items()}
        self.cancel_button.setEnabled(bool(states & {ItemState.WAITING, ItemState.RUNNING}))
        self.remove_button.setEnabled(bool(states))
        items = self._queue.items
        self.start_button.setVisible(self._queue.held)
        self.cancel_all_button.setEnabled(any(i.state in (ItemState.WAITING, ItemState.RUNNING) for i in items))
        self.retry_button.setEnabled(any(i.state is ItemState.FAILED for i in items))

    def shutdown(self) -> None:
        """The window is closing: no folder read after this adds files."""
        self._jobs.cancel_all()
