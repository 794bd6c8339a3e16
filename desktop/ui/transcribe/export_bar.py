"""Export: which subtitle and text formats, into which folder, and the note saying what was saved."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QEvent, Qt, Signal, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from desktop.core.common.errors import UserFacingError
from desktop.core.transcription.transcript import Transcript
from desktop.settings import Settings
from desktop.ui.common.i18n import translated
from desktop.ui.common.replace_prompt import ask_replace
from desktop.ui.common.styles import ERROR_STYLE
from desktop.ui.common.tab_jobs import TabJobs
from desktop.ui.common.icons import icon
from desktop.ui.transcribe.export_done import ExportDoneMessage
from desktop.workers.job import JobReport, JobRunner
from desktop.workers.transcription_queue import QueueItem

EXPORT_FORMATS = ("srt", "vtt", "txt", "json")
_FORMAT_LABELS = {"srt": "SRT", "vtt": "WebVTT", "json": "JSON"}  # names of formats; "Text" is translated
_EXPORT_JOB = "export"


@dataclass
class _ExportTask:
    transcript: Transcript
    fmt: str
    path: Path
    item: QueueItem
    renamed: bool = False  # numbered, so as not to replace another file of the same export


@dataclass
class _ExportOutcome:
    written: list[_ExportTask] = field(default_factory=list)
    existing: list[_ExportTask] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _write_exports(tasks: list[_ExportTask], overwrite: bool, limits, report: JobReport) -> _ExportOutcome:
    from desktop.core.common.atomic import ExportExists
    from desktop.core.transcription import subtitles

    outcome = _ExportOutcome()
    for number, task in enumerate(tasks):
        if report.cancelled():
            break
        try:
            subtitles.export(task.transcript, task.path, task.fmt, overwrite=overwrite, limits=limits)
            outcome.written.append(task)
        except ExportExists:
            outcome.existing.append(task)
        except UserFacingError as error:
            if error.message not in outcome.problems:
                outcome.problems.append(error.message)  # a core Message: translated where it is shown
        report.progress((number + 1) / len(tasks))
    return outcome


class ExportBar(QWidget):
    status_message = Signal(str)  # a sentence for the window's status bar
    availability_changed = Signal(bool, bool)  # (the selected file can be exported now, any file can)
    exported = Signal(object)  # the QueueItems of which at least one file was just written

    def __init__(self, settings: Settings, runner: JobRunner, parent: QWidget | None = None):
        super().__init__(parent)
        self._settings = settings
        self._jobs = TabJobs(runner, self)
        self._pending_replace: list[_ExportTask] = []  # files that exist, to ask about once the job ends
        self._written: list[Path] = []  # by this export so far (before and after the replace question)
        self.done_message: ExportDoneMessage | None = None  # the message after the last export
        self._selected_exportable = False
        self._any_exportable = False
        self._build()
        self._load_choices()
        for box in self.format_boxes.values():
            box.toggled.connect(self._save_formats)
        self.folder_combo.activated.connect(self._on_folder_chosen)
        self._jobs.changed.connect(self._on_jobs_changed)
        self.retranslate()
        self._update_buttons()

    def _build(self) -> None:
        self.export_as_label = QLabel()
        self.format_boxes = {fmt: QCheckBox(_FORMAT_LABELS.get(fmt, "")) for fmt in EXPORT_FORMATS}
        self.save_to_label = QLabel()
        self.folder_combo = QComboBox()
        self.folder_combo.setMinimumWidth(220)
        self.folder_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.folder_combo.setMinimumContentsLength(24)
        self.export_button = QPushButton(icon("export"), "")
        self.export_all_button = QPushButton()
        self.changed_note = QLabel()  # the selected transcript changed since it was exported
        self.changed_note.setObjectName("changed-since-export")
        self.changed_note.setWordWrap(True)
        self.changed_note.setTextFormat(Qt.TextFormat.PlainText)
        self.changed_note.setVisible(False)
        self._exported_to: Path | None = None
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.note.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)

        row = QHBoxLayout()
        row.addWidget(self.export_as_label)
        for box in self.format_boxes.values():
            row.addWidget(box)
        row.addSpacing(12)
        row.addWidget(self.save_to_label)
        row.addWidget(self.folder_combo, 1)
        row.addWidget(self.export_button)
        row.addWidget(self.export_all_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.changed_note)
        layout.addWidget(self.note)

    def retranslate(self) -> None:
        """Set every text; called at start and when the interface language changes."""
        self.export_as_label.setText(self.tr("Export as:"))
        self.format_boxes["txt"].setText(self.tr("Text"))
        self.save_to_label.setText(self.tr("Save to:"))
        self.export_button.setText(self.tr("Export"))
        self.export_all_button.setText(self.tr("Export all"))
        self.folder_combo.setItemText(0, self.tr("Next to each recording"))
        self.folder_combo.setItemText(self.folder_combo.count() - 1, self.tr("Choose a folder…"))
        self._say_changed_since_export()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    # -- formats and folder --------------------------------------------------------------------

    def _load_choices(self) -> None:
        chosen = {f.strip() for f in self._settings.get("transcribe/export_formats").split(",")}
        for fmt, box in self.format_boxes.items():
            box.blockSignals(True)
            box.setChecked(fmt in chosen)
            box.blockSignals(False)
        self._fill_folder_combo(self._settings.get("transcribe/export_folder"))

    @Slot()
    def _save_formats(self) -> None:
        self._settings.set("transcribe/export_formats", ",".join(self.export_formats()))
        self._update_buttons()

    def export_formats(self) -> list[str]:
        return [fmt for fmt, box in self.format_boxes.items() if box.isChecked()]

    def export_folder(self) -> Path | None:
        """The folder chosen for exports; None means next to each recording."""
        folder = self.folder_combo.currentData()
        return Path(folder) if folder else None

    def set_export_folder(self, folder: Path | None) -> None:
        value = str(folder) if folder else ""
        self._settings.set("transcribe/export_folder", value)
        self._fill_folder_combo(value)

    def _fill_folder_combo(self, folder: str) -> None:
        self.folder_combo.clear()
        self.folder_combo.addItem(self.tr("Next to each recording"), "")
        if folder:
            self.folder_combo.addItem(folder, folder)
            self.folder_combo.setItemData(1, folder, Qt.ItemDataRole.ToolTipRole)
        self.folder_combo.addItem(self.tr("Choose a folder…"), None)
        self.folder_combo.setCurrentIndex(1 if folder else 0)

    @Slot(int)
    def _on_folder_chosen(self, index: int) -> None:
        if self.folder_combo.itemData(index) is None:  # "Choose a folder…"
            start = self._settings.get("transcribe/export_folder") or str(Path.home())
            folder = QFileDialog.getExistingDirectory(self, self.tr("Save exports in"), start)
            self.set_export_folder(Path(folder) if folder else self.export_folder())
            return
        self._settings.set("transcribe/export_folder", self.folder_combo.itemData(index))

    # -- the buttons ---------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        return self._jobs.running(_EXPORT_JOB)

    def set_changed_since_export(self, exported_to: Path | None) -> None:
        """The selected transcript changed since it was exported into that folder (None: it did not, or
        was not exported in this session)."""
        self._exported_to = exported_to
        self._say_changed_since_export()

    def _say_changed_since_export(self) -> None:
        folder = self._exported_to
        self.changed_note.setVisible(folder is not None)
        if folder is not None:
            self.changed_note.setText(self.tr("• This transcript changed since you exported it to “{folder}”: "
                                              "export it again to update the files.").format(folder=str(folder)))

    def set_exportable(self, selected: bool, any_file: bool) -> None:
        """Whether the selected file, and any file, has a transcript to export."""
        self._selected_exportable = selected
        self._any_exportable = any_file
        self._update_buttons()

    def _update_buttons(self) -> None:
        formats = bool(self.export_formats())
        idle = not self.busy
        self.export_button.setEnabled(formats and idle and self._selected_exportable)
        self.export_all_button.setEnabled(formats and idle and self._any_exportable)
        self.availability_changed.emit(idle and self._selected_exportable, idle and self._any_exportable)

    # -- writing the files ---------------------------------------------------------------------

    def export(self, items: list[QueueItem]) -> None:
        """Write the transcripts of items in every chosen format, asking before replacing a file.

        Two recordings with the same name never write the same file: the later one is numbered."""
        from desktop.core.transcription.export_plan import plan_exports
        from desktop.core.transcription.subtitles import default_export_path

        formats = self.export_formats()
        if not formats or self.busy:
            return
        folder = self.export_folder()
        tasks = []
        for item, paths in zip(items, plan_exports([item.path for item in items], formats, folder)):
            # A copy: the user may go on editing while the files are written on another thread.
            transcript = item.transcript.snapshot()
            for fmt, path in paths.items():
                renamed = path != Path(default_export_path(item.path, fmt, folder))
                tasks.append(_ExportTask(transcript, fmt, path, item, renamed))
        self._written = []
        if self.done_message is not None:  # the last export's message makes way for this one's
            self.done_message.close()
            self.done_message.deleteLater()
            self.done_message = None
        self._start(tasks, overwrite=False)

    def _start(self, tasks: list[_ExportTask], overwrite: bool) -> None:
        limits = self._settings.line_limits()

        def work(report: JobReport) -> _ExportOutcome:
            return _write_exports(tasks, overwrite, limits, report)

        self.note.setText(self.tr("Saving…"))
        self.note.setStyleSheet("")
        self._jobs.start(_EXPORT_JOB, work, on_result=self._on_exported, on_failed=self._on_failed)

    def _on_exported(self, outcome: _ExportOutcome) -> None:
        self._show_result(outcome.written, outcome.problems)
        self._pending_replace = outcome.existing
        self._written += [task.path for task in outcome.written]
        if outcome.written:
            self.exported.emit(list({id(task.item): task.item for task in outcome.written}.values()))

    def _on_failed(self, message: str) -> None:
        self._show_result([], [message])

    @Slot()
    def _on_jobs_changed(self) -> None:
        self._update_buttons()
        if self.busy:
            return
        if self._pending_replace:
            pending, self._pending_replace = self._pending_replace, []
            # Asked only after the job's thread is done, so the question never waits on a file.
            if ask_replace(self, [task.path for task in pending]):
                self._start(pending, overwrite=True)
                return
            self.note.setText(self.tr("Existing files were kept."))
        self._offer_written()

    def _offer_written(self) -> None:
        """Once the export is over: the message offering to open what it wrote."""
        written, self._written = self._written, []
        if written:
            self.done_message = ExportDoneMessage(written, self.window())
            # Not modal: the user can go on editing or exporting while it is open.
            self.done_message.setWindowModality(Qt.WindowModality.NonModal)
            self.done_message.show()

    def _show_result(self, written: list[_ExportTask], problems: list[str]) -> None:
        lines = []
        if len(written) == 1:
            path = written[0].path
            lines.append(self.tr("Saved “{name}” in {folder}.").format(name=path.name, folder=path.parent))
        elif written:
            folders = {task.path.parent for task in written}
            where = str(next(iter(folders))) if len(folders) == 1 else self.tr("next to the recordings")
            lines.append(self.tr("Saved {count} files in {folder}.").format(count=len(written), folder=where))
        lines.extend(self._renamed_lines(written))
        problems = [translated(problem) for problem in problems]
        lines.extend(problems)
        self.note.setText("\n".join(lines))
        self.note.setStyleSheet(ERROR_STYLE if problems else "")
        if lines:
            self.status_message.emit(lines[0] if not problems else problems[0])

    def _renamed_lines(self, written: list[_ExportTask]) -> list[str]:
        """One line per recording whose files were numbered: where they went instead."""
        renamed: dict[int, list[_ExportTask]] = {}
        for task in written:
            if task.renamed:
                renamed.setdefault(id(task.item), []).append(task)
        return [
            self.tr("“{recording}” was saved as {names}, so that it does not replace another file of this "
                    "export.").format(recording=tasks[0].item.path.name,
                                      names=", ".join(f"“{task.path.name}”" for task in tasks))
            for tasks in renamed.values()
        ]

    def shutdown(self) -> None:
        """The window is closing: stop writing files."""
        self._jobs.cancel_all()
