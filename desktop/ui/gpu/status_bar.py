"""The device section of the main window's status bar.

Always says where the work runs ("GPU: Radeon RX 7900 XTX · gfx1100 · 24 GB · ROCm 6.2" or "No GPU —
running on CPU (8 cores)", and "Speech synthesis: CPU"), with the details in a tooltip; and shows
"⚠ 1 CPU fallback" the moment a job falls back from the GPU to the CPU ("⚠ 1 server fallback" when the
transcription server failed and this computer finished the job), listing them on click.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, Signal, Slot
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QWidget

from desktop.core.gpu.device import DeviceReport
from desktop.core.gpu.fallback import FallbackEvent, FallbackLog
from desktop.core.transcription.server_config import ServerConfig
from desktop.ui.gpu.fallback_dialog import FallbackDialog
from desktop.ui.common.i18n import translated


class DeviceStatusWidget(QWidget):
    # Emitted from whichever thread records a fallback; Qt queues it to this widget's (GUI) thread.
    _fallback_recorded = Signal(object)

    def __init__(self, fallback_log: FallbackLog, parent: QWidget | None = None):
        super().__init__(parent)
        self._log = fallback_log
        self._report: DeviceReport | None = None
        self._seen: dict[int, bool] = {}  # id of each event counted (the log keeps them alive) -> from the server
        self._dialog: FallbackDialog | None = None
        self._synthesis_device = "CPU"
        self._detection_error: str | None = None  # why the device could not be detected
        self._server: ServerConfig | None = None  # the transcription server in use, if any
        self._batch_size: int | None = None  # windows the last transcription decoded at once
        self._bf16_encoder = False
        self._gpu_note: str | None = None  # the GPU check's verdict or Automatic's engine on the GPU, a Message

        self.device_label = QLabel(self)
        self.synthesis_label = QLabel(self)
        self.server_separator = self._separator()
        self.server_label = QLabel(self)
        self.fallback_button = QToolButton(self)
        self.fallback_button.setAutoRaise(True)
        self.fallback_button.clicked.connect(self.show_fallbacks)
        self.fallback_button.hide()

        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.device_label)
        layout.addWidget(self._separator())
        layout.addWidget(self.synthesis_label)
        layout.addWidget(self.server_separator)
        layout.addWidget(self.server_label)
        layout.addWidget(self.fallback_button)

        self._fallback_recorded.connect(self._on_fallback)
        # A plain function, not a bound method of this widget: the log may outlive the widget, and
        # unsubscribing when the widget goes away must not touch the (then deleted) widget itself.
        signal = self._fallback_recorded
        self._subscriber = lambda event: signal.emit(event)
        fallback_log.subscribe(self._subscriber)
        subscriber, log = self._subscriber, fallback_log
        self.destroyed.connect(lambda *_: log.unsubscribe(subscriber))
        # Fallbacks recorded before this widget existed; one recorded meanwhile arrives twice, and
        # counting ids keeps it single.
        self._seen.update((id(event), event.from_server) for event in fallback_log.events())
        self.retranslate()

    def retranslate(self) -> None:
        """Set every text; called at start and when the interface language changes."""
        if self._report is not None:
            self.device_label.setText(translated(self._report.summary()))
            note = translated(self._gpu_note) if self._gpu_note else ""
            self.device_label.setToolTip("\n".join(filter(None, (translated(self._report.details()),
                                                                 self._batch_text(), note))))
        elif self._detection_error is not None:
            self.device_label.setText(self.tr("Device unknown"))
            self.device_label.setToolTip(translated(self._detection_error))
        else:
            self.device_label.setText(self.tr("Detecting the device…"))
            self.device_label.setToolTip(self.tr("VoxDesk is finding out which GPU this computer has."))
        self.set_synthesis_device(self._synthesis_device)
        self.set_server(self._server)
        self._update_fallback_button()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def _separator(self) -> QLabel:
        separator = QLabel("|", self)
        separator.setEnabled(False)
        return separator

    # -- device --------------------------------------------------------------------------------

    def set_report(self, report: DeviceReport) -> None:
        self._report = report
        self.retranslate()

    def set_detection_failed(self, message: str) -> None:
        """Detection itself failed: say the device is unknown, and why in the tooltip."""
        self._detection_error = message
        self.retranslate()

    def report(self) -> DeviceReport | None:
        return self._report

    def set_transcription_batch(self, size: int | None, *, bf16_encoder: bool = False) -> None:
        """How many 30-second windows the last transcription decoded at once (None: none ran yet), and
        whether torch's bfloat16 encoder, measured faster on this processor, encoded its audio."""
        self._batch_size = size
        self._bf16_encoder = bf16_encoder
        self.retranslate()

    def set_gpu_note(self, note: str | None) -> None:
        """What the GPU's known-answer check found, or which engine Automatic took on the GPU and why."""
        self._gpu_note = note
        self.retranslate()

    def _batch_text(self) -> str:
        if self._batch_size is None:
            return ""
        if self._batch_size == 1:
            text = self.tr("Transcription: one 30-second window at a time")
        else:
            text = self.tr("Transcription: {count} 30-second windows at once").format(count=self._batch_size)
        if self._bf16_encoder:
            text += "\n" + self.tr("The processor's bfloat16 instructions encode the audio: faster on this computer")
        return text

    def set_synthesis_device(self, text: str) -> None:
        """Where speech synthesis runs: "CPU" or "GPU" (the same in every language)."""
        self._synthesis_device = text
        self.synthesis_label.setText(self.tr("Speech synthesis: {device}").format(device=translated(text)))

    def set_server(self, server: ServerConfig | None) -> None:
        """The transcription server files go to ("Server: host · model"), or None to hide it."""
        self._server = server
        self.server_label.setVisible(server is not None)
        self.server_separator.setVisible(server is not None)
        if server is None:
            return
        self.server_label.setText(self.tr("Server: {server}").format(server=server.label()))
        self.server_label.setToolTip(
            self.tr("Files are transcribed on this server.") if server.use == "always" else
            self.tr("Files are transcribed on this server when this computer has no working GPU."))

    # -- fallbacks -----------------------------------------------------------------------------

    @Slot(object)
    def _on_fallback(self, event: FallbackEvent) -> None:
        if id(event) in self._seen:
            return
        self._seen[id(event)] = event.from_server
        self._update_fallback_button()
        if self._dialog is not None and self._dialog.isVisible():
            self._dialog.add_event(event)

    def _update_fallback_button(self) -> None:
        count = len(self._seen)
        from_server = sum(self._seen.values())
        if count == 0:
            self.fallback_button.hide()
            return
        if from_server == 0:
            text = self.tr("⚠ 1 CPU fallback") if count == 1 else \
                self.tr("⚠ {count} CPU fallbacks").format(count=count)
            tip = self.tr("Some work ran on the CPU because the GPU failed. Click for details.")
        elif from_server == count:
            text = self.tr("⚠ 1 server fallback") if count == 1 else \
                self.tr("⚠ {count} server fallbacks").format(count=count)
            tip = self.tr("The transcription server failed, so this computer finished the work. Click for details.")
        else:
            text = self.tr("⚠ {count} fallbacks").format(count=count)
            tip = self.tr("Some work could not finish on the GPU or on the transcription server, so this computer "
                          "finished it. Click for details.")
        self.fallback_button.setText(text)
        self.fallback_button.setToolTip(tip)
        self.fallback_button.show()

    @property
    def fallback_dialog(self) -> FallbackDialog | None:
        """The list of fallbacks, once it was opened."""
        return self._dialog

    def show_fallbacks(self) -> FallbackDialog:
        """Open (or raise) the list of fallbacks; returns the dialog."""
        if self._dialog is None or not self._dialog.isVisible():
            if self._dialog is not None:
                self._dialog.deleteLater()
            self._dialog = FallbackDialog(self._log.events(), self.window())
        self._dialog.show()
        self._dialog.raise_()
        self._dialog.activateWindow()
        return self._dialog
