"""Opening a video made elsewhere, checked: a regular file PyAV can read, with a picture it can decode.

Everything the subtitle work needs to know is read here once (VideoFacts): how long the video is, its
picture's size as stored and as shown (rotation), its frame rate and whether it varies, its bit depth
and the codecs of its streams, so that the containers it fits can be named before anything is written.
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Iterator

from desktop.core.common.errors import UserFacingError
from desktop.core.common.i18n import N_
from desktop.core.common.safe_files import require_regular_file

_PROBE_PACKETS = 600  # packets read to find the first picture and to judge the frame rate


class VideoError(UserFacingError):
    """A video that cannot be used; the message names it and says why."""


@dataclass(frozen=True)
class VideoFacts:
    name: str
    duration: float  # seconds, as long as its longest stream
    start: float  # seconds: where the file's own timeline starts (0 for most files)
    width: int  # the picture as stored
    height: int
    rotation: int  # degrees counter-clockwise a player turns the stored picture: 0, 90, 180 or 270
    frame_rate: Fraction  # frames a second, on average
    variable_rate: bool  # frames not evenly spaced (a phone's recording)
    bit_depth: int  # 8 for most files, 10 for HDR and some cameras
    pixel_format: str
    video_codec: str
    audio_codecs: tuple[str, ...]

    @property
    def shown_size(self) -> tuple[int, int]:
        """Width and height as a player shows the picture, after its rotation."""
        return (self.height, self.width) if self.rotation in (90, 270) else (self.width, self.height)


def require_video_file(path: str | os.PathLike[str]) -> Path:
    """The path, once it is known to be a non-empty regular file; a VideoError sentence otherwise."""
    path = Path(path)
    try:
        info = require_regular_file(path, error=VideoError)
    except FileNotFoundError:
        raise VideoError(N_("Video", "“{name}” is not there any more. Check that the video has not been moved or "
                                     "deleted.").format(name=path.name), detail=str(path)) from None
    except PermissionError as error:
        raise _not_allowed(path, error) from None
    except OSError as error:
        raise VideoError(N_("Video", "“{name}” could not be opened: check that it is still there and that you may "
                                     "read it.").format(name=path.name), detail=str(error)) from None
    if info.st_size == 0:
        raise VideoError(N_("Video", "“{name}” is empty (0 bytes), so it holds no video.").format(name=path.name))
    return path


@contextmanager
def open_video(path: str | os.PathLike[str]) -> Iterator["av.container.InputContainer"]:  # noqa: F821
    """The file opened by PyAV for reading, after require_video_file; closed when the block ends."""
    import av

    path = require_video_file(path)
    try:
        container = av.open(str(path), mode="r", metadata_errors="ignore")
    except av.error.PermissionError as error:
        raise _not_allowed(path, error) from None
    except (av.error.FFmpegError, OSError, UnicodeDecodeError) as error:
        raise unreadable(path, error) from None
    try:
        yield container
    finally:
        container.close()


def has_picture(path: str | os.PathLike[str]) -> bool:
    """Whether the file has a picture stream (not only sound, or a cover image); VideoError when it cannot
    be read at all."""
    with open_video(path) as container:
        return any(not _is_cover_art(s) for s in container.streams.video)


def picture_stream(container, path: Path):
    """The video's picture stream (the best one, when there are several); a VideoError when it has none."""
    pictures = [s for s in container.streams.video if not _is_cover_art(s)]
    if not pictures:
        raise VideoError(N_("Video", "“{name}” has no picture, so there is nothing to put subtitles on. Choose the "
                                     "video file itself.").format(name=path.name),
                         detail=f"streams: {', '.join(s.type for s in container.streams) or 'none'}")
    best = container.streams.best("video")
    return best if best in pictures else pictures[0]


def read_facts(path: str | os.PathLike[str]) -> VideoFacts:
    """What the subtitle work needs to know about the video at path, its first picture decoded to prove
    that it can be; a VideoError sentence for a file that is not a usable video."""
    path = Path(path)
    with open_video(path) as container:
        stream = picture_stream(container, path)
        if stream.codec_context is None:
            raise undecodable(path, f"no decoder for {stream.codec_tag or 'this'} picture")
        first, times = _first_picture(container, stream, path)
        frame_rate = stream.average_rate or stream.guessed_rate or Fraction(25)
        duration = _duration(container, stream)
        return VideoFacts(
            name=path.name,
            duration=duration,
            start=max(0.0, (container.start_time or 0) / 1_000_000),
            width=first.width, height=first.height,
            rotation=int(getattr(first, "rotation", 0) or 0) % 360,
            frame_rate=Fraction(frame_rate),
            variable_rate=_varies(times),
            bit_depth=max((c.bits for c in first.format.components), default=8),
            pixel_format=first.format.name,
            video_codec=stream.codec_context.name,
            audio_codecs=tuple(s.codec_context.name if s.codec_context else (s.codec_tag or "unknown")
                               for s in container.streams.audio),
        )


def _first_picture(container, stream, path: Path):
    """The first decoded frame and the times of the first frames (for judging the frame rate)."""
    import av

    first = None
    times: list[float] = []
    try:
        for count, packet in enumerate(container.demux(stream)):
            for frame in packet.decode():
                first = first or frame
                if frame.time is not None:
                    times.append(frame.time)
            if (first is not None and len(times) >= 60) or count >= _PROBE_PACKETS:
                break
    except (av.error.FFmpegError, ValueError) as error:
        if first is None:
            raise undecodable(path, f"{type(error).__name__}: {error}") from None
    if first is None:
        raise undecodable(path, "no picture could be decoded")
    return first, sorted(times)


def _varies(times: list[float]) -> bool:
    gaps = [b - a for a, b in zip(times, times[1:]) if b > a]
    return len(gaps) >= 2 and max(gaps) > min(gaps) * 1.5


def _duration(container, stream) -> float:
    if container.duration:
        return container.duration / 1_000_000
    if stream.duration and stream.time_base:
        return float(stream.duration * stream.time_base)
    return 0.0


def _is_cover_art(stream) -> bool:
    import av

    return bool(stream.disposition & av.stream.Disposition.attached_pic)


def unreadable(path: Path, error: BaseException) -> VideoError:
    return VideoError(N_("Video", "VoxDesk cannot read “{name}” as a video. It may not be a video file, or it may be "
                                  "damaged.").format(name=path.name), detail=f"{type(error).__name__}: {error}")


def undecodable(path: Path, detail: str) -> VideoError:
    return VideoError(N_("Video", "The picture in “{name}” is in a format VoxDesk cannot decode, or it is damaged. "
                                  "Save the video as MP4 (H.264) with another program, then try again.").format(
        name=path.name), detail=detail)


def _not_allowed(path: Path, error: BaseException) -> VideoError:
    return VideoError(N_("Video", "VoxDesk is not allowed to read “{name}”. Ask the file's owner for read permission, "
                                  "or copy the file to your own folder.").format(name=path.name), detail=str(error))
