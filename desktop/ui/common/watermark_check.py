"""Tools → Check for a VoxDesk watermark…: whether audio or video files carry the watermark VoxDesk puts on speech.

Each file is read and checked on a background job of its own (desktop.engines.voices.watermark), so
the window stays responsive; the list shows a line per file, and fills in each answer as it comes.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, Qt, Slot
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop.core.common.audio import SUPPORTED_EXTENSIONS
from desktop.engines.voices.watermark import DETECTION_THRESHOLD, recording_score
from desktop.ui.common.i18n import translated
from desktop.ui.common.tab_jobs import TabJobs
from desktop.workers.job import JobRunner

CHECKING, MARKED, UNMARKED, TOO_SHORT, FAILED = "checking", "marked", "unmarked", "too short", "failed"


@dataclass
class _Answer:
    """What is known about one file; kept so the line can be written again in another language."""

    path: Path
    state: str = CHECKING
    error: Any = None  # the sentence (str or core Message) saying why the file could not be checked


class WatermarkCheckDialog(QDialog):
    def __init__(self, runner: JobRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._jobs = TabJobs(runner, self)
        self._started = 0  # numbers the jobs, one per file checked
        self.setMinimumSize(560, 320)

        self.intro = QLabel()
        self.intro.setWordWrap(True)
        self.results = QListWidget()
        self.results.setWordWrap(True)
        self.choose_button = QPushButton()
        self.choose_button.clicked.connect(self.choose_files)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)

        row = QHBoxLayout()
        row.addWidget(self.choose_button)
        row.addStretch(1)
        row.addWidget(buttons)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addWidget(self.results, 1)
        layout.addLayout(row)
        self.retranslate()

    def retranslate(self) -> None:
        """Set every text; called at start and when the interface language changes."""
        self.setWindowTitle(self.tr("Check for a VoxDesk watermark"))
        self.intro.setText(self.tr("VoxDesk puts an inaudible watermark on every cloned voice and, unless it is "
                                   "turned off in Settings, on the speech it synthesizes. Choose recordings to "
                                   "find out whether they carry it."))
        self.choose_button.setText(self.tr("Choose recordings…"))
        for row in range(self.results.count()):
            self._write(self.results.item(row))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    # -- choosing and checking -------------------------------------------------------------------

    @Slot()
    def choose_files(self) -> None:
        """Ask for audio or video files (without blocking the window), then check them."""
        patterns = " ".join(f"*.{ext}" for ext in sorted(SUPPORTED_EXTENSIONS))
        chooser = QFileDialog(self, self.tr("Choose recordings to check"), "",
                              self.tr("Audio and video ({patterns});;All files (*)").format(patterns=patterns))
        chooser.setFileMode(QFileDialog.FileMode.ExistingFiles)
        chooser.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        chooser.filesSelected.connect(lambda names: self.check([Path(name) for name in names]))
        chooser.open()

    def check(self, paths: list[Path]) -> None:
        """List each file and check it on a background job; its line says the answer when it comes."""
        for path in paths:
            item = QListWidgetItem()
            item.setToolTip(str(path))
            item.setData(Qt.ItemDataRole.UserRole, _Answer(Path(path)))
            self.results.addItem(item)
            self._write(item)
            self._start(item)

    def checking(self) -> bool:
        """Whether any file is still being checked."""
        return self._jobs.running()

    def lines(self) -> list[str]:
        """The lines of the list as shown, one per file."""
        return [self.results.item(row).text() for row in range(self.results.count())]

    def _start(self, item: QListWidgetItem) -> None:
        answer: _Answer = item.data(Qt.ItemDataRole.UserRole)
        self._started += 1

        def on_result(score: float | None) -> None:
            if score is None:
                self._answer(item, TOO_SHORT)
            else:
                self._answer(item, MARKED if score >= DETECTION_THRESHOLD else UNMARKED)

        self._jobs.start(f"check {self._started}", lambda _report: recording_score(answer.path),
                         on_result=on_result, on_failed=lambda message: self._answer(item, FAILED, message))

    def _answer(self, item: QListWidgetItem, state: str, error: Any = None) -> None:
        answer: _Answer = item.data(Qt.ItemDataRole.UserRole)
        item.setData(Qt.ItemDataRole.UserRole, _Answer(answer.path, state, error))
        self._write(item)

    def _write(self, item: QListWidgetItem) -> None:
        answer: _Answer = item.data(Qt.ItemDataRole.UserRole)
        verdicts = {
            CHECKING: self.tr("checking…"),
            MARKED: self.tr("carries VoxDesk's watermark"),
            UNMARKED: self.tr("does not carry VoxDesk's watermark"),
            TOO_SHORT: self.tr("too short to tell (under half a second)"),
        }
        verdict = translated(answer.error) if answer.state == FAILED else verdicts[answer.state]
        item.setText(self.tr("{name}: {verdict}").format(name=answer.path.name, verdict=verdict))

    def done(self, result: int) -> None:
        """Closing: answers still on their way are dropped (their jobs end on their own)."""
        self._jobs.cancel_all()
        super().done(result)
