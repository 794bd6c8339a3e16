"""Getting Whisper models onto this computer: the download dialog (the shared one, with Whisper's words)
and "Import model…"; and "Measure this computer", which measures how fast they run here."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, Qt, Signal, Slot
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop.core.common.download import NoConnection
from desktop.core.common.i18n import N_
from desktop.ui.common import download_dialog
from desktop.ui.common.i18n import translated
from desktop.ui.common.styles import ERROR_STYLE
from desktop.workers.job import Job, JobReport, JobRunner


class WhisperDownloadDialog(download_dialog.DownloadDialog):
    """Downloads one Whisper model in one format (openai-whisper .pt or CTranslate2)."""

    unreachable = Signal()  # the download failed for no connection at all; emitted just before failed

    def __init__(self, store, runner: JobRunner, name: str, fmt: str, parent: QWidget | None = None):
        info = store.info(name)
        if info is not None:
            explanation = N_("DownloadDialog", "VoxDesk needs the “{name}” model ({size} MB) to transcribe. It is "
                             "downloaded once and then kept on this computer.").format(name=name, size=info.size_mb)
        else:
            explanation = N_("DownloadDialog", "VoxDesk needs the “{name}” model to transcribe. It is downloaded once "
                             "and then kept on this computer.").format(name=name)

        self._no_connection = False  # set on the download's thread, read once it has failed

        def download(progress, cancelled) -> None:
            try:
                store.download(name, fmt, progress=progress, cancelled=cancelled)
            except NoConnection:
                self._no_connection = True
                raise

        super().__init__(runner, download, title=N_("DownloadDialog", "Downloading a model"),
                         explanation=explanation, job_name=f"download {name}", parent=parent)
        self.failed.connect(self._on_download_failed)  # connected first, so it runs before the callers' slots

    @Slot(object)
    def _on_download_failed(self, _message) -> None:
        if self._no_connection:
            self.unreachable.emit()


# The name transcribe_tab.py and tests/ui/transcribe import; WhisperDownloadDialog says what it is.
DownloadDialog = WhisperDownloadDialog


class ImportModelDialog(QDialog):
    """Copy a model into VoxDesk: an openai-whisper .pt file or a CTranslate2 (faster-whisper) folder."""

    imported = Signal(str)  # the name the model got

    def __init__(self, store, runner: JobRunner, parent: QWidget | None = None):
        super().__init__(parent)
        self._store = store
        self._runner = runner
        self._job: Job | None = None
        self._failure: str | None = None  # the sentence of a failed import, shown in the note
        self._official: str | None = None  # the official model the chosen copy is, proposed as its name
        self._identifying: tuple[str, str] = ("", "")  # the source being identified, and its default name
        self.setMinimumWidth(520)

        self.intro = QLabel()
        self.intro.setWordWrap(True)
        self.source_edit = QLineEdit()
        self.source_edit.setReadOnly(True)
        self.file_button = QPushButton()
        self.folder_button = QPushButton()
        self.file_button.clicked.connect(self._choose_file)
        self.folder_button.clicked.connect(self._choose_folder)
        pick = QHBoxLayout()
        pick.addWidget(self.source_edit, 1)
        pick.addWidget(self.file_button)
        pick.addWidget(self.folder_button)
        self.name_edit = QLineEdit()

        form = QFormLayout()
        self.model_label, self.name_label = QLabel(), QLabel()
        form.addRow(self.model_label, pick)
        form.addRow(self.name_label, self.name_edit)

        self.busy = QProgressBar()
        self.busy.setRange(0, 0)
        self.busy.hide()
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.import_button = self.buttons.addButton("", QDialogButtonBox.ButtonRole.AcceptRole)
        self.import_button.setEnabled(False)
        self.buttons.accepted.connect(self.start_import)
        self.buttons.rejected.connect(self.reject)
        self.name_edit.textChanged.connect(self._update_button)

        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addLayout(form)
        layout.addWidget(self.busy)
        layout.addWidget(self.note)
        layout.addWidget(self.buttons)
        self.retranslate()

    def retranslate(self) -> None:
        """Set every text; called at start and when the interface language changes."""
        self.setWindowTitle(self.tr("Import a model"))
        self.intro.setText(self.tr(
            "Bring in a Whisper model copied from another computer: an openai-whisper “.pt” file, "
            "or a faster-whisper (CTranslate2) folder holding config.json, model.bin and the vocabulary."
        ))
        self.source_edit.setPlaceholderText(self.tr("No model chosen"))
        self.file_button.setText(self.tr("Choose a .pt file…"))
        self.folder_button.setText(self.tr("Choose a folder…"))
        self.name_edit.setPlaceholderText(self.tr("The name shown in the model list"))
        self.model_label.setText(self.tr("Model:"))
        self.name_label.setText(self.tr("Name:"))
        self.import_button.setText(self.tr("Import"))
        self._show_note()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def _show_note(self) -> None:
        if self._job is not None:
            self.note.setStyleSheet("")
            self.note.setText(self.tr("Checking and copying the model…"))
        elif self._failure is not None:
            self.note.setStyleSheet(ERROR_STYLE)
            self.note.setText(translated(self._failure))
        elif self._official is not None:
            self.note.setStyleSheet("")
            self.note.setText(self.tr(
                "This is a copy of the official “{name}” model. Under that name it stands in for the download: "
                "VoxDesk uses it wherever “{name}” is chosen, and downloads nothing.").format(name=self._official))
        else:
            self.note.clear()

    def set_source(self, path: Path) -> None:
        self.source_edit.setText(str(path))
        default = path.name[:-3] if path.is_file() and path.name.lower().endswith(".pt") else path.name
        self.name_edit.setText(default)
        self._failure = self._official = None
        self._show_note()
        self._update_button()
        self._propose_official_name(path, default)

    def _propose_official_name(self, path: Path, default: str) -> None:
        """Find, off the window's thread, whether the copy is an official model; if so, and the user has
        not typed a name of their own meanwhile, propose the official name."""
        store = self._store
        self._identifying = (str(path), default)
        job = Job(lambda _report: store.official_name_of(path), name=f"identify {path.name}")
        job.result.connect(self._on_identified)
        self._runner.start(job)

    @Slot(object)
    def _on_identified(self, name: str | None) -> None:
        source, default = self._identifying
        if name and self.source_edit.text() == source and self.name_edit.text() == default:
            self._official = name
            self.name_edit.setText(name)
            self._show_note()
            self.adjustSize()  # room for the note's lines, or the wrapped text above is squeezed

    @Slot()
    def _choose_file(self) -> None:
        name, _ = QFileDialog.getOpenFileName(self, self.tr("Choose a Whisper model file"), "",
                                              self.tr("Whisper models (*.pt);;All files (*)"))
        if name:
            self.set_source(Path(name))

    @Slot()
    def _choose_folder(self) -> None:
        name = QFileDialog.getExistingDirectory(self, self.tr("Choose the model folder"))
        if name:
            self.set_source(Path(name))

    def _update_button(self) -> None:
        ready = bool(self.source_edit.text()) and bool(self.name_edit.text().strip()) and self._job is None
        self.import_button.setEnabled(ready)

    @Slot()
    def start_import(self) -> None:
        if self._job is not None or not self.source_edit.text():
            return
        store = self._store
        source, name = Path(self.source_edit.text()), self.name_edit.text().strip()

        def work(report: JobReport) -> str:
            # Checking a .pt file loads it with torch; copying a large model takes a while.
            return store.import_model(source, name).name

        job = Job(work, name=f"import {source.name}")
        job.result.connect(self._on_imported)
        job.failed.connect(self._on_failed)
        job.finished.connect(self._on_finished)
        self._job = job
        self._failure = None
        self.busy.show()
        self._show_note()
        self._update_button()
        self._runner.start(job)

    @Slot(object)
    def _on_imported(self, name: str) -> None:
        self.imported.emit(name)
        self.accept()

    @Slot(object)
    def _on_failed(self, message: str) -> None:
        self._failure = message

    @Slot()
    def _on_finished(self) -> None:
        self._job = None
        self.busy.hide()
        self._show_note()
        self._update_button()

    def reject(self) -> None:
        # An import cannot be stopped half-way safely from here; it finishes (or fails) on its own
        # and leaves nothing half-copied, so closing simply waits for it.
        if self._job is None:
            super().reject()


_ENGINE_NAMES = {"ct2": "faster-whisper", "torch": "openai-whisper"}  # as Settings → Advanced names them


class MeasureComputerDialog(QDialog):
    """Tools → Measure this computer: runs the measurement and lists each model's speed as it comes."""

    def __init__(self, measurement, parent: QWidget | None = None):
        super().__init__(parent)
        self._measurement = measurement
        self._records: list = []
        self._failure: str | None = None
        self._ended = False
        self.setMinimumWidth(520)
        self.intro = QLabel()
        self.intro.setWordWrap(True)
        self.bar = QProgressBar()
        self.bar.setRange(0, 100)
        self.results = QLabel()
        self.results.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.again_button = self.buttons.addButton("", QDialogButtonBox.ButtonRole.ActionRole)
        self.again_button.clicked.connect(self.start)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        for widget in (self.intro, self.bar, self.results, self.note, self.buttons):
            layout.addWidget(widget)
        measurement.progress.connect(self._on_progress)
        measurement.measured.connect(self._on_measured)
        measurement.finished.connect(self._on_finished)
        self.retranslate()

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Measure this computer"))
        self.intro.setText(self.tr(
            "VoxDesk transcribes 10 seconds of speech with each model on this computer, with each engine "
            "and device it can use, so the model list can say how fast each model runs here. This takes "
            "from a few seconds to a few minutes; you can keep working meanwhile."))
        self.again_button.setText(self.tr("Measure again"))
        self._show()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    @Slot()
    def start(self) -> None:
        self._records, self._failure, self._ended = [], None, False
        self.bar.setValue(0)
        self._measurement.start()
        self._show()

    def _line(self, record) -> str:
        from desktop.core.transcription.model_advice import speed_text

        where = self.tr("graphics card") if record.device == "cuda" else self.tr("processor")
        return self.tr("{model} on the {where} ({engine}): {speed}").format(
            model=record.model, where=where, engine=_ENGINE_NAMES.get(record.engine, record.engine),
            speed=translated(speed_text(record.factor)))

    def _show(self) -> None:
        self.results.setText("\n".join(self._line(record) for record in self._records))
        self.again_button.setEnabled(self._ended)
        self.note.setStyleSheet(ERROR_STYLE if self._failure else "")
        if self._failure:
            self.note.setText(translated(self._failure))
        elif not self._ended:
            self.note.setText(self.tr("Measuring…"))
        elif self._records:
            self.note.setText(self.tr("Done. The model list now shows these speeds."))
        else:
            self.note.setText(self.tr("No model is on this computer yet: transcribe a file, or import a model "
                                      "(File → Import model…), then measure again."))
        self.adjustSize()  # grow with the results, so the wrapped intro is never squeezed

    @Slot(float)
    def _on_progress(self, fraction: float) -> None:
        self.bar.setValue(round(fraction * 100))

    @Slot(object)
    def _on_measured(self, record) -> None:
        self._records.append(record)
        self._show()

    @Slot(object)
    def _on_finished(self, failure) -> None:
        self._failure, self._ended = failure, True
        self.bar.setValue(100)
        self._show()
