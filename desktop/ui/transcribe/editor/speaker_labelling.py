"""Edit → Label speakers: the speaker stage on its own, for a transcript that is already finished.

Choosing *Label speakers* before transcribing labels the next files; this labels the shown one from
its recording and its lines as they are now (edited, or opened from subtitles), off the window's
thread, with a progress dialog whose Cancel leaves the lines as they were. The new speakers are one
undoable edit, saved like any other; a voice found again keeps the name the user gave it
(desktop.core.speakers.relabel).
"""
from __future__ import annotations


from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QProgressDialog, QWidget

from desktop.core.speakers.choice import AUTO, CHOICES, OFF
from desktop.core.speakers.relabel import relabelled
from desktop.ui.common.i18n import translated
from desktop.ui.common.tab_jobs import TabJobs
from desktop.ui.transcribe.editor.context import EditorContext
from desktop.workers.job import JobReport, JobRunner

_JOB = "label speakers"


class SpeakerLabelling(QObject):
    status_message = Signal(str)  # a sentence for the window's status bar

    def __init__(self, context: EditorContext, runner: JobRunner, parent: QWidget | None = None):
        """context: the editor whose shown transcript is labelled; parent: the widget its menu belongs to."""
        super().__init__(parent)
        self._context = context
        self._jobs = TabJobs(runner, self)
        self._stage = None  # the engine's SpeakersStage, made on first use; it keeps its model loaded
        self._running = None  # (item, transcript, its lines when the labelling started)
        self._stopped = False  # the user pressed Cancel: whatever the job still brings back is dropped
        self.progress_dialog: QProgressDialog | None = None
        self.menu = QMenu(parent)
        self.choice_actions: dict[str, QAction] = {}
        for choice in CHOICES:
            if choice == OFF:
                continue
            action = self.menu.addAction("")
            action.triggered.connect(lambda _checked=False, choice=choice: self.start(choice))
            self.choice_actions[choice] = action
            if choice == AUTO:
                self.menu.addSeparator()
        model = context.table
        model.modelReset.connect(self._update)
        model.changed.connect(self._update)
        self._jobs.changed.connect(self._update)
        self._update()

    @property
    def action(self) -> QAction:
        """The menu's entry, for the Edit menu and the transcript's context menu."""
        return self.menu.menuAction()

    @property
    def running(self) -> bool:
        return self._jobs.running(_JOB)

    def retranslate(self) -> None:
        self.menu.setTitle(self.tr("Label s&peakers"))
        self.menu.setToolTip(self.tr("Find who speaks on each line of this transcript, from its recording. "
                                     "Names you gave stay with the voices found again."))
        self.menu.setToolTipsVisible(True)
        for choice, action in self.choice_actions.items():
            if choice == AUTO:
                action.setText(self.tr("&Find how many speak"))
            else:
                action.setText(self.tr("&{count} speakers").format(count=choice))

    @Slot()
    def _update(self) -> None:
        transcript = self._context.table.transcript
        self.action.setEnabled(transcript is not None and not transcript.is_empty and not self.running)

    # -- the job -------------------------------------------------------------------------------

    def start(self, choice: str) -> None:
        """Label the shown transcript's speakers: choice is "auto" or how many there are."""
        item, transcript = self._context.item, self._context.table.transcript
        if item is None or transcript is None or transcript.is_empty or self.running:
            return
        if self._stage is None:
            from desktop.engines.speakers.stage import SpeakersStage

            self._stage = SpeakersStage()
        from desktop.engines.speakers.stage import label_again_with_voices

        lines = list(transcript.segments)
        # The job reads a copy of the list: the editor swaps whole lines, so their objects stay as they are.
        frozen = transcript.snapshot()
        stage, path = self._stage, item.path

        def work(report: JobReport):
            return label_again_with_voices(stage, frozen, path, choice, on_progress=report.progress, cancelled=report.cancelled)

        self._running, self._stopped = (item, transcript, lines), False
        self._show_progress(item.path.name)
        self._jobs.start(_JOB, work, on_result=self._on_labelled, on_failed=self._on_failed,
                         on_cancelled=self._on_cancelled, on_progress=self._on_progress)

    def _show_progress(self, name: str) -> None:
        # Busy until the first step is done: loading the speaker model the first time takes a while.
        dialog = QProgressDialog(self.tr("Finding who speaks in “{name}”…").format(name=name), self.tr("Cancel"),
                                 0, 0, self._context.window())
        dialog.setWindowTitle(self.tr("Label speakers"))
        dialog.setWindowModality(Qt.WindowModality.WindowModal)  # the lines stay as they are meanwhile
        dialog.setAutoClose(False)
        dialog.setAutoReset(False)
        dialog.setMinimumDuration(0)
        dialog.canceled.connect(self.cancel)
        dialog.show()
        self.progress_dialog = dialog

    def _close_progress(self) -> None:
        if self.progress_dialog is not None:
            self.progress_dialog.canceled.disconnect(self.cancel)
            self.progress_dialog.close()
            self.progress_dialog.deleteLater()
            self.progress_dialog = None

    @Slot()
    def cancel(self) -> None:
        """Stop labelling: the lines stay as they were, even if the job is about to finish."""
        if self.running and not self._stopped:
            self._stopped = True
            self._jobs.cancel(_JOB)
            self._close_progress()
            self.status_message.emit(self.tr("Labelling speakers was stopped: the lines are as they were."))

    def _on_progress(self, fraction: float) -> None:
        if self.progress_dialog is not None and not self._stopped:
            self.progress_dialog.setMaximum(100)
            self.progress_dialog.setValue(round(fraction * 100))

    def _ended(self):
        """The labelling that was running, or None when the user stopped it."""
        running, self._running = self._running, None
        self._close_progress()
        return None if self._stopped else running

    def _on_labelled(self, labelled) -> None:
        running = self._ended()
        if running is None:
            return
        item, transcript, lines_before = running
        lines, names, voices = labelled
        name = item.path.name
        model = self._context.table
        unchanged = len(transcript.segments) == len(lines_before) and all(
            now is before for now, before in zip(transcript.segments, lines_before))
        if model.transcript is not transcript or not unchanged:
            self.status_message.emit(self.tr("“{name}” changed while its speakers were being found, so they were "
                                             "not put in: label speakers again.").format(name=name))
            return
        found = {segment.speaker for segment in lines if segment.speaker is not None}
        if not found:
            self.status_message.emit(self.tr("No voices could be told apart in “{name}”: the lines are as they "
                                             "were.").format(name=name))
            return
        change = relabelled(transcript, lines, names, voices)
        if change is not None:
            model.commit(change, model.SPEAKER)
        self.status_message.emit(self.tr("{count} speaker(s) found in “{name}”. Edit → Undo takes them back.").format(
            count=len(found), name=name) if change is not None else
            self.tr("The speakers found in “{name}” are the ones its lines already have.").format(name=name))

    def _on_failed(self, message) -> None:
        if self._ended() is not None:
            self.status_message.emit(self.tr("Speakers could not be labelled, the lines are as they were: "
                                             "{reason}").format(reason=translated(message)))

    def _on_cancelled(self) -> None:
        self._ended()  # stopped by the user (said then) or by the window closing

    def shutdown(self) -> None:
        self._jobs.cancel_all()
        self._close_progress()
