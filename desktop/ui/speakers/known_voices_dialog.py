"""Tools → Known voices…: the colleagues VoxDesk names when it labels speakers, each with their agreement.

The list shows each voice's name, how and when the person agreed, how many recordings it was heard in
and how much speech it holds; Rename, Remove (everything kept for the voice, at once), Export and
Import. Adding a person: they read the agreement sentence aloud into the microphone here (the Clone
tab's recorder) or a recording of it is chosen, checked by Whisper as the clone consent is, with a
sample of their speech from a file or the agreement recording alone.
Every file and model step runs on a worker thread (TabJobs); the dialog only shows the results, and
PortAudio's thread only fills the recorder, which the recorder widget reads from a timer.
"""
from __future__ import annotations

import os
import tempfile
import wave
from datetime import datetime
from pathlib import Path
from typing import Callable

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QDialog, QDialogButtonBox, QFileDialog, QFormLayout,
                               QGroupBox, QHBoxLayout, QHeaderView, QInputDialog, QLabel, QLineEdit, QMessageBox,
                               QPushButton, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

import numpy as np

from desktop.core.common.errors import UserFacingError
from desktop.core.common.recorder import InputDevice, Recorder, Recording, microphones
from desktop.core.speakers.agreement import LONGEST_AGREEMENT_SECONDS, RECORDED, RecognitionPrompt, recognition_prompt
from desktop.core.speakers.known_voices import EXPORT_SUFFIX, DamagedEntry, KnownVoice, KnownVoiceStore
from desktop.ui.clone.recorder_widget import RecorderWidget
from desktop.ui.common.i18n import translated
from desktop.ui.common.tab_jobs import TabJobs
from desktop.workers.job import JobRunner

Transcribe = Callable[[Path, str], str]  # Whisper: (recording, language) -> what was heard


def agreement_recorder(device: InputDevice | None) -> Recorder:
    """A take of the agreement sentence stops by itself at the longest the check accepts: a forgotten
    Record neither fills memory nor ends in a refusal after minutes."""
    return Recorder(device, max_seconds=LONGEST_AGREEMENT_SECONDS)


class KnownVoicesDialog(QDialog):
    def __init__(self, store: KnownVoiceStore, runner: JobRunner, transcribe: Transcribe,
                 parent: QWidget | None = None, *, enroller_factory: Callable | None = None,
                 recorder_factory: Callable[[InputDevice | None], Recorder] = agreement_recorder,
                 devices: Callable[[], list[InputDevice]] = microphones):
        super().__init__(parent)
        self._store = store
        self._jobs = TabJobs(runner, self)
        self._transcribe = transcribe
        self._enroller_factory = enroller_factory
        self._enroller = None  # made on the worker on first use; it keeps the voice model loaded
        self._voices: list[KnownVoice] = []
        self._damaged: list[DamagedEntry] = []
        self._prompt: RecognitionPrompt | None = None
        self._agreement_file: Path | None = None
        self._agreement_take: Recording | None = None  # the sentence recorded here; it replaces a chosen file
        self._sample_file: Path | None = None
        self.setWindowTitle(self.tr("Known voices"))
        self.resize(980, 640)

        self.intro = QLabel(self.tr("VoxDesk names these colleagues when it labels speakers. Each of them agreed to "
                                    "be recognised in this office's recordings. What is kept is the sound of their "
                                    "voice, not a recording."))
        self.intro.setWordWrap(True)
        self.table = QTableWidget(0, 4)
        self.table.setHorizontalHeaderLabels([self.tr("Name"), self.tr("Agreement"), self.tr("Heard in"),
                                              self.tr("Speech")])
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        for column in (2, 3):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.empty_label = QLabel(self.tr("No known voices yet. Add a colleague below, with their agreement."))
        self.damaged_label = QLabel()
        self.damaged_label.setWordWrap(True)
        self.damaged_label.setStyleSheet("color: #b3261e;")
        self.remove_damaged_button = QPushButton(self.tr("Remove the damaged entries"))
        self.rename_button = QPushButton(self.tr("&Rename…"))
        self.remove_button = QPushButton(self.tr("Re&move"))
        self.export_button = QPushButton(self.tr("&Export…"))
        self.import_button = QPushButton(self.tr("&Import…"))

        self.add_box = QGroupBox(self.tr("Add a colleague"))
        self.name_edit = QLineEdit()
        self.name_edit.setPlaceholderText(self.tr("Their name, as transcripts will show it"))
        self.language_box = QComboBox()
        self.language_box.addItem(self.tr("English"), "en")
        self.language_box.addItem(self.tr("Chinese"), "zh")
        self.sentence_button = QPushButton(self.tr("Show the &sentence"))
        self.sentence_label = QLabel()
        self.sentence_label.setWordWrap(True)
        self.sentence_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # The person reads the sentence shown above into the microphone; the recorder's own text box
        # would repeat it.
        self.recorder = RecorderWidget(recorder_factory=recorder_factory, devices=devices)
        self.recorder.script.hide()
        self.recorder.script_title.hide()
        self.recorder.setEnabled(False)
        self.agreement_button = QPushButton(self.tr("Or choose a recording of the sentence…"))
        self.agreement_label = QLabel()
        self.sample_button = QPushButton(self.tr("Choose a sample of their speech (optional)…"))
        self.sample_label = QLabel()
        self.add_button = QPushButton(self.tr("Check the agreement and &add"))
        self.status_label = QLabel()
        self.status_label.setWordWrap(True)
        self.status_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        actions = QHBoxLayout()
        for button in (self.rename_button, self.remove_button, self.export_button, self.import_button):
            actions.addWidget(button)
        actions.addStretch(1)
        who = QHBoxLayout()
        who.addWidget(self.name_edit, 3)
        who.addWidget(self.language_box, 1)
        who.addWidget(self.sentence_button)
        form = QFormLayout(self.add_box)
        form.addRow(self.tr("Person:"), who)
        form.addRow(self.sentence_label)
        form.addRow(self.recorder)
        for button, label in ((self.agreement_button, self.agreement_label), (self.sample_button, self.sample_label)):
            row = QHBoxLayout()
            row.addWidget(button)
            row.addWidget(label, 1)
            form.addRow(row)
        form.addRow(self.add_button)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.empty_label)
        layout.addWidget(self.damaged_label)
        layout.addWidget(self.remove_damaged_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addLayout(actions)
        layout.addWidget(self.add_box)
        layout.addWidget(self.status_label)
        layout.addWidget(buttons)

        self.table.itemSelectionChanged.connect(self._update_buttons)
        self.rename_button.clicked.connect(self.rename_selected)
        self.remove_button.clicked.connect(self.remove_selected)
        self.export_button.clicked.connect(self.export_selected)
        self.import_button.clicked.connect(self.import_voice)
        self.remove_damaged_button.clicked.connect(self.remove_damaged)
        self.sentence_button.clicked.connect(self.show_sentence)
        self.agreement_button.clicked.connect(self.choose_agreement)
        self.recorder.recorded.connect(self._agreement_recorded)
        self.recorder.recording_started.connect(self._update_buttons)
        self.sample_button.clicked.connect(self.choose_sample)
        self.add_button.clicked.connect(self.add_voice)
        self.name_edit.textChanged.connect(self._forget_sentence)
        self.language_box.currentIndexChanged.connect(self._forget_sentence)
        self._jobs.changed.connect(self._update_buttons)
        self.reload()

    # -- the list --------------------------------------------------------------------------------

    def reload(self) -> None:
        self._run("read", lambda report: self._store.read(), self._show_voices)

    def _recordings_text(self, count: int) -> str:
        # Two plain sentences rather than Qt's numerus form: English needs "1 recording", Chinese one form.
        if count == 1:
            return self.tr("1 recording")
        return self.tr("{count} recordings").format(count=count)

    def _show_voices(self, found: tuple[list[KnownVoice], list[DamagedEntry]]) -> None:
        self._voices, self._damaged = found
        self.table.setRowCount(len(self._voices))
        for row, voice in enumerate(self._voices):
            cells = (voice.name, self._agreement_text(voice),
                     self._recordings_text(voice.recordings),
                     self.tr("{seconds:.0f} s").format(seconds=voice.speech_seconds))
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if column == 1:
                    item.setToolTip(voice.agreement.sentence or text)
                self.table.setItem(row, column, item)
        self.empty_label.setVisible(not self._voices)
        self.damaged_label.setText("\n".join(translated(entry.message) for entry in self._damaged))
        self.damaged_label.setVisible(bool(self._damaged))
        self.remove_damaged_button.setVisible(bool(self._damaged))
        self._update_buttons()

    def _agreement_text(self, voice: KnownVoice) -> str:
        agreement = voice.agreement
        try:
            when = datetime.fromisoformat(agreement.agreed_at).astimezone().strftime("%Y-%m-%d %H:%M")
        except ValueError:
            when = agreement.agreed_at
        if agreement.how == RECORDED:
            return self.tr("Read the agreement sentence aloud on {when} (added by {who})").format(
                when=when, who=agreement.confirmed_by)
        return self.tr("Agreement confirmed by {who} on {when}").format(who=agreement.confirmed_by, when=when)

    def selected(self) -> KnownVoice | None:
        rows = self.table.selectionModel().selectedRows()
        return self._voices[rows[0].row()] if rows and rows[0].row() < len(self._voices) else None

    @Slot()
    def _update_buttons(self) -> None:
        busy = self._jobs.running()
        chosen = self.selected() is not None
        for button in (self.rename_button, self.remove_button, self.export_button):
            button.setEnabled(chosen and not busy)
        self.import_button.setEnabled(not busy)
        self.remove_damaged_button.setEnabled(not busy)
        recording = self.recorder.is_recording
        has_agreement = self._agreement_file is not None or self._agreement_take is not None
        self.add_button.setEnabled(not busy and not recording and self._prompt is not None and has_agreement)
        self.recorder.setEnabled(self._prompt is not None and not busy)
        for widget in (self.agreement_button, self.sample_button, self.name_edit, self.language_box,
                       self.sentence_button):
            widget.setEnabled(not recording)

    # -- actions on one voice ----------------------------------------------------------------------

    @Slot()
    def rename_selected(self) -> None:
        voice = self.selected()
        if voice is None:
            return
        name, ok = QInputDialog.getText(self, self.tr("Rename"), self.tr("New name:"), text=voice.name)
        if ok:
            self._change(lambda report: self._store.rename(voice, name), lambda _: self.tr("Renamed."))

    @Slot()
    def remove_selected(self) -> None:
        voice = self.selected()
        if voice is None:
            return
        answer = QMessageBox.question(
            self, self.tr("Remove"), self.tr("Remove “{name}”? Everything VoxDesk keeps of this voice and the "
                                             "agreement is deleted; transcripts already named keep the name.").format(
                name=voice.name))
        if answer == QMessageBox.StandardButton.Yes:
            self._change(lambda report: self._store.remove(voice), lambda _: self.tr("Removed."))

    @Slot()
    def remove_damaged(self) -> None:
        damaged = list(self._damaged)

        def remove(report):
            for entry in damaged:
                self._store.remove_damaged(entry.folder)

        self._change(remove, lambda _: self.tr("Removed."))

    @Slot()
    def export_selected(self) -> None:
        voice = self.selected()
        if voice is None:
            return
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export a known voice"), f"{voice.name}{EXPORT_SUFFIX}",
                                              self.tr("Known voice (*{suffix})").format(suffix=EXPORT_SUFFIX))
        if path:
            # The file dialog already asked before replacing a file.
            self._change(lambda report: self._store.export(voice, Path(path), overwrite=True),
                         lambda _: self.tr("Exported, with the agreement."))

    @Slot()
    def import_voice(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Import a known voice"), "",
                                              self.tr("Known voice (*{suffix})").format(suffix=EXPORT_SUFFIX))
        if path:
            self._change(lambda report: self._store.import_file(Path(path)), lambda _: self.tr("Imported."))

    # -- adding a person -----------------------------------------------------------------------

    @Slot()
    def show_sentence(self) -> None:
        try:
            self._prompt = recognition_prompt(self.name_edit.text(), self.language_box.currentData())
        except UserFacingError as error:
            self._say(translated(error.message), failed=True)
            return
        self.sentence_label.setText(self.tr("{name} reads this aloud, with the code, and you record it:\n“{text}”")
                                    .format(name=self._prompt.name, text=self._prompt.text))
        self.recorder.set_script("", self._prompt.text, None)
        self._update_buttons()

    @Slot()
    def _forget_sentence(self) -> None:
        """Another name or language: the sentence shown no longer fits, and neither does its recording."""
        self.recorder.stop()
        self._prompt = None
        self._agreement_file = self._agreement_take = None
        self.recorder.show_take(False)
        self.sentence_label.setText("")
        self.agreement_label.setText("")
        self._update_buttons()

    @Slot()
    def choose_agreement(self) -> None:
        path = self._choose_recording(self.tr("The recording of the agreement sentence"))
        if path:
            self._agreement_file, self._agreement_take = path, None
            self.recorder.show_take(False)
            self.agreement_label.setText(path.name)
        self._update_buttons()

    @Slot(object)
    def _agreement_recorded(self, take: Recording) -> None:
        if self._prompt is None:
            return
        self._agreement_take, self._agreement_file = take, None
        self.agreement_label.setText(self.tr("Recorded: {seconds:.0f} s").format(seconds=take.duration))
        self._update_buttons()

    @Slot()
    def choose_sample(self) -> None:
        path = self._choose_recording(self.tr("A sample of their speech"))
        self._sample_file = path
        self.sample_label.setText(path.name if path else "")

    def _choose_recording(self, title: str) -> Path | None:
        path, _ = QFileDialog.getOpenFileName(self, title, "", self.tr("Recordings (*.wav *.flac *.mp3 *.m4a *.ogg "
                                                                       "*.opus *.webm *.mp4)"))
        return Path(path) if path else None

    @Slot()
    def add_voice(self) -> None:
        prompt, agreement_file, take, sample = (self._prompt, self._agreement_file, self._agreement_take,
                                                self._sample_file)
        if prompt is None or (agreement_file is None and take is None) or self.recorder.is_recording:
            return

        def add(report):
            from desktop.engines.speakers.spoken_agreement import add_by_spoken_agreement

            def check(path: Path) -> KnownVoice:
                return add_by_spoken_agreement(self._store, prompt, path, sample, transcribe=self._transcribe,
                                               enroller=self._enroller_on_worker(), on_status=report.message,
                                               cancelled=report.cancelled)

            if take is None:
                return check(agreement_file)
            # A take made here is checked exactly as a chosen file: saved to a private temporary file,
            # which is removed whatever the check says.
            path = _saved_take(take)
            try:
                return check(path)
            finally:
                path.unlink(missing_ok=True)

        def added(voice: KnownVoice) -> str:
            self._prompt = None  # its code is used: a second voice needs a new sentence
            self._agreement_file = self._sample_file = self._agreement_take = None
            self.recorder.show_take(False)
            self.recorder.setEnabled(False)
            for label in (self.sentence_label, self.agreement_label, self.sample_label):
                label.setText("")
            self.name_edit.blockSignals(True)
            self.name_edit.clear()
            self.name_edit.blockSignals(False)
            return self.tr("Added “{name}” from {seconds:.0f} s of speech.").format(
                name=voice.name, seconds=voice.speech_seconds)

        self._change(add, added)

    def _enroller_on_worker(self):
        if self._enroller is None:
            if self._enroller_factory is not None:
                self._enroller = self._enroller_factory()
            else:
                from desktop.engines.speakers.enrolment import Enroller

                self._enroller = Enroller()
        return self._enroller

    # -- running and telling -------------------------------------------------------------------

    def _run(self, key: str, work, on_result) -> None:
        if self._jobs.running():
            return
        self._jobs.start(key, work, on_result=on_result,
                         on_failed=lambda message: self._say(translated(message), failed=True),
                         on_message=lambda message: self._say(translated(message)))

    def _change(self, work, message: Callable[[object], str]) -> None:
        """Run a change of the store on the worker, then read the list again there; show both here."""
        def change_and_read(report):
            value = work(report)
            return value, self._store.read()

        def changed(result) -> None:
            value, found = result
            self._show_voices(found)
            self._say(message(value))

        self._run("write", change_and_read, changed)

    def _say(self, text: str, failed: bool = False) -> None:
        self.status_label.setText(text)
        self.status_label.setStyleSheet("color: #b3261e;" if failed else "")

    def done(self, result: int) -> None:  # noqa: D401 - Qt's name
        self.recorder.stop()
        self._jobs.cancel_all()
        super().done(result)


def _saved_take(take: Recording) -> Path:
    """The take as a 16-bit mono WAV in a private temporary file; runs on the worker thread."""
    fd, name = tempfile.mkstemp(prefix="voxdesk-agreement-", suffix=".wav")
    path = Path(name)
    try:
        with os.fdopen(fd, "wb") as handle, wave.open(handle, "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(2)
            out.setframerate(take.sample_rate)
            samples = np.asarray(take.samples, dtype=np.float32)
            out.writeframes((np.clip(samples, -1.0, 1.0) * 32767).astype("<i2").tobytes())
    except BaseException:
        path.unlink(missing_ok=True)
        raise
    return path
