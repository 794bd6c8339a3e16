"""Voice samples and consent recordings read from files, never more of them than adding a voice needs.

A sample of 15–30 seconds is what cloning asks for, and a consent recording is one spoken sentence,
so a file hours long is a mistake (a whole meeting chosen by accident): its length is read from its
header and it is refused, with the limit named, before any of it is decoded. A file whose header
states no length (or a wrong one) is decoded only up to the limit.
"""
from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from desktop.core.common import audio
from desktop.core.common.errors import AudioError
from desktop.core.common.i18n import N_

MAX_SAMPLE_SECONDS = 5 * 60.0  # ten times what cloning asks for; more is certainly the wrong file
MAX_CONSENT_SECONDS = 2 * 60.0  # the consent sentence takes 10 to 20 seconds to read
MIN_IMPORT_RATE, MAX_IMPORT_RATE = 16000, 48000  # a sample is analysed at its own rate, within these


def check_lengths(samples: Iterable[str | os.PathLike[str]], consent: str | os.PathLike[str] | None = None) -> None:
    """Refuse the first file whose header says it is too long, before anything is decoded."""
    for path in samples:
        _checked_length(Path(path), MAX_SAMPLE_SECONDS, _sample_too_long)
    if consent is not None:
        _checked_length(Path(consent), MAX_CONSENT_SECONDS, _consent_too_long)


def read_sample(path: str | os.PathLike[str]) -> tuple[np.ndarray, int]:
    """A voice sample from a file as float32 mono at its own rate (16–48 kHz), and that rate."""
    return _read(Path(path), MAX_SAMPLE_SECONDS, _sample_too_long)


def read_consent(path: str | os.PathLike[str]) -> tuple[np.ndarray, int]:
    """A consent recording from a file as float32 mono at its own rate (16–48 kHz), and that rate."""
    return _read(Path(path), MAX_CONSENT_SECONDS, _consent_too_long)


def _checked_length(path: Path, limit: float, sentence) -> None:
    try:
        audio.check_length(path, limit)
    except audio.AudioTooLong as exc:
        raise AudioError(sentence(path, limit), detail=exc.detail) from exc


def _read(path: Path, limit: float, sentence) -> tuple[np.ndarray, int]:
    _checked_length(path, limit, sentence)
    rate = min(MAX_IMPORT_RATE, max(MIN_IMPORT_RATE, audio.probe(path).sample_rate))
    try:
        return audio.decode(path, sample_rate=rate, max_seconds=limit), rate
    except audio.AudioTooLong as exc:
        raise AudioError(sentence(path, limit), detail=exc.detail) from exc


def _sample_too_long(path: Path, limit: float) -> str:
    return N_("VoiceQuality", "“{name}” is longer than {minutes:g} minutes, the most a voice sample can be. Cut "
                              "15 to 30 seconds of clear speech out of it and use that.").format(
        name=path.name, minutes=limit / 60)


def _consent_too_long(path: Path, limit: float) -> str:
    return N_("VoiceQuality", "“{name}” is longer than {minutes:g} minutes, the most a consent recording can "
                              "be. Record only the consent sentence being read, and use that recording.").format(
        name=path.name, minutes=limit / 60)
