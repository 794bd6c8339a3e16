"""Step 2 of adding a voice: the consent sentence and the speaker's recording of it.

The sentence carries the speaker's name, today's date and a fresh code (issued by the VoiceLibrary),
so an old recording cannot be reused. The recording is made with the recorder or imported; checking
it is part of saving the voice.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

import numpy as np
from PySide6.QtCore import QObject
from PySide6.QtWidgets import QLabel

from desktop.core.common.recorder import Recording
from desktop.core.voices.consent import ConsentPrompt
from desktop.core.voices.library import VoiceLibrary
from desktop.core.voices.quality import TakeLength


def read_consent(path: Path) -> tuple[np.ndarray, int]:
    """A consent recording from a file, at a rate between 16 and 48 kHz; runs on a worker thread.
    A file longer than a consent recording can be is refused from its header."""
    from desktop.core.voices.recordings import read_consent as read_consent_file

    return read_consent_file(path)


class ConsentStep(QObject):
    def __init__(self, library: VoiceLibrary, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._library = library
        self.prompt: ConsentPrompt | None = None
        self.audio: tuple[np.ndarray, int] | None = None  # the consent recording and its sample rate
        self.consent_label = QLabel()
        self.consent_label.setWordWrap(True)

    # -- what the recorder shows ---------------------------------------------------------------

    def heading(self) -> str | None:
        if self.prompt is None:
            return None
        return self.tr("Step 2 of 2: consent. {name} reads this sentence aloud, including the code.").format(
            name=self.prompt.name)

    def script_title(self) -> str:
        return self.tr("Consent sentence:")

    def script(self, _language: str) -> tuple[str, TakeLength | None]:
        """The consent sentence to read aloud; it has no length to aim for."""
        return self.prompt.text, None

    def prepare(self, speaker: str, language: str) -> None:
        """Issue a sentence for this speaker and language, unless the shown one already is.

        Raises UserFacingError (e.g. no name given)."""
        if self.prompt is not None and self.prompt.name == " ".join(speaker.split()) \
                and self.prompt.language == language:
            return
        self.prompt = self._library.issue_prompt(speaker, language)
        self.audio = None
        self._show()

    # -- the recording -------------------------------------------------------------------------

    @property
    def ready(self) -> bool:
        return self.audio is not None

    def playable(self) -> tuple[np.ndarray, int] | None:
        return self.audio

    def take(self, recording: Recording) -> None:
        self.use((recording.samples, recording.sample_rate))

    def reader(self) -> Callable[[Path], tuple[np.ndarray, int]]:
        """The function that reads a file as the consent recording; it runs on a worker thread."""
        return read_consent

    def use(self, audio: tuple[np.ndarray, int]) -> None:
        self.audio = audio
        self._show()

    def clear(self) -> None:
        """Forget the sentence and its recording (the language changed, or the voice was saved)."""
        self.prompt = None
        self.audio = None
        self.consent_label.setText("")

    def retranslate(self) -> None:
        self._show()

    def _show(self) -> None:
        if self.audio is None:
            self.consent_label.setText("")
            return
        samples, rate = self.audio
        self.consent_label.setText(self.tr("Consent recording: {seconds:.0f} seconds. Press “Check consent and "
                                           "save the voice”.").format(seconds=len(samples) / rate))
        self.consent_label.setStyleSheet("")
