"""Subtitle tracks put into a copy of a video ("soft" subtitles), its picture and sound copied packet for
packet, never re-encoded: seconds for an hour of video, nothing lost.

Each transcript becomes one track with its language tag and a title, the first marked default. The cues
are written as the container's own subtitle codec (containers.py) and merged into the packets in time
order. Cues that start after the video has ended are left out and counted (a transcript of another
recording shows here), the rest are kept; a transcript with none inside the video is refused. The copy is
written beside the destination and takes its name only when complete (atomic_output): a failure or a
cancel leaves nothing, and an existing file is replaced only when the caller says so.
"""
from __future__ import annotations

import os
import struct
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Callable

from desktop.core.common.atomic import atomic_output
from desktop.core.common.errors import Cancelled
from desktop.core.common.i18n import N_, Message
from desktop.core.transcription.subtitles import Cue
from desktop.core.video.containers import CONTAINERS, Container, container_for, holds, why_not
from desktop.core.video.video_file import VideoError, VideoFacts, open_video, picture_stream, read_facts, unreadable

_MS = Fraction(1, 1000)
_POLL_EVERY = 200  # packets between two looks at `cancelled`
_MAX_MOV_TEXT_BYTES = 65_535  # a mov_text sample holds its length in two bytes
# An ASS header: the mov_text writer takes its default style (font, size) from it.
_ASS_HEADER = (b"[Script Info]\nScriptType: v4.00+\nPlayResX: 384\nPlayResY: 288\n\n[V4+ Styles]\n"
               b"Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, "
               b"Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, "
               b"Alignment, MarginL, MarginR, MarginV, Encoding\n"
               b"Style: Default,Sans,16,&Hffffff,&Hffffff,&H0,&H0,0,0,0,0,100,100,0,0,1,1,0,2,10,10,10,0\n\n"
               b"[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n")

Progress = Callable[[float], None]
CancelCheck = Callable[[], bool]


@dataclass
class SubtitleTrack:
    cues: list[Cue]
    language: str | None  # ISO 639-2 ("chi"), see track_languages
    title: str
    source_name: str  # the transcript's file name, for sentences


@dataclass
class EmbedReport:
    path: Path
    cues_written: list[int]  # per track
    notes: list[Message] = field(default_factory=list)  # cues left out, streams not copied


def cues_inside(track: SubtitleTrack, facts: VideoFacts) -> tuple[list[Cue], Message | None]:
    """The track's cues that start before the video ends, and a sentence counting those left out; a
    VideoError when none is left (the transcript of another recording)."""
    if not track.cues:
        raise VideoError(N_("Video", "“{name}” holds no subtitles.").format(name=track.source_name))
    ends = facts.duration if facts.duration > 0 else float("inf")
    kept = [cue for cue in track.cues if cue.start < ends]
    left = len(track.cues) - len(kept)
    if not kept:
        raise VideoError(N_("Video", "Every subtitle in “{name}” starts after the end of the video ({length}), so "
                                     "it probably belongs to another recording. Choose the transcript of this "
                                     "video.").format(name=track.source_name, length=_minutes(facts.duration)))
    if not left:
        return kept, None
    return kept, N_("Video", "{count} subtitle(s) of “{name}” start after the video ends ({length}) and were left "
                             "out; the other {kept} are in the file.").format(
        count=left, name=track.source_name, length=_minutes(facts.duration), kept=len(kept))


def embed(video: str | os.PathLike[str], tracks: list[SubtitleTrack], output: str | os.PathLike[str], *,
          overwrite: bool = False, progress: Progress | None = None,
          cancelled: CancelCheck | None = None) -> EmbedReport:
    """Write a copy of `video` with `tracks` as subtitle tracks to `output` (.mkv, .mp4 or .webm)."""
    video, output = Path(video), Path(output)
    container = _output_container(output)
    facts = read_facts(video)
    refuse_same_file(video, output)
    if not tracks:
        raise VideoError(N_("Video", "Choose at least one transcript to put into the video."))
    problem = why_not(container, facts)
    if problem:
        raise VideoError(problem + " " + N_("Video", "Save it as MKV instead, which holds any picture and sound."))
    notes: list[Message] = []
    timed = []
    for track in tracks:
        kept, note = cues_inside(track, facts)
        timed.append(kept)
        if note:
            notes.append(note)
    with atomic_output(output, overwrite=overwrite) as temp:
        written = _write(video, facts, container, tracks, timed, temp, notes, progress, cancelled)
    return EmbedReport(output, written, notes)


def _output_container(output: Path) -> Container:
    container = container_for(output)
    if container is None:
        raise VideoError(N_("Video", "VoxDesk can save a video with subtitles as {kinds}; “{name}” ends otherwise. "
                                     "Give the file one of these endings.").format(
            kinds=", ".join(CONTAINERS), name=output.name))
    return container


def refuse_same_file(video: Path, output: Path) -> None:
    """A copy of a video (with tracks, or burned) is never written over the video it is made from."""
    try:
        same = output.exists() and os.path.samefile(video, output)
    except OSError:
        same = False
    if same:
        raise VideoError(N_("Video", "The video cannot be saved over itself. Choose another name for the copy with "
                                     "subtitles."))


def _write(video: Path, facts: VideoFacts, container: Container, tracks: list[SubtitleTrack],
           timed: list[list[Cue]], temp: Path, notes: list[Message], progress: Progress | None,
           cancelled: CancelCheck | None) -> list[int]:
    import av

    offset_ms = round(facts.start * 1000)
    with open_video(video) as source, av.open(str(temp), "w", format=container.format_name) as out:
        picture = picture_stream(source, video)
        copied = {}
        for stream in source.streams:
            if stream is picture or stream.type == "audio":
                copied[stream.index] = out.add_stream_from_template(stream)
            elif stream.type in ("video", "subtitle", "data", "attachment"):
                codec = stream.codec_context.name if stream.codec_context else stream.type
                if stream.type == "subtitle" and holds(container, codec):
                    copied[stream.index] = out.add_stream_from_template(stream)
                elif stream.type != "attachment":
                    notes.append(N_("Video", "A {kind} stream of the video ({codec}) cannot go into {container} "
                                             "and was left out.").format(kind=stream.type, codec=codec,
                                                                         container=container.label))
        pending: list[av.Packet] = []
        for number, (track, cues) in enumerate(zip(tracks, timed)):
            stream = out.add_stream(container.subtitle_codec)
            stream.time_base = _MS
            stream.codec_context.time_base = _MS
            stream.codec_context.subtitle_header = _ASS_HEADER
            if track.language:
                stream.metadata["language"] = track.language
            stream.metadata["title"] = track.title
            stream.disposition = av.stream.Disposition.default if number == 0 else av.stream.Disposition(0)
            stream.codec_context.open()
            pending += [_packet(cue, container, stream, offset_ms) for cue in cues]
        pending.sort(key=lambda packet: packet.pts)
        _copy_packets(source, out, copied, pending, facts, progress, cancelled, video)
    return [len(cues) for cues in timed]


def _copy_packets(source, out, copied, pending, facts, progress, cancelled, video) -> None:
    """The source's packets in its order, each subtitle muxed once the copy reaches its time. Times are
    plain floats here: Fraction arithmetic on every packet would take longer than the copy itself."""
    import av

    inputs = [source.streams[i] for i in copied]
    seconds_per_tick = {s.index: float(s.time_base) if s.time_base else 0.0 for s in inputs}
    targets = {s.index: copied[s.index] for s in inputs}
    cue_times = [packet.pts / 1000 for packet in pending]  # pending is sorted, in milliseconds
    next_cue, cue_count = 0, len(pending)
    total = facts.duration or 1.0
    mux = out.mux_one
    try:
        for count, packet in enumerate(source.demux(*inputs)):
            dts = packet.dts
            if dts is None:
                continue  # the end of a stream: nothing to copy
            index = packet.stream_index
            at = dts * seconds_per_tick[index]
            while next_cue < cue_count and cue_times[next_cue] <= at:
                mux(pending[next_cue])
                next_cue += 1
            packet.stream = targets[index]
            mux(packet)
            if count % _POLL_EVERY == 0:
                if cancelled is not None and cancelled():
                    raise Cancelled()
                if progress is not None:
                    progress(min(1.0, max(0.0, (at - facts.start) / total)))
    except av.error.FFmpegError as error:
        if isinstance(error, OSError) and error.errno and error.errno not in (5, 22):
            raise  # the disk (full, read-only): atomic_output words it
        raise unreadable(video, error) from None
    for packet in pending[next_cue:]:
        mux(packet)
    if progress is not None:
        progress(1.0)


def _packet(cue: Cue, container: Container, stream, offset_ms: int):
    import av

    text = cue_text(cue, container)
    data = text.encode("utf-8")
    if container.subtitle_codec == "mov_text":
        data = struct.pack(">H", min(len(data), _MAX_MOV_TEXT_BYTES)) + data[:_MAX_MOV_TEXT_BYTES]
    packet = av.Packet(data)
    start = round(cue.start * 1000) + offset_ms
    packet.pts = packet.dts = start
    packet.duration = max(1, round(cue.end * 1000) + offset_ms - start)
    packet.time_base = _MS
    packet.stream = stream
    return packet


def cue_text(cue: Cue, container: Container) -> str:
    """A cue's text as the container's subtitle codec writes it, its speaker's name in front."""
    text = cue.text
    if container.subtitle_codec == "webvtt":
        text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("-->", "--&gt;")
        return f"<v {cue.speaker}>{text}" if cue.speaker else text
    return f"{cue.speaker}: {text}" if cue.speaker else text


def _minutes(seconds: float) -> str:
    seconds = max(0, round(seconds))
    return f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}" if seconds >= 3600 else \
        f"{seconds // 60}:{seconds % 60:02d}"


def read_track(path: str | os.PathLike[str], language: str | None = None, title: str | None = None,
               cancelled: CancelCheck | None = None) -> SubtitleTrack:
    """An SRT or WebVTT file as a track, read through the project's subtitle reader (regular file, size
    and cue limits, times checked); `language` as "zh", "en" or an ISO 639-2 code."""
    from desktop.core.transcription.subtitle_files import read_subtitles
    from desktop.core.video.track_languages import track_language, track_title

    path = Path(path)
    code = track_language(language) if language else None
    cues = read_subtitles(path, cancelled=cancelled)
    return SubtitleTrack(cues, code, title or (track_title(code) if code else path.stem), path.name)
