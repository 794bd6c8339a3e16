"""Piper voices: text to phonemes with espeak-ng, phonemes to speech with onnxruntime. No Qt here.

A Piper voice (VITS, exported to ONNX) reads phonemes, not letters: the espeak-ng program turns each
clause into IPA phonemes in the voice's espeak-ng language, and the voice's phoneme map turns those
into the model's symbol ids, as Piper itself does (a start symbol, each phoneme followed by the pad
symbol, an end symbol; punctuation kept, since the voices learned their pauses from it).

espeak-ng is GPL; VoxDesk (MIT) runs it as a separate program and reads what it prints, so none of
its code becomes part of VoxDesk's. The model is read into memory with a size limit and handed to
onnxruntime as bytes: nothing is unpickled, and a model cannot pull in data files from elsewhere on
the disk (ONNX "external data" needs a folder, which a model given as bytes does not have).
"""
from __future__ import annotations

import re
import shutil
import subprocess
import unicodedata
from dataclasses import dataclass
from typing import Any

import numpy as np

from desktop.core.common.errors import ModelError
from desktop.core.common.i18n import N_
from desktop.core.common.safe_files import read_limited
from desktop.core.speech.piper_voices import MAX_VOICE_BYTES, PiperVoiceCheck, inspect_piper

PAD, BOS, EOS = "_", "^", "$"
_CLAUSE = re.compile(r"([^,.;:!?，。；：！？]+)([,.;:!?，。；：！？]*)")
ESPEAK_SECONDS = 20  # one clause takes milliseconds; this only stops a stuck program
MAX_CLAUSE_CHARS = 1000


@dataclass(frozen=True)
class PiperScales:
    noise_scale: float
    length_scale: float
    noise_w: float


class PiperVoice:
    """One loaded Piper voice: speak(text) gives float32 samples at sample_rate."""

    def __init__(self, check: PiperVoiceCheck, session: Any) -> None:
        self.check = check
        self._session = session
        self._inputs = {i.name for i in session.get_inputs()}

    @property
    def sample_rate(self) -> int:
        return self.check.sample_rate

    def phoneme_ids(self, text: str) -> list[int]:
        """The model's symbol ids for text, clause by clause, punctuation kept."""
        id_map = self.check.phoneme_id_map
        ids = list(id_map.get(BOS, ())) + list(id_map[PAD])
        for clause, punctuation in _CLAUSE.findall(text):
            if not clause.strip():
                continue
            phonemes = unicodedata.normalize("NFD", phonemize(clause, self.check.espeak_voice))
            for phoneme in phonemes + (punctuation[:1] or ""):
                if phoneme in id_map:
                    ids.extend(id_map[phoneme])
                    ids.extend(id_map[PAD])
            if " " in id_map:
                ids.extend(id_map[" "])
                ids.extend(id_map[PAD])
        ids.extend(id_map.get(EOS, ()))
        return ids

    def speak(self, text: str, *, speaker_id: int | None = None, speed: float = 1.0) -> np.ndarray:
        """One sentence as float32 samples in -1..1; speed 2.0 speaks twice as fast as the voice's pace."""
        ids = self.phoneme_ids(text)
        if len(ids) < 3:
            return np.zeros(0, dtype=np.float32)
        check = self.check
        scales = np.array([check.noise_scale, check.length_scale / max(0.25, speed), check.noise_w],
                          dtype=np.float32)
        feed: dict[str, np.ndarray] = {
            "input": np.array([ids], dtype=np.int64),
            "input_lengths": np.array([len(ids)], dtype=np.int64),
            "scales": scales,
        }
        if "sid" in self._inputs:
            feed["sid"] = np.array([speaker_id or 0], dtype=np.int64)
        audio = self._session.run(None, feed)[0]
        return np.clip(np.asarray(audio, dtype=np.float32).reshape(-1), -1.0, 1.0)


def phonemize(text: str, voice: str) -> str:
    """espeak-ng's IPA phonemes for one clause (its clauses joined by spaces); ModelError without espeak-ng."""
    program = shutil.which("espeak-ng")
    if program is None:
        raise ModelError(N_("SpeechEngine", "Piper voices need the espeak-ng program to read text. Install it (sudo "
                                            "apt install espeak-ng), then try again."))
    # "--" ends the options: text starting with "-" is read, never taken for an option.
    try:
        done = subprocess.run([program, "-q", "--ipa", "-v", voice, "--", text[:MAX_CLAUSE_CHARS]],
                              capture_output=True, timeout=ESPEAK_SECONDS, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ModelError(N_("SpeechEngine", "espeak-ng did not turn the text into sounds. Check that it is installed "
                                            "correctly (sudo apt install espeak-ng), then try again."),
                         detail=repr(exc)) from exc
    if done.returncode != 0:
        raise ModelError(N_("SpeechEngine", "espeak-ng does not know the language “{voice}” this voice needs. Install "
                                            "the full espeak-ng (sudo apt install espeak-ng), then try again.").format(
            voice=voice), detail=done.stderr.decode("utf-8", "replace")[:500])
    lines = done.stdout.decode("utf-8", "replace").split("\n")
    return " ".join(line.strip() for line in lines if line.strip())


def load_voice(path: Any, title: str) -> PiperVoice:
    """Check and load a Piper voice on the CPU; ModelError with a plain sentence on failure."""
    check = inspect_piper(path)
    try:
        import onnxruntime
    except Exception as exc:  # noqa: BLE001 - a broken install shows up as any kind of error
        raise ModelError(
            N_("SpeechEngine", "The speech synthesis part of VoxDesk is not installed correctly. Run the installer "
                               "again (make setup)."), detail=repr(exc)) from exc
    too_large = N_("PiperVoices", "The file {file} is far larger than any Piper voice, so VoxDesk did not load "
                                  "it.").format(file=check.model_file.name)
    try:
        model = read_limited(check.model_file, MAX_VOICE_BYTES, too_large, error=ModelError)
    except OSError as exc:
        raise ModelError(N_("PiperVoices", "VoxDesk cannot read the Piper voice “{name}”. Check that its files are "
                                           "still there and readable.").format(name=title), detail=repr(exc)) from exc
    options = onnxruntime.SessionOptions()
    options.log_severity_level = 3
    try:
        session = onnxruntime.InferenceSession(model, sess_options=options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # noqa: BLE001 - a damaged model fails in many ways
        raise ModelError(
            N_("SpeechEngine", "The voice model “{title}” could not be loaded: its model file is damaged or does not "
                               "match its settings. Download or import it again.").format(title=title),
            detail=f"{type(exc).__name__}: {exc}") from exc
    names = {i.name for i in session.get_inputs()}
    if not {"input", "input_lengths", "scales"} <= names:
        raise ModelError(
            N_("SpeechEngine", "The voice model “{title}” could not be loaded: its model file is damaged or does not "
                               "match its settings. Download or import it again.").format(title=title),
            detail=f"inputs {sorted(names)}")
    return PiperVoice(check, session)
