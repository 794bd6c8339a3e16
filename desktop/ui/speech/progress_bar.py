"""The Synthesize tab's progress bar: how far speech (or copying a model) has come, in words."""
from __future__ import annotations

from PySide6.QtWidgets import QProgressBar, QWidget


class SpeechProgress(QProgressBar):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setRange(0, 1000)
        self.setTextVisible(True)
        self.clear_text()

    def clear_text(self, value: int | None = None) -> None:
        if value is not None:
            self.setValue(value)
        self.setFormat("")

    def starting(self) -> None:
        self.setValue(0)
        self.setFormat(self.tr("Starting…"))

    def sentence_made(self, done: int, total: int) -> None:
        self.setValue(int(1000 * done / total))
        self.setFormat(self.tr("Sentence {done} of {total}").format(done=done, total=total))

    def speech_done(self, count: int, seconds: float) -> None:
        self.setValue(1000)
        self.setFormat(self.tr("{count} sentences · {seconds:.0f} s of speech").format(count=count, seconds=seconds))

    def speech_failed(self, made: int) -> None:
        self.setFormat(self.tr("Stopped") if made else "")

    def speech_cancelled(self, made: int) -> None:
        self.setFormat(self.tr("Cancelled after sentence {done}").format(done=made))

    def copying(self, fraction: float) -> None:
        self.setValue(int(fraction * 1000))
        self.setFormat(self.tr("Copying the model… {percent}%").format(percent=int(fraction * 100)))
