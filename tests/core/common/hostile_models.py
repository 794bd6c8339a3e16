"""Model folders a hostile user could hand VoxDesk, built from a genuine tiny Coqui model.

Every pickle here creates a marker file when it is unpickled (open(marker, "w")): a test that finds
no marker afterwards knows the pickle never ran.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np


class CreatesAFile:
    """Unpickling this runs open(marker, "w"): the file appears only if the pickle is executed."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (open, (str(self.marker), "w"))


def hostile_stats(path: Path, marker: Path) -> Path:
    """A .npy file that np.load(allow_pickle=True) turns into code run."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as f:  # np.save(path) would append ".npy" to a name without it
        np.save(f, np.array(CreatesAFile(marker), dtype=object), allow_pickle=True)
    return path


def genuine_stats(path: Path) -> Path:
    """A statistics file as Coqui writes it: a pickled dict of arrays and the audio settings."""
    stats = {
        "mel_mean": np.zeros(80, dtype=np.float32), "mel_std": np.ones(80, dtype=np.float32),
        "linear_mean": np.zeros(513, dtype=np.float32), "linear_std": np.ones(513, dtype=np.float32),
        "audio_config": {"num_mels": 80, "sample_rate": 16000},
    }
    with open(path, "wb") as f:
        np.save(f, stats, allow_pickle=True)
    return path


def copy_of(genuine: Path, folder: Path) -> Path:
    shutil.copytree(genuine, folder)
    return folder


def with_stats(folder: Path, stats: Path) -> Path:
    """Point the folder's config.json at a statistics file (audio.stats_path)."""
    config_path = folder / "config.json"
    config = json.loads(config_path.read_text(encoding="utf-8"))
    config["audio"]["stats_path"] = str(stats)
    config_path.write_text(json.dumps(config, indent=4), encoding="utf-8")
    return folder


def stats_inside(genuine: Path, folder: Path, marker: Path) -> Path:
    copy_of(genuine, folder)
    return with_stats(folder, hostile_stats(folder / "scale_stats.npy", marker))


def stats_outside(genuine: Path, folder: Path, marker: Path) -> Path:
    copy_of(genuine, folder)
    return with_stats(folder, hostile_stats(folder.parent / "elsewhere" / "scale_stats.npy", marker))


def hostile_checkpoint(genuine: Path, folder: Path, marker: Path) -> Path:
    """The genuine weights, saved again with an object that runs code when the checkpoint is loaded."""
    import torch

    copy_of(genuine, folder)
    state = torch.load(folder / "model.pth", map_location="cpu", weights_only=True)
    state["extra"] = CreatesAFile(marker)
    torch.save(state, folder / "model.pth")
    return folder


HOSTILE_FOLDERS = {
    "stats inside the folder": stats_inside,
    "stats outside the folder": stats_outside,
    "a checkpoint with code": hostile_checkpoint,
}
