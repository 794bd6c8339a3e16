"""Getting a voice model onto this computer: its licence first when Coqui asks for one, then the download."""
from __future__ import annotations

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QDialog, QWidget

from desktop.core.common.download import NoConnection
from desktop.core.common.i18n import N_
from desktop.core.speech.tts_catalog import TtsModel
from desktop.ui.common.download_dialog import DownloadDialog
from desktop.ui.speech.licence_dialog import LicenceDialog
from desktop.workers.job import JobRunner


def voice_model_download_dialog(store, runner: JobRunner, model: TtsModel,
                                parent: QWidget | None = None, on_unreachable=None) -> DownloadDialog:
    """The shared download dialog, with the words for a voice model; on_unreachable is called (from the
    download's thread) when the download server cannot be reached."""
    if model.size_mb:
        explanation = N_("DownloadDialog", "VoxDesk needs the voice model “{title}” (about {size} MB). It is "
                         "downloaded once and then kept on this computer.").format(title=model.title,
                                                                                   size=model.size_mb)
    else:
        explanation = N_("DownloadDialog", "VoxDesk needs the voice model “{title}”. It is downloaded once and then "
                         "kept on this computer.").format(title=model.title)
    name = model.name

    def download(progress, cancelled) -> None:
        try:
            store.download(name, progress=progress, cancelled=cancelled)
        except NoConnection:
            if on_unreachable is not None:
                on_unreachable()
            raise

    return DownloadDialog(runner, download, title=N_("DownloadDialog", "Downloading a voice model"),
                          explanation=explanation, job_name=f"download {name}", parent=parent)


class ModelFetcher(QObject):
    """Asks for the licence (when there is one) and downloads a model, each in a dialog over parent."""

    fetched = Signal(str)  # the model's name: it is on this computer now
    status = Signal(object)  # a sentence for the status line (a core Message)
    failed = Signal(object)  # the sentence saying why the download failed
    unreachable = Signal()  # the download server could not be reached (queued to the fetcher's thread)

    def __init__(self, store, runner: JobRunner, parent: QWidget) -> None:
        super().__init__(parent)
        self._store = store
        self._runner = runner
        self._parent = parent
        self.dialog: QDialog | None = None  # the licence or download dialog shown last

    def fetch(self, name: str) -> None:
        """Download the model called name, after its licence if it has one; `fetched` follows."""
        model = self._store.get(name)
        terms = self._store.licence_terms(name)
        if terms is not None and not self._store.licence_accepted(name):
            dialog = LicenceDialog(model, terms, self._parent)
            dialog.accepted.connect(lambda: self._on_licence_accepted(name))
            dialog.rejected.connect(lambda: self.status.emit(
                N_("SynthesizeTab", "The licence was not accepted, so the model was not downloaded.")))
        else:
            dialog = voice_model_download_dialog(self._store, self._runner, model, self._parent,
                                                 on_unreachable=self.unreachable.emit)
            dialog.downloaded.connect(lambda: self.fetched.emit(name))
            dialog.failed.connect(self.failed)
            dialog.cancelled.connect(lambda: self.status.emit(N_(
                "SynthesizeTab", "The download was cancelled; it continues where it stopped next time.")))
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.dialog = dialog
        dialog.open()

    def _on_licence_accepted(self, name: str) -> None:
        self._store.accept_licence(name)
        self.fetch(name)

    def close(self) -> None:
        """The window is closing: a download stops, a licence question goes away."""
        if self.dialog is not None:
            try:
                self.dialog.reject()
            except RuntimeError:
                pass  # the dialog was already deleted
