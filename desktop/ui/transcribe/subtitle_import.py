"""File → Open subtitles… and dropped .srt/.vtt files: subtitles made elsewhere become the transcript
of their recording, to edit, retime and export again like one VoxDesk made. A file is read and parsed
on a thread of its own (a long or slow one, on a network share, never holds up the window); closing the
window stops waiting for it at once.

For a recording already transcribed, the user is asked first: replace its transcript (one undoable
edit, the file's speakers' names with it) or open the subtitles as a second transcript of it."""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterable

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QMessageBox

from desktop.core.common.audio import is_media_file
from desktop.core.common.i18n import N_
from desktop.core.transcription import edits
from desktop.core.transcription.subtitle_files import read_subtitles, transcript_from_cues
from desktop.core.transcription.transcript import Transcript
from desktop.ui.common.i18n import translated
from desktop.ui.common.tab_jobs import TabJobs
from desktop.ui.transcribe.editor.context import EditorContext
from desktop.ui.transcribe.editor.document import TranscriptDocuments
from desktop.workers.job import JobReport, JobRunner, wait_cancellably
from desktop.workers.transcription_queue import ItemState, QueueItem, TranscriptionQueue, same_file_key

SUBTITLE_SUFFIXES = (".srt", ".vtt")
REPLACE, SECOND = "replace", "second"  # what to do with subtitles for a recording transcribed already


def is_subtitle_file(path: Path) -> bool:
    return path.suffix.lower() in SUBTITLE_SUFFIXES


def recording_next_to(subtitles: Path, among: Iterable[Path] = ()) -> Path | None:
    """The recording the subtitles belong to by name: “talk.srt” is “talk.mp4”'s (or “talk.wav”'s…),
    looked for among the files given (dropped together), then in the subtitles' folder."""
    def named_alike(path: Path) -> bool:
        return path.stem == subtitles.stem and is_media_file(path) and not is_subtitle_file(path)
    found = [path for path in among if named_alike(path)]
    if not found:
        try:
            found = sorted(path for path in subtitles.parent.glob(f"{subtitles.stem}.*")
                           if named_alike(path) and path.is_file())
        except OSError:
            found = []
    return found[0] if found else None


class SubtitleImport(QObject):
    status_message = Signal(str)
    opened = Signal(object)  # the QueueItem whose transcript subtitles became

    def __init__(self, queue: TranscriptionQueue, editor: EditorContext, documents: TranscriptDocuments,
                 save_new: Callable[[QueueItem, Transcript], None], select_item: Callable[[QueueItem], None],
                 runner: JobRunner, parent: QObject | None = None):
        """editor: what the editor shows; documents: the open transcripts, which edits go through."""
        super().__init__(parent)
        self._queue = queue
        self._editor = editor
        self._documents = documents
        self._save_new = save_new
        self._select_item = select_item
        self._jobs = TabJobs(runner, self)
        # (subtitles, recording) -> REPLACE, SECOND or None (opened neither); a question by default.
        self.ask_how_to_open: Callable[[Path, Path], str | None] = self._ask_how_to_open
        # Opened transcripts the autosave is handed once the table has all their lines: copying them out
        # (Python work on its thread) would slow the window while it fills. Sooner where needed: before
        # an edit, when another transcript is shown, when the window closes.
        self._unsaved: list[tuple[QueueItem, Transcript]] = []
        editor.settled.connect(self._save_unsaved)

    def open(self, subtitles: Path, recording: Path, *, refused: Callable[[], None] | None = None) -> None:
        """Read the subtitles, then make them recording's transcript: a new row in the list, or, for a
        recording already transcribed there, its lines replaced (one undoable edit). A file that cannot
        be read is said in a sentence, and `refused` is called."""
        def made(cancelled: Callable[[], bool]) -> tuple[Transcript, Transcript]:
            cues = read_subtitles(subtitles, cancelled=cancelled)
            # The transcript, and an equal one of its own for the autosave to write (see save_opened_transcript).
            transcript = transcript_from_cues(cues, recording)
            return transcript, transcript.snapshot()

        def read(report: JobReport) -> tuple[Transcript, Transcript]:
            # On a helper thread the job only waits for: closing the window ends the job at once, however
            # long the reader takes to notice (its thread touches no Qt, and its answer is dropped).
            return wait_cancellably(lambda: made(report.cancelled), report.cancelled)

        def failed(message) -> None:
            self.status_message.emit(translated(message))
            if refused is not None:
                refused()
        self._jobs.start(f"subtitles {subtitles}", read, on_result=lambda made: self._put_in(
            subtitles, recording, *made), on_failed=failed)

    def reading(self) -> bool:
        """Whether a subtitle file is still being read."""
        return self._jobs.running()

    def shutdown(self) -> None:
        """The window is closing: a file still being read is not opened; one open is saved (call this
        before the saved work stops)."""
        self._save_unsaved()
        self._jobs.cancel_all()

    def _save_when_shown(self, item: QueueItem, copy: Transcript) -> None:
        if self._editor.filling(item.transcript):
            self._unsaved.append((item, copy))
        else:
            self._save_new(item, copy)

    def _save_unsaved(self) -> None:
        unsaved, self._unsaved = self._unsaved, []
        for item, copy in unsaved:
            self._save_new(item, copy)

    def _put_in(self, subtitles: Path, recording: Path, transcript: Transcript,
                copy: Transcript) -> QueueItem | None:
        key = same_file_key(recording)
        item = next((item for item in self._queue.items if item.key == key), None)
        if item is None:
            return self._put_in_new_row(subtitles, recording, transcript, copy)
        elif item.state is ItemState.DONE and item.transcript is not None:
            self._select_item(item)
            how = self.ask_how_to_open(subtitles, recording)
            if how is None:
                return None
            if how == SECOND:
                return self._put_in_new_row(subtitles, recording, transcript, copy)
            # The file's own names for its speakers: its speaker 1 is not the transcript's speaker 1.
            change = edits.replace_lines(item.transcript, transcript.segments,
                                         N_("Edits", "open the subtitles “{name}”").format(name=subtitles.name),
                                         dict(transcript.speaker_names))
            self._save_unsaved()  # copies held back are older than the edit: written before it
            self._documents.for_item(item).apply(change)
        else:
            self.status_message.emit(self.tr(
                "“{name}” is still waiting or being transcribed: when it is done, or once it is taken off the "
                "list, open the subtitles again.").format(name=recording.name))
            return None
        self.status_message.emit(self.tr("“{subtitles}” is open as the transcript of “{recording}”.").format(
            subtitles=subtitles.name, recording=recording.name))
        self.opened.emit(item)
        return item

    def _put_in_new_row(self, subtitles: Path, recording: Path, transcript: Transcript,
                        copy: Transcript) -> QueueItem:
        item = QueueItem(path=recording)
        item.state, item.progress = ItemState.DONE, 1.0
        item.transcript, item.segments = transcript, transcript.segments
        self._queue.restore(item)
        self._select_item(item)
        self._save_when_shown(item, copy)
        self.status_message.emit(self.tr("“{subtitles}” is open as the transcript of “{recording}”.").format(
            subtitles=subtitles.name, recording=recording.name))
        self.opened.emit(item)
        return item

    def _ask_how_to_open(self, subtitles: Path, recording: Path) -> str | None:
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Open subtitles"), self.tr(
            "“{recording}” already has a transcript. Replace it with the lines of “{subtitles}” (Edit → Undo "
            "brings it back), or open them as a second transcript of the recording, in a row of its own?").format(
            recording=recording.name, subtitles=subtitles.name), QMessageBox.StandardButton.NoButton, self._editor.window())
        replace = box.addButton(self.tr("Replace the transcript"), QMessageBox.ButtonRole.AcceptRole)
        second = box.addButton(self.tr("Open as a second transcript"), QMessageBox.ButtonRole.AcceptRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(second)  # the choice that loses nothing
        box.exec()
        clicked = box.clickedButton()
        box.deleteLater()
        return REPLACE if clicked is replace else SECOND if clicked is second else None
