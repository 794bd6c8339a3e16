"""Whisper on a shared server (vLLM on ROCm, or any OpenAI-compatible Whisper server): the "server" engine.

VoxDesk decodes the file and runs its own voice activity detection as for the local engines; the
speech is cut at pauses into pieces of at most ``PIECE_SECONDS``, each sent as FLAC, several at once.
Answers come back in any order and are passed on in order, with their times moved back onto the
recording, so progress is real and the assembly (Chinese script, punctuation, overlaps) is the same.

When the server fails, ``ServerStopped`` says where: everything before ``resume_at`` was already
passed on, nothing after it was, so the rest can be transcribed locally without showing anything twice.
"""
from __future__ import annotations

import concurrent.futures as futures
import io
import logging
import time
from collections import Counter
from dataclasses import dataclass, replace

import numpy as np

from desktop.core.common.audio import SAMPLE_RATE
from desktop.core.common.errors import UserFacingError
from desktop.core.common.i18n import N_
from desktop.core.glossary.prompting import HeardTerms
from desktop.core.transcription.server_config import ServerConfig
from desktop.core.transcription.speech_limits import AnswerNote
from desktop.core.transcription.transcript import Segment
from desktop.engines.transcription.engine import (
    CancelCheck,
    EngineResult,
    ProgressCallback,
    ProgressReporter,
    SegmentCallback,
    TranscribeOptions,
)
from desktop.engines.transcription.decoders.vad import TimeMap, speech_to_decode
from desktop.engines.transcription.server.answers import answer_segments
from desktop.engines.transcription.server.client import Answer, ServerClient, ServerError
from desktop.engines.transcription.server.pieces import PIECE_SECONDS, Piece, cut_into_pieces, encode_flac

log = logging.getLogger(__name__)

DEFAULT_MODEL = "whisper-1"  # OpenAI's name; single-model servers accept any


class ServerStopped(ServerError):
    """The server failed part-way: ``finished`` holds what was passed on, all of it before ``resume_at``."""

    def __init__(self, error: ServerError, *, resume_at: float, finished: EngineResult):
        super().__init__(error.message, fix=error.fix, detail=error.detail)
        self.resume_at = resume_at  # seconds on the timeline of the audio given
        self.finished = finished


class ServerWhisperEngine:
    """See ``desktop.engines.transcription.engine.WhisperEngine``; the model runs on the server."""

    name = "server"
    device = "server"

    def __init__(self, config: ServerConfig, api_key: str = "", *, backoff: float = 0.5,
                 piece_seconds: float = PIECE_SECONDS):
        self.config = config
        self.model_name = config.model or DEFAULT_MODEL
        self.piece_seconds = piece_seconds
        self._client = ServerClient(config.url, api_key, timeout=config.timeout, backoff=backoff)
        self._model: str | None = config.model or None

    @property
    def host(self) -> str:
        return self._client.host

    def expect(self, seconds: float) -> None:
        """Nothing to prepare: the server has its model."""

    def close(self) -> None:
        self._client.close()

    def models(self) -> list[str]:
        return self._client.models()

    def transcribe(self, audio: np.ndarray, options: TranscribeOptions, *, on_progress: ProgressCallback | None = None,
                   on_segment: SegmentCallback | None = None, cancelled: CancelCheck | None = None) -> EngineResult:
        progress = ProgressReporter(on_progress, cancelled)
        found = speech_to_decode(audio, options, progress)
        if found is None:
            return EngineResult(segments=[], language=options.language, device=self.device)
        _, time_map = found
        audio = np.asarray(audio, dtype=np.float32)
        pieces = cut_into_pieces(audio, time_map.chunks, self.piece_seconds)
        speech = time_map.speech_stretches(audio.size / SAMPLE_RATE)
        run = None
        try:
            # A listing that failed ends the server's part here, before any piece waits again.
            run = _PieceRun(self, audio, pieces, options, self.model_to_ask(), progress, on_segment)
            run.until_done()
        except ServerError as error:
            if run is None:
                raise ServerStopped(error, resume_at=0.0, finished=EngineResult(
                    segments=[], language=None, device=self.device)) from error
            resume_at = run.resume_at()
            finished = EngineResult(segments=run.passed_on, language=run.language(),
                                    speech=[(start, min(end, resume_at)) for start, end in speech if start < resume_at],
                                    notes=run.notes, device=self.device)
            raise ServerStopped(error, resume_at=resume_at, finished=finished) from error
        progress.report(1.0)
        return EngineResult(segments=run.passed_on, language=run.language() or options.language, speech=speech,
                            avg_logprobs=run.avg_logprobs if len(run.avg_logprobs) == len(run.passed_on) else [],
                            notes=run.notes, device=self.device)

    def model_to_ask(self) -> str:
        """The configured model, else the first the server lists, else OpenAI's name for Whisper.

        Raises the listing's ServerError when the server gave no answer (silent, unreachable, the wrong
        address) or one that any request would get (a refused key, a failing server): asking it again
        for the transcription would only wait as long once more. A listing the server merely refuses
        (a 4xx of its own) leaves the model to the transcription request."""
        if self._model is None:
            try:
                listed = self._client.models()
            except ServerError as error:
                if not _only_the_listing(error):
                    raise
                listed = []  # the transcription request itself will say what is wrong
            self._model = listed[0] if listed else DEFAULT_MODEL
        return self._model

    def ask(self, samples: np.ndarray, options: TranscribeOptions, model: str) -> Answer:
        return self._client.transcribe(encode_flac(samples), "speech.flac", model=model, task=options.task,
                                       language=options.language, prompt=options.prompt_with_glossary(),
                                       temperature=options.temperature)


def _only_the_listing(error: ServerError) -> bool:
    """Whether a failed model listing says nothing about the transcription request: the server answered,
    with a list VoxDesk cannot read or a refusal of its own (not a refused key, not overloaded)."""
    status = error.status
    return status is not None and (200 <= status < 300 or (400 <= status < 500 and status not in (401, 403, 429)))


class _PieceRun:
    """Sends the pieces, ``concurrency`` at a time, and passes their segments on in order."""

    def __init__(self, engine: ServerWhisperEngine, audio: np.ndarray, pieces: list[Piece], options: TranscribeOptions,
                 model: str, progress: ProgressReporter, on_segment: SegmentCallback | None):
        self._engine, self._audio, self._pieces = engine, audio, pieces
        self._options, self._model, self._progress, self._on_segment = options, model, progress, on_segment
        self._answers: dict[int, Answer] = {}
        self._next = 0  # the first piece not passed on yet
        self._heard: Counter[str] = Counter()  # samples of speech per language the server detected
        self.passed_on: list[Segment] = []
        self.avg_logprobs: list[float] = []
        self.notes: list[AnswerNote] = []  # what was changed in the answers passed on
        self._terms = HeardTerms(options.glossary_terms, options.glossary_heard)
        self._heard_until = 0  # the segments passed on that _terms has heard

    def until_done(self) -> None:
        total = max(1, sum(piece.samples for piece in self._pieces))
        done_samples = 0
        pool = futures.ThreadPoolExecutor(self._engine.config.concurrency, thread_name_prefix="server-piece")
        pending: dict[futures.Future, int] = {}
        queued = iter(range(len(self._pieces)))
        try:
            while True:
                while len(pending) < self._engine.config.concurrency and (index := next(queued, None)) is not None:
                    pending[pool.submit(self._ask, index, self._options_now())] = index
                if not pending:
                    return
                done, _ = futures.wait(pending, timeout=0.2, return_when=futures.FIRST_COMPLETED)
                self._progress.check()
                for future in done:
                    index = pending.pop(future)
                    self._answers[index] = future.result()  # a ServerError ends the run here
                    done_samples += self._pieces[index].samples
                self._pass_on_in_order()
                self._progress.report(done_samples / total)
        finally:
            pool.shutdown(wait=False, cancel_futures=True)

    def _options_now(self) -> TranscribeOptions:
        """The next piece's options: the glossary's terms heard in the pieces passed on so far first."""
        if not self._options.glossary_terms:
            return self._options
        for segment in self.passed_on[self._heard_until:]:
            self._terms.hear(segment.text)
        self._heard_until = len(self.passed_on)
        return replace(self._options, glossary_terms=self._terms.ordered())

    def _ask(self, index: int, options: TranscribeOptions) -> Answer:
        piece = self._pieces[index]
        samples = np.concatenate([self._audio[start:end] for start, end in piece.ranges])
        started = time.monotonic()
        answer = self._engine.ask(samples, options, self._model)
        log.debug("piece %d (%.1f s) took %.2f s", index, piece.samples / SAMPLE_RATE, time.monotonic() - started)
        return answer

    def _pass_on_in_order(self) -> None:
        while self._next in self._answers:
            piece, answer = self._pieces[self._next], self._answers.pop(self._next)
            if answer.language:
                self._heard[answer.language] += piece.samples
            time_map = TimeMap(chunks=piece.ranges)
            segments, changes = answer_segments(answer, piece.samples / SAMPLE_RATE)
            for kind in sorted(changes):
                log.info("piece %d: the server's answer needed a change (%s)", self._next, kind)
                self.notes.append(AnswerNote(kind, start=piece.ranges[0][0] / SAMPLE_RATE))
            for segment, logprob in segments:
                restored = time_map.restore(segment)
                self.passed_on.append(restored)
                self.avg_logprobs.append(logprob)
                if self._on_segment is not None:
                    self._on_segment(restored)
            self._next += 1

    def resume_at(self) -> float:
        """Where the first piece not passed on starts, half-way into the pause before it."""
        if self._next == 0:
            return 0.0
        if self._next >= len(self._pieces):
            return self._audio.size / SAMPLE_RATE
        before, start = self._pieces[self._next - 1].ranges[-1][1], self._pieces[self._next].ranges[0][0]
        return round((before + start) / 2 / SAMPLE_RATE, 3)

    def language(self) -> str | None:
        return self._heard.most_common(1)[0][0] if self._heard else None


@dataclass(frozen=True)
class ConnectionCheck:
    seconds: float  # the round trip of one second of speech
    text: str  # what the server heard in it
    models: list[str]  # what the server lists at /v1/models (empty when it lists none)


def check_connection(config: ServerConfig, api_key: str) -> ConnectionCheck:
    """Send VoxDesk's one second of test speech to the server and time the answer, the better of two
    tries (Settings → Test connection). Raises a UserFacingError with the problem and its fix."""
    import soundfile

    from desktop.resources import resource_path

    # The first second of the test speech Tools → Measure this computer uses too ("And so").
    sound = resource_path("speech", "test-speech.flac").read_bytes()
    samples, _ = soundfile.read(io.BytesIO(sound), dtype="float32", frames=SAMPLE_RATE)
    engine = ServerWhisperEngine(config, api_key)
    try:
        models = engine.models()
        seconds, answer = float("inf"), None
        for _ in range(2):  # the best of two: the first may include the server loading its model
            started = time.monotonic()
            answer = engine.ask(samples, TranscribeOptions(language="en", vad=False), engine.model_to_ask())
            seconds = min(seconds, time.monotonic() - started)
    except ServerError as error:
        raise UserFacingError(N_("Server", "{problem} {fix}").format(problem=error.message, fix=error.fix),
                              detail=error.detail) from error
    finally:
        engine.close()
    return ConnectionCheck(seconds=seconds, text=answer.text.strip(), models=models)
