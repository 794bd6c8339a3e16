"""Small real videos made with PyAV for the video tests: a moving picture (a bar sweeping over a
gradient, so every frame differs) with real speech from tests/data as its sound."""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import av
import numpy as np

DATA = Path(__file__).resolve().parents[1] / "data"
SPEECH = DATA / "BAC009S0764W0121.wav"  # 4.2 s of Mandarin


def speech(seconds: float, rate: int) -> np.ndarray:
    """`seconds` of the test speech at `rate` Hz, mono float32 (repeated if the recording is shorter)."""
    with av.open(str(SPEECH)) as source:
        resampler = av.AudioResampler(format="flt", layout="mono", rate=rate)
        parts = [f.to_ndarray().reshape(-1) for frame in source.decode(audio=0) for f in resampler.resample(frame)]
    samples = np.concatenate(parts)
    need = int(seconds * rate)
    return np.resize(samples, need).astype(np.float32)


def picture(index: int, width: int, height: int) -> np.ndarray:
    """Frame `index`: a grey gradient with a white bar moving right, RGB."""
    ramp = np.linspace(40, 200, width, dtype=np.float32)
    image = np.repeat(np.repeat(ramp[None, :, None], height, 0), 3, 2)
    left = (index * 6) % max(1, width - 16)
    image[:, left:left + 16] = 255
    return image.astype(np.uint8)


def make_video(path: Path, *, seconds: float = 3.0, width: int = 320, height: int = 240, fps: int = 25,
               video_codec: str = "libx264", audio_codec: str | None = "aac", pix_fmt: str = "yuv420p",
               rotation: int = 0, frame_times: list[float] | None = None) -> Path:
    """Write a video; frame_times (seconds) gives a variable frame rate, rotation a display matrix."""
    times = frame_times if frame_times is not None else [i / fps for i in range(int(seconds * fps))]
    with av.open(str(path), "w") as out:
        video = out.add_stream(video_codec, rate=fps)
        video.width, video.height, video.pix_fmt = width, height, pix_fmt
        if video_codec == "libx264":
            video.options = {"preset": "ultrafast"}
        if frame_times is not None:
            video.codec_context.time_base = Fraction(1, 1000)
        if rotation:
            video.set_display_rotation(rotation)
        sound = None
        if audio_codec:
            rate = 48000 if audio_codec == "libopus" else 16000
            sound = out.add_stream(audio_codec, rate=rate)
            sound.layout = "mono"
        for index, at in enumerate(times):
            frame = av.VideoFrame.from_ndarray(picture(index, width, height), format="rgb24")
            if frame_times is not None:
                frame.pts, frame.time_base = round(at * 1000), Fraction(1, 1000)
            else:
                frame.pts = index
            out.mux(video.encode(frame.reformat(format=pix_fmt)))
        out.mux(video.encode())
        if sound is not None:
            rate = sound.codec_context.sample_rate
            samples = speech(seconds, rate)
            step = sound.codec_context.frame_size or 1024
            fmt = sound.codec_context.format.name
            for start in range(0, len(samples) - step + 1, step):
                chunk = samples[None, start:start + step]
                frame = av.AudioFrame.from_ndarray(chunk if fmt in ("flt", "fltp") else chunk, format="fltp" if fmt == "fltp" else "flt", layout="mono")
                frame.sample_rate, frame.pts = rate, start
                out.mux(sound.encode(frame))
            out.mux(sound.encode())
    return path


def write_srt(path: Path, cues: list[tuple[float, float, str]]) -> Path:
    def stamp(seconds: float) -> str:
        ms = round(seconds * 1000)
        return f"{ms // 3600000:02d}:{ms // 60000 % 60:02d}:{ms // 1000 % 60:02d},{ms % 1000:03d}"

    path.write_text("".join(f"{n}\n{stamp(a)} --> {stamp(b)}\n{text}\n\n" for n, (a, b, text) in
                            enumerate(cues, 1)), encoding="utf-8")
    return path
