"""The Transcribe tab's "Start live captions" button, and the live-captions window it opens."""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from PySide6.QtCore import QEvent, Slot
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from desktop.ui.common.icons import icon
from desktop.workers.job import JobRunner


class LiveLauncher(QWidget):
    def __init__(self, runner: JobRunner, store, fallback_log, options_bar,
                 add_to_queue: Callable[[list[Path]], None], parent: QWidget | None = None):
        """options_bar: the tab's OptionsBar (the model list and the choices for files)."""
        super().__init__(parent)
        self._runner = runner
        self._store = store
        self._fallback_log = fallback_log  # the window's: its status bar lists the fallbacks
        self._options = options_bar
        self._add_to_queue = add_to_queue
        self.panel = None  # the LivePanel, made on first use
        self.button = QPushButton()
        self.button.setIcon(icon("live"))
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.button)
        layout.addWidget(self.hint, 1)
        self.button.clicked.connect(self.open_panel)
        self.retranslate()

    def retranslate(self) -> None:
        self.button.setText(self.tr("Start live captions"))
        self.hint.setText(self.tr("Captions as people speak, from a microphone or what this computer plays."))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    @Slot()
    def open_panel(self) -> None:
        if self.panel is None:
            from desktop.ui.transcribe.live_panel import LivePanel

            from desktop.ui.transcribe.live_recordings import recordings_folder

            self.panel = LivePanel(self._runner, self._store, self._fallback_log, self._options.transcribe_settings,
                                   self._options.model_combo, self._add_to_queue, self,
                                   recordings_folder=lambda: recordings_folder(self._options.app_settings),
                                   settings=self._options.app_settings)
            self.panel.model_downloaded.connect(self._options.refresh_models)
            self.panel.download_unreachable.connect(lambda: self._options.set_offline(True))
        self.panel.show()
        self.panel.raise_()
        self.panel.activateWindow()

    def shutdown(self) -> None:
        if self.panel is not None:
            # Closed with the main window, so its place and the captions' are kept now; left open, they
            # would be destroyed only at the program's exit, after the windows' places stop being kept.
            self.panel.close()
            self.panel.shutdown()

