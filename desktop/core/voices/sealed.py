"""A saved voice as VoxDesk may use it: its seal checked, its recordings read once and checked.

Whoever hands the cloning engine a voice (the window, the command line, a script that built a
`Voice` itself), the engine calls open_sealed(): voice.json is read again from the voice folder, its
seal is checked with the install's key, and each recording is read into memory exactly once and
compared with its sealed hash. The engine then works from those bytes only, so a file swapped after
the check is never used.
"""
from __future__ import annotations

import io
import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from desktop.core.voices.consent import ConsentError, ConsentRecord, missing_recording, refusal
from desktop.core.voices.seal import install_key, is_sealed, seal

VOICE_SEAL = "voice"
_MAX_RECORDING_BYTES = 256 << 20  # far more than the longest sample a voice may have


@dataclass(frozen=True)
class SealedVoice:
    """The checked record of a voice and the bytes of its recordings, file name -> WAV bytes."""

    name: str
    language: str
    samples: tuple[str, ...]
    consent: ConsentRecord
    audio: dict[str, bytes]

    @property
    def key(self) -> tuple:
        """Identifies exactly these recordings, for caches of what is computed from them."""
        return tuple(sorted(self.consent.audio_sha256.items()))

    def sample_audio(self, sample_rate: int) -> list[np.ndarray]:
        """The samples as float32 mono at sample_rate, decoded from the checked bytes."""
        return [decode_wav_bytes(self.audio[name], sample_rate) for name in self.samples]


def voice_seal(voice_id: str, language: str, samples: list[str], consent: dict) -> str:
    """The seal a voice.json carries: over its folder id, language, sample list and consent record."""
    return seal(install_key(), VOICE_SEAL, _payload(voice_id, language, samples, consent))


def _payload(voice_id: str, language: str, samples: Any, consent: Any) -> dict:
    return {"id": voice_id, "language": language, "samples": samples, "consent": consent}


def open_sealed(voice: Any, consent_file: str = "consent.wav", voice_file: str = "voice.json") -> SealedVoice:
    """The voice as saved by VoxDesk, or ConsentError (VoiceNotFound when its folder is gone).

    voice is a desktop.core.voices.library.Voice; only its folder is trusted, and the voice must be
    the one saved there: a record or sample list changed in memory is refused like a forged file.
    """
    refused = refusal(voice.name)
    try:
        data = json.loads(read_regular_file(voice.folder / voice_file, limit=1 << 20))
        payload = _payload(voice.folder.name, data["language"], data["samples"], data["consent"])
        sealed = is_sealed(install_key(), VOICE_SEAL, payload, data.get("seal"))
        record = ConsentRecord.from_dict(data["consent"]) if sealed else None
    except (OSError, ValueError, TypeError, KeyError, ConsentError) as exc:
        raise ConsentError(refused, detail=f"{voice.folder / voice_file}: {exc}") from exc
    if record is None:
        raise ConsentError(refused, detail="voice.json carries no valid seal of this install")
    samples = tuple(str(s) for s in data["samples"])
    if record != voice.consent or samples != tuple(voice.samples) or data["language"] != voice.language:
        raise ConsentError(refused, detail="the voice handed in differs from the one sealed in its folder")
    audio = {}
    for file_name in (*samples, consent_file):
        if Path(file_name).name != file_name:
            raise ConsentError(refused, detail=f"not a plain file name: {file_name!r}")
        try:
            audio[file_name] = read_regular_file(voice.folder / file_name)
        except OSError as exc:
            raise ConsentError(missing_recording(voice.name), detail=f"{file_name}: {exc}") from exc
    record.ensure_valid_for(audio, voice.name)
    return SealedVoice(voice.name, data["language"], samples, record, audio)


def read_regular_file(path: Path, limit: int = _MAX_RECORDING_BYTES) -> bytes:
    """The bytes of a regular file, opened once; links, pipes and devices are refused (OSError)."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as stream:
        if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
            raise OSError(f"{path.name} is not a regular file")
        data = stream.read(limit + 1)
    if len(data) > limit:
        raise OSError(f"{path.name} is larger than {limit} bytes")
    return data


def decode_wav_bytes(data: bytes, sample_rate: int) -> np.ndarray:
    """float32 mono samples at sample_rate from the bytes of a recording (PyAV, as for files)."""
    import av

    blocks = []
    resampler = av.AudioResampler(format="flt", layout="mono", rate=sample_rate)
    with av.open(io.BytesIO(data), mode="r") as container:
        for frame in container.decode(audio=0):
            blocks += [out.to_ndarray().reshape(-1) for out in resampler.resample(frame)]
        blocks += [out.to_ndarray().reshape(-1) for out in resampler.resample(None)]
    return np.concatenate(blocks).astype(np.float32) if blocks else np.zeros(0, dtype=np.float32)
