"""Subtitles burned into the picture ("open captions"): the picture decoded, each cue's text laid over
the frames it covers, and encoded again with H.264 (libx264 at a constant-quality CRF, not a fixed
bitrate); the sound is copied as it is.

The drawing is not done here: core has no Qt. The caller hands in a `Painter` that turns a cue into an
RGBA image (Qt's QPainter, with the system's CJK fonts) once per cue; here the image is blended into
the frame's Y, U and V planes inside its own rectangle only, so frames without a cue, and the picture
outside the text, pass through unchanged before encoding. Frames keep their own times (a variable
frame rate stays as it was), and a cue is on exactly the frames whose time lies in [start, end).

Odd pictures: a rotated video (a phone held upright) is turned upright first, so the text is drawn the
right way up; a 10-bit or 4:2:2/4:4:4 picture is saved as 8-bit 4:2:0 (what H.264 players expect);
an odd width or height loses one pixel (H.264 needs even sizes). Each says so in the report.
"""
from __future__ import annotations

import bisect
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from desktop.core.common.atomic import atomic_output
from desktop.core.common.errors import Cancelled
from desktop.core.common.i18n import N_, Message
from desktop.core.transcription.subtitles import Cue
from desktop.core.video.containers import CONTAINERS, container_for, holds
from desktop.core.video.soft_subtitles import SubtitleTrack, cues_inside, refuse_same_file
from desktop.core.video.video_file import VideoError, VideoFacts, open_video, picture_stream, read_facts, undecodable

BURN_SUFFIXES = (".mp4", ".mkv")
DEFAULT_CRF = 18  # visually the same as the source for most videos
CRF_RANGE = (0, 51)


@dataclass(frozen=True)
class Overlay:
    """A cue's text as drawn: premultiplied RGBA pixels (height, width, 4) placed at x, y on the picture."""

    x: int
    y: int
    rgba: np.ndarray


Painter = Callable[[Cue, int, int], "Overlay | None"]  # cue, picture width, height as shown
Progress = Callable[[float, "float | None"], None]  # fraction done, seconds left (None until known)
CancelCheck = Callable[[], bool]


@dataclass
class BurnReport:
    path: Path
    frames: int
    frames_with_text: int
    notes: list[Message] = field(default_factory=list)


def burn(video: str | os.PathLike[str], track: SubtitleTrack, output: str | os.PathLike[str], painter: Painter, *,
         crf: int = DEFAULT_CRF, preset: str = "veryfast", overwrite: bool = False,
         progress: Progress | None = None, cancelled: CancelCheck | None = None) -> BurnReport:
    """Write a copy of `video` with `track`'s cues drawn into the picture to `output` (.mp4 or .mkv)."""
    video, output = Path(video), Path(output)
    if output.suffix.lower() not in BURN_SUFFIXES:
        raise VideoError(N_("Video", "A video with burned-in subtitles is saved as .mp4 or .mkv; “{name}” ends "
                                     "otherwise.").format(name=output.name))
    if not CRF_RANGE[0] <= crf <= CRF_RANGE[1]:
        raise VideoError(N_("Video", "The quality setting must be between 0 (best) and 51; 18 looks like the "
                                     "source."))
    facts = read_facts(video)
    container = container_for(output) or CONTAINERS[".mp4"]
    for codec in facts.audio_codecs:
        if not holds(container, codec):
            raise VideoError(N_("Video", "{container} cannot hold this video's sound ({codec}) as it is. Save it as "
                                         ".mkv instead.").format(container=container.label, codec=codec.upper()))
    refuse_same_file(video, output)
    cues, note = cues_inside(track, facts)
    notes = [note] if note else []
    notes += picture_notes(facts)
    with atomic_output(output, overwrite=overwrite) as temp:
        frames, with_text = _encode(video, facts, container.format_name, cues, painter, temp, crf, preset,
                                    progress, cancelled)
    return BurnReport(output, frames, with_text, notes)


def output_size(facts: VideoFacts) -> tuple[int, int]:
    """The new picture's width and height: as shown (upright), each rounded down to an even number."""
    width, height = facts.shown_size
    return width & ~1, height & ~1


def picture_notes(facts: VideoFacts) -> list[Message]:
    """What burning changes about the picture besides the text, in sentences."""
    notes = []
    width, height = facts.shown_size
    if (width, height) != output_size(facts):
        notes.append(N_("Video", "The picture is {width}×{height}; H.264 needs even sizes, so the new video is "
                                 "{new_width}×{new_height}.").format(width=width, height=height,
                                                                     new_width=width & ~1, new_height=height & ~1))
    if facts.rotation:
        notes.append(N_("Video", "The video is stored turned by {degrees}°; the new video is saved upright, so the "
                                 "subtitles read the right way up.").format(degrees=facts.rotation))
    if facts.bit_depth > 8 or facts.pixel_format not in ("yuv420p", "yuvj420p"):
        notes.append(N_("Video", "The picture is {depth}-bit ({format}); the new video is 8-bit 4:2:0, which every "
                                 "player shows.").format(depth=facts.bit_depth, format=facts.pixel_format))
    return notes


class _CueTimes:
    """Which cue covers a frame's time: the last one started before it that has not ended."""

    def __init__(self, cues: list[Cue]):
        self._cues = sorted(cues, key=lambda cue: cue.start)
        self._starts = [cue.start for cue in self._cues]
        self._longest = max((cue.end - cue.start for cue in self._cues), default=0.0)

    def at(self, seconds: float) -> int | None:
        i = bisect.bisect_right(self._starts, seconds) - 1
        while i >= 0 and self._cues[i].start > seconds - self._longest - 1e-9:
            if self._cues[i].end > seconds:
                return i
            i -= 1  # an earlier cue may still show when this one has ended (overlapping cues)
        return None

    def cue(self, index: int) -> Cue:
        return self._cues[index]


class _Planes:
    """A cue's overlay turned once into what blending needs: Y and alpha at full size, U, V and alpha at
    half size, inside its rectangle (even-aligned, clipped to the picture)."""

    def __init__(self, overlay: Overlay, width: int, height: int, hd: bool):
        rgba = overlay.rgba
        x0, y0 = max(0, overlay.x) & ~1, max(0, overlay.y) & ~1
        x1 = min(width, overlay.x + rgba.shape[1] + 1) & ~1
        y1 = min(height, overlay.y + rgba.shape[0] + 1) & ~1
        self.box = (x0, y0, x1, y1)
        self.empty = x1 <= x0 or y1 <= y0
        if self.empty:
            return
        canvas = np.zeros((y1 - y0, x1 - x0, 4), np.float32)
        sx, sy = x0 - overlay.x, y0 - overlay.y  # where the canvas starts inside the overlay
        part = rgba[max(0, sy):max(0, sy) + canvas.shape[0], max(0, sx):max(0, sx) + canvas.shape[1]]
        canvas[max(0, -sy):max(0, -sy) + part.shape[0], max(0, -sx):max(0, -sx) + part.shape[1]] = part
        r, g, b, a = (canvas[..., i] for i in range(4))
        a = a / 255.0
        kr, kb = (0.2126, 0.0722) if hd else (0.299, 0.114)  # BT.709 for HD, BT.601 below
        kg = 1.0 - kr - kb
        luma = kr * r + kg * g + kb * b  # premultiplied, 0..255·alpha
        self.y_alpha = a
        self.y_colour = 16.0 * a + luma * (219.0 / 255.0)
        cb = (b - luma) / (2 * (1 - kb))
        cr = (r - luma) / (2 * (1 - kr))
        u = 128.0 * a + cb * (224.0 / 255.0)
        v = 128.0 * a + cr * (224.0 / 255.0)
        self.c_alpha = _half(a)
        self.u_colour = _half(u)
        self.v_colour = _half(v)

    def blend(self, y: np.ndarray, u: np.ndarray, v: np.ndarray) -> None:
        x0, y0, x1, y1 = self.box
        _mix(y[y0:y1, x0:x1], self.y_colour, self.y_alpha)
        _mix(u[y0 // 2:y1 // 2, x0 // 2:x1 // 2], self.u_colour, self.c_alpha)
        _mix(v[y0 // 2:y1 // 2, x0 // 2:x1 // 2], self.v_colour, self.c_alpha)


def _half(plane: np.ndarray) -> np.ndarray:
    return (plane[0::2, 0::2] + plane[1::2, 0::2] + plane[0::2, 1::2] + plane[1::2, 1::2]) * 0.25


def _mix(target: np.ndarray, colour: np.ndarray, alpha: np.ndarray) -> None:
    target[...] = np.clip(target * (1.0 - alpha) + colour + 0.5, 0, 255).astype(np.uint8)


def _plane_arrays(frame) -> list[np.ndarray]:
    """Writable views of a yuv420p frame's Y, U and V planes (without the padding at each line's end)."""
    return [np.frombuffer(memoryview(plane), np.uint8).reshape(plane.height, plane.line_size)[:, :plane.width]
            for plane in frame.planes]


def _encode(video: Path, facts: VideoFacts, format_name: str, cues: list[Cue], painter: Painter, temp: Path,
            crf: int, preset: str, progress: Progress | None, cancelled: CancelCheck | None) -> tuple[int, int]:
    import av

    width, height = output_size(facts)
    stored_width, stored_height = (height, width) if facts.rotation in (90, 270) else (width, height)
    turns = facts.rotation // 90
    hd = height >= 720
    times = _CueTimes(cues)
    drawn: tuple[int, _Planes | None] | None = None  # the cue whose overlay is ready, and the overlay
    frames = with_text = 0
    started = time.monotonic()
    total = facts.duration or 1.0
    with open_video(video) as source, av.open(str(temp), "w", format=format_name) as out:
        picture = picture_stream(source, video)
        picture.thread_type = "AUTO"
        sounds = list(source.streams.audio)
        encoder = out.add_stream("libx264", rate=facts.frame_rate, options={"crf": str(crf), "preset": preset})
        encoder.width, encoder.height, encoder.pix_fmt = width, height, "yuv420p"
        encoder.time_base = picture.time_base
        encoder.codec_context.time_base = picture.time_base
        encoder.codec_context.colorspace = 1 if hd else 6  # BT.709 / BT.601, as blended
        encoder.codec_context.color_range = 1  # limited ("TV") range
        encoder.metadata.update({k: v for k, v in picture.metadata.items() if k in ("language", "title")})
        copied = {s.index: out.add_stream_from_template(s) for s in sounds}  # after the picture, as in most files
        last_pts = None
        try:
            for packet in source.demux(picture, *sounds):
                if packet.stream is not picture:
                    if packet.dts is not None:
                        packet.stream = copied[packet.stream.index]
                        out.mux(packet)
                    continue
                for frame in packet.decode():
                    if cancelled is not None and cancelled():
                        raise Cancelled()
                    if frame.pts is None:
                        frame.pts = (last_pts or 0) + 1
                    if last_pts is not None and frame.pts <= last_pts:
                        continue  # a repeated time would stop the encoder; the frame adds nothing
                    last_pts = frame.pts
                    seconds = float(frame.pts * picture.time_base) - facts.start
                    index = times.at(seconds)
                    if index is not None and (drawn is None or drawn[0] != index):
                        overlay = painter(times.cue(index), width, height)
                        drawn = (index, _Planes(overlay, width, height, hd) if overlay is not None else None)
                    planes = drawn[1] if index is not None and drawn is not None else None
                    new = _prepared(frame, stored_width, stored_height, turns, planes, width, height)
                    with_text += planes is not None and not planes.empty
                    new.pts = frame.pts
                    new.time_base = picture.time_base
                    out.mux(encoder.encode(new))
                    frames += 1
                    if progress is not None and frames % 10 == 0:
                        done = min(1.0, max(0.0, seconds / total))
                        spent = time.monotonic() - started
                        progress(done, spent / done * (1 - done) if done > 0.02 else None)
            out.mux(encoder.encode())
        except av.error.FFmpegError as error:
            if isinstance(error, OSError) and error.errno and error.errno not in (5, 22):
                raise  # the disk (full, read-only): atomic_output words it
            if frames == 0:
                raise undecodable(video, f"{type(error).__name__}: {error}") from None
            raise VideoError(N_("Video", "The picture of “{name}” is damaged after {seconds} seconds, so the burned "
                                         "copy could not be finished.").format(
                name=video.name, seconds=round(frames / float(facts.frame_rate or 25))),
                detail=f"{type(error).__name__}: {error}") from None
    if frames == 0:
        raise undecodable(video, "no picture could be decoded")
    if progress is not None:
        progress(1.0, 0.0)
    return frames, with_text


def _prepared(frame, stored_width: int, stored_height: int, turns: int, planes: _Planes | None,
              width: int, height: int):
    """The frame to encode: 8-bit 4:2:0 at the even size, upright, with the cue blended in. A new frame
    whenever something changes: the decoder's own frame may be the reference for the next ones."""
    import av

    if frame.format.name != "yuv420p" or (frame.width, frame.height) != (stored_width, stored_height):
        frame = frame.reformat(width=stored_width, height=stored_height, format="yuv420p")
    if planes is None and not turns:
        return frame
    new = av.VideoFrame(width, height, "yuv420p")
    targets = _plane_arrays(new)
    for target, source in zip(targets, _plane_arrays(frame)):
        target[...] = np.rot90(source, turns) if turns else source
    if planes is not None and not planes.empty:
        planes.blend(*targets)
    return new
