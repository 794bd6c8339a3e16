"""The Transcribe tab: drop recordings in, watch them run one at a time, edit the text, export subtitles.

The tab composes four widgets and wires them to the transcription queue: the choices for the next
file (OptionsBar), the file list (QueuePanel), the selected file's transcript (TranscriptPanel) and
the export row (ExportBar). SavedWork keeps the queue, the transcripts and every correction on disk
as the user goes, and brings them back when the tab is built again.
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, Qt, Signal, Slot
from PySide6.QtGui import QAction, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import QSplitter, QToolButton, QVBoxLayout, QWidget

from desktop import APP_NAME
from desktop.core.common.errors import UserFacingError
from desktop.core.gpu.fallback import FallbackLog
from desktop.core.transcription.autosave import AutosaveStore, SavedItem
from desktop.engines.transcription.transcriber import TranscribeSettings
from desktop.settings import Settings
from desktop.ui.common.i18n import translated
from desktop.ui.transcribe.export_bar import ExportBar
from desktop.ui.transcribe.live_launcher import LiveLauncher
from desktop.ui.transcribe.model_folder_watch import ModelFolderWatch
from desktop.ui.transcribe.options_bar import OptionsBar
from desktop.ui.transcribe.queue_panel import QueuePanel
from desktop.ui.transcribe.editor.document import TranscriptDocuments
from desktop.ui.transcribe.editor.saved_work import SavedWork
from desktop.ui.transcribe.subtitle_import import SubtitleImport, is_subtitle_file, recording_next_to
from desktop.ui.transcribe.editor.transcribe_again import TranscribeAgain
from desktop.ui.transcribe.editor.transcript_panel import TranscriptPanel
from desktop.workers.job import JobRunner
from desktop.workers.transcription_queue import ItemState, QueueItem, TranscriptionQueue


def has_transcript_to_export(item: QueueItem | None) -> bool:
    return (item is not None and item.state is ItemState.DONE and item.transcript is not None
            and not item.transcript.is_empty)


class TranscribeTab(QWidget):
    status_message = Signal(str)  # a sentence for the window's status bar
    edits_kept = Signal(str)  # at start, a sentence naming the files whose unexported corrections came back
    export_available = Signal(bool, bool)  # (the selected file can be exported, any file can)
    window_title_changed = Signal(str)  # the window's title: marked “•” while the shown transcript
    # changed since its last export

    def __init__(self, settings: Settings, transcriber, store, runner: JobRunner, autosave: AutosaveStore,
                 fallback_log: FallbackLog, parent: QWidget | None = None):
        """store: the Whisper model store; autosave: where the work is kept as the user goes;
        fallback_log: the window's, where live captions record a fall back to the CPU too."""
        super().__init__(parent)
        self._settings = settings
        self._store = store
        self._runner = runner
        self.options = OptionsBar(settings, store, runner)
        self.queue = TranscriptionQueue(transcriber, runner, self.options.transcribe_settings, self)
        self.queue_panel = QueuePanel(self.queue, runner)
        self.documents = TranscriptDocuments(self)  # the finished transcripts open for editing
        self.transcript_panel = TranscriptPanel(runner, self.documents)
        self.transcript_panel.glossary_library = self.options.app_settings.glossary_library  # words spelled right
        self.export_bar = ExportBar(settings, runner)
        self.saved_work = SavedWork(autosave, self.queue, self)
        self.live = LiveLauncher(runner, store, fallback_log, self.options, self.add_paths, self)  # live captions
        self.transcribe_again = TranscribeAgain(self.transcript_panel.context, self.options, transcriber, runner, self)
        self.transcript_panel.add_line_action(self.transcribe_again.action)
        self.transcribe_again.status_message.connect(self.status_message)
        self._models_here: set[str] | None = None  # the models on this computer at the last listing
        self.model_folders = ModelFolderWatch(store.folders(), self)  # a model imported in a terminal shows
        self._keep_widget_names()
        self.setAcceptDrops(True)
        self._lay_out()
        self._connect()
        self.options.refresh_models()
        self.apply_subtitle_settings()
        self.saved_work.restore()
        self._update_exportable()

    def apply_subtitle_settings(self) -> None:
        """The table judges its lines by the reading speed and cue lines chosen in Settings."""
        self.transcript_panel.set_reading_limits(self._settings.reading_limits(), self._settings.line_limits())

    def _keep_widget_names(self) -> None:
        """The widgets the main window's and the settings' tests reach on the tab itself."""
        self.model_combo = self.options.model_combo
        self.language_combo = self.options.language_combo
        self.task_combo = self.options.task_combo
        self.prompt_edit = self.options.prompt_edit
        self.add_button = self.queue_panel.add_button
        self.queue_view = self.queue_panel.view
        self.queue_model = self.queue_panel.model
        self.result_title = self.transcript_panel.title
        self.format_boxes = self.export_bar.format_boxes
        self.export_all_button = self.export_bar.export_all_button

    def _lay_out(self) -> None:
        result_box = QWidget()
        result_layout = QVBoxLayout(result_box)
        result_layout.setContentsMargins(0, 0, 0, 0)
        result_layout.addWidget(self.transcript_panel, 1)
        result_layout.addWidget(self.export_bar)

        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.queue_panel)
        splitter.addWidget(result_box)
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 3)
        splitter.setChildrenCollapsible(False)

        layout = QVBoxLayout(self)
        layout.addWidget(self.options)
        layout.addWidget(self.live)
        layout.addWidget(splitter, 1)
        self.setMinimumSize(720, 480)

        # The editor's room: the options, live captions and the list fold away so that the lines fill
        # the tab (at 1280×720 the list and the waveform left room for four lines). Remembered.
        self.editor_room_action = QAction(self)
        self.editor_room_action.setCheckable(True)
        self.editor_room_action.setShortcut(QKeySequence("Ctrl+Shift+R"))
        self.editor_room_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.editor_room_action.toggled.connect(self._give_editor_the_room)
        self.addAction(self.editor_room_action)
        room_button = QToolButton()
        room_button.setDefaultAction(self.editor_room_action)
        room_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.transcript_panel.add_title_button(room_button)
        self.editor_room_action.setChecked(bool(self._settings.get("transcribe/editor_room")))
        self._name_editor_room()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self._name_editor_room()
        super().changeEvent(event)

    @Slot(bool)
    def _give_editor_the_room(self, whole: bool) -> None:
        for part in (self.options, self.live, self.queue_panel):
            part.setVisible(not whole)
        self._settings.set("transcribe/editor_room", whole)
        self._name_editor_room()

    def _name_editor_room(self) -> None:
        key = self.editor_room_action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        if self.editor_room_action.isChecked():
            self.editor_room_action.setText(self.tr("Show the file list"))
            self.editor_room_action.setToolTip(self.tr("Bring back the list of files and the options above the "
                                                       "transcript ({key})").format(key=key))
        else:
            self.editor_room_action.setText(self.tr("Larger editor"))
            self.editor_room_action.setToolTip(self.tr("Give the transcript the whole tab: the list of files and "
                                                       "the options fold away ({key})").format(key=key))

    @Slot(object)
    def _record_glossaries_used(self, item) -> None:
        """For Tools → Glossaries…: which recordings each glossary was used for."""
        transcript = item.transcript
        if transcript is not None and transcript.glossaries:
            try:
                self.options.app_settings.glossary_library().record_use(transcript.glossaries, str(item.path))
            except (UserFacingError, OSError):
                pass  # only the list of uses is lost, never the transcript

    @Slot(object)
    def _keep_as_transcribed(self, item) -> None:
        """File → Revert to the transcription goes back to this, what Whisper wrote."""
        document = self.documents.for_item(item)
        if document is not None:
            document.keep_as_transcribed()

    def _connect(self) -> None:
        queue = self.queue
        queue.item_changed.connect(self.transcript_panel.on_item_changed)
        queue.segment_added.connect(self.transcript_panel.on_segment_added)
        queue.item_finished.connect(self.transcript_panel.on_item_finished)
        queue.item_finished.connect(self._record_glossaries_used)
        queue.item_finished.connect(self._keep_as_transcribed)
        queue.item_removed.connect(self._on_item_removed)
        queue.model_needed.connect(self._on_model_needed)
        queue.notice.connect(lambda text: self.status_message.emit(translated(text)))
        for signal in (queue.item_added, queue.item_changed, queue.item_finished, queue.item_removed):
            signal.connect(self._update_exportable)
        self.queue_panel.selection_changed.connect(self._on_selection_changed)
        self.queue_model.changed_since_export = self._changed_since_export
        self.documents.export_state_changed.connect(self._on_export_state_changed)
        self.options.model_changed.connect(queue.release_model)
        self.options.models_listed.connect(self._on_models_listed)
        self.model_folders.changed.connect(self.refresh_models)

        self.documents.on_edited = lambda applied: self.saved_work.save_whole(applied.document.item)
        self.queue_panel.removed.connect(self.saved_work.forget)
        self.saved_work.problem.connect(lambda text: self.status_message.emit(translated(text)))
        self.saved_work.restored.connect(self._on_restored)
        self.export_bar.exported.connect(self._on_exported)
        self.subtitle_import = SubtitleImport(
            queue, self.transcript_panel.context, self.documents, self.saved_work.save_opened_transcript,
            lambda item: self.queue_view.selectRow(self.queue_model.row_of(item)), self._runner, self)

        self.export_bar.export_button.clicked.connect(self.export_selected)
        self.export_bar.export_all_button.clicked.connect(self.export_all)
        self.export_bar.availability_changed.connect(self.export_available)
        for panel in (self.queue_panel, self.transcript_panel, self.export_bar, self.subtitle_import):
            panel.status_message.connect(self.status_message)

    # -- what the main window asks of the tab --------------------------------------------------

    def transcribe_settings(self) -> TranscribeSettings:
        return self.options.transcribe_settings()

    def refresh_models(self, select: str | None = None) -> None:
        self.options.refresh_models(select)

    @Slot()
    def choose_files(self) -> None:
        self.queue_panel.choose_files()

    def add_paths(self, paths: list[Path | str]) -> None:
        self.queue_panel.add_paths(paths)

    @Slot()
    def open_subtitles(self) -> None:
        """File → Open subtitles…: an .srt or .vtt file, as the transcript of the recording named like it
        next to it, else of the selected file's recording, else of the recording the user then picks."""
        from PySide6.QtWidgets import QFileDialog

        selected = self.selected_item()
        start = str(selected.path.parent) if selected is not None else ""
        chosen, _ = QFileDialog.getOpenFileName(self, self.tr("Open subtitles"), start,
                                                self.tr("Subtitles (*.srt *.vtt)"))
        if not chosen:
            return
        subtitles = Path(chosen)
        recording = recording_next_to(subtitles) or (selected.path if selected is not None else None)
        if recording is None:
            from desktop.core.common.audio import SUPPORTED_EXTENSIONS

            patterns = " ".join(f"*.{ext}" for ext in sorted(SUPPORTED_EXTENSIONS))
            picked, _ = QFileDialog.getOpenFileName(
                self, self.tr("The recording of “{name}”").format(name=subtitles.name), str(subtitles.parent),
                self.tr("Recordings ({patterns})").format(patterns=patterns))
            if not picked:
                return
            recording = Path(picked)
        self.subtitle_import.open(subtitles, recording)

    def selected_item(self) -> QueueItem | None:
        return self.queue_panel.selected_item()

    def export_formats(self) -> list[str]:
        return self.export_bar.export_formats()

    def export_folder(self) -> Path | None:
        return self.export_bar.export_folder()

    def set_export_folder(self, folder: Path | None) -> None:
        self.export_bar.set_export_folder(folder)

    @Slot()
    def export_selected(self) -> None:
        item = self.selected_item()
        if has_transcript_to_export(item):
            self._export([item])

    @Slot()
    def export_all(self) -> None:
        done = self.queue.with_state(ItemState.DONE)
        items = [item for item in done if has_transcript_to_export(item)]
        skipped = len(done) - len(items)
        if skipped:
            self.status_message.emit(self.tr("{count} file(s) with no speech were skipped.").format(count=skipped))
        if items:
            self._export(items)

    def _export(self, items: list[QueueItem]) -> None:
        if self.export_bar.busy:
            return
        # The export writes the transcripts as they are now: that state, and that many saved edits.
        for item in items:
            self.saved_work.export_started(item)
            self.documents.for_item(item).export_started()
        self.export_bar.export(items)

    @Slot(object)
    def _on_exported(self, items: list[QueueItem]) -> None:
        folder = self.export_bar.export_folder()
        for item in items:
            self.saved_work.mark_exported(item)
            document = self.documents.existing(item)
            if document is not None:
                document.export_written(folder or item.path.parent)

    # -- saved work ----------------------------------------------------------------------------

    def recent_transcripts(self) -> list[SavedItem]:
        """Saved transcripts, the most recently changed first (File → Recent transcripts)."""
        return self.saved_work.recent()

    def reopen(self, saved: SavedItem) -> None:
        """List a saved transcript again (or find its row) and show it."""
        self.saved_work.reopen(saved, lambda item: self.queue_view.selectRow(self.queue_model.row_of(item)))

    @Slot(list)
    def _on_restored(self, kept_edits: list[QueueItem]) -> None:
        for item in kept_edits:
            document = self.documents.for_item(item)
            if document is not None:
                document.restored_with_unexported_edits()
        if kept_edits:
            names = ", ".join(f"“{item.path.name}”" for item in kept_edits)
            self.edits_kept.emit(
                self.tr("Corrections you had not exported were kept and are shown again: {names}.").format(names=names))

    # -- drops ---------------------------------------------------------------------------------

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 - Qt naming
        if event.mimeData().hasUrls() and any(url.isLocalFile() for url in event.mimeData().urls()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event) -> None:  # noqa: N802 - Qt naming
        event.acceptProposedAction() if event.mimeData().hasUrls() else event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 - Qt naming
        paths = [Path(url.toLocalFile()) for url in event.mimeData().urls() if url.isLocalFile()]
        if not paths:
            event.ignore()
            return
        event.acceptProposedAction()
        # Subtitles dropped next to their recording (or with it) open as its transcript; a recording
        # dropped with subtitles that cannot be read is listed to transcribe instead.
        opened = set()
        for subtitles in [path for path in paths if is_subtitle_file(path)]:
            recording = recording_next_to(subtitles, paths)
            if recording is None:
                self.status_message.emit(self.tr(
                    "No recording named like “{name}” was found next to it: use File → Open subtitles… to "
                    "choose its recording.").format(name=subtitles.name))
            else:
                dropped = [recording] if recording in paths else []
                self.subtitle_import.open(subtitles, recording,
                                          refused=lambda dropped=dropped: dropped and self.add_paths(dropped))
                opened.add(recording)
            opened.add(subtitles)
        rest = [path for path in paths if path not in opened]
        if rest:
            self.add_paths(rest)

    # -- wiring the panels ---------------------------------------------------------------------

    @Slot()
    def _on_selection_changed(self) -> None:
        self.transcript_panel.show_item(self.selected_item())
        self._update_exportable()
        self._say_changed_since_export()

    def _changed_since_export(self, item: QueueItem) -> bool:
        document = self.documents.existing(item)
        return document is not None and document.changed_since_export

    def changed_since_export(self) -> list[QueueItem]:
        """The listed files whose transcript changed since its last export (or was never exported)."""
        return [item for item in self.queue.items if self._changed_since_export(item)]

    @Slot(object)
    def _on_export_state_changed(self, document) -> None:
        self.queue_model.refresh(document.item)
        if document.item is self.selected_item():
            self._say_changed_since_export()

    def _say_changed_since_export(self) -> None:
        """The window's title and the export bar say whether the shown transcript changed since its export."""
        item = self.selected_item()
        document = self.documents.existing(item) if item is not None else None
        changed = document is not None and document.changed_since_export
        self.export_bar.set_changed_since_export(document.exported_to if changed else None)
        self.window_title_changed.emit(f"• {item.path.name} — {APP_NAME}" if changed else APP_NAME)

    @Slot(object)
    def _on_item_removed(self, item: QueueItem) -> None:
        self.transcript_panel.forget_item(item)
        if item is self.transcript_panel.shown_item:
            self.transcript_panel.show_item(self.selected_item())

    @Slot()
    def _update_exportable(self) -> None:
        self.export_bar.set_exportable(has_transcript_to_export(self.selected_item()),
                                       any(has_transcript_to_export(item) for item in self.queue.items))

    def _on_model_needed(self, name: str, fmt: str) -> None:
        from desktop.ui.transcribe.model_dialogs import DownloadDialog

        dialog = DownloadDialog(self._store, self._runner, name, fmt, self)
        dialog.finished.connect(dialog.deleteLater)
        dialog.downloaded.connect(self._on_model_downloaded)
        dialog.unreachable.connect(self._on_download_unreachable)
        dialog.failed.connect(self.queue.model_unavailable)
        dialog.cancelled.connect(lambda: self.queue.model_unavailable(None))
        dialog.open()

    @Slot(object)
    def _on_models_listed(self, entries) -> None:
        """Files that failed for a model that was not on this computer start again by themselves once the
        model chosen for them is here: the one they waited for, or one brought in since (imported,
        copied in by IT)."""
        here = {entry.name for entry in entries if any(entry.downloaded.values())}
        arrived, self._models_here = (set() if self._models_here is None else here - self._models_here), here
        if arrived:  # imported, copied in or downloaded: offer the downloads again
            self.options.set_offline(False)
        chosen = self._settings.get("transcribe/model")
        if chosen not in here:
            return
        started = [item for name in {item.missing_model for item in self.queue.with_state(ItemState.FAILED)}
                   if name and (name == chosen or chosen in arrived)
                   for item in self.queue.retry_missing_model(name)]
        if started:
            self.status_message.emit(self.tr("The model “{name}” is on this computer now: the files that "
                                             "needed it start again.").format(name=chosen))

    @Slot()
    def _on_download_unreachable(self) -> None:
        """No connection: models that need a download are shown as download-only until one works."""
        self.options.set_offline(True)

    @Slot()
    def _on_model_downloaded(self) -> None:
        self.options.set_offline(False)
        self.refresh_models()
        self.queue.model_ready()

    # -- closing -------------------------------------------------------------------------------

    def shutdown(self) -> None:
        """The window is closing: keep the choices, stop transcribing, playing and exporting. The saved
        work stays as it is now, so a file stopped by closing comes back waiting."""
        self.subtitle_import.shutdown()  # first: subtitles just opened are handed to the saved work
        self.saved_work.stop()
        self.transcribe_again.shutdown()
        self.options.shutdown()
        self.queue.shutdown()
        self.transcript_panel.player.stop()
        self.transcript_panel.speaker_labelling.shutdown()
        self.transcript_panel.spelling.shutdown()
        self.transcript_panel.remembering.shutdown()
        self.queue_panel.shutdown()
        self.export_bar.shutdown()
        self.live.shutdown()
