"""The lines of a live-caption session: the committed ones, in order, and the one still changing.

A committed line is final (its utterance ended and was decoded in full); the tentative line is the
best guess so far for the utterance being spoken, replaced at each new guess and cleared when that
utterance is committed. Times are seconds from the start of the session's recording.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass

from desktop.core.transcription.transcript import Segment, Transcript


@dataclass(frozen=True)
class CommittedLine:
    segment: Segment
    latency: float  # seconds from the end of the utterance's audio to this line being ready


class LiveLines:
    """Thread-safe: the captioner adds lines on its thread while the window or the CLI reads them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._committed: list[CommittedLine] = []
        self._tentative = ""
        self._warnings: list[str] = []  # sentences about the whole session, each once
        self.language: str | None = None

    def commit(self, segment: Segment, latency: float) -> CommittedLine:
        line = CommittedLine(segment, latency)
        with self._lock:
            self._committed.append(line)
            self._tentative = ""
        return line

    def warn(self, sentence: str) -> None:
        with self._lock:
            if sentence not in self._warnings:
                self._warnings.append(sentence)

    @property
    def warnings(self) -> list[str]:
        with self._lock:
            return list(self._warnings)

    def set_tentative(self, text: str) -> None:
        with self._lock:
            self._tentative = text.strip()

    @property
    def tentative(self) -> str:
        with self._lock:
            return self._tentative

    @property
    def committed(self) -> list[CommittedLine]:
        with self._lock:
            return list(self._committed)

    @property
    def segments(self) -> list[Segment]:
        return [line.segment for line in self.committed]

    def last_lines(self, count: int = 2) -> list[str]:
        """The last ``count`` lines to show, the changing one last when there is one."""
        with self._lock:
            texts = [line.segment.text.strip() for line in self._committed if line.segment.text.strip()]
            if self._tentative:
                texts.append(self._tentative)
        return texts[-count:]

    def transcript(self, *, duration: float, source: str | None) -> Transcript:
        return Transcript(segments=self.segments, language=self.language, duration=duration, source=source,
                          warnings=self.warnings)
