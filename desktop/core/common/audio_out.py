"""Saving synthesised speech: WAV or MP3, optionally levelled to a spoken-word loudness, atomically.

- WAV: 16-bit PCM mono at the model's sample rate (Python's wave module; every player reads it).
- MP3: encoded in memory with PyAV's LAME encoder (no ffmpeg program needed), mono, 64 kbit/s per
  channel is plenty for speech.
- Loudness: measured with pyloudnorm (ITU-R BS.1770) and brought to about -16 LUFS, the usual target
  for spoken word, without letting peaks clip.

The file is written with desktop.core.common.atomic: a reader sees the old file or the complete new one,
an existing file is never replaced silently, and nothing half-written is left behind.
"""
from __future__ import annotations

import io
import os
import wave
from pathlib import Path

import numpy as np

from desktop.core.common.atomic import atomic_write_bytes
from desktop.core.common.errors import ExportError
from desktop.core.common.i18n import N_

SPOKEN_WORD_LUFS = -16.0
PEAK_CEILING = 10 ** (-1.0 / 20)  # -1 dBFS: room for the MP3 encoder's overshoot
MIN_LOUDNESS_SECONDS = 0.4  # BS.1770 measures in 400 ms blocks; shorter audio cannot be measured
MP3_BITRATE = 64_000

FORMATS: dict[str, str] = {"wav": N_("SpeechFile", "WAV audio"), "mp3": N_("SpeechFile", "MP3 audio")}


def format_for(path: str | os.PathLike[str]) -> str:
    """The format a file name asks for, from its extension; ExportError for any other extension."""
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise ExportError(
            N_("SpeechFile", "VoxDesk can save speech as .wav or .mp3 files, not “.{suffix}”. Choose one of those "
               "file types.").format(suffix=suffix or "…"),
        )
    return suffix


def normalize_loudness(samples: np.ndarray, sample_rate: int, target_lufs: float = SPOKEN_WORD_LUFS) -> np.ndarray:
    """samples brought to target_lufs integrated loudness, peaks kept under -1 dBFS.

    Silence, and audio shorter than a loudness measurement needs, comes back unchanged.
    """
    import pyloudnorm

    audio = np.asarray(samples, dtype=np.float64).reshape(-1)
    if len(audio) < int(MIN_LOUDNESS_SECONDS * sample_rate) or not np.any(audio):
        return np.asarray(samples, dtype=np.float32)
    loudness = pyloudnorm.Meter(sample_rate).integrated_loudness(audio)
    if not np.isfinite(loudness):
        return np.asarray(samples, dtype=np.float32)
    gain = 10 ** ((target_lufs - loudness) / 20)
    peak = float(np.max(np.abs(audio))) * gain
    if peak > PEAK_CEILING:
        # Quieter than the target rather than clipped: a clipped voice sounds broken.
        gain *= PEAK_CEILING / peak
    return (audio * gain).astype(np.float32)


def encode(samples: np.ndarray, sample_rate: int, fmt: str) -> bytes:
    """The bytes of a complete audio file holding samples (float, mono, -1..1)."""
    audio = np.clip(np.asarray(samples, dtype=np.float32).reshape(-1), -1.0, 1.0)
    if fmt == "wav":
        return _encode_wav(audio, sample_rate)
    if fmt == "mp3":
        return _encode_mp3(audio, sample_rate)
    raise ValueError(f"unknown format {fmt!r}")


def save_speech(
    path: str | os.PathLike[str],
    samples: np.ndarray,
    sample_rate: int,
    *,
    normalize: bool = False,
    overwrite: bool = False,
) -> Path:
    """Write samples to path as WAV or MP3 (from its extension) and return the path.

    Raises ExportExists when the file exists and overwrite is False, ExportError with a plain
    sentence for every other failure (read-only folder, full disk, unknown extension, no audio).
    """
    fmt = format_for(path)
    audio = np.asarray(samples, dtype=np.float32).reshape(-1)
    if len(audio) == 0:
        raise ExportError(N_("SpeechFile", "There is no speech to save yet. Press Speak first."))
    if normalize:
        audio = normalize_loudness(audio, sample_rate)
    return atomic_write_bytes(path, encode(audio, sample_rate, fmt), overwrite=overwrite)


def _encode_wav(audio: np.ndarray, sample_rate: int) -> bytes:
    pcm = np.round(audio * 32767).astype("<i2")
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(sample_rate)
        out.writeframes(pcm.tobytes())
    return buffer.getvalue()


# Sample rates an MPEG-1/2 layer III stream can carry.
_MP3_RATES = (48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000)


def _encode_mp3(audio: np.ndarray, sample_rate: int) -> bytes:
    import av

    try:
        codec = av.codec.Codec("libmp3lame", "w")
    except Exception as exc:  # noqa: BLE001 - PyAV raises different errors across versions
        raise ExportError(
            N_("SpeechFile", "This installation cannot write MP3 files. Save as WAV instead."), detail=repr(exc)
        ) from exc
    rate = sample_rate if sample_rate in _MP3_RATES else 24000
    buffer = io.BytesIO()
    with av.open(buffer, "w", format="mp3") as container:
        stream = container.add_stream(codec.name, rate=rate, layout="mono")
        stream.bit_rate = MP3_BITRATE
        resampler = None
        if rate != sample_rate:
            resampler = av.AudioResampler(format="fltp", layout="mono", rate=rate)
        frame_size = 1152 * 8
        for start in range(0, len(audio), frame_size):
            chunk = audio[start:start + frame_size]
            frame = av.AudioFrame.from_ndarray(chunk.reshape(1, -1), format="fltp", layout="mono")
            frame.sample_rate = sample_rate
            frames = resampler.resample(frame) if resampler else [frame]
            for piece in frames:
                for packet in stream.encode(piece):
                    container.mux(packet)
        if resampler:
            for piece in resampler.resample(None):
                for packet in stream.encode(piece):
                    container.mux(packet)
        for packet in stream.encode(None):
            container.mux(packet)
    return buffer.getvalue()
