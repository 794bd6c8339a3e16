"""Recording a voice in the window: microphone choice, a level meter, the time, a text to read.

The widget owns one desktop.core.common.recorder.Recorder at a time (made by an injected factory, so tests
can choose its settings) and looks at it 30 times a second from a QTimer on the GUI thread: PortAudio's
own thread never touches a widget. When a take ends, `recorded` carries the Recording.
"""
from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QEvent, QTimer, Signal, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from desktop.core.common.errors import UserFacingError
from desktop.core.common.i18n import N_
from desktop.core.common.recorder import microphones
from desktop.core.common.recorder import InputDevice, Recorder, Recording, refresh_devices
from desktop.core.voices.quality import SAMPLE_LENGTH, TakeLength
from desktop.ui.clone.level_meter import LevelMeter
from desktop.ui.common.i18n import translated
from desktop.ui.common.styles import ERROR_STYLE

_POLL_MS = 33  # the level meter and the time follow the recorder 30 times a second


class RecorderWidget(QWidget):
    """Choose a microphone, watch the level, read the text on screen, record, stop, record again."""

    recorded = Signal(object)  # a Recording, when a take ends (by Stop, or by itself)
    recording_started = Signal()
    failed = Signal(object)  # a sentence the user can act on (str, or a core Message)

    def __init__(
        self,
        parent: QWidget | None = None,
        *,
        recorder_factory: Callable[[InputDevice | None], Recorder] = lambda device: Recorder(device),
        devices: Callable[[], list[InputDevice]] = microphones,
        refresh: Callable[[], None] = refresh_devices,
    ):
        super().__init__(parent)
        self._make_recorder = recorder_factory
        self._list_devices = devices
        self._refresh_devices = refresh
        self._recorder: Recorder | None = None
        self._target: TakeLength | None = SAMPLE_LENGTH
        self._takes = 0  # takes recorded: the button says "Record again" after the first
        self._said: tuple[str, bool] = ("", False)  # the message shown (str or core Message), and if an error
        self._timer = QTimer(self)
        self._timer.setInterval(_POLL_MS)
        self._timer.timeout.connect(self._poll)
        self._build()
        self.reload_devices()

    # -- building ------------------------------------------------------------------------------

    def _build(self) -> None:
        self.device_combo = QComboBox()
        self.device_combo.setMinimumWidth(220)
        self.refresh_button = QPushButton()
        self.meter = LevelMeter()
        self.elapsed_label = QLabel()
        self.elapsed_bar = QProgressBar()
        self.elapsed_bar.setTextVisible(False)
        self.elapsed_bar.setMaximumHeight(8)
        self.script = QTextBrowser()
        self.script.setMinimumHeight(90)
        self.script_title = QLabel()
        self.record_button = QPushButton()
        self.message = QLabel()
        self.message.setWordWrap(True)

        top = QHBoxLayout()
        self.microphone_label = QLabel()
        top.addWidget(self.microphone_label)
        top.addWidget(self.device_combo, 1)
        top.addWidget(self.refresh_button)
        levels = QHBoxLayout()
        levels.addWidget(self.meter, 1)
        levels.addWidget(self.elapsed_label)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.script_title)
        layout.addWidget(self.script, 1)
        layout.addLayout(levels)
        layout.addWidget(self.elapsed_bar)
        buttons = QHBoxLayout()
        buttons.addWidget(self.record_button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        layout.addWidget(self.message)

        self.refresh_button.clicked.connect(self._refresh)
        self.record_button.clicked.connect(self.toggle)
        self.retranslate()

    def retranslate(self) -> None:
        """Set every text; called at start and when the interface language changes."""
        self.device_combo.setToolTip(self.tr("The microphone to record from."))
        self.refresh_button.setText(self.tr("Refresh"))
        self.refresh_button.setToolTip(self.tr("Look for microphones again, after plugging one in."))
        self.record_button.setToolTip(self.tr("Start recording. Press Stop when you have finished reading."))
        self.microphone_label.setText(self.tr("Microphone:"))
        self._name_devices()
        self._show_record_button()
        self._show_elapsed(self._recorder.levels().elapsed if self._recorder is not None else 0.0)
        self._say(*self._said)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def _show_record_button(self) -> None:
        if self.is_recording:
            self.record_button.setText(self.tr("Stop"))
        elif self._takes:
            self.record_button.setText(self.tr("Record again"))
        else:
            self.record_button.setText(self.tr("Record"))

    def _name_devices(self) -> None:
        for index in range(self.device_combo.count()):
            device = self.device_combo.itemData(index)
            if device is None:
                self.device_combo.setItemText(index, self.tr("No microphone found"))
            elif device.is_default:
                self.device_combo.setItemText(index, self.tr("{device} (default)").format(device=device.label))
            else:
                self.device_combo.setItemText(index, device.label)

    # -- what to read --------------------------------------------------------------------------

    def set_script(self, title: str, text: str, target: TakeLength | None, *,
                   recorded: bool = False) -> None:
        """The text shown to read aloud, and the length a take should have (None: no target).

        A take stops by itself at target.high. recorded says whether this text already has a take
        (the button then offers to record it again)."""
        self.show_take(recorded)
        self.script_title.setText(title)
        self.script.setPlainText(text)
        font = self.script.font()
        font.setPointSizeF(max(font.pointSizeF(), 13.0))
        self.script.setFont(font)
        self._target = target
        self._show_elapsed(0.0)

    def show_take(self, recorded: bool) -> None:
        """Whether the text shown has a take (recorded or imported): the button then says "Record again"."""
        self._takes = int(recorded)
        self._show_record_button()

    def show_length(self, seconds: float) -> None:
        """Show the length of the take in use, also one made elsewhere (an imported file), to the
        nearest second as the sentences about the take give it."""
        if not self.is_recording:
            self._show_elapsed(round(seconds))

    # -- devices -------------------------------------------------------------------------------

    def reload_devices(self) -> None:
        current = self.device_combo.currentData()
        self.device_combo.clear()
        try:
            devices = self._list_devices()
        except UserFacingError as error:
            devices = []
            self._say(error.message, error=True)
        for device in devices:
            self.device_combo.addItem("", device)
        if not devices:
            self.device_combo.addItem("", None)
            self._say(N_("RecorderWidget", "No microphone was found. Plug in a microphone or headset, then press "
                         "Refresh."), error=True)
        elif current is not None:
            for i in range(self.device_combo.count()):
                if self.device_combo.itemData(i) == current:
                    self.device_combo.setCurrentIndex(i)
        self._name_devices()
        self.record_button.setEnabled(bool(devices))

    def select_device(self, name: str) -> None:
        for i in range(self.device_combo.count()):
            device = self.device_combo.itemData(i)
            if device is not None and device.name == name:
                self.device_combo.setCurrentIndex(i)

    @property
    def device(self) -> InputDevice | None:
        return self.device_combo.currentData()

    @Slot()
    def _refresh(self) -> None:
        if self.is_recording:
            return
        try:
            self._refresh_devices()
        except UserFacingError as error:
            self._say(error.message, error=True)
        self._say("")
        self.reload_devices()

    # -- recording -----------------------------------------------------------------------------

    @property
    def is_recording(self) -> bool:
        return self._recorder is not None

    @Slot()
    def toggle(self) -> None:
        if self.is_recording:
            self.stop()
        else:
            self.start()

    def start(self) -> None:
        if self.is_recording:
            return
        self._say("")
        recorder = self._make_recorder(self.device)
        try:
            recorder.start()
        except UserFacingError as error:
            self._say(error.message, error=True)
            self.failed.emit(error.message)
            return
        self._recorder = recorder
        self.meter.reset()
        self._show_elapsed(0.0)
        self._show_record_button()
        self.device_combo.setEnabled(False)
        self.refresh_button.setEnabled(False)
        self._timer.start()
        self.recording_started.emit()

    def stop(self) -> Recording | None:
        recorder, self._recorder = self._recorder, None
        if recorder is None:
            return None
        self._timer.stop()
        recording = recorder.stop()
        self._takes += 1
        self._show_record_button()
        self.device_combo.setEnabled(True)
        self.refresh_button.setEnabled(True)
        self._show_elapsed(recording.duration)
        if recording.device_lost:
            self._say(N_("RecorderWidget", "The microphone was disconnected during the recording. What was "
                         "recorded until then has been kept."), error=True)
        elif recording.note:
            self._say(recording.note)
        self.recorded.emit(recording)
        return recording

    @Slot()
    def _poll(self) -> None:
        recorder = self._recorder
        if recorder is None:
            return
        levels = recorder.levels()
        self.meter.set_levels(levels.peak_dbfs, levels.rms_dbfs, levels.clipping)
        self._show_elapsed(levels.elapsed)
        if levels.clipping:
            self._say(N_("RecorderWidget", "Too loud: move a little away from the microphone."), error=True)
        if recorder.finished:
            self.stop()
        elif self._target and levels.elapsed >= self._target.high:
            recording = self.stop()
            if recording is not None and not recording.device_lost:
                self._say(N_("RecorderWidget", "The recording stopped by itself at {seconds:.0f} seconds, the "
                             "longest it needs to be.").format(seconds=self._target.high))

    def _show_elapsed(self, seconds: float) -> None:
        text = f"{int(seconds) // 60}:{int(seconds) % 60:02d}"
        if self._target:
            shortest, low, high = self._target.shortest, self._target.low, self._target.high
            text = self.tr("{time} (at least {shortest:.0f} s, best {low:.0f}–{high:.0f} s)").format(
                time=text, shortest=shortest, low=low, high=high)
            self.elapsed_bar.setRange(0, int(high * 10))
            self.elapsed_bar.setValue(min(int(seconds * 10), int(high * 10)))
            # Red: too short to use; amber: usable, a longer take sounds more like the speaker.
            colour = "#b3261e" if seconds < shortest else ("#f0a30a" if seconds < low else "#3cb44b")
            self.elapsed_bar.setStyleSheet(f"QProgressBar::chunk {{ background: {colour}; }}")
            self.elapsed_bar.setVisible(True)
        else:
            self.elapsed_bar.setVisible(False)
        self.elapsed_label.setText(text)

    def _say(self, text: str, error: bool = False) -> None:
        """Show a sentence under the buttons; a core Message is shown in the interface language."""
        self._said = (text, error)
        self.message.setText(translated(text))
        self.message.setStyleSheet(ERROR_STYLE if error else "")

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt naming
        self.stop()
        super().closeEvent(event)
