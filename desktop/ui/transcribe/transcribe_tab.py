"""The Transcribe tab: drop recordings in, watch them run one at a time, edit the text, export subtitles."""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QEvent, Qt, Signal, Slot
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from desktop.core.common.errors import UserFacingError
from desktop.core.transcription.transcript import Transcript
from desktop.engines.transcription.transcriber import TranscribeSettings
from desktop.settings import Settings
from desktop.ui.common.i18n import translated
from desktop.ui.common.replace_prompt import ask_replace
from desktop.ui.common.styles import ERROR_STYLE
from desktop.ui.transcribe.icons import icon
from desktop.ui.transcribe.options_bar import OptionsBar
from desktop.ui.transcribe.queue_panel import QueuePanel
from desktop.ui.transcribe.transcript_panel import TranscriptPanel
from desktop.workers.job import Job, JobReport, JobRunner
from desktop.workers.transcription_queue import ItemState, QueueItem, TranscriptionQueue

log = logging.getLogger(__name__)

EXPORT_FORMATS = ("srt", "vtt", "txt", "json")
_FORMAT_LABELS = {"srt": "SRT", "vtt": "WebVTT", "json": "JSON"}  # names of formats; "Text" is translated


@dataclass
class _ExportTask:
    transcript: Transcript
    fmt: str
    path: Path


@dataclass
class _ExportOutcome:
    written: list[Path] = field(default_factory=list)
    existing: list[_ExportTask] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _run_exports(tasks: list[_ExportTask], overwrite: bool, limits, report: JobReport) -> _ExportOutcome:
    from desktop.core.transcription import subtitles
    from desktop.core.common.atomic import ExportExists

    outcome = _ExportOutcome()
    for number, task in enumerate(tasks):
        if report.cancelled():
            break
        try:
            subtitles.export(task.transcript, task.path, task.fmt, overwrite=overwrite, limits=limits)
            outcome.written.append(task.path)
        except ExportExists:
            outcome.existing.append(task)
        except UserFacingError as error:
            if error.message not in outcome.problems:
                outcome.problems.append(error.message)  # a core Message: translated where it is shown
        report.progress((number + 1) / len(tasks))
    return outcome


class TranscribeTab(QWidget):
    status_message = Signal(str)  # a sentence for the window's status bar
    export_available = Signal(bool, bool)  # (the selected file can be exported, any file can)

    def __init__(self, settings: Settings, transcriber, store, runner: JobRunner, parent: QWidget | None = None):
        super().__init__(parent)
        self._settings = settings
        self._store = store
        self._runner = runner
        self._export_job: Job | None = None
        self._pending_replace: list[_ExportTask] = []  # files that exist, to ask about once the job ends
        self.options = OptionsBar(settings, store, runner)
        self.queue = TranscriptionQueue(transcriber, runner, self.options.transcribe_settings, self)
        self.queue_panel = QueuePanel(self.queue, runner)
        self.transcript_panel = TranscriptPanel(runner)
        self.setAcceptDrops(True)
        self._build()
        self._connect()
        self._load_choices()
        self.retranslate()
        self.options.refresh_models()
        self._update_actions()

    # -- building ------------------------------------------------------------------------------

    def _build(self) -> None:
        # The widgets the main window's and the settings' tests reach on the tab itself.
        self.model_combo = self.options.model_combo
        self.language_combo = self.options.language_combo
        self.task_combo = self.options.task_combo
        self.prompt_edit = self.options.prompt_edit

        self.add_button = self.queue_panel.add_button
        self.queue_view = self.queue_panel.view
        self.queue_model = self.queue_panel.model

        self.result_title = self.transcript_panel.title

        # Export.
        self.format_boxes: dict[str, QCheckBox] = {}
        export_bar = QHBoxLayout()
        self.export_as_label = QLabel()
        export_bar.addWidget(self.export_as_label)
        for fmt in EXPORT_FORMATS:
            box = QCheckBox(_FORMAT_LABELS.get(fmt, ""))
            self.format_boxes[fmt] = box
            export_bar.addWidget(box)
        export_bar.addSpacing(12)
        self.save_to_label = QLabel()
        export_bar.addWidget(self.save_to_label)
        self.folder_combo = QComboBox()
        self.folder_combo.setMinimumWidth(220)
        self.folder_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.folder_combo.setMinimumContentsLength(24)
        export_bar.addWidget(self.folder_combo, 1)
        self.export_button = QPushButton(icon("export"), "")
        self.export_all_button = QPushButton()
        export_bar.addWidget(self.export_button)
        export_bar.addWidget(self.export_all_button)
        self.export_note = QLabel()
        self.export_note.setWordWrap(True)
        self.export_note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.export_note.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)

        result_box = QWidget()
        result_layout = QVBoxLayout(result_box)
        result_layout.setContentsMargins(0, 0, 0, 0)
        result_layout.addWidget(self.transcript_panel, 1)
        result_layout.addLayout(export_bar)
        result_layout.addWidget(self.export_note)

        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.queue_panel)
        splitter.addWidget(result_box)
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 3)
        splitter.setChildrenCollapsible(False)

        layout = QVBoxLayout(self)
        layout.addWidget(self.options)
        layout.addWidget(splitter, 1)
        self.setMinimumSize(720, 480)

    def retranslate(self) -> None:
        """Set every text of the tab; called at start and when the interface language changes."""
        self.export_as_label.setText(self.tr("Export as:"))
        self.format_boxes["txt"].setText(self.tr("Text"))
        self.save_to_label.setText(self.tr("Save to:"))
        self.export_button.setText(self.tr("Export"))
        self.export_all_button.setText(self.tr("Export all"))
        self.folder_combo.setItemText(0, self.tr("Next to each recording"))
        self.folder_combo.setItemText(self.folder_combo.count() - 1, self.tr("Choose a folder…"))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def _connect(self) -> None:
        self.queue_panel.selection_changed.connect(self._on_selection_changed)
        self.queue_panel.status_message.connect(self.status_message)
        self.queue.item_added.connect(self._update_actions)
        self.queue.item_changed.connect(self.transcript_panel.on_item_changed)
        self.queue.segment_added.connect(self.transcript_panel.on_segment_added)
        self.queue.item_finished.connect(self.transcript_panel.on_item_finished)
        self.queue.item_removed.connect(self._on_item_removed)
        for signal in (self.queue.item_changed, self.queue.item_finished):
            signal.connect(self._update_actions)
        self.queue.model_needed.connect(self._on_model_needed)
        self.queue.notice.connect(lambda text: self.status_message.emit(translated(text)))

        self.options.model_changed.connect(self.queue.release_model)

        self.transcript_panel.status_message.connect(self.status_message)

        for box in self.format_boxes.values():
            box.toggled.connect(self._save_formats)
        self.folder_combo.activated.connect(self._on_folder_chosen)
        self.export_button.clicked.connect(self.export_selected)
        self.export_all_button.clicked.connect(self.export_all)

    # -- the user's choices --------------------------------------------------------------------

    def _load_choices(self) -> None:
        settings = self._settings
        chosen = {f.strip() for f in settings.get("transcribe/export_formats").split(",")}
        for fmt, box in self.format_boxes.items():
            box.blockSignals(True)
            box.setChecked(fmt in chosen)
            box.blockSignals(False)
        self._fill_folder_combo(settings.get("transcribe/export_folder"))

    @Slot()
    def _save_formats(self) -> None:
        self._settings.set("transcribe/export_formats", ",".join(self.export_formats()))
        self._update_actions()

    def export_formats(self) -> list[str]:
        return [fmt for fmt, box in self.format_boxes.items() if box.isChecked()]

    def export_folder(self) -> Path | None:
        """The folder chosen for exports; None means next to each recording."""
        folder = self.folder_combo.currentData()
        return Path(folder) if folder else None

    def _fill_folder_combo(self, folder: str) -> None:
        self.folder_combo.clear()
        self.folder_combo.addItem(self.tr("Next to each recording"), "")
        if folder:
            self.folder_combo.addItem(folder, folder)
            self.folder_combo.setItemData(1, folder, Qt.ItemDataRole.ToolTipRole)
        self.folder_combo.addItem(self.tr("Choose a folder…"), None)
        self.folder_combo.setCurrentIndex(1 if folder else 0)

    def set_export_folder(self, folder: Path | None) -> None:
        value = str(folder) if folder else ""
        self._settings.set("transcribe/export_folder", value)
        self._fill_folder_combo(value)

    @Slot(int)
    def _on_folder_chosen(self, index: int) -> None:
        if self.folder_combo.itemData(index) is None:  # "Choose a folder…"
            start = self._settings.get("transcribe/export_folder") or str(Path.home())
            folder = QFileDialog.getExistingDirectory(self, self.tr("Save exports in"), start)
            self.set_export_folder(Path(folder) if folder else self.export_folder())
            return
        self._settings.set("transcribe/export_folder", self.folder_combo.itemData(index))

    def transcribe_settings(self) -> TranscribeSettings:
        return self.options.transcribe_settings()

    def refresh_models(self, select: str | None = None) -> None:
        self.options.refresh_models(select)

    # -- adding files --------------------------------------------------------------------------

    @Slot()
    def choose_files(self) -> None:
        self.queue_panel.choose_files()

    def add_paths(self, paths: list[Path | str]) -> None:
        self.queue_panel.add_paths(paths)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 - Qt naming
        if event.mimeData().hasUrls() and any(url.isLocalFile() for url in event.mimeData().urls()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event) -> None:  # noqa: N802 - Qt naming
        event.acceptProposedAction() if event.mimeData().hasUrls() else event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 - Qt naming
        paths = [Path(url.toLocalFile()) for url in event.mimeData().urls() if url.isLocalFile()]
        if not paths:
            event.ignore()
            return
        event.acceptProposedAction()
        self.add_paths(paths)

    # -- the queue -----------------------------------------------------------------------------

    def selected_item(self) -> QueueItem | None:
        return self.queue_panel.selected_item()

    @Slot()
    def _on_selection_changed(self) -> None:
        self.transcript_panel.show_item(self.selected_item())
        self._update_actions()

    @Slot(object)
    def _on_item_removed(self, item: QueueItem) -> None:
        if item is self.transcript_panel.shown_item:
            self.transcript_panel.show_item(self.selected_item())
        self._update_actions()

    def _update_actions(self) -> None:
        all_items = self.queue.items
        formats = bool(self.export_formats())
        idle = self._export_job is None
        one = self._exportable(self.selected_item())
        anything = any(self._exportable(i) for i in all_items)
        self.export_button.setEnabled(formats and idle and one)
        self.export_all_button.setEnabled(formats and idle and anything)
        self.export_available.emit(idle and one, idle and anything)

    @staticmethod
    def _exportable(item: QueueItem | None) -> bool:
        return (item is not None and item.state is ItemState.DONE and item.transcript is not None
                and not item.transcript.is_empty)

    # -- the model download --------------------------------------------------------------------

    def _on_model_needed(self, name: str, fmt: str) -> None:
        from desktop.ui.transcribe.model_dialogs import DownloadDialog

        dialog = DownloadDialog(self._store, self._runner, name, fmt, self)
        dialog.finished.connect(dialog.deleteLater)
        dialog.downloaded.connect(self._on_model_downloaded)
        dialog.failed.connect(self.queue.model_unavailable)
        dialog.cancelled.connect(lambda: self.queue.model_unavailable(None))
        dialog.open()

    @Slot()
    def _on_model_downloaded(self) -> None:
        self.refresh_models()
        self.queue.model_ready()

    # -- export --------------------------------------------------------------------------------

    @Slot()
    def export_selected(self) -> None:
        item = self.selected_item()
        if self._exportable(item):
            self._export([item])

    @Slot()
    def export_all(self) -> None:
        done = self.queue.with_state(ItemState.DONE)
        items = [item for item in done if self._exportable(item)]
        skipped = len(done) - len(items)
        if skipped:
            self.status_message.emit(self.tr("{count} file(s) with no speech were skipped.").format(count=skipped))
        if items:
            self._export(items)

    def _export(self, items: list[QueueItem]) -> None:
        from desktop.core.transcription.subtitles import default_export_path

        formats = self.export_formats()
        if not formats or self._export_job is not None:
            return
        folder = self.export_folder()
        tasks = []
        for item in items:
            # A copy: the user may go on editing while the files are written on another thread.
            transcript = Transcript.from_dict(item.transcript.to_dict())
            for fmt in formats:
                tasks.append(_ExportTask(transcript, fmt, Path(default_export_path(item.path, fmt, folder))))
        self._start_export(tasks, overwrite=False)

    def _start_export(self, tasks: list[_ExportTask], overwrite: bool) -> None:
        limits = self._settings.line_limits()

        def work(report: JobReport) -> _ExportOutcome:
            return _run_exports(tasks, overwrite, limits, report)

        job = Job(work, name="export")
        job.result.connect(self._on_exported)
        job.failed.connect(self._on_export_failed)
        job.finished.connect(self._on_export_finished)
        self._export_job = job
        self.export_note.setText(self.tr("Saving…"))
        self.export_note.setStyleSheet("")
        self._update_actions()
        self._runner.start(job)

    @Slot(object)
    def _on_exported(self, outcome: _ExportOutcome) -> None:
        self._report_export(outcome.written, outcome.problems)
        self._pending_replace = outcome.existing

    @Slot(object)
    def _on_export_failed(self, message: str) -> None:
        self._report_export([], [message])

    @Slot()
    def _on_export_finished(self) -> None:
        self._export_job = None
        pending, self._pending_replace = self._pending_replace, []
        self._update_actions()
        if pending:
            # Asked only after the job's thread is done, so the question never waits on a file.
            if ask_replace(self, [task.path for task in pending]):
                self._start_export(pending, overwrite=True)
            else:
                self.export_note.setText(self.tr("Existing files were kept."))

    def _report_export(self, written: list[Path], problems: list[str]) -> None:
        lines = []
        if len(written) == 1:
            lines.append(self.tr("Saved “{name}” in {folder}.").format(name=written[0].name, folder=written[0].parent))
        elif written:
            folders = {p.parent for p in written}
            where = str(next(iter(folders))) if len(folders) == 1 else self.tr("next to the recordings")
            lines.append(self.tr("Saved {count} files in {folder}.").format(count=len(written), folder=where))
        problems = [translated(problem) for problem in problems]
        lines.extend(problems)
        self.export_note.setText("\n".join(lines))
        self.export_note.setStyleSheet(ERROR_STYLE if problems else "")
        if lines:
            self.status_message.emit(lines[0] if not problems else problems[0])

    # -- closing -------------------------------------------------------------------------------

    def shutdown(self) -> None:
        """The window is closing: keep the choices, stop transcribing, playing and exporting."""
        self.options.shutdown()
        self.queue.shutdown()
        self.queue_panel.shutdown()
        self.transcript_panel.player.stop()
        if self._export_job is not None:
            self._export_job.cancel()
