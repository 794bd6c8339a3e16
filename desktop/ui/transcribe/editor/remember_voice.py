"""Remember this voice as…: a labelled speaker of the shown transcript kept as a known voice, so that
later recordings name them. Only with the person's agreement: the user confirms that this person
agreed to be recognised in this office's recordings, and who confirmed and when are kept with the
voice. The speaker's clean speech is measured from the recording off the window's thread; too little
of it is refused with the sentence saying how much more is needed."""
from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QCheckBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QWidget

from desktop.core.speakers import agreement
from desktop.core.speakers.known_voices import KnownVoiceStore
from desktop.core.speakers.names import is_default_name
from desktop.ui.common.i18n import translated
from desktop.ui.common.tab_jobs import TabJobs
from desktop.ui.transcribe.editor.context import EditorContext
from desktop.workers.job import JobReport, JobRunner

_JOB = "remember voice"


class RememberVoiceDialog(QDialog):
    """The name to remember the voice by, and the confirmation of the person's agreement."""

    def __init__(self, speaker: str, name: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Remember this voice"))
        self.intro = QLabel(self.tr("VoxDesk will recognise {speaker}'s voice in later recordings and name them.")
                            .format(speaker=speaker))
        self.intro.setWordWrap(True)
        self.name_edit = QLineEdit(name)
        self.confirmed_by_edit = QLineEdit(agreement.current_user())
        self.agreed_box = QCheckBox(self.tr("This person agreed to be recognised by voice in this office's "
                                            "recordings."))
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("Remember"))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow(self.intro)
        form.addRow(self.tr("Name:"), self.name_edit)
        form.addRow(self.tr("Confirmed by:"), self.confirmed_by_edit)
        form.addRow(self.agreed_box)
        form.addRow(self.buttons)
        for signal in (self.name_edit.textChanged, self.confirmed_by_edit.textChanged, self.agreed_box.toggled):
            signal.connect(self._update)
        self._update()

    def _update(self) -> None:
        ready = bool(self.name_edit.text().strip() and self.confirmed_by_edit.text().strip()
                     and self.agreed_box.isChecked())
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(ready)


class VoiceRemembering(QObject):
    remembered = Signal(str)  # the name the voice was kept by

    def __init__(self, context: EditorContext, runner: JobRunner, parent: QObject | None = None):
        super().__init__(parent)
        self._context = context
        self._jobs = TabJobs(runner, self)
        self._enroller = None  # made on first use in the job: it loads the voice model
        self.store: KnownVoiceStore | None = None  # None: the user's own known voices
        self.dialog: RememberVoiceDialog | None = None

    @property
    def running(self) -> bool:
        return self._jobs.running(_JOB)

    def ask(self, number: int) -> None:
        """Open the dialog for speaker `number` of the shown transcript; on Remember, enrol them."""
        item, transcript = self._context.item, self._context.table.transcript
        if item is None or transcript is None or number not in transcript.speakers or self.running:
            return
        speaker = transcript.speaker_name(number)
        name = "" if is_default_name(speaker, number) else speaker
        self.dialog = RememberVoiceDialog(speaker, name, self._context.window())
        self.dialog.accepted.connect(lambda: self._remember(number))
        self.dialog.finished.connect(self._forget_dialog)
        self.dialog.open()

    def _forget_dialog(self) -> None:
        if self.dialog is not None:
            self.dialog.deleteLater()
            self.dialog = None

    def _remember(self, number: int) -> None:
        dialog, item, transcript = self.dialog, self._context.item, self._context.table.transcript
        if dialog is None or item is None or transcript is None:
            return
        name, by = dialog.name_edit.text().strip(), dialog.confirmed_by_edit.text().strip()
        confirmed = agreement.confirmed(by)  # the moment the user confirmed, not when the job ends
        frozen, path, store = transcript.snapshot(), item.path, self.store

        def work(report: JobReport):
            if self._enroller is None:
                from desktop.engines.speakers.enrolment import Enroller

                self._enroller = Enroller()
            speech = self._enroller.from_speaker(frozen, path, number, cancelled=report.cancelled)
            return (store if store is not None else KnownVoiceStore()).add(name, speech.embeddings, speech.seconds,
                                                                            confirmed)

        self._context.say(self.tr("Measuring {name}'s voice…").format(name=name))
        self._jobs.start(_JOB, work, on_result=self._on_remembered, on_failed=self._on_failed)

    def _on_remembered(self, voice) -> None:
        self._context.say(self.tr("{name}'s voice is remembered ({seconds:.0f} s of speech): later recordings "
                                  "will name them.").format(name=voice.name, seconds=voice.speech_seconds))
        self.remembered.emit(voice.name)

    def _on_failed(self, message) -> None:
        self._context.say(self.tr("The voice was not remembered: {reason}").format(reason=translated(message)))

    def shutdown(self) -> None:
        self._jobs.cancel_all()
