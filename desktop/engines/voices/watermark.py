"""The inaudible mark on speech VoxDesk makes: Resemble AI's PerTh implicit watermark (resemble-perth).

PerTh hides a fixed pattern below the loudness a listener notices (psychoacoustic masking, under
2 kHz) and finds it again with a small trained network whose weights ship inside the package. Every
voice the cloning engine speaks is marked, sentence by sentence, so what is streamed and what is
saved both carry it; `voxdesk watermark FILE` and the window's check read it back.

PerTh imports `pkg_resources` for one call, resource_filename(), to find those weights. Setuptools 81
and later no longer ship pkg_resources, so when it is missing a one-function stand-in is put in
sys.modules for the moment perth is imported, then taken out again: nothing else sees it.
"""
from __future__ import annotations

import contextlib
import importlib
import io
import sys
import threading
import types

import numpy as np

from desktop.core.common.errors import ModelError
from desktop.core.common.i18n import N_

# PerTh's decoder gives, per frame, how sure it is that the mark is there (0..1). Marked speech averages
# 1.00, as WAV and as 64 kbit/s MP3; unmarked real recordings 0.00-0.48 (benchmarks/watermark_benchmark.py),
# so the line sits well clear of both.
DETECTION_THRESHOLD = 0.8
MIN_SECONDS = 0.5  # shorter than this, neither marking nor detection is reliable
READ_RATE = 32000  # PerTh's own rate: a file checked is read at it, so nothing is resampled twice
CHECK_CHUNK_SECONDS = 60.0  # a file checked is read this much at a time (cut in a pause when there is one)
# One pass marks speech fully; sounds unlike speech (the noise of an untrained model) can need another.
# Every result is checked, and marked again until the mark is found.
MAX_PASSES = 3

_lock = threading.Lock()
_watermarker = None


def apply_watermark(samples: np.ndarray, sample_rate: int) -> np.ndarray:
    """samples (float32 mono in [-1, 1]) with VoxDesk's watermark, same length and rate."""
    samples = np.asarray(samples, dtype=np.float32).reshape(-1)
    if len(samples) < MIN_SECONDS * sample_rate or not np.any(samples):
        return samples  # silence or a blip: nothing to hide a mark in
    marked = samples
    for _ in range(MAX_PASSES):
        marked = _marked_once(marked, sample_rate)
        if carries_watermark(marked, sample_rate):
            break
    return marked


def _marked_once(samples: np.ndarray, sample_rate: int) -> np.ndarray:
    with _lock:
        marked = _perth().apply_watermark(samples, sample_rate=sample_rate)
    marked = np.asarray(marked, dtype=np.float32).reshape(-1)
    if len(marked) < len(samples):
        marked = np.pad(marked, (0, len(samples) - len(marked)))
    return np.clip(marked[: len(samples)], -1.0, 1.0)


def watermark_score(samples: np.ndarray, sample_rate: int) -> float:
    """How strongly samples carry the mark: about 1.0 when marked, about 0.0 when not."""
    found = _frame_scores(samples, sample_rate)
    return float(np.mean(found)) if np.size(found) else 0.0


def _frame_scores(samples: np.ndarray, sample_rate: int) -> np.ndarray:
    """PerTh's score of each of its frames in samples (none for less than MIN_SECONDS)."""
    samples = np.asarray(samples, dtype=np.float32).reshape(-1)
    if len(samples) < MIN_SECONDS * sample_rate:
        return np.zeros(0, np.float32)
    with _lock:
        found = _perth().get_watermark(samples, sample_rate=sample_rate, round=False)
    return np.asarray(found, dtype=np.float64).reshape(-1)


def carries_watermark(samples: np.ndarray, sample_rate: int) -> bool:
    return watermark_score(samples, sample_rate) >= DETECTION_THRESHOLD


def recording_score(path) -> float | None:
    """The watermark score of an audio or video file (decoded with desktop.core.common.audio at PerTh's
    own rate), or None when it is too short to tell. Raises AudioError for a file that cannot be read.

    The file is read a minute at a time and the score is the mean over all of PerTh's frames, so a
    recording hours long is checked whole without ever being in memory whole."""
    from desktop.core.common.audio import iter_chunks

    total, frames = 0.0, 0
    for _offset, samples in iter_chunks(path, chunk_seconds=CHECK_CHUNK_SECONDS, sample_rate=READ_RATE):
        found = _frame_scores(samples, READ_RATE)
        total, frames = total + float(np.sum(found)), frames + found.size
    return total / frames if frames else None


def _perth():
    """PerTh's implicit watermarker, loaded once (its network is small; on the CPU)."""
    global _watermarker
    if _watermarker is None:
        try:
            with _pkg_resources_available(), contextlib.redirect_stdout(io.StringIO()):  # it prints on loading
                module = importlib.import_module("perth.perth_net.perth_net_implicit.perth_watermarker")
                _watermarker = module.PerthImplicitWatermarker(device="cpu")
        except Exception as exc:  # noqa: BLE001 - missing package, damaged weights
            raise ModelError(
                N_("Watermark", "VoxDesk cannot load its watermark (resemble-perth), so it will not make or check "
                                "cloned speech. Run the installer again (make setup), then try again."),
                detail=f"{type(exc).__name__}: {exc}",
            ) from exc
    return _watermarker


@contextlib.contextmanager
def _pkg_resources_available():
    """While perth imports: the real pkg_resources if there is one, else a stand-in with resource_filename."""
    try:
        import pkg_resources  # noqa: F401 - an older setuptools still has it
    except ImportError:
        pass
    else:
        yield
        return
    shim = types.ModuleType("pkg_resources")
    shim.resource_filename = _resource_filename
    sys.modules["pkg_resources"] = shim
    try:
        yield
    finally:
        if sys.modules.get("pkg_resources") is shim:
            del sys.modules["pkg_resources"]


def _resource_filename(package: str, resource: str) -> str:
    """pkg_resources.resource_filename for a package installed as plain files (as pip installs perth)."""
    from importlib.resources import files

    return str(files(package).joinpath(resource))
