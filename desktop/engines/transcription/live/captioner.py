"""Live captions: 16 kHz audio in as it is captured, lines out as people speak.

The audio since the last committed line is one utterance in the making. Every STEP_SECONDS of new
audio, voice activity detection (the same Silero model as file transcription, with fine pauses)
looks at it:

- no speech at all: only a short lead-in is kept, so the next utterance starts with its first sound;
- speech followed by PAUSE_SECONDS of silence: the utterance is over. It is decoded in full, exactly
  as one chunk of a file is (beam search, the second pass, Chinese script and punctuation through the
  same TranscriptAssembly; a Whisper window sized to the utterance, see short_window.py), and its
  segments are committed;
- speech still going on: now and then a quick greedy decode gives the tentative line shown in grey.

An utterance longer than MAX_UTTERANCE_SECONDS is cut at its longest inner pause. ``finish`` decodes
whatever is left, so stopping mid-sentence keeps the sentence. No Qt, no threads: LiveSession runs
this on its own thread.
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass, replace
from typing import Callable

import numpy as np

from desktop.core.common.audio import SAMPLE_RATE
from desktop.core.glossary.correction import Corrector
from desktop.core.glossary.prompting import HeardTerms
from desktop.core.glossary.glossary_file import Term
from desktop.core.common.safe_text import clean_text
from desktop.core.transcription import chinese
from desktop.core.transcription.english_only import OTHER_LANGUAGE_WARNING, EnglishOnlySigns
from desktop.core.transcription.live_lines import CommittedLine, LiveLines
from desktop.core.transcription.options import RecognitionChoices
from desktop.core.transcription.transcript import Segment
from desktop.engines.transcription.review import second_pass
from desktop.engines.transcription.run.assembly import TranscriptAssembly
from desktop.engines.transcription.engine import LOG_PROB_THRESHOLD, EngineResult, TranscribeOptions, WhisperEngine
from desktop.engines.transcription.live.short_window import window_for

log = logging.getLogger(__name__)

STEP_SECONDS = 0.25  # how often the utterance is looked at
PAUSE_SECONDS = 0.55  # silence after speech that ends an utterance
LEAD_IN_SECONDS = 0.8  # audio kept before speech starts (VAD notices a first word a little late)
TENTATIVE_EVERY = 1.0  # seconds of wall time between two tentative decodes
MAX_UTTERANCE_SECONDS = 20.0  # Whisper reads 30 s at most; cut long speech at a pause well before
MIN_DETECTION_SECONDS = 2.0  # a tentative decode's language is reused when it heard this much
VAD_THRESHOLD = 0.35  # Silero's speech probability above which a frame is speech (its default: 0.5)
UNHEARD_PROBABILITY = 0.1  # a last segment whose words all score below this was not said
UNSURE_LOGPROB = LOG_PROB_THRESHOLD  # Whisper's log_prob_threshold: below it, a decode counts as failed


@dataclass
class LiveOptions(RecognitionChoices):
    """A file's recognition choices (language, task, prompt, beam size, Chinese script: declared once in
    ``core.transcription.options``) and live captions' own. A language of None is detected from the
    first utterance, then kept."""

    tentative: bool = True  # show a changing line while someone speaks
    glossary: tuple[Term, ...] = ()  # terms told to Whisper and put in place of their near-misses

    @classmethod
    def following(cls, choices: RecognitionChoices, *, tentative: bool = True,
                  glossary: tuple[Term, ...] = ()) -> "LiveOptions":
        """The options of captions made as a file with ``choices`` is transcribed (a job's settings)."""
        return cls(**choices.recognition_choices(), tentative=tentative, glossary=glossary)


class LiveCaptioner:
    """Feed it audio with ``feed``; committed lines go to ``lines`` and ``on_commit``."""

    def __init__(self, engine: WhisperEngine, options: LiveOptions, *,
                 on_commit: Callable[[CommittedLine], None] | None = None,
                 on_tentative: Callable[[str], None] | None = None,
                 on_warning: Callable[[str], None] | None = None,
                 clock: Callable[[], float] = time.monotonic):
        """on_warning: told once a sentence about the whole session (an English-only model hearing
        another language); it is also in ``lines.warnings``."""
        self._engine = engine
        self._options = options
        self._on_commit = on_commit
        self._on_tentative = on_tentative
        self._on_warning = on_warning
        self._english_only = EnglishOnlySigns()  # the utterances' decodings by an English-only model
        self._clock = clock
        self.lines = LiveLines()
        self.language: str | None = options.language  # the last utterance's, when detected
        # What the last tentative decode of this utterance detected, and from how many samples.
        self._heard: tuple[str | None, int] = (None, 0)
        self._corrector = Corrector(options.glossary) if options.glossary else None
        # The glossary's terms said in the lines committed so far: they steer the next utterances.
        self._terms_heard = HeardTerms(tuple(term.text for term in options.glossary))
        self._buffer = np.zeros(0, np.float32)
        self._start = 0  # session sample where the buffer starts
        self._fed = 0  # samples fed so far
        self._looked_at = 0  # samples fed when the utterance was last looked at
        self._arrivals: list[tuple[int, float]] = []  # (session sample at a block's end, clock when it came)
        self._next_tentative = float("-inf")

    @property
    def seconds(self) -> float:
        return self._fed / SAMPLE_RATE

    def feed(self, samples: np.ndarray, arrived_at: float | None = None) -> None:
        """Add captured audio (16 kHz mono float32); decodes whatever that completes."""
        samples = np.asarray(samples, dtype=np.float32).reshape(-1)
        if samples.size == 0:
            return
        self._buffer = np.concatenate([self._buffer, samples])
        self._fed += samples.size
        self._arrivals.append((self._fed, self._clock() if arrived_at is None else arrived_at))
        while self._fed - self._looked_at >= STEP_SECONDS * SAMPLE_RATE:
            # Fed faster than real time (a test, a backlog): look at each step as it would have come.
            self._looked_at = min(self._fed, self._looked_at + int(STEP_SECONDS * SAMPLE_RATE))
            self._look(self._looked_at - self._start)

    def finish(self) -> None:
        """The audio has ended: decode the utterance in progress, speech or not yet judged."""
        self._looked_at = self._fed
        speech = _speech_in(self._buffer)
        if speech:
            self._commit(min(self._buffer.size, int(speech[-1][1] * SAMPLE_RATE)))
        self._show_tentative("")

    # -- the utterance -------------------------------------------------------------------------

    def _look(self, upto: int) -> None:
        audio = self._buffer[:upto]
        speech = _speech_in(audio)
        if not speech:
            self._drop(max(0, upto - int(LEAD_IN_SECONDS * SAMPLE_RATE)))
            return
        speech_end = int(speech[-1][1] * SAMPLE_RATE)
        if upto - speech_end >= PAUSE_SECONDS * SAMPLE_RATE:
            # Up to the end of the speech (VAD's own padding included): quiet audio after the last word
            # invites Whisper to write a filler word over it.
            self._commit(speech_end, speech_end)
        elif upto > MAX_UTTERANCE_SECONDS * SAMPLE_RATE:
            self._commit(_longest_pause(speech, upto))
        elif (self._options.tentative and upto - speech_end < PAUSE_SECONDS * SAMPLE_RATE / 2
              and self._clock() >= self._next_tentative):
            # Not when a pause has begun: the final decode is likely next and must not wait for a guess.
            self._tentative(audio)

    def _drop(self, samples: int) -> None:
        if samples > 0:
            self._buffer = self._buffer[samples:]
            self._start += samples
            self._arrivals = [a for a in self._arrivals if a[0] > self._start] or self._arrivals[-1:]

    def _tentative(self, audio: np.ndarray) -> None:
        started = self._clock()
        options = replace(self._decode_options(self._options.language), beam_size=1, temperature=0.0,
                          word_timestamps=False)
        try:
            with window_for(self._engine, audio.size / SAMPLE_RATE):
                result = self._engine.transcribe(audio, options)
        except Exception:  # noqa: BLE001 - a guess that fails is only a guess; the final decode reports
            log.exception("tentative decode failed")
            return
        self._heard = (result.language, audio.size)
        # A guess is shown without passing the assembly, so its text is made safe here.
        text = clean_text("".join(segment.text for segment in result.segments)).strip()
        if self._options.task == "transcribe" and (chinese.is_chinese(result.language) or chinese.looks_chinese(text)):
            text = chinese.tidy_text(text, self._options.chinese_script)
        self._show_tentative(text)
        # On a slow computer guesses come less often, so the final decode is never kept waiting long.
        self._next_tentative = self._clock() + max(TENTATIVE_EVERY, self._clock() - started)

    def _show_tentative(self, text: str) -> None:
        self.lines.set_tentative(text)
        if self._on_tentative is not None:
            self._on_tentative(self.lines.tentative)

    def _commit(self, upto: int, speech_end: int | None = None) -> None:
        """Decode the utterance's first ``upto`` samples in full, commit its lines, and move on."""
        audio = self._buffer[:upto]
        ended_at = self._arrival_of(self._start + (speech_end if speech_end is not None else upto))
        offset = self._start / SAMPLE_RATE
        self._drop(upto)
        self._next_tentative = float("-inf")
        segments = self._decode(audio, offset)
        self.lines.language = self.language
        done = self._clock()
        for segment in segments:
            if segment.text.strip():
                line = self.lines.commit(segment, max(0.0, done - ended_at))
                self._terms_heard.hear(segment.text)
                if self._on_commit is not None:
                    self._on_commit(line)
        self._show_tentative("")

    def _decode(self, audio: np.ndarray, offset: float) -> list[Segment]:
        """One utterance through the same steps as one chunk of a file (chunks.ChunkDecoder.decode_chunk):
        the engine, the second pass, then the assembly (Chinese script and punctuation).

        With automatic language each utterance has its own, so a meeting may switch between Chinese
        and English; a tentative decode that heard most of the utterance spares a second detection.
        """
        heard, heard_from = self._heard
        self._heard = (None, 0)
        # Detection needs a good part of the utterance: from its first second, Mandarin may pass for English.
        trusted = heard_from >= max(MIN_DETECTION_SECONDS * SAMPLE_RATE, 0.7 * audio.size)
        language = self._options.language or (heard if trusted else None)
        assembly = TranscriptAssembly(task=self._options.task, chinese_script=self._options.chinese_script,
                                      language=language)
        options = self._decode_options(language)
        recover = self._decode_options(self._options.language)
        assembly.start_chunk(offset, options.initial_prompt)
        # Auto-detect: an English-only model's engine has its language checker tell the utterance's language.
        first = replace(options, check_language=self._options.language is None)
        with window_for(self._engine, audio.size / SAMPLE_RATE):
            decoded = self._engine.transcribe(audio, first)
        self._look_for_other_language(decoded)
        result = _without_unsure_tail(decoded)
        for segment in result.segments:
            assembly.stream(segment)

        def decode(part, part_options):
            with window_for(self._engine, part.size / SAMPLE_RATE):
                return self._engine.transcribe(part, part_options)

        reviewed = second_pass.review(result, audio, decode, options, recover)
        assembly.settle(reviewed, result.language, heard_speech=bool(result.speech))
        self.language = assembly.language or self.language
        segments = _without_unheard_tail(assembly.segments)
        if self._corrector is not None:
            for segment in segments:
                self._corrector.correct_segment(segment)
        return segments

    def _look_for_other_language(self, result: EngineResult) -> None:
        """With Auto-detect, what a multilingual model heard, or an English-only model's unsureness, over
        the session so far may say the speech is in another language (``english_only``): said once, as
        for a file."""
        if result.multilingual or self._options.language is not None or self._options.task != "transcribe":
            return
        self._english_only.add(result.segments, result.avg_logprobs, result.speech, result.checked)
        if OTHER_LANGUAGE_WARNING in self.lines.warnings or not self._english_only.other_language():
            return
        self.lines.warn(OTHER_LANGUAGE_WARNING)
        if self._on_warning is not None:
            self._on_warning(OTHER_LANGUAGE_WARNING)

    def _decode_options(self, language: str | None) -> TranscribeOptions:
        return TranscribeOptions(
            language=language,
            task=self._options.task,
            # The Mandarin prompt only for a language the user chose, as for the start of a file: over
            # a detected language it invites a filler word after the utterance.
            initial_prompt=chinese.initial_prompt(self._options.language, self._options.task,
                                                  self._options.initial_prompt),
            beam_size=self._options.beam_size,
            # Each utterance stands alone: the text before it is already on screen and final.
            condition_on_previous_text=False,
            glossary_terms=tuple(term.text for term in self._options.glossary),
            glossary_heard=self._terms_heard.ordered(),
        )

    def _arrival_of(self, sample: int) -> float:
        """When the audio up to ``sample`` had been captured."""
        for end, when in self._arrivals:
            if end >= sample:
                return when
        return self._arrivals[-1][1] if self._arrivals else self._clock()


def _speech_in(audio: np.ndarray) -> list[tuple[float, float]]:
    """The (start, end) seconds of speech in the utterance so far, found with the same Silero model as
    file transcription, a little more sensitive than its default (a short quiet word such as "not"
    after a pause still counts), pauses from 0.3 s apart."""
    if audio.size == 0 or not np.any(audio):
        return []
    from faster_whisper.vad import VadOptions, get_speech_timestamps

    options = VadOptions(threshold=VAD_THRESHOLD, min_silence_duration_ms=300, speech_pad_ms=150)
    speech = get_speech_timestamps(audio, options, sampling_rate=SAMPLE_RATE)
    return [(s["start"] / SAMPLE_RATE, s["end"] / SAMPLE_RATE) for s in speech if s["end"] > s["start"]]


def _without_unsure_tail(result: EngineResult) -> EngineResult:
    """The result without last segments after the first that Whisper decoded with an average
    log-probability under its own threshold for a failed decode (-1.0): a filler word over the end of
    an utterance ("我认识了", "不要"), which a whole file's decoding would have run past."""
    segments, logprobs = list(result.segments), list(result.avg_logprobs)
    if len(logprobs) != len(segments):
        return result
    while len(segments) > 1 and logprobs[-1] < UNSURE_LOGPROB:
        log.info("Dropped an unsure segment at the end of an utterance: %r", segments[-1].text)
        segments, logprobs = segments[:-1], logprobs[:-1]
    return replace(result, segments=segments, avg_logprobs=logprobs)


def _without_unheard_tail(segments: list[Segment]) -> list[Segment]:
    """The segments without a last one Whisper itself gives almost no chance (every word under
    UNHEARD_PROBABILITY): a filler word ("好", "对", "you") written over the quiet end of an utterance."""
    while segments and segments[-1].words and all(w.probability < UNHEARD_PROBABILITY for w in segments[-1].words):
        log.info("Dropped an unheard word at the end of an utterance: %r", segments[-1].text)
        segments = segments[:-1]
    return segments


def _longest_pause(speech: list[tuple[float, float]], upto: int) -> int:
    """Where to cut speech that goes on too long: the middle of its longest pause, else everything."""
    pauses = [(speech[i + 1][0] - speech[i][1], (speech[i][1] + speech[i + 1][0]) / 2)
              for i in range(len(speech) - 1)]
    if not pauses:
        return upto
    return int(max(pauses)[1] * SAMPLE_RATE)
