"""*Transcribe again…* on the selected lines of a finished transcript: the action in the Edit menu and the
table's context menu, the dialog it opens, the job that decodes the lines' stretch of the recording, and
the one undoable edit that puts the new lines in place of the old ones.

The stretch and the edit are core's (desktop.core.transcription.region_rerun); the decoding is the
Transcriber's, the same as for a whole file (desktop.workers.transcribe_again).
"""
from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtGui import QAction

from desktop.core.transcription import region_rerun
from desktop.core.transcription.edits import EditRefused
from desktop.core.transcription.region_rerun import Region
from desktop.core.transcription.transcript import Transcript
from desktop.ui.common.i18n import translated
from desktop.ui.transcribe.editor.context import EditorContext
from desktop.ui.transcribe.editor.transcribe_again_dialog import TranscribeAgainDialog
from desktop.workers.job import Job, JobRunner
from desktop.workers.transcribe_again import transcribe_again_job
from desktop.workers.transcription_queue import ItemState, QueueItem


def copy_choices(source, target) -> None:
    """The items of one combo box (texts, data and separators) into another."""
    for index in range(source.count()):
        if source.itemData(index, Qt.ItemDataRole.AccessibleDescriptionRole) == "separator":
            target.insertSeparator(target.count())
        else:
            target.addItem(source.itemText(index), source.itemData(index))


class TranscribeAgain(QObject):
    status_message = Signal(str)  # a sentence for the window's status bar

    def __init__(self, context: EditorContext, options, transcriber, runner: JobRunner,
                 parent: QObject | None = None):
        """context: the editor whose lines are transcribed again; options: the OptionsBar whose
        choices are the dialog's defaults; transcriber: the queue's Transcriber."""
        super().__init__(parent)
        self._context = context
        self._options = options
        self._transcriber = transcriber
        self._runner = runner
        self._entries: list = []  # the model catalog as last listed
        self._dialog: TranscribeAgainDialog | None = None
        self._job: Job | None = None
        self._target: tuple[QueueItem, Transcript, Region] | None = None
        self._cancel_asked = False
        self.action = QAction(self)  # the tab lists it with the editor's line actions
        self.action.setEnabled(False)
        self.action.triggered.connect(self.open_dialog)
        context.selection_changed.connect(self._update_action)
        context.shown_changed.connect(self._update_action)
        options.models_listed.connect(self._on_models_listed)
        context.language_changed.connect(self.retranslate)
        self.retranslate()

    def retranslate(self) -> None:
        self.action.setText(self.tr("Transcribe &again…"))
        self.action.setToolTip(self.tr("Decode the selected lines again, with another model, language or prompt"))

    @property
    def busy(self) -> bool:
        """True while lines are being decoded again (until the job has ended, also after a cancel)."""
        return self._job is not None

    @Slot(object)
    def _on_models_listed(self, entries) -> None:
        self._entries = list(entries)

    @Slot()
    def _update_action(self) -> None:
        rows = self._context.selected_rows() if self._context.table.editable else []
        self.action.setEnabled(bool(rows) and rows == list(range(rows[0], rows[-1] + 1)))

    # -- the dialog ----------------------------------------------------------------------------

    @Slot()
    def open_dialog(self) -> None:
        context = self._context
        item, transcript = context.item, context.table.transcript
        if self._job is not None or item is None or transcript is None or item.state is not ItemState.DONE:
            return
        if item.source_problem:  # the recording is not the one transcribed: its times would not match
            self.status_message.emit(translated(item.source_problem))
            return
        try:
            region = region_rerun.region_of(transcript, context.selected_rows())
        except EditRefused as refused:
            self.status_message.emit(translated(refused.message))
            return
        self._target = (item, transcript, region)
        dialog = self._dialog = TranscribeAgainDialog(region, context.window())
        self._fill_choices(dialog, transcript)
        dialog.start_requested.connect(self._start)
        dialog.cancel_requested.connect(self._cancel)
        dialog.finished.connect(self._on_dialog_closed)
        dialog.open()

    def _fill_choices(self, dialog: TranscribeAgainDialog, transcript: Transcript) -> None:
        """The choices above the queue (those the files are transcribed with) as the defaults; only the
        models on this computer, as there is no download from here."""
        options = self._options
        current = options.model_combo.currentData()
        here = [entry for entry in self._entries if any(entry.downloaded.values())]
        dialog.model_combo.show_models(here, {}, current)
        copy_choices(options.language_combo, dialog.language_combo)
        language = options.language_combo.currentData()
        if language in (None, "auto") and transcript.language:
            language = transcript.language  # a few seconds are too little to tell the language by
        index = dialog.language_combo.findData(language)
        dialog.language_combo.setCurrentIndex(max(0, index))
        dialog.prompt_edit.setText(options.prompt_edit.text())

    @Slot(int)
    def _on_dialog_closed(self, _result: int) -> None:
        dialog, self._dialog = self._dialog, None
        if dialog is not None:
            dialog.deleteLater()
        if self._job is None:
            self._target = None
        # Back to the lines, so Ctrl+Z and the line edits act on them at once.
        self._context.focus_lines()

    # -- the decoding --------------------------------------------------------------------------

    @Slot()
    def _start(self) -> None:
        dialog, target = self._dialog, self._target
        if dialog is None or target is None or self._job is not None:
            return
        item, _transcript, region = target
        settings = replace(self._options.transcribe_settings(), model=dialog.model(), language=dialog.language(),
                           initial_prompt=dialog.prompt(), speakers="off")
        job = self._job = transcribe_again_job(self._transcriber, item.path, region, settings)
        self._cancel_asked = False
        # Bound slots of this GUI-thread object: Qt queues every call back to the GUI thread.
        job.progress.connect(self._on_progress)
        job.message.connect(self._on_message)
        job.result.connect(self._on_result)
        job.failed.connect(self._on_failed)
        job.was_cancelled.connect(self._on_cancelled)
        job.finished.connect(self._on_finished)
        dialog.show_running()
        self._runner.start(job)

    @Slot()
    def _cancel(self) -> None:
        if self._job is not None:
            self._cancel_asked = True  # also when the result is already on its way: it is not used
            self._job.cancel()

    def _from_job(self) -> bool:
        return self._job is not None and self.sender() is self._job and self._dialog is not None

    @Slot(float)
    def _on_progress(self, fraction: float) -> None:
        if self._from_job():
            self._dialog.show_progress(fraction)

    @Slot(object)
    def _on_message(self, text) -> None:
        if self._from_job():
            self._dialog.show_status(translated(text))

    @Slot(object)
    def _on_result(self, heard: Transcript) -> None:
        if not self._from_job():
            return
        if self._cancel_asked:
            self._on_cancelled()
            return
        _item, transcript, region = self._target
        model = self._context.table
        try:
            if model.transcript is not transcript:
                raise EditRefused(region_rerun.LINES_CHANGED)
            change = region_rerun.replacement(transcript, region, heard.segments)
        except EditRefused as refused:
            self._dialog.show_failure(translated(refused.message))
            return
        model.commit(change)
        # The new lines selected, so they can be heard, checked or transcribed again at once.
        self._context.select_rows(change.first_row, len(change.splices[0].inserted))
        self._dialog.finish(True)
        self.status_message.emit(self.tr("Transcribed {lines} again. Edit → Undo brings back the old lines.").format(
            lines=translated(region.lines_named)))

    @Slot(object)
    def _on_failed(self, message) -> None:
        if self._from_job() and self._cancel_asked:  # a decoding stopped part-way may end in an error
            self._on_cancelled()
        elif self._from_job():
            self._dialog.show_failure(self.tr("{reason} The lines stay as they were.").format(
                reason=translated(message)))

    @Slot()
    def _on_cancelled(self) -> None:
        if self._from_job():
            self._dialog.finish(False)
            self.status_message.emit(self.tr("Transcribe again was cancelled: the lines stay as they were."))

    @Slot()
    def _on_finished(self) -> None:
        if self._job is not None and self.sender() is self._job:
            self._job = None
            if self._dialog is None:
                self._target = None

    def shutdown(self) -> None:
        """The window is closing: stop a decoding under way."""
        if self._job is not None:
            self._cancel_asked = True
            self._job.cancel()
