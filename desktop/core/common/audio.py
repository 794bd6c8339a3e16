"""Read any audio or video file as 16 kHz mono float32 samples, with PyAV (no ffmpeg program needed).

probe() answers "what is this file?" quickly; decode() returns all samples at once; iter_chunks()
streams a long recording in pieces cut at pauses, so a two-hour meeting never sits in memory whole;
decode_stretch() returns a few seconds from anywhere in a file (for playing a segment) without
decoding what comes before. All raise AudioError with a sentence the user can act on when the file
cannot be used.
"""
from __future__ import annotations

import itertools
import os
import stat
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import av
import numpy as np

from desktop.core.common.errors import AudioError
from desktop.core.common.i18n import N_
from desktop.core.common.safe_files import kind_of, not_a_file

SAMPLE_RATE = 16000  # what Whisper expects
QUIET_WINDOW_SECONDS = 0.5

RepairCallback = Callable[[int], None]  # told how many samples were not numbers (NaN, ±inf) and became silence

# Lower-case extensions without the dot. Only a first filter for files dropped as a folder: what
# decides is whether PyAV can read the file. ".ts" is left out on purpose: far more .ts files are
# source code or Qt translations than MPEG transport streams.
SUPPORTED_EXTENSIONS: frozenset[str] = frozenset({
    # audio
    "wav", "wave", "mp3", "mp2", "m4a", "m4b", "aac", "flac", "ogg", "oga", "opus", "spx", "wma",
    "aiff", "aif", "aifc", "amr", "awb", "ac3", "eac3", "ape", "wv", "mka", "caf", "au", "snd",
    # video
    "mp4", "m4v", "mkv", "mov", "avi", "webm", "wmv", "asf", "flv", "f4v", "3gp", "3g2", "mpg",
    "mpeg", "mts", "m2ts", "vob", "ogv", "rm", "rmvb", "dv", "mxf",
})


@dataclass(frozen=True)
class AudioInfo:
    duration: float  # seconds
    sample_rate: int  # of the file's sound track, before any resampling
    channels: int
    codec: str  # short codec name, e.g. "mp3", "aac", "flac", "pcm_s16le"


def is_media_file(path: str | os.PathLike[str]) -> bool:
    """Whether the file name ends with one of SUPPORTED_EXTENSIONS (any case); the file is not opened."""
    return Path(path).suffix.lower().lstrip(".") in SUPPORTED_EXTENSIONS


def probe(path: str | os.PathLike[str]) -> AudioInfo:
    """Describe the file's sound track, reading little more than its header.

    The first bit of sound is decoded to make sure the file is usable; the whole track is decoded
    only when the file does not state its length (some recordings from browsers and phones).
    """
    path = _checked(path)
    with _opened(path) as container:
        stream = _sound_track(container, path)
        first = _first_frame(container, stream, path)
        duration = _stated_duration(container, stream)
        if duration is None:
            duration = _counted_duration(path)
        return AudioInfo(
            duration=duration,
            sample_rate=first.sample_rate or stream.codec_context.sample_rate,
            channels=first.layout.nb_channels or stream.codec_context.channels,
            codec=_codec_name(stream),
        )


class AudioTooLong(AudioError):
    """The file holds more sound than the caller can take (``limit`` seconds); nothing was kept of it."""

    def __init__(self, path: Path, limit: float, stated: float | None):
        super().__init__(
            N_("Audio", "“{name}” is longer than {minutes:g} minutes, the most VoxDesk takes here.").format(
                name=path.name, minutes=round(limit / 60, 1)),
            detail=f"{path}: {'header says %.1f s' % stated if stated is not None else 'decoded past the limit'}, "
                   f"limit {limit:g} s",
        )
        self.path = path
        self.limit = limit


def decode(path: str | os.PathLike[str], sample_rate: int = SAMPLE_RATE, *,
           on_repair: RepairCallback | None = None, max_seconds: float | None = None) -> np.ndarray:
    """All of the file's sound as float32 mono samples in [-1, 1] at sample_rate.

    A damaged or cut-off file gives what could be decoded; samples that are not numbers become
    silence, and on_repair is told how many. Very short clips are returned as they are; whether
    they are long enough for anything is the caller's decision.

    With max_seconds, a longer file raises AudioTooLong: before anything is decoded when its header
    says so, else as soon as more than that has been decoded (a header may be missing or wrong), so
    memory never holds more than max_seconds of sound.
    """
    path = _checked(path)
    if max_seconds is not None:
        check_length(path, max_seconds)
    limit = None if max_seconds is None else round(max_seconds * sample_rate)
    blocks: list[np.ndarray] = []
    held = 0
    for block in _decoded_blocks(path, sample_rate, on_repair):
        held += len(block)
        if limit is not None and held > limit:
            raise AudioTooLong(path, max_seconds, None)
        blocks.append(block)
    return np.concatenate(blocks) if len(blocks) > 1 else blocks[0]


def check_length(path: str | os.PathLike[str], max_seconds: float) -> None:
    """Raise AudioTooLong when the file's header says it lasts more than max_seconds; nothing is decoded
    but the first frame. A file whose header states no length passes (decode(max_seconds=…) stops it)."""
    path = _checked(path)
    with _opened(path) as container:
        stream = _sound_track(container, path)
        _first_frame(container, stream, path)
        stated = _stated_duration(container, stream)
    if stated is not None and stated > max_seconds:
        raise AudioTooLong(path, max_seconds, stated)


def iter_chunks(
    path: str | os.PathLike[str],
    chunk_seconds: float = 600.0,
    sample_rate: int = SAMPLE_RATE,
    overlap_search_seconds: float = 30.0,
    *,
    on_repair: RepairCallback | None = None,
) -> Iterator[tuple[float, np.ndarray]]:
    """Yield (offset_seconds, samples) pieces of about chunk_seconds that together make decode(path).

    Each cut is placed in the middle of the quietest half second within the last
    overlap_search_seconds of the chunk, so that it falls in a pause rather than inside a word
    when there is one; what follows the cut starts the next chunk. Memory holds about one chunk.
    """
    if chunk_seconds <= 0:
        raise ValueError("chunk_seconds must be positive")
    chunk = max(1, round(chunk_seconds * sample_rate))
    search = min(chunk, max(0, round(overlap_search_seconds * sample_rate)))
    window = min(search, round(QUIET_WINDOW_SECONDS * sample_rate))

    pending: list[np.ndarray] = []
    held = 0
    offset = 0  # in samples, of pending[0][0]
    for block in _decoded_blocks(_checked(path), sample_rate, on_repair):
        pending.append(block)
        held += len(block)
        # Cut only once more than a chunk is held: a recording that ends exactly at a chunk's
        # length stays one chunk.
        while held > chunk:
            buffer = np.concatenate(pending)
            cut = _quiet_cut(buffer[:chunk], search, window)
            yield offset / sample_rate, buffer[:cut]
            rest = buffer[cut:].copy()  # a copy, so the yielded chunk alone keeps `buffer` alive
            pending, held, offset = [rest], len(rest), offset + cut
    if held:
        yield offset / sample_rate, np.concatenate(pending) if len(pending) > 1 else pending[0]


def decode_stretch(path: str | os.PathLike[str], start: float, end: float,
                   sample_rate: int = SAMPLE_RATE) -> np.ndarray:
    """The sound from start to end (seconds) as float32 mono samples at sample_rate; empty if end <= start.

    Decoding begins at a seek point just before start, so a stretch late in a two-hour recording
    comes at once; a stretch past the end of the file is as long as the file allows.
    """
    if sample_rate <= 0:
        raise ValueError("sample_rate must be positive")
    path = _checked(path)
    start = max(0.0, start)
    if end <= start:
        return np.zeros(0, dtype=np.float32)
    with _opened(path) as container:
        stream = _sound_track(container, path)
        if start > 1.0:
            _seek_before(container, start)
        frames = (frame for frame in _frames(container, stream, path) if frame.samples)
        first = next(frames, None)
        if first is None:
            return np.zeros(0, dtype=np.float32)
        position = float(first.time) if first.time is not None else 0.0  # seconds, of the first sample
        wanted = round((end - position) * sample_rate)
        pieces: list[np.ndarray] = []
        have = 0
        for block in _mono_blocks(itertools.chain([first], frames), sample_rate):
            pieces.append(block)
            have += len(block)
            if have >= wanted:
                break
    samples = np.concatenate(pieces) if pieces else np.zeros(0, dtype=np.float32)
    first_wanted = max(0, round((start - position) * sample_rate))
    return samples[first_wanted:max(first_wanted, wanted)]


def slice_seconds(samples: np.ndarray, start: float, end: float, sample_rate: int = SAMPLE_RATE) -> np.ndarray:
    """The samples from start to end (seconds), clamped to the recording; empty if end <= start."""
    first = min(len(samples), max(0, round(start * sample_rate)))
    last = min(len(samples), max(first, round(end * sample_rate)))
    return samples[first:last]


# --- internals ---------------------------------------------------------------------------------


def _checked(path: str | os.PathLike[str]) -> Path:
    """The path, after the checks that give clearer messages than the decoder would."""
    path = Path(path)
    try:
        info = path.stat()
    except FileNotFoundError as exc:
        raise AudioError(
            N_("Audio", "VoxDesk cannot find the file “{name}”. It may have been moved, renamed or deleted.").format(
                name=path.name),
            detail=str(exc),
        ) from exc
    except PermissionError as exc:
        raise _not_allowed(path, exc) from exc
    except OSError as exc:
        raise _unreadable(path, exc) from exc
    if path.is_dir():
        raise AudioError(
            N_("Audio", "“{name}” is a folder, not a recording. Open the audio or video files inside it.").format(
                name=path.name),
            detail=str(path),
        )
    if not stat.S_ISREG(info.st_mode):  # a pipe or device would block the decoder or never end
        raise not_a_file(path, kind_of(info.st_mode) or "", AudioError)
    if info.st_size == 0:
        raise AudioError(
            N_("Audio", "The file “{name}” is empty (0 bytes), so there is nothing to transcribe.").format(
                name=path.name),
            detail=str(path),
        )
    return path


@contextmanager
def _opened(path: Path) -> Iterator[av.container.InputContainer]:
    try:
        # Tags in another encoding (old Chinese MP3s often use GBK) must not make the file unreadable.
        container = av.open(str(path), mode="r", metadata_errors="ignore")
    except av.error.PermissionError as exc:
        raise _not_allowed(path, exc) from exc
    except av.error.FFmpegError as exc:
        if isinstance(exc, OSError):
            raise _unreadable(path, exc) from exc
        raise AudioError(
            N_("Audio", "VoxDesk cannot read “{name}” as audio or video. It may not be a recording, or it may be "
                        "damaged.").format(name=path.name),
            detail=f"{type(exc).__name__}: {exc}",
        ) from exc
    try:
        yield container
    finally:
        container.close()


def _sound_track(container: av.container.InputContainer, path: Path) -> av.audio.stream.AudioStream:
    decodable = [s for s in container.streams.audio if s.codec_context is not None]
    if decodable:
        best = container.streams.best("audio")
        return best if best in decodable else decodable[0]
    if container.streams.audio:
        raise AudioError(
            N_("Audio", "The sound in “{name}” is in a format VoxDesk cannot play. Save it as MP3 or WAV with "
                        "another program, then try again.").format(name=path.name),
            detail=f"no decoder for the audio stream of this {container.format.name} file",
        )
    if container.streams.video:
        message = N_("Audio", "“{name}” has no sound track, so there is nothing to transcribe.").format(name=path.name)
    else:
        message = (N_("Audio", "VoxDesk cannot read “{name}” as audio or video. It may not be a recording, or it may "
                               "be damaged.").format(name=path.name))
    kinds = ", ".join(s.type for s in container.streams) or "none"
    raise AudioError(message, detail=f"{container.format.name} with streams: {kinds}")


def _nothing_decoded(path: Path, cause: BaseException | None = None) -> AudioError:
    detail = f"{type(cause).__name__}: {cause}" if cause else "no audio frame could be decoded"
    return AudioError(
        N_("Audio", "The sound in “{name}” cannot be decoded; the file may be damaged or incomplete.").format(
            name=path.name),
        detail=detail,
    )


def _not_allowed(path: Path, exc: BaseException) -> AudioError:
    return AudioError(
        N_("Audio", "VoxDesk is not allowed to read “{name}”. Ask the file's owner for read permission, or copy the "
                    "file to your own folder.").format(name=path.name),
        detail=str(exc),
    )


def _unreadable(path: Path, exc: BaseException) -> AudioError:
    return AudioError(
        N_("Audio", "VoxDesk could not read “{name}”. If it is on a USB stick or a network drive, check that it is "
                    "still connected, then try again.").format(name=path.name),
        detail=f"{type(exc).__name__}: {exc}",
    )


def _frames(container: av.container.InputContainer, stream: av.audio.stream.AudioStream,
            path: Path) -> Iterator[av.AudioFrame]:
    """Decoded frames of the stream, skipping packets that do not decode.

    A read error of the disk itself is raised; damaged data, or data that stops early, ends or
    skips quietly, and the caller decides what to do when nothing came out at all.
    """
    packets = container.demux(stream)
    while True:
        try:
            packet = next(packets)
        except StopIteration:
            return
        except av.error.FFmpegError as exc:
            if isinstance(exc, OSError):
                raise _unreadable(path, exc) from exc
            return  # cut-off or damaged data: keep what was decoded so far
        try:
            frames = packet.decode()
        except av.error.FFmpegError:
            continue  # one damaged packet; the decoder resynchronises on the next one
        yield from frames


def _first_frame(container: av.container.InputContainer, stream: av.audio.stream.AudioStream,
                 path: Path) -> av.AudioFrame:
    for frame in _frames(container, stream, path):
        if frame.samples:
            return frame
    raise _nothing_decoded(path)


def _stated_duration(container: av.container.InputContainer, stream: av.audio.stream.AudioStream) -> float | None:
    if stream.duration and stream.time_base:
        return float(stream.duration * stream.time_base)
    if container.duration:
        return container.duration / av.time_base
    return None


def _counted_duration(path: Path) -> float:
    """The length of a track whose header does not state it: from its packets' times (read, not
    decoded: a tenth of the time for an hour of Opus), or where a packet has none, from its decoded
    samples."""
    with _opened(path) as container:
        seconds = _packets_duration(container, _sound_track(container, path))
    if seconds is not None:
        return seconds
    seconds = 0.0
    with _opened(path) as container:
        for frame in _frames(container, _sound_track(container, path), path):
            if frame.sample_rate:
                seconds += frame.samples / frame.sample_rate
    return seconds


def _packets_duration(container: av.container.InputContainer, stream: av.audio.stream.AudioStream) -> float | None:
    """From the first packet's start to the last one's end, or None where a packet has no time or the
    container cannot be read through to its end."""
    first = end = None
    try:
        for packet in container.demux(stream):
            if packet.size == 0:
                continue  # the demuxer's empty packet at the end
            if packet.pts is None or packet.time_base is None:
                return None
            start = packet.pts * packet.time_base
            first = start if first is None else min(first, start)
            end = max(end if end is not None else start, start + (packet.duration or 0) * packet.time_base)
    except (av.error.FFmpegError, ValueError):
        return None
    if first is None or end is None or end <= first:
        return None
    return float(end - max(first, 0))


def _codec_name(stream: av.audio.stream.AudioStream) -> str:
    codec = stream.codec_context.codec
    return codec.canonical_name or codec.name


def _new_resampler(sample_rate: int) -> av.AudioResampler:
    # rematrix_maxval=1 scales the down-mix so that it cannot clip: without it, 5.1 to mono adds
    # up to three full-scale channels and leaves [-1, 1].
    return av.AudioResampler(format="flt", layout="mono", rate=sample_rate,
                             options={"rematrix_maxval": "1.0"})


def _decoded_blocks(path: Path, sample_rate: int, on_repair: RepairCallback | None = None) -> Iterator[np.ndarray]:
    """The sound as a stream of float32 mono blocks at sample_rate, each a fresh array.

    Raises AudioError at the end when not a single sample could be decoded.
    """
    if sample_rate <= 0:
        raise ValueError("sample_rate must be positive")
    produced = 0
    with _opened(path) as container:
        stream = _sound_track(container, path)
        for block in _mono_blocks(_frames(container, stream, path), sample_rate, on_repair):
            produced += len(block)
            yield block
    if not produced:
        raise _nothing_decoded(path)


def _mono_blocks(frames: Iterable[av.AudioFrame], sample_rate: int,
                 on_repair: RepairCallback | None = None) -> Iterator[np.ndarray]:
    """The frames as float32 mono blocks at sample_rate, each a fresh array."""
    resampler = None
    source = None  # (format, layout, rate) the current resampler was set up for
    for frame in frames:
        if not frame.samples:
            continue
        kind = (frame.format.name, frame.layout.name, frame.sample_rate)
        if kind != source:
            # Some files change rate or channels part-way (joined recordings); an
            # AudioResampler accepts one input kind only, so finish it and start another.
            if resampler is not None:
                yield from _resampled(resampler, None, on_repair)
            resampler, source = _new_resampler(sample_rate), kind
        yield from _resampled(resampler, frame, on_repair)
    if resampler is not None:
        yield from _resampled(resampler, None, on_repair)


def _seek_before(container: av.container.InputContainer, seconds: float) -> None:
    """Move to a point at or before seconds (never after); the caller drops what comes before it."""
    try:
        container.seek(int(seconds * av.time_base), backward=True)
    except av.error.FFmpegError:
        container.seek(0)


def _resampled(resampler: av.AudioResampler, frame: av.AudioFrame | None,
               on_repair: RepairCallback | None = None) -> Iterator[np.ndarray]:
    for out in resampler.resample(frame):
        block = out.to_ndarray().reshape(-1)
        if len(block):
            damaged = ~np.isfinite(block)
            if damaged.any():
                # One NaN would otherwise silence voice activity detection for the whole file.
                block = np.where(damaged, 0.0, block)
                if on_repair is not None:
                    on_repair(int(damaged.sum()))
            # Floating-point sources may hold values past full scale; Whisper expects [-1, 1].
            yield np.clip(block, -1.0, 1.0).astype(np.float32, copy=False)


def _quiet_cut(samples: np.ndarray, search: int, window: int) -> int:
    """Where to cut samples: the middle of the quietest `window` within its last `search` samples.

    When several windows are equally quiet (a stretch of digital silence), the cut goes to the
    middle of that stretch. With no room to search, the cut is at the end.
    """
    if window <= 0 or search < window:
        return len(samples)
    start = len(samples) - search
    region = samples[start:].astype(np.float64)
    energy_sum = np.concatenate(([0.0], np.cumsum(region * region)))
    energy = energy_sum[window:] - energy_sum[:-window]
    best = int(np.argmin(energy))
    # Widen to the run of equally quiet windows around `best`, then take its middle.
    loud = np.flatnonzero(energy > energy[best] + 1e-9 * window)
    i = int(np.searchsorted(loud, best))
    left = int(loud[i - 1]) + 1 if i > 0 else 0
    right = int(loud[i]) - 1 if i < len(loud) else len(energy) - 1
    return start + (left + right) // 2 + window // 2
