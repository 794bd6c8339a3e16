"""Transcribe one file end to end: the single code path behind the window and the CLI.

Chooses engine and device, keeps the model loaded between files, reads long recordings in bounded
chunks (each decoded by ``chunks.ChunkDecoder``), and retries on the CPU when the GPU fails
(recording the fallback so the user sees it).
The model runs in an engine process of its own (``isolated``): a crash or a hang there is reported
and, on the GPU, the file is finished on the CPU after the segments already shown. No Qt here.
"""
from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path
from typing import Callable

from desktop.core.common import audio

from desktop.core.glossary.correction import Corrector
from desktop.core.glossary.glossary_file import all_terms, load_glossaries
from desktop.core.common.errors import Cancelled, ModelError, UserFacingError
from desktop.core.gpu.fallback import FallbackLog, SlowPathWarnings, run_with_gpu_fallback
from desktop.core.transcription.english_only import OTHER_LANGUAGE_WARNING
from desktop.core.transcription.options import CHINESE_SCRIPT
from desktop.core.transcription.server_config import ServerConfig
from desktop.core.transcription.stages import Stage
from desktop.core.transcription.whisper_models import LocalModel, ModelStore
from desktop.core.transcription.transcript import Segment, Transcript
from desktop.engines.speakers.stage import SpeakersStage, split_progress
from desktop.engines.transcription.run.assembly import TranscriptAssembly
from desktop.engines.transcription.run.one_at_a_time import OneAtATime
from desktop.engines.transcription.chunks import (
    ChunkDecoder, FileJob, RepairCount, chunk_progress, free_gpu_memory, recording_chunks,
)
from desktop.engines.transcription.engine import WhisperEngine
from desktop.engines.transcription.process.isolated import DEFAULT_HANG_SECONDS, IsolatedEngine
from desktop.engines.transcription.plan import (
    FORMATS_FOR_ENGINE,
    Plan,
    TranscribeSettings,  # noqa: F401 - the settings of a job, which the Transcriber's callers import from here
    check_choices,
    automatic_gpu_plan,
    cpu_plan,
    ct2_gpu_count,
    language_checker,
    local_model,
    local_plan,
    torch_gpu_works,
    wants_gpu,
)
from desktop.engines.transcription.known_answer import GpuProof, record_wrong_answers
from desktop.core.common.i18n import N_

log = logging.getLogger(__name__)

NOTHING_TRANSCRIBED = N_("Engine", "Speech was heard in this file, but none of it could be transcribed; try a "
                                    "larger model, or choose the language.")
NO_SERVER_CONFIGURED = N_("Engine", "No transcription server is set: enter its address in Settings → Transcription "
                                    "server (on the command line: --server URL).")
GPU_STOPPED_CONTINUING = N_("Engine", "The graphics driver stopped responding; continuing on the CPU…")


class Transcriber:
    """Owns the loaded Whisper model; one job at a time (the queue guarantees it)."""

    def __init__(
        self,
        store: ModelStore,
        fallback_log: FallbackLog,
        *,
        gpu_available: Callable[[], bool] = torch_gpu_works,
        ct2_gpu_count: Callable[[], int] = ct2_gpu_count,
        chunk_seconds: float = 600.0,
        isolate: bool = True,
        hang_seconds: float = DEFAULT_HANG_SECONDS,
        gpu_proof: "GpuProof | None" = None,
    ):
        """isolate: run the model in an engine process (False: in this process, for comparisons);
        hang_seconds: how long the engine process may stay silent (loading, decoding) before it is
        taken for hung; gpu_proof: the GPU's known-answer check and Automatic's choice of engine there
        (``known_answer.GpuProof``; None: openai-whisper on the GPU, unchecked)."""
        self._store = store
        self._fallbacks = fallback_log
        self._gpu_available = gpu_available
        self._ct2_gpu_count = ct2_gpu_count
        self._chunk_seconds = chunk_seconds
        self._engine: WhisperEngine | None = None
        self._engine_key: tuple | None = None
        self._gpu_broken = False  # set after a fallback: later files go straight to the CPU
        self._turns = OneAtATime()
        self._server: WhisperEngine | None = None  # the server engine, kept beside the local one
        self._server_key: tuple[ServerConfig, str] | None = None
        self._speakers = SpeakersStage()
        self._isolate = isolate
        self._hang_seconds = hang_seconds
        self._job_cancelled: Callable[[], bool] | None = None  # the running job's, while it runs
        self._job_stage: Callable[[Stage], None] | None = None  # the running job's on_stage, while it runs
        self._stage_now: Stage | None = None  # the stage the running job was last told
        self._job_seconds: float | None = None  # the running job's recording length, once probed
        self._gpu_proof = gpu_proof
        self.gpu_note: str | None = None  # why Automatic did not use the GPU, or which engine it took there

    # -- choices -------------------------------------------------------------------------------

    def plan(self, settings: TranscribeSettings) -> Plan:
        """Which engine on which device, from the user's choices and what this machine has."""
        check_choices(settings)
        if self._uses_server(settings):
            return Plan("server", "server")
        gpu = wants_gpu(settings, gpu_available=self._gpu_available, gpu_unusable=self._fallbacks.gpu_unusable,
                        gpu_broken=self._gpu_broken)
        if settings.engine == "auto" and gpu and self._gpu_proof is not None:
            # Measured and checked on this card: faster-whisper or openai-whisper, or the processor.
            proved, self.gpu_note = automatic_gpu_plan(settings, self._gpu_proof, self._ct2_gpu_count)
            if proved is not None:
                return proved
            # Asked for the GPU: it gets it, and the check before loading still catches wrong words.
        return local_plan(settings, wants_gpu=gpu, ct2_gpu_count=self._ct2_gpu_count)

    def missing_model(self, settings: TranscribeSettings) -> tuple[str, str] | None:
        """The (name, format) to download before this job can run, or None when it is on disk."""
        plan = self.plan(settings)
        if plan.engine == "server":
            return None  # the server has its model; the local one is fetched only if it is ever needed
        if local_model(self._store, settings.model, plan.engine) is not None:
            return None
        if settings.model not in self._store.names():
            raise ModelError(
                N_("Engine", 'There is no model called "{model}": choose one from the list, or import it first '
                             "(File → Import model… in the window, voxdesk models import on the command line).").format(
                    model=settings.model)
            )
        return settings.model, FORMATS_FOR_ENGINE[plan.engine][0]

    # -- the model -----------------------------------------------------------------------------

    def _load(self, model: LocalModel, plan: Plan) -> WhisperEngine:
        """``model`` loaded for ``plan``, with the multilingual model that tells the language of speech
        when ``model`` understands only English (``plan.language_checker``)."""
        from desktop.engines.transcription.decoders.loading import load_engine

        checker = language_checker(self._store, model.name)
        if not self._isolate:
            return load_engine(model, plan.engine, plan.device, checker=checker, expect_seconds=self._job_seconds)
        engine = IsolatedEngine(model, plan.engine, plan.device, checker=checker, hang_seconds=self._hang_seconds)
        return engine.load(self._job_cancelled, expect_seconds=self._job_seconds)

    def _engine_for(self, settings: TranscribeSettings, plan: Plan, on_status) -> WhisperEngine:
        model = local_model(self._store, settings.model, plan.engine)
        # A multilingual model downloaded since the last file tells an English-only model's languages from now on.
        checker = None if model is None else language_checker(self._store, model.name)
        key = (settings.model, plan.engine, plan.device, None if checker is None else checker.path)
        if self._engine is not None and self._engine_key == key:
            if self._job_seconds:
                self._engine.expect(self._job_seconds)
            return self._engine
        self._unload()
        if model is None:
            raise ModelError(
                N_("Engine", 'The model "{model}" is not on this computer yet: download it from the model list, or '
                             "import it (File → Import model… in the window, voxdesk models import on the command "
                             "line).").format(model=settings.model)
            )
        interrupted = self._stage_now  # a GPU failure while listening loads the CPU's model, then listens on
        self._enter(Stage.LOADING)
        if on_status:
            where = "GPU" if plan.device == "cuda" else "CPU"
            on_status(N_("Engine", "Loading the {name} model on the {where}…").format(name=model.name, where=where))
        self._engine = self._load(model, plan)
        self._engine_key = key
        if interrupted is Stage.LISTENING:
            self._enter(Stage.LISTENING)
        return self._engine

    def _enter(self, stage: Stage) -> None:
        """Tell the running job that its file entered stage."""
        self._stage_now = stage
        if self._job_stage:
            self._job_stage(stage)

    def release(self) -> None:
        """Free the loaded model (GPU memory too); the next job loads it again.

        Waits for a running job to finish: call it off the GUI thread.
        """
        with self._turns.turn(None, None):
            self._unload()
            self._close_server()
            self._gpu_broken = False  # a new model (or a smaller one) deserves a new try on the GPU

    def _unload(self) -> None:
        engine, self._engine, self._engine_key = self._engine, None, None
        if engine is not None:
            engine.close()

    @property
    def loaded(self) -> str | None:
        if self._engine is None:
            return None
        name, engine, device, _checker = self._engine_key
        return f"{name} ({engine}, {'GPU' if device == 'cuda' else 'CPU'})"

    # -- the job -------------------------------------------------------------------------------

    def transcribe_file(
        self,
        path: str | Path,
        settings: TranscribeSettings,
        *,
        stretch: tuple[float, float] | None = None,
        on_progress: Callable[[float], None] | None = None,
        on_segment: Callable[[Segment], None] | None = None,
        on_status: Callable[[str], None] | None = None,
        on_note: Callable[[str], None] | None = None,
        on_stage: Callable[[Stage], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> Transcript:
        """Transcribe one recording; raises a UserFacingError with a ready sentence, or Cancelled.

        on_stage is told each Stage as the file enters it (loading only when the model is not loaded yet).

        stretch: (start, end) in seconds to transcribe only that part (*Transcribe again…* on some lines),
        decoded as one chunk of the file is, without the speakers stage; its transcript's times start at 0.
        """
        with self._turns.turn(cancelled, on_status):
            self._job_cancelled, self._job_stage, self._stage_now = cancelled, on_stage, None
            try:
                return self._transcribe(Path(path), settings, stretch, on_progress, on_segment, on_status, on_note,
                                        cancelled)
            finally:
                self._job_cancelled = self._job_stage = self._stage_now = self._job_seconds = None

    def _transcribe(self, path, settings, stretch, on_progress, on_segment, on_status, on_note,
                    cancelled) -> Transcript:
        is_cancelled = cancelled or (lambda: False)
        if stretch is not None:
            settings = replace(settings, speakers="off")  # a few lines keep the speakers they had
        on_progress, speakers_progress = split_progress(on_progress, settings.speakers)
        if not CHINESE_SCRIPT.allows(settings.chinese_script):
            raise ValueError(f"unknown Chinese script choice: {settings.chinese_script}")
        self._enter(Stage.READING)
        if on_status:
            on_status(N_("Engine", "Reading the file…"))
        info = audio.probe(path)
        length = info.duration
        if stretch is not None:
            length = max(0.0, min(stretch[1], info.duration or stretch[1]) - stretch[0])
        duration = max(length, 1e-6)
        self._job_seconds = length  # the engine may prepare for a recording this long while it is read
        engine = self._load_with_fallback(settings, self.plan(settings), path.name, on_status)
        assembly = TranscriptAssembly(task=settings.task, chinese_script=settings.chinese_script,
                                      language=settings.language, on_segment=on_segment)
        glossaries, glossary_problems = load_glossaries(settings.glossary_files)
        for problem in glossary_problems:  # that glossary is left out; the recording is transcribed all the same
            if on_note:
                on_note(problem)
        terms = all_terms(glossaries)
        job = FileJob(settings, path.name, is_cancelled, on_status, glossary_terms=tuple(term.text for term in terms))
        chunks = ChunkDecoder(job, self, self._fallbacks)
        repaired = RepairCount()
        warnings = SlowPathWarnings()
        self._enter(Stage.LISTENING)
        with warnings:
            for offset, samples in recording_chunks(path, stretch, self._chunk_seconds, repaired):
                if is_cancelled():
                    raise Cancelled()
                if on_status:
                    on_status(N_("Engine", "Transcribing…"))
                engine = chunks.decode_chunk(engine, assembly, offset, samples,
                                             chunk_progress(on_progress, offset, len(samples), duration))
        for note in warnings.notes:
            if on_note:
                on_note(note)
        if assembly.heard_speech and not any(segment.text.strip() for segment in assembly.segments):
            raise UserFacingError(NOTHING_TRANSCRIBED)
        self._enter(Stage.WRITING)
        if on_progress:
            on_progress(1.0)
        # Auto-detect with an English-only model answers English whatever is said: its own unsureness tells.
        other_language = [OTHER_LANGUAGE_WARNING] if (
            settings.language is None and settings.task == "transcribe" and chunks.english_only.other_language()) else []
        transcript = assembly.transcript(duration=length, source=str(path),
                                         warnings=[*other_language, *glossary_problems, *repaired.warnings()])
        if terms:
            Corrector(terms).correct_transcript(transcript)
            transcript.glossaries = [glossary.name for glossary in glossaries]
        return self._speakers.run(transcript, path, settings.speakers, on_progress=speakers_progress,
                                  on_status=on_status, cancelled=is_cancelled)

    def _load_with_fallback(self, settings, plan: Plan, job: str, on_status) -> WhisperEngine:
        if plan.engine == "server":
            return self._server_engine(settings)
        if plan.device == "cpu":
            return self._engine_for(settings, plan, on_status)

        def on_cpu() -> WhisperEngine:
            self._gpu_broken = True  # it would fail again for the next file
            if on_status:
                on_status(N_("Engine", "The GPU could not load the model; using the CPU…"))
            return self._engine_for(settings, cpu_plan(settings, plan), on_status)

        if not self._proved_on_gpu(settings, plan, job, on_status):
            return self._engine_for(settings, cpu_plan(settings, plan), on_status)
        return run_with_gpu_fallback(
            job, N_("Engine", "load model"), lambda: self._engine_for(settings, plan, on_status), on_cpu, self._fallbacks,
            free_memory=free_gpu_memory,
        )

    def _proved_on_gpu(self, settings, plan: Plan, job: str, on_status) -> bool:
        """The GPU's known-answer check before its first use on this machine (``known_answer``): False
        when this job goes to the processor instead (wrong words, or slower under Automatic)."""
        model = local_model(self._store, settings.model, plan.engine) if self._gpu_proof is not None else None
        if model is None:
            return True
        if on_status and self._gpu_proof.kept(plan.engine) is None:
            on_status(N_("Engine", "Checking that the GPU gives the right words…"))
        cpu_model = local_model(self._store, settings.model, "ct2") or model
        cpu_engine = "ct2" if cpu_model.format == "ct2" else plan.engine
        verdict = run_with_gpu_fallback(
            job, N_("Engine", "check the GPU"),
            lambda: self._gpu_proof.prove(model, plan.engine, lambda m, e, d: self._load(m, Plan(e, d)),
                                          cpu_model=cpu_model, cpu_engine=cpu_engine, cancelled=self._job_cancelled),
            lambda: None, self._fallbacks, free_memory=free_gpu_memory,
        )
        if verdict is None:  # the GPU failed during the check: recorded as a fallback already
            self._gpu_broken = True
            return False
        if verdict.wrong:
            record_wrong_answers(self._fallbacks, job, verdict)
            self.gpu_note = verdict.sentence()
            return False
        if verdict.slower and settings.device == "auto":
            self.gpu_note = verdict.sentence()
            if on_status:
                on_status(self.gpu_note)
            return False
        if settings.engine != "auto" or settings.device != "auto":
            self.gpu_note = verdict.sentence()
        return True

    def engine_after_gpu_failure(self, job: FileJob, failed: WhisperEngine) -> WhisperEngine:
        """The processor's engine for the rest of ``job`` after the GPU failed while decoding; said on its status."""
        self._gpu_broken = True  # it would fail again for the next file
        if job.on_status:
            job.on_status(GPU_STOPPED_CONTINUING if self._fallbacks.gpu_unusable
                          else N_("Engine", "The GPU failed; continuing on the CPU…"))
        plan = cpu_plan(job.settings, Plan(failed.name, failed.device))
        return self._engine_for(job.settings, plan, job.on_status)

    # -- the transcription server --------------------------------------------------------------

    def _uses_server(self, settings: TranscribeSettings) -> bool:
        if settings.engine == "server":
            if settings.server is None:
                raise UserFacingError(NO_SERVER_CONFIGURED)
            return True
        if settings.server is None:
            return False
        return settings.server.use == "always" or self._gpu_broken or not self._gpu_available()

    def _server_engine(self, settings: TranscribeSettings) -> WhisperEngine:
        from desktop.core.transcription.server_config import ServerKeyStore

        config = settings.server
        # Read for every file: a key changed in Settings applies to the next file.
        key = config.api_key if config.api_key is not None else ServerKeyStore().load(config.url)
        if self._server is None or self._server_key != (config, key):
            from desktop.engines.transcription.server.engine import ServerWhisperEngine

            self._close_server()
            self._server, self._server_key = ServerWhisperEngine(config, key), (config, key)
        return self._server

    def _close_server(self) -> None:
        server, self._server, self._server_key = self._server, None, None
        if server is not None:
            server.close()

    def engine_after_server_failure(self, job: FileJob) -> WhisperEngine:
        """This computer's engine for the rest of ``job`` after the server failed (recorded as a fallback)."""
        settings = job.settings
        local = replace(settings, engine="auto" if settings.engine == "server" else settings.engine, server=None)
        return self._load_with_fallback(local, self.plan(local), job.name, job.on_status)
