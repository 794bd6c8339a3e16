"""Playing speech faster or slower without changing its pitch, with FFmpeg's atempo filter (through
PyAV, the library that already decodes every recording)."""
from __future__ import annotations

import av
import av.filter
import numpy as np

SLOWEST, FASTEST = 0.5, 2.0  # what atempo does in one pass, and what listening to speech needs


def change_tempo(samples: np.ndarray, sample_rate: int, speed: float) -> np.ndarray:
    """float32 mono samples played at speed (0.5 … 2: half as fast … twice as fast), pitch kept."""
    speed = min(max(float(speed), SLOWEST), FASTEST)
    samples = np.ascontiguousarray(np.asarray(samples, dtype=np.float32).reshape(-1))
    if abs(speed - 1.0) < 1e-3 or not len(samples):
        return samples
    graph = av.filter.Graph()
    source = graph.add_abuffer(format="flt", sample_rate=sample_rate, layout="mono")
    tempo = graph.add("atempo", f"{speed:.4f}")
    sink = graph.add("abuffersink")
    source.link_to(tempo)
    tempo.link_to(sink)
    graph.configure()
    frame = av.AudioFrame.from_ndarray(samples.reshape(1, -1), format="flt", layout="mono")
    frame.sample_rate = sample_rate
    frame.pts = 0
    graph.push(frame)
    graph.push(None)
    pieces = []
    while True:
        try:
            pieces.append(graph.pull().to_ndarray().reshape(-1))
        except (av.error.EOFError, av.error.BlockingIOError):
            break
    return np.concatenate(pieces).astype(np.float32) if pieces else samples[:0]
