"""Spell checking for the editor's text column: which words of a line to underline, and what to offer
instead of one (core.transcription.spelling does the checking).

The dictionary is opened and the glossaries are read on a job thread once, when the editor first
shows an English transcript; until then, and where no dictionary is installed, nothing is
underlined. Where there is none, `unavailable` says so once, in a sentence the editor shows.
"""
from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QObject, Signal

from desktop.core.glossary.library import GlossaryLibrary
from desktop.core.transcription import spelling
from desktop.core.transcription.spelling import Misspelling, SpellChecker
from desktop.core.transcription.transcript import Transcript
from desktop.ui.common.i18n import translated
from desktop.ui.common.tab_jobs import TabJobs
from desktop.workers.job import JobReport, JobRunner

_REMEMBERED_LINES = 20_000  # lines whose misspellings are kept, so painting does not check them again


class SpellingMarks(QObject):
    changed = Signal()  # the checker is ready or its words changed: the lines are painted again
    unavailable = Signal(str)  # why spell checking is off, in the interface's language (said once)

    def __init__(self, runner: JobRunner, library: Callable[[], GlossaryLibrary | None],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._jobs = TabJobs(runner, self)
        self._library = library
        self._checker: SpellChecker | None = None
        self._speaker_names: tuple[str, ...] = ()
        self._glossary_terms: list[str] = []
        self._found: dict[str, list[Misspelling]] = {}
        self._transcript: Transcript | None = None
        self._checks = False

    @property
    def ready(self) -> bool:
        return self._checker is not None and self._checker.available

    def show(self, transcript: Transcript | None) -> None:
        """The transcript the editor shows now: checked if it is English, its speakers' names known."""
        self._transcript = transcript
        sample = " ".join(segment.text for segment in transcript.segments[:50]) if transcript is not None else ""
        self._checks = transcript is not None and spelling.checks(transcript.language, sample)
        self.names_changed()
        if self._checks and self._checker is None and not self._jobs.running("open"):
            self._open()

    def names_changed(self) -> None:
        """The speakers were renamed: their names count as words."""
        names = tuple(self._transcript.speaker_names.values()) if self._transcript is not None else ()
        if names != self._speaker_names:
            self._speaker_names = names
            self._known_words_changed()

    def misspellings(self, text: str) -> list[Misspelling]:
        """The words of a line of the shown transcript to underline (none for Chinese)."""
        if not self._checks or not self.ready:
            return []
        found = self._found.get(text)
        if found is None:
            if len(self._found) >= _REMEMBERED_LINES:
                self._found.clear()
            found = self._found[text] = self._checker.misspellings(text)
        return found

    def misspelling_at(self, text: str, offset: int) -> Misspelling | None:
        return next((m for m in self.misspellings(text) if m.start <= offset <= m.end), None)

    def suggestions(self, word: str) -> list[str]:
        return self._checker.suggestions(word) if self.ready else []

    def shutdown(self) -> None:
        self._jobs.cancel_all()

    def _open(self) -> None:
        library = self._library()

        def work(_report: JobReport) -> tuple[SpellChecker, list[str]]:
            terms = spelling.glossary_terms(library) if library is not None else []
            return SpellChecker(terms), terms

        def opened(made: tuple[SpellChecker, list[str]]) -> None:
            self._checker, self._glossary_terms = made
            if not self._checker.available:
                self.unavailable.emit(translated(self._checker.unavailable))
            self._known_words_changed()

        self._jobs.start("open", work, on_result=opened)

    def _known_words_changed(self) -> None:
        if self._checker is not None:
            self._checker.set_known_words([*self._glossary_terms, *self._speaker_names])
            self._found.clear()
            self.changed.emit()
