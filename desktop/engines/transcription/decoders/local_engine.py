"""What every engine that runs Whisper on this computer does around its own decoding.

``LocalEngine.transcribe`` checks the language and task against the model, keeps only the speech
(``vad.speech_to_decode``, the same for every engine), hands that to the engine's ``decode``, puts
each segment found back on the recording's timeline and passes it on, and returns the result with
the facts of how it was decoded and, for an English-only model asked to check, the language its
language checker heard in that speech (``language_check``). An engine supplies its decoding
(``decode``), what its model knows (``languages``) and how it lets go of the model (``close``);
nothing else.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Callable, Iterable

import numpy as np

from desktop.core.common.audio import SAMPLE_RATE
from desktop.core.transcription.english_only import HeardLanguage
from desktop.core.transcription.transcript import Segment
from desktop.engines.transcription.decoders.language_check import LanguageChecker
from desktop.engines.transcription.decoders.vad import TimeMap, speech_to_decode
from desktop.engines.transcription.engine import (
    CancelCheck,
    EngineResult,
    ProgressCallback,
    ProgressReporter,
    SegmentCallback,
    TranscribeOptions,
    check_task,
    device_failures_as_user_errors,
)

# A segment as the decoding found it, on the timeline of the joined speech, and Whisper's average
# log-probability of it.
FoundSegment = Callable[[Segment, float], None]


def guessing_under_english_only(options: TranscribeOptions, multilingual: bool) -> bool:
    """Whether an English-only model transcribes with the language left to detect: its decoding is then
    judged for speech in another language (``core.transcription.english_only``)."""
    return options.check_language and not multilingual and options.task == "transcribe"


@dataclass
class Decoded:
    """What a decoding tells besides its segments."""

    language: str | None  # detected, or the one asked for
    batch_size: int = 1  # windows decoded at once; 1 = one after another
    bf16_encoder: bool = False  # torch's bfloat16 encoder encoded the audio (bf16_encoder.py)


class LocalEngine(ABC):
    """A loaded Whisper model on this computer; see ``desktop.engines.transcription.engine.WhisperEngine``.

    Subclasses implement ``languages``, ``decode`` and ``close``; one that misses any cannot be made.
    """

    name: str  # "torch" or "ct2"
    # Tells the language of speech given to an English-only model (``check_languages_with``); None: none here.
    language_checker: LanguageChecker | None = None

    def __init__(self, model: Any, *, device: str, model_name: str, compute_type: str):
        self._model = model
        self.device = device
        self.model_name = model_name
        self.compute_type = compute_type  # the precision the model computes in, fixed when it loads

    def _loaded(self) -> Any:
        if self._model is None:
            raise RuntimeError("the engine was closed")
        return self._model

    def check_languages_with(self, checker: LanguageChecker | None) -> None:
        """Have ``checker`` tell the language of the speech this English-only model is asked to check
        (``TranscribeOptions.check_language``); a multilingual model never uses it."""
        self.language_checker = checker

    @abstractmethod
    def languages(self, model: Any) -> tuple[bool, Iterable[str]]:
        """Whether the model is multilingual, and the Whisper codes of the languages it knows."""

    @abstractmethod
    def decode(self, model: Any, speech: np.ndarray, time_map: TimeMap, options: TranscribeOptions,
               language: str | None, progress: ProgressReporter, found: FoundSegment) -> Decoded:
        """Decode ``speech`` (the joined speech ``time_map`` maps back), giving each segment to ``found``
        as it becomes final; report progress and notice a cancel through ``progress``."""

    def expect(self, seconds: float) -> None:
        """A recording of about ``seconds`` comes next: an engine may prepare for it meanwhile (load
        what it will need), while the recording is read."""

    @abstractmethod
    def close(self) -> None:
        """Let go of the model (and its memory); the engine cannot decode after this."""

    def transcribe(
        self,
        audio: np.ndarray,
        options: TranscribeOptions,
        *,
        on_progress: ProgressCallback | None = None,
        on_segment: SegmentCallback | None = None,
        cancelled: CancelCheck | None = None,
    ) -> EngineResult:
        model = self._loaded()
        multilingual, known_languages = self.languages(model)
        language = check_task(options, multilingual, known_languages)
        progress = ProgressReporter(on_progress, cancelled)
        speech_found = speech_to_decode(audio, options, progress)
        if speech_found is None:
            return self._result(Decoded(language=language), segments=[], avg_logprobs=[], speech=[],
                                multilingual=multilingual)
        speech, time_map = speech_found
        segments: list[Segment] = []
        avg_logprobs: list[float] = []

        def found(piece: Segment, avg_logprob: float) -> None:
            if not piece.text.strip():
                return
            segment = time_map.restore(piece)
            segments.append(segment)
            avg_logprobs.append(float(avg_logprob))
            if on_segment is not None:
                on_segment(segment)

        with device_failures_as_user_errors(self.device):
            decoded = self.decode(model, speech, time_map, options, language, progress, found)
        progress.check()  # a cancel while the last window decoded: cancelled, as in any window before it
        checked: tuple[HeardLanguage, ...] = ()
        checker = self.language_checker
        if checker is not None and guessing_under_english_only(options, multilingual):
            progress.check()
            checked = checker.heard(speech)
        progress.report(1.0)
        return self._result(decoded, segments=segments, avg_logprobs=avg_logprobs,
                            speech=time_map.speech_stretches(audio.size / SAMPLE_RATE), multilingual=multilingual,
                            checked=checked)

    def _result(self, decoded: Decoded, *, segments: list[Segment], avg_logprobs: list[float],
                speech: list[tuple[float, float]], multilingual: bool,
                checked: tuple[HeardLanguage, ...] = ()) -> EngineResult:
        return EngineResult(segments=segments, language=decoded.language, speech=speech, avg_logprobs=avg_logprobs,
                            batch_size=decoded.batch_size, bf16_encoder=decoded.bf16_encoder,
                            compute_type=self.compute_type, device=self.device, multilingual=multilingual,
                            checked=checked)
