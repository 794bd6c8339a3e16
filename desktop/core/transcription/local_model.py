"""A Whisper model on this computer in one format: an openai-whisper checkpoint or a CTranslate2 folder."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

ModelFormat = Literal["pt", "ct2"]


@dataclass
class LocalModel:
    """A model that is on this computer in one format."""

    name: str
    format: ModelFormat
    path: Path  # the .pt file, or the CTranslate2 folder
    imported: bool
    shared: bool = False  # found in a shared, read-only model folder
    # The mirror a download came from when VoxDesk had no checksum to check it with (model_origin).
    unverified_source: str | None = None
