"""The transcript's playback controls: Play/Pause with its state in words, Replay line, Stop, the speed
and where playing has got to."""
from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal, Slot
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QToolButton, QWidget

from desktop.ui.common.icons import icon
from desktop.ui.common.stream_player import PLAYING, STOPPED
from desktop.ui.transcribe.editor.playback import Playback
from desktop.ui.transcribe.editor.segments_model import format_timestamp

SPEEDS = (0.5, 0.75, 1.0, 1.25, 1.5, 2.0)
PLAY_PAUSE_KEY = QKeySequence("Ctrl+P")
REPLAY_LINE_KEY = QKeySequence("Ctrl+R")
# As in Aegisub (Ctrl+3 / Ctrl+4) and Subtitle Edit (F11 / F12): the selected line starts or ends
# where the recording is heard now.
SET_START_KEYS = (QKeySequence("Ctrl+3"), QKeySequence("F11"))
SET_END_KEYS = (QKeySequence("Ctrl+4"), QKeySequence("F12"))


class PlaybackBar(QWidget):
    play_pause_requested = Signal()
    replay_line_requested = Signal()
    stop_requested = Signal()
    set_start_requested = Signal()
    set_end_requested = Signal()

    def __init__(self, playback: Playback, parent: QWidget | None = None):
        super().__init__(parent)
        self.playback = playback
        self.play_pause_action = QAction(self)
        self.play_pause_action.setShortcut(PLAY_PAUSE_KEY)
        self.play_pause_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.play_pause_action.triggered.connect(self.play_pause_requested)
        self.replay_action = QAction(icon("replay"), "", self)
        self.replay_action.setShortcut(REPLAY_LINE_KEY)
        self.replay_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.replay_action.triggered.connect(self.replay_line_requested)
        # Stop, for a line clicked in the table as for the recording: back to the start, nothing heard.
        self.stop_action = QAction(icon("stop"), "", self)
        self.stop_action.triggered.connect(self.stop_requested)
        self.stop_action.setEnabled(False)
        # Listed in the Edit menu with the other line edits (TimingByEar adds them there).
        self.set_start_action = QAction(self)
        self.set_start_action.setShortcuts(list(SET_START_KEYS))
        self.set_start_action.triggered.connect(self.set_start_requested)
        self.set_end_action = QAction(self)
        self.set_end_action.setShortcuts(list(SET_END_KEYS))
        self.set_end_action.triggered.connect(self.set_end_requested)
        for action in (self.set_start_action, self.set_end_action):
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            action.setEnabled(False)

        self.play_button = QToolButton()
        self.play_button.setDefaultAction(self.play_pause_action)
        self.play_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.replay_button = QToolButton()
        self.replay_button.setDefaultAction(self.replay_action)
        self.replay_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.stop_button = QToolButton()
        self.stop_button.setDefaultAction(self.stop_action)
        self.stop_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.speed_label = QLabel()
        self.speed_box = QComboBox()
        for speed in SPEEDS:
            self.speed_box.addItem(f"{speed:g}×", speed)
        self.speed_box.setCurrentIndex(SPEEDS.index(1.0))
        self.speed_label.setBuddy(self.speed_box)
        self.position_label = QLabel()
        self.position_label.setTextFormat(Qt.TextFormat.PlainText)

        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.play_button)
        layout.addWidget(self.replay_button)
        layout.addWidget(self.stop_button)
        layout.addSpacing(12)
        layout.addWidget(self.speed_label)
        layout.addWidget(self.speed_box)
        layout.addSpacing(12)
        layout.addWidget(self.position_label)
        layout.addStretch(1)

        self.speed_box.currentIndexChanged.connect(
            lambda index: self.playback.set_speed(self.speed_box.itemData(index)))
        playback.state_changed.connect(self._show_state)
        playback.position_changed.connect(self._show_position)
        self.retranslate()

    def add_button(self, button: QWidget) -> None:
        """A button of another part of the editor (the video's), at the bar's right end."""
        self.layout().addWidget(button)

    def set_available(self, available: bool) -> None:
        """Whether there is a recording to play (a file is selected)."""
        self.play_pause_action.setEnabled(available)
        self.replay_action.setEnabled(available)

    def retranslate(self) -> None:
        self._show_state(self.playback.state)
        self.replay_action.setText(self.tr("Replay line"))
        self.stop_action.setText(self.tr("Stop"))
        self.stop_action.setToolTip(self.tr("Stop playing"))
        self.replay_action.setToolTip(self.tr("Play the selected line again, from a second before its start "
                                              "({key})").format(
            key=REPLAY_LINE_KEY.toString(QKeySequence.SequenceFormat.NativeText)))
        self.set_start_action.setText(self.tr("Set line start to the playing position"))
        self.set_end_action.setText(self.tr("Set line end to the playing position"))
        self.speed_label.setText(self.tr("S&peed:"))
        self.speed_box.setToolTip(self.tr("Play slower or faster; the voices keep their pitch."))
        self._show_position(self.playback.position)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    @Slot(str)
    def _show_state(self, state: str) -> None:
        self.stop_action.setEnabled(state != STOPPED)  # something is heard (or paused) that Stop would end
        key = PLAY_PAUSE_KEY.toString(QKeySequence.SequenceFormat.NativeText)
        if state == PLAYING:
            self.play_pause_action.setIcon(icon("pause"))
            self.play_pause_action.setText(self.tr("Pause"))
            self.play_pause_action.setToolTip(self.tr("Playing: click to pause ({key})").format(key=key))
        else:
            self.play_pause_action.setIcon(icon("play"))
            self.play_pause_action.setText(self.tr("Play"))
            self.play_pause_action.setToolTip(
                self.tr("Play the recording from the selected line or where it was paused ({key})").format(key=key))

    @Slot(float)
    def _show_position(self, seconds: float) -> None:
        self.position_label.setText(format_timestamp(seconds))
