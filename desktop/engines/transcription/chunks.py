"""One chunk of a file after another: decoded, looked at again, added to the file's transcript.

A GPU that fails hands the rest of the chunk, and of the job, to the processor; a server that fails
hands it to this computer; either way after the segments already shown. Which engine takes over is
the Transcriber's to say (it keeps the loaded models): ``EngineKeeper``. No Qt here.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Protocol, Sequence

import numpy as np

from desktop.core.common import audio
from desktop.core.common.i18n import N_
from desktop.core.glossary import prompting as glossary_prompting
from desktop.core.gpu.fallback import FallbackLog, run_with_gpu_fallback
from desktop.core.transcription import chinese
from desktop.core.transcription.english_only import EnglishOnlySigns
from desktop.core.transcription.transcript import EngineFacts, Segment
from desktop.engines.transcription.engine import EngineResult, TranscribeOptions, WhisperEngine
from desktop.engines.transcription.plan import TranscribeSettings
from desktop.engines.transcription.review import second_pass
from desktop.engines.transcription.run.assembly import TranscriptAssembly
from desktop.engines.transcription.run.finish_elsewhere import ShownSegments


@dataclass(frozen=True)
class FileJob:
    """One file's job, as its chunks and their fallbacks pass it on."""

    settings: TranscribeSettings
    name: str  # the file's name, as the fallback log lists it
    cancelled: Callable[[], bool]
    on_status: Callable[[str], None] | None
    glossary_terms: Sequence[str] = ()  # the texts of the glossaries' terms, for every chunk's prompt


class EngineKeeper(Protocol):
    """Who keeps the loaded engines and says which one carries on after a failure (the Transcriber)."""

    gpu_note: str | None  # why Automatic did not use the GPU, or which engine it took there

    def engine_after_gpu_failure(self, job: FileJob, failed: WhisperEngine) -> WhisperEngine: ...

    def engine_after_server_failure(self, job: FileJob) -> WhisperEngine: ...


class ChunkDecoder:
    """Decodes a file's chunks in turn for one job, on the engine each chunk hands to the next."""

    def __init__(self, job: FileJob, keeper: EngineKeeper, fallbacks: FallbackLog):
        self._job = job
        self._keeper = keeper
        self._fallbacks = fallbacks
        self._heard = glossary_prompting.HeardTerms(job.glossary_terms)  # in the chunks decoded so far
        self.english_only = EnglishOnlySigns()  # an English-only model's first decodings, for other speech

    def decode_chunk(self, engine: WhisperEngine, assembly: TranscriptAssembly, offset: float, samples: np.ndarray,
                     progress: Callable[[float], None]) -> WhisperEngine:
        """Decode one chunk, take a second look at it, and add it to the assembly; the engine that
        finished it (the CPU one after a GPU failure) is returned for the next chunk."""
        settings = self._job.settings
        # Once the language is known, later chunks start with it (most meetings keep one language);
        # speech the first decoding missed is decoded again with the language as chosen, so a switch
        # to another language is caught there.
        language = assembly.language
        prompt = chinese.initial_prompt(language, settings.task, settings.initial_prompt)
        # The glossary's terms heard in the chunks before come first where not all fit in a prompt.
        glossary_terms = self._job.glossary_terms
        heard = glossary_prompting.terms_heard_in((s.text for s in assembly.segments), glossary_terms)
        terms = tuple(glossary_prompting.ordered_terms(glossary_terms, heard))
        heard_before = self._heard.ordered()
        chunk_options = replace(settings.options(), language=language, initial_prompt=prompt, glossary_terms=terms,
                                glossary_heard=heard_before)
        recover_options = replace(
            settings.options(), initial_prompt=chinese.initial_prompt(settings.language, settings.task,
                                                                      settings.initial_prompt), glossary_terms=terms,
            glossary_heard=heard_before)
        assembly.start_chunk(offset, prompt)
        # Auto-detect: an English-only model's engine has its language checker tell the chunk's language.
        first_options = replace(chunk_options, check_language=settings.language is None)
        result, engine = self._decode(engine, samples, first_options, progress, assembly.stream)
        current = [engine]  # the engine after the last decoding: the CPU one once the GPU failed
        if not result.multilingual:
            self.english_only.add(result.segments, result.avg_logprobs, result.speech, result.checked)

        def decode(audio_part, part_options):
            # A failure here hands the rest of the part, and of the job, to this computer, as in the first pass.
            part, current[0] = self._decode(current[0], audio_part, part_options, _ignore, _ignore)
            return part

        assembly.engine = EngineFacts(batch_size=result.batch_size, bf16_encoder=result.bf16_encoder,
                                      device=result.device or engine.device, gpu_note=self._keeper.gpu_note)
        reviewed = second_pass.review(result, samples, decode, chunk_options, recover_options)
        assembly.settle(reviewed, result.language, heard_speech=bool(result.speech))
        self._heard.hear("".join(segment.text for segment, _ in reviewed.segments))
        return current[0]

    def _decode(self, engine: WhisperEngine, samples, options: TranscribeOptions, progress: Callable[[float], None],
                emit: Callable[[Segment], None]) -> tuple[EngineResult, WhisperEngine]:
        """One decoding on ``engine`` (the server or this computer's), and the engine for the next one:
        after a failure, the engine this computer finished on."""
        if engine.name == "server":
            return self._on_server(engine, samples, options, progress, emit)
        return self._on_this_computer(engine, samples, options, progress, emit)

    def _on_this_computer(self, engine: WhisperEngine, samples, options: TranscribeOptions, progress, emit):
        """Run one chunk; on a GPU failure, switch to the CPU for the rest of this job and say so.

        The segments shown before the failure stay: the next try decodes only the audio after them.
        """
        shown = ShownSegments(emit)

        def run(on: WhisperEngine, run_options: TranscribeOptions):
            return shown.decode(on, samples, run_options, progress, self._job.cancelled), on

        if engine.device == "cpu":
            return run(engine, options)

        def retry_greedy():
            return run(engine, replace(options, beam_size=1))

        def on_cpu():
            return run(self._keeper.engine_after_gpu_failure(self._job, engine), options)

        return run_with_gpu_fallback(
            self._job.name, "transcribe", lambda: run(engine, options), on_cpu, self._fallbacks,
            free_memory=free_gpu_memory,
            # Out of memory: greedy decoding keeps one hypothesis instead of a beam of them.
            retry_smaller=retry_greedy if options.beam_size > 1 else None,
        )

    def _on_server(self, engine: WhisperEngine, samples, options: TranscribeOptions, progress, emit):
        """One chunk on the server; when it fails, the rest of the job on this computer (recorded as a fallback)."""
        from desktop.engines.transcription.server.fallback import transcribe_with_server_fallback

        job = self._job
        return transcribe_with_server_fallback(
            engine, samples, options, on_progress=progress, emit=emit, cancelled=job.cancelled,
            local_engine=lambda: self._keeper.engine_after_server_failure(job),
            log=self._fallbacks, job=job.name, on_status=job.on_status)


def free_gpu_memory() -> None:
    """For a model in this process; an engine process frees its own memory after a failure."""
    import gc
    import sys

    gc.collect()
    torch = sys.modules.get("torch")  # not imported here for nothing
    if torch is not None and torch.cuda.is_initialized():
        torch.cuda.empty_cache()


def _ignore(_value) -> None:
    """Progress and segments of a second look, which are not shown as they come."""


def chunk_progress(on_progress, offset: float, samples: int, duration: float) -> Callable[[float], None]:
    """The file's progress from a chunk's own fraction."""
    chunk_seconds = samples / audio.SAMPLE_RATE

    def report(fraction: float) -> None:
        if on_progress:
            on_progress(min(1.0, (offset + fraction * chunk_seconds) / duration))

    return report


class RepairCount:
    """Counts the samples the audio reader replaced with silence because they were not numbers."""

    def __init__(self) -> None:
        self.samples = 0

    def __call__(self, count: int) -> None:
        self.samples += count

    def warnings(self) -> list[str]:
        if not self.samples:
            return []
        return [N_("Engine", "Part of the recording is damaged (samples that are not numbers: {count}); it was "
                             "replaced with silence.").format(count=self.samples)]


def recording_chunks(path, stretch: tuple[float, float] | None, chunk_seconds: float, repaired: RepairCount):
    """(offset, samples) of the recording in chunks, or of the stretch alone as one, from 0."""
    if stretch is None:
        return audio.iter_chunks(path, chunk_seconds=chunk_seconds, on_repair=repaired)
    samples = audio.decode_stretch(path, *stretch)
    return iter([(0.0, samples)] if len(samples) else [])  # past the recording's end: nothing to hear
