"""The containers a video with subtitles can be saved in, and what each can hold.

MP4 holds subtitles as `mov_text` (3GPP timed text, shown by VLC, mpv, QuickTime and browsers), MKV
as SRT (`subrip`), WebM as WebVTT. Picture and sound are copied as they are, so a container is only
offered when it can hold the video's own codecs: WebM holds only VP8, VP9 or AV1 pictures with
Opus or Vorbis sound, MP4 no PCM sound; MKV holds almost anything.
"""
from __future__ import annotations

import functools
import io
from dataclasses import dataclass
from pathlib import Path

from desktop.core.common.i18n import N_, Message
from desktop.core.video.video_file import VideoFacts


@dataclass(frozen=True)
class Container:
    suffix: str  # ".mkv"
    format_name: str  # as FFmpeg names it
    subtitle_codec: str
    label: str  # as the file chooser shows it


CONTAINERS = {
    ".mkv": Container(".mkv", "matroska", "subrip", "MKV"),
    ".mp4": Container(".mp4", "mp4", "mov_text", "MP4"),
    ".webm": Container(".webm", "webm", "webvtt", "WebM"),
}


def container_for(path: Path) -> Container | None:
    return CONTAINERS.get(Path(path).suffix.lower())


@functools.lru_cache(maxsize=None)
def _codecs_held(format_name: str) -> frozenset[str]:
    import av

    with av.open(io.BytesIO(), "w", format=format_name) as probe:
        return frozenset(probe.supported_codecs)


def holds(container: Container, codec: str) -> bool:
    return codec in _codecs_held(container.format_name)


def why_not(container: Container, facts: VideoFacts) -> Message | None:
    """Why the video's picture and sound cannot be copied into this container as they are (None: they can)."""
    if not holds(container, facts.video_codec):
        return N_("Video containers", "{container} cannot hold this video's picture ({codec}) without converting "
                                      "it.").format(container=container.label, codec=facts.video_codec.upper())
    for codec in facts.audio_codecs:
        if not holds(container, codec):
            return N_("Video containers", "{container} cannot hold this video's sound ({codec}) without converting "
                                          "it.").format(container=container.label, codec=codec.upper())
    return None
