"""What every Whisper engine offers, whatever library runs it underneath.

Engines take 16 kHz mono float32 audio and give back ``desktop.core.transcription.transcript.Segment``s with word
timings on the timeline of that audio. Voice activity detection (``vad.speech_to_decode``) runs first in
every local engine, so all see the same speech and none invents text over silence. Here: the options and
result of one decoding, the engine's contract, its progress and cancel, and the sentences for a failing
graphics card or model.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, Protocol, Sequence

import numpy as np

from desktop.core.common.errors import Cancelled, ModelError, UserFacingError
from desktop.core.transcription import options as declared
from desktop.core.transcription.english_only import HeardLanguage
from desktop.core.transcription.speech_limits import AnswerNote
from desktop.core.transcription.transcript import Segment
from desktop.core.common.i18n import N_

# Whisper's own rules for a decoding that failed, read by every engine and by the second look.
COMPRESSION_RATIO_THRESHOLD = 2.4  # Whisper's compression_ratio_threshold: above it, the text repeats itself
LOG_PROB_THRESHOLD = -1.0  # Whisper's logprob_threshold: below it, the decoding is unsure
NO_SPEECH_THRESHOLD = 0.6  # Whisper's no_speech_threshold

ProgressCallback = Callable[[float], None]
SegmentCallback = Callable[[Segment], None]
CancelCheck = Callable[[], bool]


@dataclass
class TranscribeOptions:
    """The options of one decoding, each default its declaration's (``core.transcription.options``); also
    the JSON the engine process receives (``process.protocol.encode_options``)."""

    language: str | None = declared.LANGUAGE.default  # None = auto-detect; else a Whisper code ("zh", "en", ...)
    task: str = declared.TASK.default  # or "translate" (to English)
    initial_prompt: str | None = declared.INITIAL_PROMPT.default
    beam_size: int = declared.BEAM_SIZE.default
    vad: bool = declared.VAD.default
    word_timestamps: bool = declared.WORD_TIMESTAMPS.default
    temperature: float | None = declared.TEMPERATURE.default  # None: Whisper's fallback from 0.0 up to 1.0
    condition_on_previous_text: bool = declared.CONDITION_ON_PREVIOUS_TEXT.default  # False: no prompt per window
    batch_size: int | None = declared.BATCH_SIZE.default  # windows decoded at once: None automatic, 1 one by one
    glossary_terms: Sequence[str] = ()  # the glossaries' terms, most relevant first, for every window
    # Of those, the ones heard before this audio (earlier chunks, earlier utterances), the most recent
    # first: they steer from the first window on.
    glossary_heard: Sequence[str] = ()
    # The user left the language to be detected: an English-only model's engine has the speech's language
    # told by its language checker (decoders.language_check), when it has one. Not for a second look.
    check_language: bool = False

    def prompt_with_glossary(self) -> str | None:
        """The prompt for each window: as many glossary terms as fit, then the initial prompt."""
        from desktop.core.glossary.prompting import prompt_with_terms

        return prompt_with_terms(self.initial_prompt or None, self.glossary_terms)


@dataclass
class EngineResult:
    segments: list[Segment]  # with Word timings, on the timeline of the audio given
    language: str | None  # detected or given
    speech: list[tuple[float, float]] = field(default_factory=list)  # (start, end) s that VAD heard as speech
    avg_logprobs: list[float] = field(default_factory=list)  # Whisper's average log-probability of each segment
    notes: list[AnswerNote] = field(default_factory=list)  # what was changed in a server's answers
    # How the engine decoded it, for the window and the tests to tell, read here and nowhere else:
    batch_size: int = 1  # windows decoded at once (after any out-of-memory halving); 1 = one after another
    bf16_encoder: bool = False  # torch's bfloat16 encoder, measured faster here, encoded the audio (bf16_encoder.py)
    compute_type: str | None = None  # the model's precision: "int8", "float16", "float32"; None on a server
    device: str | None = None  # where it ran: "cuda", "cpu" or "server"
    multilingual: bool = True  # False: an English-only model (tiny.en …), which cannot tell other speech apart
    # The languages a multilingual model heard in its speech (a window each), when asked to check; else none.
    checked: tuple[HeardLanguage, ...] = ()


class WhisperEngine(Protocol):
    name: str  # "torch" or "ct2"
    device: str  # "cuda" or "cpu" (torch "cuda" is HIP on ROCm builds)
    model_name: str

    def transcribe(
        self,
        audio: np.ndarray,
        options: TranscribeOptions,
        *,
        on_progress: ProgressCallback | None = None,  # 0..1 over this audio
        on_segment: SegmentCallback | None = None,  # as segments become final
        cancelled: CancelCheck | None = None,
    ) -> EngineResult: ...

    def expect(self, seconds: float) -> None: ...  # a recording about this long comes next: prepare for it

    def close(self) -> None: ...  # release the model; on GPU also torch.cuda.empty_cache()


class GpuError(ModelError, RuntimeError):
    """The graphics card failed while running a model.

    It is also a RuntimeError, so code that retries GPU failures on the CPU catches it like the
    library errors it replaces; ``out_of_memory`` tells the two common causes apart.
    """

    def __init__(self, message: str, *, detail: str | None = None, out_of_memory: bool = False):
        super().__init__(message, detail=detail)
        self.out_of_memory = out_of_memory


GPU_OUT_OF_MEMORY = (
    N_("Engine", "The graphics card ran out of memory; choose a smaller model or the processor (CPU) in Settings.")
)
GPU_FAILED = N_("Engine", "The graphics card failed while transcribing; choose the processor (CPU) in Settings and "
                          "try again.")
CPU_OUT_OF_MEMORY = N_("Engine", "The computer ran out of memory; close other programs or choose a smaller model.")
MODEL_FAILED = N_("Engine", "The model failed while transcribing; it may be damaged. Remove it and download or "
                            "import it again.")
DAMAGED_MODEL = N_("Engine", "The model file is damaged or is not a Whisper model; remove it and download or import "
                             "it again.")


def device_failure(exc: BaseException, device: str) -> UserFacingError | None:
    """The user-facing form of an exception raised while a model runs, or None if it is not one we know.

    On the GPU, failures ``desktop.core.gpu.fallback`` recognises (out of memory, HIP/CUDA kernel and
    library errors) become GpuError, raised from the original so the fallback still sees its cause.
    """
    from desktop.core.gpu.fallback import is_gpu_failure, is_out_of_memory

    detail = f"{type(exc).__name__}: {exc}"
    if isinstance(exc, UserFacingError):
        return None
    if isinstance(exc, MemoryError):
        return UserFacingError(CPU_OUT_OF_MEMORY, detail=detail)
    if device == "cuda" and is_gpu_failure(exc):
        if is_out_of_memory(exc):
            return GpuError(GPU_OUT_OF_MEMORY, detail=detail, out_of_memory=True)
        return GpuError(GPU_FAILED, detail=detail)
    return None


@contextmanager
def device_failures_as_user_errors(device: str) -> Iterator[None]:
    """Raise the user-facing form (``device_failure``) of a failure while a model runs on ``device``.

    On the CPU a library error (RuntimeError: CTranslate2 reading a damaged config, torch a damaged
    tensor) is the model's fault and becomes a ModelError; on the GPU anything not recognised passes
    through unchanged, for the fallback to the CPU to judge.
    """
    try:
        yield
    except Exception as exc:
        failure = device_failure(exc, device)
        if failure is None and device == "cpu" and isinstance(exc, RuntimeError):
            failure = ModelError(MODEL_FAILED, detail=f"{type(exc).__name__}: {exc}")
        if failure is None:
            raise
        raise failure from exc


def check_task(options: TranscribeOptions, multilingual: bool, known_languages: Iterable[str]) -> str | None:
    """Validate language and task against the model; return the Whisper language code (or None)."""
    if not declared.TASK.allows(options.task):
        raise ValueError(f"unknown task {options.task!r}")
    language = options.language.strip().lower() if options.language else None
    if not multilingual:
        if language not in (None, "en"):
            raise ModelError(
                N_("Engine", "This model only understands English; choose a multilingual model (one without “.en”) "
                             "for other languages.")
            )
        if options.task == "translate":
            raise ModelError(
                N_("Engine", "This model only understands English, so it cannot translate; choose a multilingual "
                             "model (one without “.en”).")
            )
    elif language and language not in set(known_languages):
        raise UserFacingError(
            N_("Engine", "“{language}” is not a language Whisper knows; pick one from the list or choose automatic "
                         "detection.").format(language=options.language)
        )
    return language


class ProgressReporter:
    """Calls on_progress with a non-decreasing fraction and raises Cancelled when asked to stop."""

    def __init__(self, on_progress: ProgressCallback | None, cancelled: CancelCheck | None):
        self._on_progress = on_progress
        self._cancelled = cancelled
        self._last = 0.0

    def check(self) -> None:
        if self._cancelled is not None and self._cancelled():
            raise Cancelled()

    def report(self, fraction: float) -> None:
        fraction = min(1.0, max(self._last, float(fraction)))
        self._last = fraction
        if self._on_progress is not None:
            self._on_progress(fraction)
