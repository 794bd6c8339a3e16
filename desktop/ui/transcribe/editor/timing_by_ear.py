"""Timing by ear, for the editor: the playback bar and the waveform strip (the panel puts them over the table),
the playing line shown in bold and kept in view, clicks on the strip played, dragged edges retimed
through the same undoable edits as the table's."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from PySide6.QtCore import QObject, Slot

from desktop.core.transcription import edits, waveform
from desktop.core.transcription.waveform import Peaks
from desktop.ui.common.i18n import translated
from desktop.ui.common.stream_player import PLAYING
from desktop.ui.common.tab_jobs import TabJobs
from desktop.ui.transcribe.editor.context import EditorContext
from desktop.ui.transcribe.editor.playback_bar import PlaybackBar
from desktop.ui.transcribe.editor.waveform_strip import WaveformStrip
from desktop.workers.job import JobReport, JobRunner
from desktop.workers.transcription_queue import ItemState

LEAD_IN_SECONDS = 1.0  # heard before a replayed line, so that its first word is not cut off


class TimingByEar(QObject):
    def __init__(self, context: EditorContext, runner: JobRunner, parent: QObject | None = None):
        super().__init__(parent)
        self._context = context
        self.playback = context.player  # the editor's one player, which the bar, the strip and the table share
        self.bar = PlaybackBar(self.playback)
        self.strip = WaveformStrip()
        self._jobs = TabJobs(runner, self)
        self._peaks: dict[Path, Peaks] = {}  # the outlines computed this session, by file
        self._path: Path | None = None
        self._playing_row: int | None = None
        self._connect()
        self.bar.set_available(False)
        self.strip.setVisible(False)

    def _connect(self) -> None:
        context, canvas = self._context, self.strip.canvas
        context.shown_changed.connect(self._on_shown_changed)
        context.table.dataChanged.connect(canvas.lines_changed)
        context.selection_changed.connect(self._on_selection)
        self.bar.play_pause_requested.connect(self.play_pause)
        self.bar.replay_line_requested.connect(self.replay_line)
        self.bar.stop_requested.connect(self.stop)
        self.bar.set_start_requested.connect(lambda: self.set_edge_here(start=True))
        self.bar.set_end_requested.connect(lambda: self.set_edge_here(start=False))
        self.playback.state_changed.connect(self._update_edge_actions)
        canvas.seek_requested.connect(self.play_from)
        canvas.retime_requested.connect(self.retime)
        self.playback.position_changed.connect(self._on_position)
        self.playback.state_changed.connect(self._on_state)

    # -- the file shown ------------------------------------------------------------------------

    @Slot()
    def _on_shown_changed(self) -> None:
        item = self._context.item
        transcript = self._context.table.transcript
        path = item.path if item is not None and item.state is ItemState.DONE and transcript is not None else None
        self.bar.set_available(path is not None)
        self.strip.setVisible(path is not None)
        if path != self._path:
            self._path = path
            self.playback.forget()
            self._jobs.cancel("peaks")
            duration = (transcript.duration or 0.0) if transcript is not None else 0.0
            self.strip.canvas.show_recording(duration, transcript)
            if path is not None:
                self._load_peaks(path)
        else:
            self.strip.canvas.show_lines(transcript)
        self._set_playing_row(None)
        self._on_position(self.playback.position)
        self._update_edge_actions()

    def _load_peaks(self, path: Path) -> None:
        if path in self._peaks:
            self.strip.canvas.set_peaks(self._peaks[path])
            return

        def work(report: JobReport) -> Peaks:
            return waveform.compute_peaks(path, cancelled=report.cancelled, progress=report.progress)

        def done(peaks: Peaks) -> None:
            self._peaks[path] = peaks
            if path == self._path:
                self.strip.canvas.set_peaks(peaks)

        self._jobs.start("peaks", work, on_result=done,
                         on_failed=lambda message: self._context.say(translated(message)))

    def computing_peaks(self) -> bool:
        return self._jobs.running("peaks")

    # -- playing -------------------------------------------------------------------------------

    def _selected_segment(self):
        rows = self._context.selected_rows()
        return (rows[0], self._context.table.segment(rows[0])) if rows else (None, None)

    @Slot()
    def play_pause(self) -> None:
        if self._path is None:
            return
        if self.playback.state == PLAYING or self.playback.path == self._path and self.playback.position > 0:
            self.playback.toggle(self._path)
            return
        _row, segment = self._selected_segment()
        self.play_from(segment.start if segment is not None else 0.0)

    @Slot()
    def replay_line(self) -> None:
        """The selected line again, from a second before it starts to its end."""
        _row, segment = self._selected_segment()
        if self._path is not None and segment is not None:
            self.playback.play_from(self._path, max(0.0, segment.start - LEAD_IN_SECONDS), segment.end)

    def play_line(self, row: int) -> None:
        """A line clicked in the table: heard from its start to its end, the clock, the playhead and Play
        following it as for the whole recording."""
        transcript = self._context.table.transcript
        if self._path is not None and transcript is not None and 0 <= row < len(transcript.segments):
            segment = transcript.segments[row]
            self.playback.play_from(self._path, segment.start, segment.end)

    def heard_position(self) -> float | None:
        """Where the shown recording is being heard (or was paused); None when it is not playing."""
        if self._path is None or self.playback.path != self._path or self.playback.state == "stopped":
            return None
        return self.playback.position

    def set_edge_here(self, *, start: bool) -> None:
        """Set the selected line's start (or end) to where the recording is heard now."""
        row, segment = self._selected_segment()
        model = self._context.table
        transcript = model.transcript
        if row is None or transcript is None:
            return
        seconds = self.heard_position()
        if seconds is None:
            model.edit_rejected.emit(self.tr("Play the recording first: the line's start or end is set to where "
                                             "it is playing."))
            return
        seconds = round(seconds, 3)
        new_start, new_end = (seconds, segment.end) if start else (segment.start, seconds)
        model.try_edit(lambda: edits.set_times(transcript, row, new_start, new_end))
        self.strip.canvas.update()

    @Slot()
    def _update_edge_actions(self, *_changed) -> None:
        usable = self._path is not None and bool(self._context.selected_rows()) and self._context.table.editable
        self.bar.set_start_action.setEnabled(usable)
        self.bar.set_end_action.setEnabled(usable)

    @Slot()
    def stop(self) -> None:
        """Stop whatever is heard: the recording, or a line clicked in the table."""
        self.playback.stop()

    @Slot(float)
    def play_from(self, seconds: float) -> None:
        if self._path is not None:
            self.playback.play_from(self._path, seconds)

    @Slot(float)
    def _on_position(self, seconds: float) -> None:
        playing = self.playback.state != "stopped" or seconds > 0
        self.strip.canvas.set_playhead(seconds if playing and self._path is not None else None)
        transcript = self._context.table.transcript
        row = None
        if transcript is not None and self.playback.state == PLAYING and self.strip.canvas.transcript is transcript:
            times, _speakers = self.strip.canvas.line_times()
            found = int(np.searchsorted(times[:, 0], seconds, side="right")) - 1
            if 0 <= found < len(transcript.segments) and transcript.segments[found].end > seconds:
                row = found
        self._set_playing_row(row)

    @Slot(str)
    def _on_state(self, state: str) -> None:
        if state != PLAYING:
            self._set_playing_row(None)

    def _set_playing_row(self, row: int | None) -> None:
        if row == self._playing_row:
            return
        self._playing_row = row
        self._context.table.set_playing_row(row)
        if row is not None:
            self._context.keep_in_view(row)

    @property
    def playing_row(self) -> int | None:
        return self._playing_row

    # -- retiming ------------------------------------------------------------------------------

    @Slot(int, float, float)
    def retime(self, row: int, start: float, end: float) -> None:
        model = self._context.table
        transcript = model.transcript
        if transcript is not None and 0 <= row < len(transcript.segments):
            model.try_edit(lambda: edits.set_times(transcript, row, start, end))
            self.strip.canvas.update()

    @Slot()
    def _on_selection(self) -> None:
        self._update_edge_actions()
        rows = self._context.selected_rows()
        self.strip.canvas.selected_row = rows[0] if rows else None
        self.strip.canvas.update()
