"""The work behind File → Export video with subtitles…, as job callables (workers/job.py runs them on
their own thread): what the dialog needs to know about the video, a preview frame with a cue drawn on it,
and the export itself (tracks put in, or one transcript burned in), with progress, time left and cancel."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage, QPainter

from desktop.core.common.i18n import N_
from desktop.core.transcription.subtitles import Cue
from desktop.core.video.burn_style import BurnStyle
from desktop.core.video.video_file import VideoFacts
from desktop.workers.job import JobReport

_MAX_NEARBY = 20  # subtitle files beside the video offered in the list
_LANGUAGE_IN_NAME = re.compile(r"\.([a-z]{2,3}(?:-[A-Za-z]{2,4})?)$")  # talk.zh.srt, talk.en-GB.vtt


@dataclass(frozen=True)
class TranscriptChoice:
    """A transcript the dialog offers: the one open in the editor (cues) or a file beside the video (path)."""

    label: str
    language: str | None  # "zh", "en", … as far as known
    cues: tuple[Cue, ...] | None = None
    path: Path | None = None


@dataclass(frozen=True)
class VideoOverview:
    facts: VideoFacts
    nearby: list[TranscriptChoice]


def overview_work(video: Path):
    """The job that reads the video's facts and lists the subtitle files beside it."""

    def run(report: JobReport) -> VideoOverview:
        from desktop.core.common.safe_files import kind_of
        from desktop.core.video.video_file import read_facts

        facts = read_facts(video)
        nearby = []
        try:
            entries = sorted(video.parent.iterdir())
        except OSError:
            entries = []
        for entry in entries:
            if len(nearby) >= _MAX_NEARBY:
                break
            if entry.suffix.lower() not in (".srt", ".vtt") or not entry.name.startswith(video.stem):
                continue
            try:
                if kind_of(entry.stat().st_mode) is not None:
                    continue  # a folder, pipe or device with a subtitle's name
            except OSError:
                continue
            found = _LANGUAGE_IN_NAME.search(entry.stem)
            nearby.append(TranscriptChoice(entry.name, found.group(1) if found else None, path=entry))
        return VideoOverview(facts, nearby)

    return run


def preview_work(video: Path, facts: VideoFacts, cue: Cue | None, style: BurnStyle, width: int):
    """The job that decodes the frame at the cue's middle and draws the cue on it as it will be burned,
    at the new video's size, then scales it to `width` pixels wide."""

    def run(report: JobReport) -> QImage:
        from desktop.core.video.burn import output_size
        from desktop.workers.subtitle_painter import SubtitlePainter

        at = (cue.start + cue.end) / 2 if cue is not None else min(1.0, facts.duration / 2)
        rgb = frame_at(video, facts, at)
        out_w, out_h = output_size(facts)
        rgb = np.ascontiguousarray(rgb[:out_h, :out_w])
        image = QImage(rgb.data, out_w, out_h, out_w * 3, QImage.Format.Format_RGB888).copy()
        if cue is not None:
            overlay = SubtitlePainter(style)(cue, out_w, out_h)
            if overlay is not None:
                h, w = overlay.rgba.shape[:2]
                drawn = QImage(overlay.rgba.tobytes(), w, h, w * 4, QImage.Format.Format_RGBA8888_Premultiplied)
                painter = QPainter(image)
                painter.drawImage(overlay.x, overlay.y, drawn)
                painter.end()
        return image.scaledToWidth(max(16, width), Qt.TransformationMode.SmoothTransformation)

    return run


def frame_at(video: Path, facts: VideoFacts, seconds: float) -> np.ndarray:
    """The picture shown at `seconds`, upright, as RGB (height, width, 3)."""
    import av

    from desktop.core.video.video_file import open_video, picture_stream, undecodable

    with open_video(video) as container:
        stream = picture_stream(container, video)
        target = facts.start + max(0.0, seconds)
        if stream.time_base:
            container.seek(int(target / stream.time_base), stream=stream, backward=True)
        chosen = None
        try:
            for frame in container.decode(stream):
                chosen = frame
                if frame.time is not None and frame.time >= target:
                    break
        except av.error.FFmpegError as error:
            if chosen is None:
                raise undecodable(video, f"{type(error).__name__}: {error}") from None
        if chosen is None:
            raise undecodable(video, "no picture could be decoded")
        rgb = chosen.to_ndarray(format="rgb24")
    return np.rot90(rgb, facts.rotation // 90) if facts.rotation else rgb


def export_work(video: Path, choices: list[TranscriptChoice], output: Path, *, burn_style: BurnStyle | None,
                crf: int, overwrite: bool):
    """The job that writes the copy: every choice as a track, or (burn_style given) the first burned in.
    Its result is the core's report (notes say what was left out or changed)."""

    def run(report: JobReport):
        from desktop.core.video.soft_subtitles import SubtitleTrack, embed, read_track
        from desktop.core.video.track_languages import track_language, track_title

        tracks = []
        for choice in choices:
            if choice.path is not None:
                tracks.append(read_track(choice.path, choice.language, cancelled=report.cancelled))
            else:
                code = track_language(choice.language) if choice.language else None
                tracks.append(SubtitleTrack(list(choice.cues or ()), code, track_title(code) if code else choice.label,
                                            choice.label))
        if burn_style is None:
            return embed(video, tracks, output, overwrite=overwrite, progress=report.progress,
                         cancelled=report.cancelled)
        from desktop.core.video.burn import burn
        from desktop.workers.subtitle_painter import SubtitlePainter

        def progress(fraction: float, seconds_left: float | None) -> None:
            report.progress(fraction)
            if seconds_left is not None:
                report.message(N_("Video export", "About {minutes} min {seconds} s left").format(
                    minutes=int(seconds_left) // 60, seconds=int(seconds_left) % 60))

        return burn(video, tracks[0], output, SubtitlePainter(burn_style), crf=crf, overwrite=overwrite,
                    progress=progress, cancelled=report.cancelled)

    return run
