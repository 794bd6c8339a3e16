"""The picture of a video beside the subtitle editor: in step with playback, the waveform and the table,
the current cue drawn on it as it will look burned in (the export's own painter and style).

Decoding and drawing are jobs on their own threads, one at a time, the latest wanted time next; the
panel only shows the image that comes back. A recording with no picture shows no panel; a video that
cannot be played says so in a sentence inside the panel and the editor goes on working.
"""
from __future__ import annotations

import bisect
from pathlib import Path

import numpy as np
from PySide6.QtCore import QSize, Qt, Signal, Slot
from PySide6.QtGui import QImage, QPainter, QPixmap
from PySide6.QtWidgets import QLabel, QSizePolicy, QVBoxLayout, QWidget

from desktop.core.transcription.subtitles import Cue
from desktop.core.video.burn_style import BurnStyle
from desktop.ui.common.i18n import translated
from desktop.workers.job import Job, JobReport, JobRunner

def _open_work(path: Path):
    def run(report: JobReport):
        from desktop.core.video.frames import FrameReader
        from desktop.core.video.video_file import has_picture

        return path, (FrameReader(path) if has_picture(path) else None)  # None: a sound recording

    return run


def _frame_work(reader, seconds: float, cue: Cue | None, style: BurnStyle):
    def run(report: JobReport) -> QImage:
        from desktop.core.video.burn import output_size
        from desktop.workers.subtitle_painter import SubtitlePainter

        rgb = reader.frame_at(seconds)
        width, height = output_size(reader.facts)
        rgb = np.ascontiguousarray(rgb[:height, :width])
        image = QImage(rgb.data, width, height, width * 3, QImage.Format.Format_RGB888).copy()
        overlay = SubtitlePainter(style)(cue, width, height) if cue is not None else None
        if overlay is not None:
            h, w = overlay.rgba.shape[:2]
            drawn = QImage(overlay.rgba.tobytes(), w, h, w * 4, QImage.Format.Format_RGBA8888_Premultiplied)
            painter = QPainter(image)
            painter.drawImage(overlay.x, overlay.y, drawn)
            painter.end()
        return image

    return run


class VideoPanel(QWidget):
    """Shows `path`'s picture at the time it is told, with the cue of that time on it."""

    availability_changed = Signal(bool)  # True once a video's picture can be shown, False for none

    def __init__(self, runner: JobRunner, parent: QWidget | None = None):
        super().__init__(parent)
        self._runner = runner
        self._reader = None
        self._path: Path | None = None
        self._opening: Job | None = None
        self._drawing: Job | None = None
        self._wanted: float | None = None
        self._shown_time: float | None = None
        self._cues: list[Cue] = []
        self._starts: list[float] = []
        self.style = BurnStyle()
        self._image: QImage | None = None
        self.picture = QLabel()
        self.picture.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.picture.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self.picture.setMinimumSize(160, 90)
        self.picture.setStyleSheet("background: #101010; color: #e0e0e0;")
        self.picture.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.picture)
        self.hide()

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt naming
        return QSize(480, 270)

    @property
    def available(self) -> bool:
        return self._reader is not None

    def set_video(self, path: Path | None) -> None:
        """Show this recording's picture (None: no recording); a panel only for a file with a picture."""
        if path == self._path:
            return
        self._close_reader()
        self._path = path
        self._image = None
        self.picture.clear()
        self.hide()
        self.availability_changed.emit(False)
        if path is None:
            return
        job = Job(_open_work(path), "video panel")
        # Bound slots of this widget, never lambdas: Qt then calls them on the window's thread.
        job.result.connect(self._on_opened)
        job.failed.connect(self._on_open_failed)
        self._opening = self._runner.start(job)

    def set_cues(self, cues: list[Cue]) -> None:
        self._cues = sorted(cues, key=lambda cue: cue.start)
        self._starts = [cue.start for cue in self._cues]
        if self._shown_time is not None:
            self.show_time(self._shown_time, force=True)

    def set_style(self, style: BurnStyle) -> None:
        self.style = style
        if self._shown_time is not None:
            self.show_time(self._shown_time, force=True)

    def cue_at(self, seconds: float) -> Cue | None:
        i = bisect.bisect_right(self._starts, seconds) - 1
        while i >= 0:
            if self._cues[i].start <= seconds < self._cues[i].end:
                return self._cues[i]
            if seconds - self._cues[i].start > 600:
                break
            i -= 1
        return None

    @Slot(float)
    def show_time(self, seconds: float, force: bool = False) -> None:
        """Show the picture at `seconds` (playback's position, a clicked line or waveform)."""
        if not force and seconds == self._shown_time and self._wanted is None:
            return
        self._wanted = seconds
        self._draw_next()

    # -- jobs -----------------------------------------------------------------------------------

    @Slot(object)
    def _on_opened(self, opened) -> None:
        path, reader = opened
        if path != self._path or reader is None:
            if reader is not None:
                reader.close()  # another recording was chosen meanwhile
            return  # None: a sound recording, no panel at all
        self._reader = reader
        self.show()
        self.availability_changed.emit(True)
        self.show_time(self._wanted if self._wanted is not None else 0.0, force=True)

    @Slot(object)
    def _on_open_failed(self, sentence) -> None:
        if self._reader is not None or self._path is None:
            return
        self.picture.setText(self.tr("This video cannot be shown: {reason} The subtitles can still be edited.")
                             .format(reason=translated(sentence)))
        self.show()

    def _draw_next(self) -> None:
        if self._reader is None or self._drawing is not None or self._wanted is None:
            return
        seconds, self._wanted = self._wanted, None
        self._shown_time = seconds
        job = Job(_frame_work(self._reader, seconds, self.cue_at(seconds), self.style), "video frame")
        job.result.connect(self._on_frame)
        job.failed.connect(self._on_frame_failed)
        job.finished.connect(self._on_drawn)
        self._drawing = self._runner.start(job)

    @Slot(object)
    def _on_frame(self, image: QImage) -> None:
        self._image = image
        self._rescale()

    @Slot(object)
    def _on_frame_failed(self, sentence) -> None:
        self.picture.setText(translated(sentence))

    @Slot()
    def _on_drawn(self) -> None:
        self._drawing = None
        self._draw_next()

    def _rescale(self) -> None:
        if self._image is not None:
            self.picture.setPixmap(QPixmap.fromImage(self._image).scaled(
                self.picture.size(), Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation))

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt naming
        super().resizeEvent(event)
        self._rescale()

    def _close_reader(self) -> None:
        reader, self._reader = self._reader, None
        if reader is None:
            return
        if self._drawing is not None:
            self._drawing.finished.connect(reader.close)  # closed once its last frame is read
        else:
            reader.close()

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt naming
        self._close_reader()
        super().closeEvent(event)
