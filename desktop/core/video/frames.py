"""Pictures of a video at given times, for the editor's video panel: the file stays open and frames are
decoded forward while playback moves on, with a seek only for a jump (a click on another line), so
following playback costs one decode per frame shown."""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from desktop.core.video.video_file import VideoError, VideoFacts, open_video, picture_stream, read_facts, undecodable

_FORWARD_SECONDS = 3.0  # a wanted time this far ahead is reached by decoding on; further, by seeking


class FrameReader:
    """One video opened for reading pictures; not for two threads at once (the panel asks one job at a time)."""

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)
        self.facts: VideoFacts = read_facts(self.path)  # VideoError for a file with no usable picture
        self._opened = open_video(self.path)
        self._container = self._opened.__enter__()
        self._stream = picture_stream(self._container, self.path)
        self._stream.thread_type = "AUTO"
        self._frames = None
        self._current = None  # the last decoded frame
        self._next = None  # the frame after it, once decoded

    def close(self) -> None:
        self._opened.__exit__(None, None, None)

    def frame_at(self, seconds: float) -> np.ndarray:
        """The picture shown `seconds` into the video (from its start), upright RGB (height, width, 3)."""
        import av

        target = self.facts.start + max(0.0, seconds)
        current_time = self._time(self._current)
        if self._current is None or target < current_time or target > current_time + _FORWARD_SECONDS:
            self._seek(target)
        try:
            while True:
                if self._next is None:
                    self._next = next(self._frames, None)
                if self._next is None or self._time(self._next) > target + 1e-6:
                    break
                self._current, self._next = self._next, None
        except (av.error.FFmpegError, ValueError) as error:
            if self._current is None:
                raise undecodable(self.path, f"{type(error).__name__}: {error}") from None
        if self._current is None:
            raise undecodable(self.path, "no picture could be decoded")
        rgb = self._current.to_ndarray(format="rgb24")
        return np.rot90(rgb, self.facts.rotation // 90).copy() if self.facts.rotation else rgb

    def _seek(self, target: float) -> None:
        if self._stream.time_base:
            self._container.seek(max(0, int(target / self._stream.time_base)), stream=self._stream, backward=True)
        self._frames = iter(self._container.decode(self._stream))
        self._current = self._next = None
        self._next = next(self._frames, None)
        if self._next is not None and self._time(self._next) > target:
            self._current, self._next = self._next, None  # the seek landed after the time: show what there is

    @staticmethod
    def _time(frame) -> float:
        return frame.time if frame is not None and frame.time is not None else 0.0


__all__ = ["FrameReader", "VideoError"]
