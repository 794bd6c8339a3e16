"""Live captions in the Transcribe tab: choose what to listen to, watch the words come, stop.

A window of its own opened by "Start live captions". The line being spoken is grey and changes;
once the speaker pauses and it is decoded in full it turns black. On Stop the recording (kept on
disk from the first second) joins the Transcribe tab's list, where it is transcribed again in full
quality and can be corrected and exported like any file.
"""
from __future__ import annotations

import html
from dataclasses import replace
from pathlib import Path
from typing import Callable

from PySide6.QtCore import QEvent, Qt, QUrl, Signal, Slot
from PySide6.QtGui import QCloseEvent, QDesktopServices
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from desktop.core.common.fs_errors import write_error_message
from desktop.core.common.i18n import N_
from desktop.core.transcription.live_lines import CommittedLine
from desktop.core.transcription.options import LANGUAGE, MODEL, TASK
from desktop.core.transcription.transcript import clock
from desktop.ui.common.i18n import translated
from desktop.ui.common.styles import ERROR_STYLE
from desktop.ui.common.tab_jobs import TabJobs
from desktop.ui.common.window_places import make_room_above
from desktop.ui.transcribe.live_caption_window import TENTATIVE_COLOR, LiveCaptionWindow
from desktop.ui.transcribe.live_choices import fill_languages
from desktop.workers.job import JobReport, JobRunner
from desktop.workers.live_captions import LiveCaptions


class LivePanel(QDialog):
    model_downloaded = Signal()  # the model list of the Transcribe tab is out of date
    download_unreachable = Signal()  # a download found no connection: the Transcribe tab's list says so
    def __init__(self, runner: JobRunner, store, fallback_log, settings_for_next: Callable[[], object],
                 model_combo: QComboBox, add_to_queue: Callable[[list[Path]], None],
                 parent: QWidget | None = None, *, recordings_folder: Callable[[], Path] | None = None,
                 settings=None):
        """settings_for_next: the Transcribe tab's TranscribeSettings; model_combo: its model list,
        copied here; add_to_queue: lists the recording in the tab when the session stops;
        recordings_folder: where recordings go, asked at each start (None: Documents/Recordings)."""
        super().__init__(parent)
        self.setWindowFlag(Qt.WindowType.WindowContextHelpButtonHint, False)
        self._settings_for_next = settings_for_next
        self._tab_models = model_combo
        self._add_to_queue = add_to_queue
        if recordings_folder is None:
            from desktop.ui.transcribe.live_recordings import default_recordings_folder

            recordings_folder = default_recordings_folder
        self._recordings_folder = recordings_folder
        self._jobs = TabJobs(runner, self)
        self._runner, self._store = runner, store
        self.captions = LiveCaptions(runner, store, fallback_log, self)
        self._lines: list[CommittedLine] = []
        self._tentative = ""
        self._said: tuple[str, bool] = ("", False)
        self.caption_window = LiveCaptionWindow(self)
        self._app_settings = settings  # where the glossaries chosen for live captions are remembered
        self._build()
        self._connect()
        self.retranslate()
        self.reload_devices()

    # -- building ------------------------------------------------------------------------------

    def _build(self) -> None:
        self.device_combo = QComboBox()
        self.device_combo.setMinimumWidth(320)
        self.refresh_button = QPushButton()
        self.device_note = QLabel()
        self.device_note.setWordWrap(True)
        self.language_combo = QComboBox()
        fill_languages(self.language_combo)
        self.model_combo = QComboBox()
        self.device_label, self.language_label, self.model_label = QLabel(), QLabel(), QLabel()
        self.start_button = QPushButton()
        self.start_button.setDefault(True)
        self.big_button = QPushButton()
        self.open_folder_button = QPushButton()
        self.view = QTextBrowser()
        self.view.setMinimumHeight(260)
        font = self.view.font()
        font.setPointSizeF(max(font.pointSizeF(), 12.0))
        self.view.setFont(font)
        self.message = QLabel()
        self.message.setWordWrap(True)

        choices = QGridLayout()
        choices.addWidget(self.device_label, 0, 0)
        choices.addWidget(self.device_combo, 0, 1)
        choices.addWidget(self.refresh_button, 0, 2)
        choices.addWidget(self.device_note, 1, 1, 1, 2)
        choices.addWidget(self.language_label, 2, 0)
        choices.addWidget(self.language_combo, 2, 1)
        choices.addWidget(self.model_label, 3, 0)
        choices.addWidget(self.model_combo, 3, 1)
        if self._app_settings is not None:
            from desktop.ui.transcribe.glossary_picker import GlossaryPicker

            self.glossary_picker = GlossaryPicker(self._app_settings, "live/glossaries")
            choices.addWidget(self.glossary_picker, 4, 1)
        choices.setColumnStretch(1, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.start_button)
        buttons.addWidget(self.big_button)
        buttons.addStretch(1)
        buttons.addWidget(self.open_folder_button)
        layout = QVBoxLayout(self)
        layout.addLayout(choices)
        layout.addLayout(buttons)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.message)
        self.resize(760, 560)
        self.setObjectName("live-panel")  # its place is remembered (window_places)

    def _connect(self) -> None:
        self.refresh_button.clicked.connect(self.reload_devices)
        self.start_button.clicked.connect(self.toggle)
        self.big_button.clicked.connect(self.show_caption_window)
        self.open_folder_button.clicked.connect(self.open_recordings_folder)
        self.device_combo.currentIndexChanged.connect(self._show_device_note)
        captions = self.captions
        captions.status.connect(lambda text: self._say(text))
        captions.listening.connect(self._on_listening)
        captions.committed.connect(self._on_committed)
        captions.tentative.connect(self._on_tentative)
        captions.problem.connect(lambda text: self._say(text, error=True))
        captions.warning.connect(lambda text: self._say(text, error=True))
        captions.failed.connect(lambda text: self._say(text, error=True))
        captions.stopped.connect(self._on_stopped)
        captions.model_needed.connect(self._offer_download)
        captions.finished.connect(self._show_state)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Live captions"))
        self.device_label.setText(self.tr("Listen to:"))
        self.language_label.setText(self.tr("Language:"))
        self.model_label.setText(self.tr("Model:"))
        self.refresh_button.setText(self.tr("Refresh"))
        self.big_button.setText(self.tr("Large caption window"))
        self.big_button.setToolTip(self.tr("The last two lines in big type, always on top: for a presentation."))
        self.open_folder_button.setText(self.tr("Open folder"))
        self.open_folder_button.setToolTip(self.tr("The folder where every live recording is kept: {folder}").format(
            folder=self._recordings_folder()))
        self.language_combo.setItemText(0, self.tr("Auto-detect"))
        self._name_devices()
        self._show_device_note()
        self._show_state()
        self._say(self._said[0], error=self._said[1])

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def showEvent(self, event) -> None:  # noqa: N802 - Qt naming
        if not self.captions.running:
            self._copy_models()
        super().showEvent(event)

    def _copy_models(self) -> None:
        chosen = self.model_combo.currentData() or self._tab_models.currentData()
        self.model_combo.clear()
        for index in range(self._tab_models.count()):
            self.model_combo.addItem(self._tab_models.itemText(index), self._tab_models.itemData(index))
        found = self.model_combo.findData(chosen)
        self.model_combo.setCurrentIndex(max(found, 0))

    # -- devices -------------------------------------------------------------------------------

    @Slot()
    def reload_devices(self) -> None:
        def work(report: JobReport) -> list:
            from desktop.core.common.recorder import capture_devices

            return capture_devices()

        self.refresh_button.setEnabled(False)
        self._jobs.start("list devices", work, on_result=self._on_devices, on_failed=self._on_no_devices)

    def _on_devices(self, devices: list) -> None:
        current = self.device_combo.currentData()
        self.device_combo.clear()
        for device in devices:
            self.device_combo.addItem("", device)
        if current in devices:
            self.device_combo.setCurrentIndex(devices.index(current))
        self._name_devices()
        self.refresh_button.setEnabled(True)
        if not devices:
            self._say(self.tr("Nothing to listen to was found. Plug in a microphone or headset, then press "
                              "Refresh."), error=True)
        self._show_state()

    def _on_no_devices(self, message) -> None:
        self._on_devices([])
        self._say(message, error=True)

    def select_device(self, source_or_name: str) -> bool:
        """Choose the device with this PulseAudio source name or device name; False when none has it."""
        for index in range(self.device_combo.count()):
            device = self.device_combo.itemData(index)
            if device is not None and source_or_name in (device.pulse_source, device.name):
                self.device_combo.setCurrentIndex(index)
                return True
        return False

    def _name_devices(self) -> None:
        """Each device's text: its name as the desktop shows it, what a monitor hears, and "(default)"
        once, for the system's default."""
        for index in range(self.device_combo.count()):
            device = self.device_combo.itemData(index)
            if device.monitor:
                text = self.tr("What this computer plays ({device})").format(device=device.label)
            else:
                text = device.label
            if device.is_default:
                text = self.tr("{device} (default)").format(device=text)
            self.device_combo.setItemText(index, text)

    @Slot()
    def _show_device_note(self) -> None:
        device = self.device_combo.currentData()
        if device is not None and device.monitor:
            self.device_note.setText(self.tr("This source captions what plays on this computer (a call, a video), "
                                             "not a microphone."))
        else:
            self.device_note.setText(self.tr("Choose “What this computer plays” to caption a call or a video "
                                             "playing on this computer."))

    # -- start and stop ------------------------------------------------------------------------

    @Slot()
    def toggle(self) -> None:
        if self.captions.running:
            self.captions.stop()
            self._say(self.tr("Stopping: captioning the last words…"))
        else:
            self.start()
        self._show_state()

    def start(self) -> None:
        from desktop.engines.transcription.live.captioner import LiveOptions

        device = self.device_combo.currentData()
        if device is None:
            return
        language = self.language_combo.currentData()
        settings = replace(self._settings_for_next(), model=self.model_combo.currentData() or MODEL.default,
                           language=LANGUAGE.from_stored(language))
        # The live window has its own model and language, and no task: captions are the words as spoken.
        options = LiveOptions.following(replace(settings, task=TASK.default), glossary=self._glossary_terms())
        self._lines, self._tentative = [], ""
        self._render()
        self.captions.start(settings, device, options, folder=self._recordings_folder(),
                            title=self.tr("Live captions"))

    @Slot()
    def open_recordings_folder(self) -> None:
        """Show the recordings in the file manager (the folder is made first, so there is one to show)."""
        folder = self._recordings_folder()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            self._say(translated(write_error_message(exc, N_("LivePanel", "the recordings folder"), folder,
                                                   user_folder=True)),
                      error=True)
            return
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))

    def _glossary_terms(self) -> tuple:
        """The terms of the glossaries chosen here; a bad glossary is said and left out."""
        if self._app_settings is None:
            return ()
        from desktop.core.glossary.glossary_file import all_terms, load_glossaries

        glossaries, problems = load_glossaries(self.glossary_picker.chosen_paths())
        if problems:
            self._say(" ".join(translated(problem) for problem in problems), error=True)
        return tuple(all_terms(glossaries))

    def _show_state(self) -> None:
        running = self.captions.running
        self.start_button.setText(self.tr("Stop") if running else self.tr("Start live captions"))
        self.start_button.setEnabled(running or self.device_combo.currentData() is not None)
        for widget in (self.device_combo, self.refresh_button, self.language_combo, self.model_combo):
            widget.setEnabled(not running)

    @Slot(str, str)
    def _offer_download(self, name: str, fmt: str) -> None:
        """The chosen model is not on this computer: download it, then start as asked."""
        from desktop.ui.transcribe.model_dialogs import DownloadDialog

        dialog = DownloadDialog(self._store, self._runner, name, fmt, self)
        dialog.finished.connect(dialog.deleteLater)
        dialog.downloaded.connect(self._on_model_downloaded)
        dialog.unreachable.connect(self.download_unreachable)
        dialog.failed.connect(lambda text: self._say(text, error=True))
        dialog.cancelled.connect(lambda: self._say(self.tr("Live captions need the model; start again to "
                                                           "download it."), error=True))
        dialog.open()

    @Slot()
    def _on_model_downloaded(self) -> None:
        self.model_downloaded.emit()
        self._say(self.tr("The model was downloaded."))
        if not self.captions.running:
            self.start()

    @Slot(object)
    def _on_listening(self, recording: Path) -> None:
        self._say(self.tr("Listening. The recording is kept in “{path}”.").format(path=str(recording)))

    @Slot(object)
    def _on_committed(self, line: CommittedLine) -> None:
        self._lines.append(line)
        self._tentative = ""
        self._render()

    @Slot(str)
    def _on_tentative(self, text: str) -> None:
        self._tentative = text
        self._render()

    @Slot(object)
    def _on_stopped(self, result) -> None:
        self._tentative = ""
        self._render()
        note = translated(result.note) + " " if result.note else ""
        if result.seconds > 0:
            self._add_to_queue([result.recording])
            self._say(note + self.tr("The recording was added to the list and is transcribed again in full "
                                     "quality; correct and export it there."), error=bool(result.note))
        else:
            self._say(note + self.tr("Nothing was recorded."), error=True)

    # -- showing -------------------------------------------------------------------------------

    def _render(self) -> None:
        rows = [f"<p><span style='color:#757575'>{clock(line.segment.start)}</span>&nbsp; "
                f"{html.escape(line.segment.text.strip())}</p>" for line in self._lines]
        if self._tentative:
            rows.append(f"<p style='color:{TENTATIVE_COLOR}'><i>{html.escape(self._tentative)}</i></p>")
        self.view.setHtml("".join(rows))
        bar = self.view.verticalScrollBar()
        bar.setValue(bar.maximum())
        texts = [line.segment.text.strip() for line in self._lines]
        self.caption_window.show_lines(texts + ([self._tentative] if self._tentative else []),
                                       tentative=bool(self._tentative))

    @property
    def committed_texts(self) -> list[str]:
        return [line.segment.text.strip() for line in self._lines]

    @Slot()
    def show_caption_window(self) -> None:
        self.caption_window.show()
        self.caption_window.raise_()
        make_room_above(self, self.caption_window)  # the panel's status line stays in sight

    def _say(self, text, *, error: bool = False) -> None:
        self._said = (text, error)
        self.message.setText(translated(text))
        self.message.setStyleSheet(ERROR_STYLE if error else "")

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt naming
        """Closing the window stops the session; the recording still joins the list."""
        self.captions.stop()
        self.caption_window.hide()
        super().closeEvent(event)

    def shutdown(self) -> None:
        self.captions.stop()
        self._jobs.cancel_all()
