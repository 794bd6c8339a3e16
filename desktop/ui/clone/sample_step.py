"""Step 1 of adding a voice: the sample, recorded while reading a passage (or imported), and its quality check.

The step says what the recorder shows (heading, passage, length to aim for), turns a take or a file
into a PreparedSample, and shows under the recorder whether the sample can be used.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

import numpy as np
from PySide6.QtCore import QObject
from PySide6.QtWidgets import QLabel

from desktop.core.common.recorder import Recording
from desktop.core.voices.quality import SAMPLE_LENGTH, PreparedSample, QualityReport, TakeLength
from desktop.engines.voices.cloning import VoiceEnrollment
from desktop.resources import resource_path
from desktop.ui.common.i18n import translated
from desktop.ui.common.styles import ERROR_STYLE, OK_STYLE, WARNING_STYLE


def reading_passage(language: str) -> str:
    return resource_path("reading", f"{language}.txt").read_text(encoding="utf-8").strip()


class SampleStep(QObject):
    def __init__(self, enrollment: VoiceEnrollment, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._enrollment = enrollment
        self.sample: PreparedSample | None = None
        self.quality_label = QLabel()
        self.quality_label.setWordWrap(True)

    # -- what the recorder shows ---------------------------------------------------------------

    def heading(self) -> str:
        return self.tr("Step 1 of 2: record the voice. Read the text below aloud at your normal pace, then "
                       "press Stop.")

    def script_title(self) -> str:
        return self.tr("Read aloud:")

    def script(self, language: str) -> tuple[str, TakeLength | None]:
        """The text to read aloud, and how long the take should be."""
        return reading_passage(language), SAMPLE_LENGTH

    # -- the sample ----------------------------------------------------------------------------

    @property
    def ready(self) -> bool:
        return self.sample is not None and self.sample.report.accepted

    def playable(self) -> tuple[np.ndarray, int] | None:
        return None if self.sample is None else (self.sample.samples, self.sample.sample_rate)

    def take(self, recording: Recording) -> None:
        self.use(self._enrollment.prepare_recording(recording.samples, recording.sample_rate))

    def reader(self) -> Callable[[Path], PreparedSample]:
        """The function that reads a file as the sample; it runs on a worker thread."""
        return self._enrollment.import_sample

    def use(self, sample: PreparedSample) -> None:
        self.sample = sample
        self.quality_label.setText(self._describe(sample.report))
        refused = not sample.report.accepted
        self.quality_label.setStyleSheet(ERROR_STYLE if refused else
                                         WARNING_STYLE if sample.report.warnings else OK_STYLE)

    def clear(self) -> None:
        self.sample = None
        self.quality_label.setText("")

    def retranslate(self) -> None:
        if self.sample is not None:
            self.quality_label.setText(self._describe(self.sample.report))

    def _describe(self, report: QualityReport) -> str:
        if not report.issues:
            return self.tr("The sample is good: {seconds:.0f} seconds of clear speech.").format(
                seconds=report.duration)
        lines = [translated(issue.message) for issue in report.issues]
        if not report.accepted:
            lines.insert(0, self.tr("This sample cannot be used:"))
        else:
            lines.insert(0, self.tr("The sample can be used, but:"))
        return "\n".join(lines)
