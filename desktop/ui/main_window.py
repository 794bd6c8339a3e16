"""The main window: the tabs, the menu and the status bar."""
from __future__ import annotations

import logging

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QIcon, QKeySequence
from PySide6.QtWidgets import QApplication, QMainWindow, QMessageBox, QTabWidget, QWidget

from desktop import APP_NAME
from desktop.core.gpu.fallback import FallbackEvent, FallbackLog
from desktop.core.transcription.autosave import AutosaveStore
from desktop.engines.transcription.server.fallback import SERVER_STAGE
from desktop.resources import resource_path
from desktop.settings import Settings
from desktop.ui.common.i18n import apply_language, translated
from desktop.ui.common.icons import icon
from desktop.ui.transcribe.recent_menu import RecentTranscriptsMenu
from desktop.ui.transcribe.server_box import configured_server
from desktop.ui.transcribe.transcribe_tab import TranscribeTab
from desktop.workers.job import JobRunner

log = logging.getLogger(__name__)

# How long closing the window waits for a running job to reach its next cancel check.
SHUTDOWN_WAIT_MS = 15000
STATUS_MESSAGE_MS = 10000


class _FallbackBridge(QObject):
    """Carries fallback events, recorded on worker threads, to the GUI thread as a signal."""

    happened = Signal(object)

    def __call__(self, event: FallbackEvent) -> None:
        self.happened.emit(event)


class MainWindow(QMainWindow):
    def __init__(
        self,
        settings: Settings,
        store,
        transcriber,
        runner: JobRunner,
        fallback_log: FallbackLog,
        parent: QWidget | None = None,
        *,
        autosave: AutosaveStore,
        more_tabs: tuple[tuple[QWidget, str, str], ...] = (),
    ):
        """autosave: where the Transcribe tab keeps its work as the user goes; closed with the window.
        more_tabs: (widget, title, icon name) of the tabs after Transcribe, built by the composition
        root (a title that is a core Message is shown in the interface language); each may have
        shutdown() (called on closing) and status_message(str)."""
        super().__init__(parent)
        self._settings = settings
        self._store = store
        self._transcriber = transcriber
        self.runner = runner  # public: the launcher and tests check that no job is left
        self._fallback_log = fallback_log
        self.stopped_cleanly = True  # False when a job was still running after the wait at closing
        self._closing = False
        self._close_confirmed = False  # the user chose "Close anyway" after hearing what changed since export
        self.close_question: QMessageBox | None = None  # open while the window asks before closing
        self._device_detection_started = False
        self._autosave = autosave
        self._kept_edits_note = ""  # from the Transcribe tab, once the saved queue is back

        self.setWindowTitle(APP_NAME)
        self.setWindowIcon(QIcon(str(resource_path("icons", "app.svg"))))
        self.setObjectName("main-window")  # opens inside the screen, where it was left (window_places)
        self.setMinimumSize(760, 540)
        self.resize(1100, 760)
        self.setAcceptDrops(True)

        self.transcribe_tab = TranscribeTab(settings, transcriber, store, runner, autosave, fallback_log, self)
        self.transcribe_tab.edits_kept.connect(self._on_edits_kept)
        self.transcribe_tab.window_title_changed.connect(self.setWindowTitle)
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.transcribe_tab, icon("app"), "")
        for widget, _title, icon_name in more_tabs:
            self.tabs.addTab(widget, icon(icon_name), "")
        self.setCentralWidget(self.tabs)
        self._more_tabs = [widget for widget, _, _ in more_tabs]
        self._more_titles = [title for _, title, _ in more_tabs]

        self._build_menu()
        self._build_status_bar()
        self.retranslate()
        self.transcribe_tab.status_message.connect(self.show_message)
        for widget in self._more_tabs:
            if hasattr(widget, "status_message"):
                widget.status_message.connect(self.show_message)
            if hasattr(widget, "synthesis_device"):
                widget.synthesis_device.connect(self.device_status.set_synthesis_device)
        self.transcribe_tab.export_available.connect(self._on_export_available)
        self._watch_model_speeds()

        self._fallbacks = _FallbackBridge(self)
        self._fallbacks.happened.connect(self._on_fallback)
        fallback_log.subscribe(self._fallbacks)

    # -- building ------------------------------------------------------------------------------

    def _build_menu(self) -> None:
        tab = self.transcribe_tab
        self.file_menu = self.menuBar().addMenu("")
        self.add_action = self._action(tab.choose_files, QKeySequence.StandardKey.Open, "add-files")
        self.import_action = self._action(self.import_model)
        self.open_subtitles_action = self._action(tab.open_subtitles)
        self.export_action = self._action(self.export_to_folder, QKeySequence("Ctrl+E"), "export")
        self.export_all_action = self._action(tab.export_all, QKeySequence("Ctrl+Shift+E"))
        self.export_video_action = self._action(self.export_video)
        self.recent_menu = RecentTranscriptsMenu(tab.recent_transcripts, self)
        self.recent_menu.chosen.connect(self._reopen)
        self.quit_action = self._action(self.close, QKeySequence.StandardKey.Quit)
        self.quit_action.setMenuRole(QAction.MenuRole.QuitRole)
        for action in (self.add_action, self.open_subtitles_action, self.recent_menu.menuAction(), self.import_action,
                       None, tab.transcript_panel.revert_action,
                       None, self.export_action, self.export_all_action, self.export_video_action, None,
                       self.quit_action):
            self.file_menu.addSeparator() if action is None else self.file_menu.addAction(action)
        self.export_action.setEnabled(False)
        self.export_all_action.setEnabled(False)
        self.export_video_action.setEnabled(False)

        self.edit_menu = self.menuBar().addMenu("")
        for action in tab.transcript_panel.edit_actions():
            self.edit_menu.addSeparator() if action is None else self.edit_menu.addAction(action)
        self.edit_menu.addSeparator()
        self.edit_menu.addAction(tab.editor_room_action)

        self.settings_menu = self.menuBar().addMenu("")
        self.settings_action = self._action(self.open_settings, QKeySequence.StandardKey.Preferences)
        self.settings_action.setMenuRole(QAction.MenuRole.PreferencesRole)
        self.settings_menu.addAction(self.settings_action)

        self.tools_menu = self.menuBar().addMenu("")
        self.check_recording_action = self._action(self.check_recording)
        self.tools_menu.addAction(self.check_recording_action)
        self.measure_action = self._action(self.measure_computer)
        self.tools_menu.addAction(self.measure_action)
        self.glossaries_action = self._action(self.open_glossaries)
        self.tools_menu.addAction(self.glossaries_action)
        self.known_voices_action = self._action(self.open_known_voices)
        self.tools_menu.addAction(self.known_voices_action)

        self.help_menu = self.menuBar().addMenu("")
        self.guide_action = self._action(self.open_user_guide, QKeySequence.StandardKey.HelpContents)
        self.help_menu.addAction(self.guide_action)
        self.doctor_action = self._action(self.open_doctor)
        self.help_menu.addAction(self.doctor_action)
        self.help_menu.addSeparator()
        self.about_action = self._action(self.open_about)
        self.about_action.setMenuRole(QAction.MenuRole.AboutRole)
        self.help_menu.addAction(self.about_action)

    def retranslate(self) -> None:
        """Set every text of the window itself; called at start and when the language changes."""
        self.tabs.setTabText(0, self.tr("Transcribe"))
        for offset, title in enumerate(self._more_titles, start=1):
            self.tabs.setTabText(offset, translated(title))
        self.file_menu.setTitle(self.tr("&File"))
        self.add_action.setText(self.tr("&Add files…"))
        self.import_action.setText(self.tr("&Import model…"))
        self.open_subtitles_action.setText(self.tr("Open &subtitles…"))
        self.export_action.setText(self.tr("&Export…"))
        self.export_all_action.setText(self.tr("Export a&ll"))
        self.export_video_action.setText(self.tr("Export &video with subtitles…"))
        self.quit_action.setText(self.tr("&Quit"))
        self.edit_menu.setTitle(self.tr("&Edit"))
        self.settings_menu.setTitle(self.tr("&Settings"))
        self.settings_action.setText(self.tr("&Settings…"))
        self.tools_menu.setTitle(self.tr("&Tools"))
        self.check_recording_action.setText(self.tr("&Check for a VoxDesk watermark…"))
        self.measure_action.setText(self.tr("&Measure this computer…"))
        self.glossaries_action.setText(self.tr("&Glossaries…"))
        self.known_voices_action.setText(self.tr("&Known voices…"))
        self.help_menu.setTitle(self.tr("&Help"))
        self.guide_action.setText(self.tr("&User guide"))
        self.doctor_action.setText(self.tr("&Doctor: check this computer…"))
        self.about_action.setText(self.tr("&About VoxDesk"))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def _action(self, slot, shortcut=None, icon_name: str | None = None) -> QAction:
        action = QAction(self)
        if shortcut is not None:
            action.setShortcut(shortcut)
        if icon_name:
            action.setIcon(icon(icon_name))
        action.triggered.connect(slot)
        return action

    @Slot(object)
    def _reopen(self, saved) -> None:
        """File → Recent transcripts: the chosen one is listed again (or found) and shown."""
        self.tabs.setCurrentWidget(self.transcribe_tab)
        self.transcribe_tab.reopen(saved)

    def _build_status_bar(self) -> None:
        from desktop.ui.gpu.status_bar import DeviceStatusWidget

        from desktop.ui.common.eliding_status_bar import ElidingStatusBar

        bar = ElidingStatusBar()
        self.setStatusBar(bar)
        self.device_status = DeviceStatusWidget(self._fallback_log, self)
        bar.addPermanentWidget(self.device_status)
        self.device_status.set_server(configured_server(self._settings))
        # The batch size the engine chose (from the GPU's free memory) and why the GPU was or was not used
        # (the known-answer check's verdict) come with each finished transcript.
        self.transcribe_tab.queue.item_finished.connect(self._show_engine_facts)

    def _show_engine_facts(self, item) -> None:
        facts = item.transcript.engine if item.transcript is not None else None
        if facts is not None:
            self.device_status.set_transcription_batch(facts.batch_size, bf16_encoder=facts.bf16_encoder)
            self.device_status.set_gpu_note(facts.gpu_note)

    def showEvent(self, event) -> None:  # noqa: N802 - Qt naming
        super().showEvent(event)
        if not self._device_detection_started:
            self._device_detection_started = True
            self._say_what_was_kept()
            # After the window is up: detection imports torch and may test the GPU in a child process.
            QTimer.singleShot(0, self._detect_device)

    def _say_what_was_kept(self) -> None:
        """At start: saved work that could not be read or cannot be saved, and the corrections kept from
        last time that were never exported (said again when the saved queue is back, which may be after
        the window shows). Left in the status bar until another message."""
        notes = [translated(self._autosave.notice)] if self._autosave.notice else []
        if self._kept_edits_note:
            notes.append(self._kept_edits_note)
        if notes:
            self.statusBar().showMessage(" ".join(notes))

    @Slot(str)
    def _on_edits_kept(self, note: str) -> None:
        self._kept_edits_note = note
        if self._device_detection_started:  # shown already: otherwise the first showing says it
            self._say_what_was_kept()

    @Slot()
    def _detect_device(self) -> None:
        if self._closing:
            return
        from desktop.workers.device_probe import start_device_detection

        job = start_device_detection(self.runner, self._on_device_report)
        job.failed.connect(self._on_detection_failed)

    def _on_device_report(self, report) -> None:
        if not self._closing:  # a report that arrives after closing has no status bar to go to
            self.device_status.set_report(report)
            self.transcribe_tab.options.suggest_for_device(report)

    @Slot(object)
    def _on_detection_failed(self, message: str) -> None:
        self.device_status.set_detection_failed(message)

    # -- actions -------------------------------------------------------------------------------

    @Slot(str)
    def show_message(self, text: str) -> None:
        self.statusBar().showMessage(translated(text), STATUS_MESSAGE_MS)

    @Slot(bool, bool)
    def _on_export_available(self, one: bool, any_: bool) -> None:
        self.export_action.setEnabled(one)
        self.export_all_action.setEnabled(any_)
        self.export_video_action.setEnabled(one)

    @Slot(object)
    def _on_fallback(self, event: FallbackEvent) -> None:
        if event.stage == SERVER_STAGE:
            self.show_message(self.tr("“{job}”: {error} VoxDesk continued on this computer. {fix}").format(
                job=translated(event.job), error=translated(event.error), fix=translated(event.fix)))
            return
        self.show_message(self.tr("The GPU failed on “{job}”, so VoxDesk continued on the CPU. {fix}").format(
            job=translated(event.job), fix=translated(event.fix)))

    @Slot()
    def export_to_folder(self) -> None:
        """File → Export…: pick the folder, then export the selected file's transcript there."""
        from PySide6.QtWidgets import QFileDialog

        tab = self.transcribe_tab
        item = tab.selected_item()
        if item is None:
            return
        start = str(tab.export_folder() or item.path.parent)
        folder = QFileDialog.getExistingDirectory(self, self.tr("Export the transcript to"), start)
        if folder:
            from pathlib import Path

            tab.set_export_folder(Path(folder))
            tab.export_selected()

    @Slot()
    def export_video(self) -> None:
        """File → Export video with subtitles…: the selected recording's transcript into a copy of its video."""
        from desktop.ui.transcribe.video_export_dialog import VideoExportDialog, choice_from_transcript

        item = self.transcribe_tab.selected_item()
        if item is None:
            return
        choice = choice_from_transcript(item.transcript, item.path) if item.transcript is not None else None
        self.video_export_dialog = VideoExportDialog(item.path, choice, self.runner, self)
        self.video_export_dialog.open()

    @Slot()
    def import_model(self) -> None:
        from desktop.ui.transcribe.model_dialogs import ImportModelDialog

        dialog = ImportModelDialog(self._store, self.runner, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.imported.connect(self._on_model_imported)
        dialog.open()

    @Slot(str)
    def _on_model_imported(self, name: str) -> None:
        self.transcribe_tab.refresh_models(select=name)
        self.transcribe_tab.queue.release_model()
        self.show_message(self.tr("The model “{name}” was imported and is now chosen.").format(name=name))

    @Slot()
    def open_settings(self) -> None:
        from desktop.ui.common.settings_dialog import SettingsDialog

        dialog = SettingsDialog(self._settings, self, runner=self.runner)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(lambda: self._on_settings_changed(dialog.changed()))
        dialog.open()

    def _on_settings_changed(self, changed: set[str]) -> None:
        if any(key.startswith("server/") for key in changed):
            self.device_status.set_server(configured_server(self._settings))
        if changed & {"engine/choice", "device/choice"}:
            # The loaded model belongs to the old engine or device: free it before the next file.
            self.transcribe_tab.queue.release_model()
        if "ui/language" in changed:
            # Every widget sets its texts again; the queue, the text being edited and the tab stay.
            apply_language(QApplication.instance(), self._settings.get("ui/language"))
        if any(key.startswith(("downloads/", "models/")) for key in changed):
            self._store.use_sources(self._settings.model_sources())  # the voice model store shares them
        if any(key.startswith("subtitles/") for key in changed):
            self.transcribe_tab.apply_subtitle_settings()  # which lines warn may change
        if "gpu/hsa_override_gfx_version" in changed:
            self.show_message(self.tr("The GPU compatibility version takes effect the next time VoxDesk starts."))

    @Slot()
    def open_glossaries(self) -> None:
        """Tools → Glossaries…: the office's words, for Whisper to hear and the transcript to keep."""
        from desktop.ui.transcribe.glossary_dialog import GlossariesDialog

        dialog = GlossariesDialog(self._settings.glossary_library(), self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()

    @Slot()
    def open_known_voices(self) -> None:
        """Tools → Known voices…: colleagues named when speakers are labelled, each with their agreement."""
        from desktop.core.speakers.known_voices import KnownVoiceStore
        from desktop.ui.speakers.known_voices_dialog import KnownVoicesDialog

        dialog = KnownVoicesDialog(KnownVoiceStore(), self.runner, self._agreement_transcriber(), self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()

    def _agreement_transcriber(self):
        """Whisper for a spoken agreement (runs on a worker): its own Transcriber, as the clone consent's, so the
        Transcribe tab's model stays loaded."""
        from desktop.engines.transcription.transcriber import TranscribeSettings, Transcriber

        made: list[Transcriber] = []  # made on the worker, on first use

        def transcribe(path, language: str) -> str:
            if not made:
                made.append(Transcriber(self._store, self._fallback_log))
            return made[0].transcribe_file(path, TranscribeSettings(model="base", language=language)).text

        return transcribe

    @Slot()
    def check_recording(self) -> None:
        """Tools → Check for a VoxDesk watermark…: whether files carry VoxDesk's watermark."""
        from desktop.ui.common.watermark_check import WatermarkCheckDialog

        dialog = WatermarkCheckDialog(self.runner, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        dialog.choose_files()

    def _watch_model_speeds(self) -> None:
        """How fast each model runs here: measured once after the first transcription, shown in the model list."""
        from desktop.ui.transcribe.computer_measurement import ComputerMeasurement

        self.measurement = ComputerMeasurement(self._store, self._transcriber, self.runner, parent=self)
        self.measurement.watch(self.transcribe_tab.queue)
        self.measurement.measured.connect(lambda _record: self.transcribe_tab.refresh_models())

    @Slot()
    def measure_computer(self) -> None:
        """Tools → Measure this computer…: measure every model again, showing the speeds as they come."""
        from desktop.ui.transcribe.model_dialogs import MeasureComputerDialog

        dialog = MeasureComputerDialog(self.measurement, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        dialog.start()

    @Slot()
    def open_about(self) -> None:
        from desktop.ui.common.about import AboutDialog

        dialog = AboutDialog(self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()

    @Slot()
    def open_user_guide(self) -> None:
        from desktop.ui.common.user_guide import UserGuideDialog

        dialog = UserGuideDialog(self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()

    @Slot()
    def open_doctor(self) -> None:
        from desktop.ui.gpu.doctor_dialog import DoctorDialog

        dialog = DoctorDialog(self, settings=self._settings, runner=self.runner)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()

    # -- drops anywhere on the window ----------------------------------------------------------

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 - Qt naming
        self.transcribe_tab.dragEnterEvent(event)

    def dragMoveEvent(self, event) -> None:  # noqa: N802 - Qt naming
        self.transcribe_tab.dragMoveEvent(event)

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 - Qt naming
        self.tabs.setCurrentWidget(self.transcribe_tab)
        self.transcribe_tab.dropEvent(event)

    # -- closing -------------------------------------------------------------------------------

    def save_settings(self) -> None:
        """Write the settings to disk now (they are written at exit otherwise)."""
        self._settings.sync()

    def _ask_before_closing(self, names: list[str]) -> None:
        """Say which transcripts changed since their export; "Close anyway" closes the window.

        Window-modal and opened (not exec'd) so that nothing waits inside closeEvent: the close is
        refused until the user answers, and the answer closes the window again."""
        if self.close_question is not None:
            self.close_question.raise_()
            return
        question = QMessageBox(QMessageBox.Icon.Question, APP_NAME,
                               self.tr("These transcripts changed since you exported them:"), parent=self)
        question.setInformativeText("\n".join(names) + "\n\n" + self.tr("They stay saved in VoxDesk."))
        question.close_anyway = question.addButton(self.tr("Close anyway"), QMessageBox.ButtonRole.AcceptRole)
        question.setDefaultButton(question.addButton(QMessageBox.StandardButton.Cancel))
        question.setWindowModality(Qt.WindowModality.WindowModal)
        question.finished.connect(lambda _result: self._answered_close_question(question))
        self.close_question = question
        question.open()

    def _answered_close_question(self, question: QMessageBox) -> None:
        self.close_question = None
        question.deleteLater()
        if question.clickedButton() is question.close_anyway:
            self._close_confirmed = True
            self.close()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt naming
        """Stop every job, wait a bounded time for its thread, then close."""
        if not self._closing and not self._close_confirmed:
            changed = self.transcribe_tab.documents.changed_since_export()
            if changed:
                event.ignore()
                self._ask_before_closing([document.name for document in changed])
                return
        if not self._closing:
            self._closing = True
            self._fallback_log.unsubscribe(self._fallbacks)
            self.hide()  # the user sees the window go at once, even while a job finishes its step
            self.transcribe_tab.shutdown()
            self.measurement.shutdown()
            for widget in self._more_tabs:
                if hasattr(widget, "shutdown"):
                    widget.shutdown()
            self.stopped_cleanly = self.runner.shutdown(SHUTDOWN_WAIT_MS)
            if not self.stopped_cleanly:
                log.warning("a job was still running %d ms after closing was asked for", SHUTDOWN_WAIT_MS)
            else:
                self._transcriber.release()  # its engine process ends with the window (no job holds it now)
            # Every correction was saved as it was made, exported or not (the question above only says
            # which changed since export). The next start says which were kept (see _say_what_was_kept).
            self._autosave.close()
        event.accept()
