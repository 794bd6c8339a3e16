"""Piper voices: text to phonemes with espeak-ng, phonemes to speech with onnxruntime. No Qt here.

A Piper voice (VITS, exported to ONNX) reads phonemes, not letters: the espeak-ng program turns each
clause into IPA phonemes in the voice's espeak-ng language, and the voice's phoneme map turns those
into the model's symbol ids, as Piper itself does (a start symbol, each phoneme followed by the pad
symbol, an end symbol; punctuation kept, since the voices learned their pauses from it).

espeak-ng is GPL; VoxDesk (MIT) runs it as a separate program and reads what it prints, so none of
its code becomes part of VoxDesk's. The model is read into memory with a size limit and handed to
onnxruntime as bytes: nothing is unpickled, and a model cannot pull in data files from elsewhere on
the disk (ONNX "external data" needs a folder, which a model given as bytes does not have).

No single inference gets an unbounded input: a sentence whose ids outgrow MAX_IDS_PER_RUN is spoken
in parts, cut after a clause where it can, else after a word (the text encoder's attention grows with
the square of its input, so one very long input can ask for terabytes).
"""
from __future__ import annotations

import bisect
import re
import shutil
import subprocess
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from desktop.core.common.errors import ModelError
from desktop.core.common.i18n import N_
from desktop.core.speech.piper_voices import PiperVoiceCheck, damaged, inspect_piper, read_piper_model
from desktop.engines.speech.voice import FoundModel, VoiceInfo

PAD, BOS, EOS = "_", "^", "$"
_CLAUSE = re.compile(r"([^,.;:!?，。；：！？]+)([,.;:!?，。；：！？]*)")
ESPEAK_SECONDS = 20  # one clause takes milliseconds; this only stops a stuck program
MAX_CLAUSE_CHARS = 1000  # what espeak-ng is given at once; a longer clause goes in parts, cut at a space
# A 240-character sentence (the engine's longest) is about 500 ids; attention over 800 ids takes a few MB.
MAX_IDS_PER_RUN = 800


@dataclass(frozen=True)
class PiperScales:
    noise_scale: float
    length_scale: float
    noise_w: float


class PiperVoice:
    """One loaded Piper voice: speak(text) gives float32 samples at sample_rate. It is also the engine's
    Voice (desktop.engines.speech.voice), always on the CPU."""

    def __init__(self, check: PiperVoiceCheck, session: Any, title: str | None = None,
                 model_name: str | None = None) -> None:
        self.check = check
        self.title = title or check.model_file.stem
        self._session = session
        self._inputs = {i.name for i in session.get_inputs()}
        self.info = VoiceInfo(
            model=model_name or self.title,
            title=self.title,
            speakers=tuple(sorted(check.speakers, key=check.speakers.get)) if len(check.speakers) > 1 else (),
            languages=check.languages,
            sample_rate=check.sample_rate,
            can_change_speed=True,
            device="CPU",
        )

    @property
    def sample_rate(self) -> int:
        return self.check.sample_rate

    def longest_sentence(self, language: str) -> int | None:
        return None  # long sentences are spoken in parts of at most MAX_IDS_PER_RUN ids

    def unknown_characters(self, text: str) -> list[str]:
        return []  # it reads phonemes, not letters: espeak-ng gives sounds for whatever the text holds

    def synthesize(self, text: str, *, speaker: str | None, language: str | None, speed: float) -> np.ndarray:
        """speak() for the engine: the speaker by name; the language is the voice's own."""
        speaker_id = self.check.speakers.get(speaker) if speaker else None
        return self.speak(text, speaker_id=speaker_id, speed=speed)

    def phoneme_runs(self, text: str) -> list[list[int]]:
        """The model's symbol ids for text (clause by clause, punctuation kept) in runs of at most
        MAX_IDS_PER_RUN ids, each framed by the start and end symbols: cut after a clause where one
        fits, else after a word, else (one endless word) anywhere. A usual sentence is one run."""
        ids, clause_ends, word_ends = self._ids(text)
        room = MAX_IDS_PER_RUN - len(self._framed([]))
        runs, start = [], 0
        while start < len(ids):
            cut = len(ids)
            if cut - start > room:
                cut = _last_at_most(clause_ends, start, start + room) or _last_at_most(
                    word_ends, start, start + room) or start + room
            runs.append(self._framed(ids[start:cut]))
            start = cut
        return runs

    def _framed(self, ids: list[int]) -> list[int]:
        id_map = self.check.phoneme_id_map
        return list(id_map.get(BOS, ())) + list(id_map[PAD]) + ids + list(id_map.get(EOS, ()))

    def _ids(self, text: str) -> tuple[list[int], list[int], list[int]]:
        """The ids between the start and end symbols, and where clauses and words end among them."""
        id_map = self.check.phoneme_id_map
        pad = id_map[PAD]
        ids: list[int] = []
        clause_ends: list[int] = []
        word_ends: list[int] = []
        for clause, punctuation in _CLAUSE.findall(text):
            if not clause.strip():
                continue
            phonemes = " ".join(unicodedata.normalize("NFD", phonemize(part, self.check.espeak_voice))
                               for part in _parts(clause, MAX_CLAUSE_CHARS))
            for phoneme in phonemes + (punctuation[:1] or ""):
                if phoneme in id_map:
                    ids.extend(id_map[phoneme])
                    ids.extend(pad)
                    if phoneme == " ":
                        word_ends.append(len(ids))
            if " " in id_map:
                ids.extend(id_map[" "])
                ids.extend(pad)
            clause_ends.append(len(ids))
        return ids, clause_ends, word_ends

    def speak(self, text: str, *, speaker_id: int | None = None, speed: float = 1.0) -> np.ndarray:
        """One sentence as float32 samples in -1..1; speed 2.0 speaks twice as fast as the voice's pace."""
        check = self.check
        scales = np.array([check.noise_scale, check.length_scale / max(0.25, speed), check.noise_w],
                          dtype=np.float32)
        parts = [self._infer(ids, scales, speaker_id) for ids in self.phoneme_runs(text) if len(ids) >= 3]
        return np.concatenate(parts) if parts else np.zeros(0, dtype=np.float32)

    def _infer(self, ids: list[int], scales: np.ndarray, speaker_id: int | None) -> np.ndarray:
        feed: dict[str, np.ndarray] = {
            "input": np.array([ids], dtype=np.int64),
            "input_lengths": np.array([len(ids)], dtype=np.int64),
            "scales": scales,
        }
        if "sid" in self._inputs:
            feed["sid"] = np.array([speaker_id or 0], dtype=np.int64)
        try:
            audio = self._session.run(None, feed)[0]
        except Exception as exc:  # noqa: BLE001 - onnxruntime reports a model that fails on its input in many ways
            raise damaged(self.title, N_("PiperVoices", "its model failed on the sounds of this text"),
                          detail=f"{type(exc).__name__}: {exc}"[:500]) from exc
        return np.clip(np.asarray(audio, dtype=np.float32).reshape(-1), -1.0, 1.0)


def _last_at_most(ends: list[int], after: int, limit: int) -> int | None:
    """The last of the sorted positions ends that lies in (after, limit]; None if none does."""
    i = bisect.bisect_right(ends, limit) - 1
    return ends[i] if i >= 0 and ends[i] > after else None


def _parts(text: str, limit: int) -> list[str]:
    """text in pieces of at most limit characters, each cut at its last space where it has one."""
    parts = []
    while len(text) > limit:
        cut = text.rfind(" ", 1, limit + 1)
        cut = cut if cut > 0 else limit
        parts.append(text[:cut])
        text = text[cut:]
    return parts + [text]


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


class PiperKind:
    """Piper voices: an .onnx with its .onnx.json (a folder holding them, or the .onnx itself)."""

    cpu_only = True  # made for the CPU, and fast there

    def describe(self, path: Path) -> tuple[str, tuple[str, ...]]:
        return path.stem if path.suffix == ".onnx" else path.name, inspect_piper(path).languages

    def load(self, found: FoundModel, device: str, gpu: Any) -> PiperVoice:
        return load_voice(found.path, found.title, model_name=found.model)


def load_voice(path: Any, title: str, *, model_name: str | None = None) -> PiperVoice:
    """Check and load a Piper voice on the CPU; ModelError with a plain sentence on failure.
    model_name: the name the engine's settings give it (its VoiceInfo.model); the title when None."""
    check = inspect_piper(path, name=title)
    try:
        import onnxruntime
    except Exception as exc:  # noqa: BLE001 - a broken install shows up as any kind of error
        raise ModelError(
            N_("SpeechEngine", "The speech synthesis part of VoxDesk is not installed correctly. Run the installer "
                               "again (make setup)."), detail=repr(exc)) from exc
    model = read_piper_model(check, name=title)
    options = onnxruntime.SessionOptions()
    options.log_severity_level = 3
    try:
        session = onnxruntime.InferenceSession(model, sess_options=options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # noqa: BLE001 - a damaged model fails in many ways
        raise damaged(title, N_("PiperVoices", "its model file {file} cannot be run").format(
            file=check.model_file.name), detail=f"{type(exc).__name__}: {exc}"[:500]) from exc
    names = {i.name for i in session.get_inputs()}
    if not {"input", "input_lengths", "scales"} <= names:
        raise damaged(title, N_("PiperVoices", "its model file {file} does not take the inputs of a Piper "
                                               "voice").format(file=check.model_file.name),
                      detail=f"inputs {sorted(names)}")
    return PiperVoice(check, session, title, model_name)
