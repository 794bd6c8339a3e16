"""The video beside the subtitle editor's table: the recording's picture in a panel that follows
playback, the waveform and the table (a clicked line or waveform shows its picture), with the current
cue drawn on it as it will be burned. The panel can be resized (a splitter, whose sizes are remembered)
and hidden (the Video button on the playback bar); a recording with no picture shows no panel."""
from __future__ import annotations

from PySide6.QtCore import QObject, QSettings, Qt, Slot
from PySide6.QtWidgets import QSplitter, QToolButton

from desktop.core.transcription.subtitles import build_cues
from desktop.ui.transcribe.editor.context import EditorContext
from desktop.ui.transcribe.editor.timing_by_ear import TimingByEar
from desktop.ui.transcribe.editor.video_panel import VideoPanel
from desktop.workers.job import JobRunner
from desktop.workers.transcription_queue import ItemState

_SIZES_KEY = "editor/video-panel-sizes"
_SHOWN_KEY = "editor/video-panel-shown"


class VideoInEditor(QObject):
    """splitter: the panel puts its table first in it; toggle: the Video button, for the playback bar."""

    def __init__(self, context: EditorContext, timing: TimingByEar, runner: JobRunner, parent: QObject):
        super().__init__(parent)
        self._context = context
        self._timing = timing
        self.video = VideoPanel(runner)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(self.video)
        self.toggle = QToolButton()
        self.toggle.setCheckable(True)
        self.toggle.setChecked(QSettings().value(_SHOWN_KEY, True, type=bool))
        self.toggle.setVisible(False)
        self._connect()
        self.retranslate()

    def _connect(self) -> None:
        context, timing = self._context, self._timing
        context.shown_changed.connect(self._on_shown_changed)
        context.table.dataChanged.connect(self._on_lines_changed)
        context.selection_changed.connect(self._on_selection)
        context.language_changed.connect(self.retranslate)
        timing.playback.position_changed.connect(self._follow_playback)
        timing.strip.canvas.seek_requested.connect(self.video.show_time)
        self.video.availability_changed.connect(self._on_availability)
        self.toggle.toggled.connect(self._on_toggled)
        self.splitter.splitterMoved.connect(self._remember_sizes)

    def retranslate(self) -> None:
        self.toggle.setText(self.tr("Video"))
        self.toggle.setToolTip(self.tr("Show or hide the video's picture beside the lines"))

    @Slot()
    def _on_shown_changed(self) -> None:
        item = self._context.item
        transcript = self._context.table.transcript
        done = item is not None and item.state is ItemState.DONE and transcript is not None
        self.video.set_video(item.path if done else None)
        self._on_lines_changed()

    @Slot()
    def _on_lines_changed(self, *_changed) -> None:
        # Only for a recording with a picture: cutting a long transcript into cues (Chinese lines broken
        # at words) costs the window's thread, and a sound file would never show them.
        transcript = self._context.table.transcript
        if not self.video.available or transcript is None:
            self.video.set_cues([])
            return
        self.video.set_cues(build_cues(transcript))

    @Slot(float)
    def _follow_playback(self, seconds: float) -> None:
        if self.video.isVisible():
            self.video.show_time(seconds)

    @Slot()
    def _on_selection(self) -> None:
        rows = self._context.selected_rows()
        transcript = self._context.table.transcript
        if rows and transcript is not None and rows[0] < len(transcript.segments) and self.video.available:
            segment = transcript.segments[rows[0]]
            self.video.show_time((segment.start + segment.end) / 2)  # the middle: the line's cue is on

    @Slot(bool)
    def _on_availability(self, available: bool) -> None:
        self.toggle.setVisible(available)
        if available:
            self._on_lines_changed()
        self._show_video(available and self.toggle.isChecked())

    @Slot(bool)
    def _on_toggled(self, shown: bool) -> None:
        QSettings().setValue(_SHOWN_KEY, shown)
        self._show_video(shown and self.video.available)

    def _show_video(self, shown: bool) -> None:
        """Show or hide the panel; shown, it takes the width it was last given (a hidden one has none)."""
        was_shown = self.video.isVisibleTo(self.splitter)
        self.video.setVisible(shown)
        sizes = QSettings().value(_SIZES_KEY)
        if shown and not was_shown and sizes and len(sizes) == 2:
            total = sum(self.splitter.sizes()) or sum(int(s) for s in sizes)
            video_width = min(int(sizes[1]), max(0, total - 100))
            self.splitter.setSizes([total - video_width, video_width])

    @Slot()
    def _remember_sizes(self) -> None:
        QSettings().setValue(_SIZES_KEY, self.splitter.sizes())
