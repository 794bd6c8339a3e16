"""Saving the speech made as a WAV or MP3 file: where, asking before replacing a file, on a worker thread."""
from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6.QtCore import QDir, QObject, QStandardPaths, Signal
from PySide6.QtWidgets import QFileDialog, QWidget

from desktop.core.common.i18n import N_
from desktop.ui.common.replace_prompt import ask_replace
from desktop.ui.common.tab_jobs import TabJobs
from desktop.workers.job import Job, JobReport


def default_save_folder() -> str:
    """Where "Save…" first offers to save: the user's Documents folder (the home folder without one)."""
    documents = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return documents if documents and Path(documents).is_dir() else QDir.homePath()


class SpeechSaver(QObject):
    """Writes speech to a file; the folder saved into last time is offered again."""

    status = Signal(object)  # a sentence for the status line (a core Message)
    failed = Signal(object)  # the sentence saying why the file could not be written
    saved = Signal(object, object)  # the sentence saying where the file went, and its folder (a Path)

    def __init__(self, settings, jobs: TabJobs, parent: QWidget) -> None:
        super().__init__(parent)
        self._settings = settings
        self._jobs = jobs
        self._parent = parent

    @property
    def saving(self) -> bool:
        return self._jobs.running("save")

    def choose_file(self) -> Path | None:
        """Ask where to save (.wav or .mp3); None when the user cancels."""
        folder = self._settings.get("synthesize/save_folder") or default_save_folder()
        path, chosen_filter = QFileDialog.getSaveFileName(
            self._parent, self.tr("Save the speech"), str(Path(folder) / self.tr("speech.wav")),
            self.tr("WAV audio (*.wav);;MP3 audio (*.mp3)"),
            options=QFileDialog.Option.DontConfirmOverwrite,  # asked when saving, once, in VoxDesk's words
        )
        if not path:
            return None
        target = Path(path)
        if target.suffix.lower() not in (".wav", ".mp3"):
            target = target.with_name(target.name + (".mp3" if "mp3" in chosen_filter.lower() else ".wav"))
        return target

    def save(self, path: Path, samples: np.ndarray, sample_rate: int, *, normalize: bool,
             overwrite: bool = False) -> Job | None:
        """Write samples to path (WAV or MP3 from the extension) on a worker thread; an existing file
        is replaced only after the user says so. None when there is nothing to save."""
        if not len(samples):
            self.failed.emit(N_("SynthesizeTab", "There is no speech to save yet. Press Speak first."))
            return None
        from desktop.core.common.atomic import ExportExists
        from desktop.core.common.audio_out import save_speech

        def work(_report: JobReport) -> tuple[str, Path]:
            try:
                return "saved", save_speech(path, samples, sample_rate, normalize=normalize, overwrite=overwrite)
            except ExportExists:
                return "exists", path

        def done(outcome: tuple[str, Path]) -> None:
            what, written = outcome
            if what == "saved":
                self._settings.set("synthesize/save_folder", str(written.parent))  # offered next time
                self.saved.emit(N_("SynthesizeTab", "Saved “{name}” in the folder {folder}.").format(
                    name=written.name, folder=str(written.parent)), written.parent)
            elif ask_replace(self._parent, [written]):
                self.save(written, samples, sample_rate, normalize=normalize, overwrite=True)
            else:
                self.status.emit(N_("SynthesizeTab", "Not saved: “{name}” was kept as it was.").format(
                    name=written.name))

        return self._jobs.start("save", work, on_result=done, on_failed=self.failed.emit)
