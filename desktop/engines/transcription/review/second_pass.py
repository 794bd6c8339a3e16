"""A second look at what an engine decoded, the same for every engine: loops decoded again, and
speech that no segment covers decoded on its own.

Whisper decodes each 30-second window once and may stop early (a change of language mid-window is
the usual cause) or fall into its known loop. Both leave a trace this module can see: voice activity
detection heard speech where no segment is, or the same text comes back again and again.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from typing import Callable

import numpy as np

from desktop.core.common.audio import SAMPLE_RATE
from desktop.core.transcription.speech_limits import AnswerNote
from desktop.core.transcription.transcript import Segment
from desktop.engines.transcription.review import coverage, repetition
from desktop.engines.transcription.decoders import vad
from desktop.engines.transcription.engine import EngineResult, TranscribeOptions

log = logging.getLogger(__name__)

Decode = Callable[[np.ndarray, TranscribeOptions], EngineResult]
ECHO_SECONDS = 1.5  # a recovered segment this short, this close to a neighbour saying it, is that neighbour's
MAX_ROUNDS = 3  # times a stretch's remaining speech is decoded on its own
LOOP_TEMPERATURE = 0.4  # Whisper's fallback goes 0.0, 0.2, 0.4 …: two steps up, still mostly sure

Heard = tuple[Segment, "str | None"]  # a segment and the language it was heard in (None: the chunk's)


@dataclass
class Review:
    segments: list[Heard]  # in time order, on the timeline of the decoded audio
    gaps: list[tuple[float, float]] = field(default_factory=list)  # speech still without text
    changed: bool = False  # whether segments differ from the engine's first result
    notes: list[AnswerNote] = field(default_factory=list)  # what was changed in the answers kept (a server's)


def review(result: EngineResult, samples: np.ndarray, decode: Decode, options: TranscribeOptions,
           recover_options: TranscribeOptions) -> Review:
    """The segments of ``result`` with loops decoded again (``options`` without a prompt, at a higher
    temperature) and uncovered speech decoded on its own (``recover_options``: language as chosen)."""
    heard: list[Heard] = [(segment, None) for segment in result.segments]
    logprobs = result.avg_logprobs if len(result.avg_logprobs) == len(result.segments) else []
    changed = False
    notes = list(result.notes)  # and those of every answer that replaces or adds to the first
    for first, last in reversed(repetition.loops(result.segments)):
        replacement = _without_loop(result.segments[first:last], logprobs[first:last], samples, decode, options,
                                    notes)
        if replacement is not None:
            heard[first:last] = replacement
            changed = True
    gaps: list[tuple[float, float]] = []
    for start, end in coverage.uncovered(result.speech, [segment for segment, _ in heard]):
        recovered, missing = _recovered(start, end, samples, decode, recover_options, heard, notes)
        if recovered:
            heard = sorted(heard + recovered, key=lambda item: item[0].start)
            changed = True
        gaps.extend(missing)
    return Review(segments=heard, gaps=gaps, changed=changed, notes=notes)


def _without_loop(looping: list[Segment], logprobs: list[float], samples: np.ndarray, decode: Decode,
                  options: TranscribeOptions, notes: list[AnswerNote]) -> list[Heard] | None:
    """The stretch of ``looping`` decoded again, or None when the first decoding is the better one."""
    start, end = looping[0].start, looping[-1].end
    again = decode(_slice(samples, start, end),
                   replace(options, initial_prompt=None, glossary_terms=(), condition_on_previous_text=False,
                           temperature=LOOP_TEMPERATURE))
    segments = [segment.shifted(start, within=(start, end), digits=3) for segment in again.segments]
    first = repetition.Decoding(looping, _mean(logprobs, default=0.0))
    second = repetition.Decoding(segments, _mean(again.avg_logprobs, default=float("-inf")))
    if repetition.said_again(first, second):
        # Heard the same without a prompt and at a higher temperature: the speaker said it again (a
        # meeting repeating its agenda), it is no loop; a sampled rewording would only add mistakes.
        log.info("Kept text said again: %r", first.text)
        return None
    if repetition.better(first, second) is first:
        log.info("Kept a possible loop after decoding it again: %r", first.text)
        return None
    log.info("Replaced a loop %r with %r", first.text, second.text)
    notes.extend(note.shifted(start) for note in again.notes)
    return [(segment, again.language) for segment in segments]


def _recovered(start: float, end: float, samples: np.ndarray, decode: Decode, options: TranscribeOptions,
               heard: list[Heard], notes: list[AnswerNote]) -> tuple[list[Heard], list[tuple[float, float]]]:
    """What decoding [start, end) on its own yields, and the speech in it that is still without text.

    Decoding a stretch on its own can stop early too; what it leaves is decoded on its own in turn,
    for as long as each round finds something new (at most MAX_ROUNDS rounds).
    """
    neighbours = [segment for segment, _ in heard if segment.end <= start + 0.01 or segment.start >= end - 0.01]
    recovered: list[Heard] = []
    gaps: list[tuple[float, float]] = []
    pending = [(start, end)]
    for round_number in range(MAX_ROUNDS):
        left: list[tuple[float, float]] = []
        for begin, finish in pending:
            speech = [(begin + a, begin + b) for a, b in vad.speech_in(_slice(samples, begin, finish))]
            if coverage.total(speech) < coverage.MIN_SPEECH:
                continue  # a pause, breathing, a word's tail: nothing to decode
            found = _decoded_alone(speech, begin, finish, samples, decode, options, neighbours, notes)
            recovered += found
            for between in coverage.uncovered([(begin, finish)], [segment for segment, _ in found]):
                inside = coverage.clipped(speech, *between)
                if coverage.total(inside) < coverage.MIN_SPEECH:
                    continue
                again = found and round_number + 1 < MAX_ROUNDS  # a new stretch, so maybe a new result
                (left if again else gaps).append((inside[0][0], inside[-1][1]))
        pending = left
    return sorted(recovered, key=lambda item: item[0].start), sorted(gaps)


def _decoded_alone(speech: list[tuple[float, float]], start: float, end: float, samples: np.ndarray,
                   decode: Decode, options: TranscribeOptions, neighbours: list[Segment],
                   notes: list[AnswerNote]) -> list[Heard]:
    """The segments of the ``speech`` in [start, end) decoded on their own, kept inside the stretch."""
    first, last = speech[0][0], speech[-1][1]
    again = decode(_slice(samples, first, last), options)
    notes.extend(note.shifted(first) for note in again.notes)
    segments = [segment.shifted(first, within=(start, end), digits=3) for segment in again.segments]
    # A lone decoding may end by saying its own last sentence again in a fraction of a second, where
    # the stretch ends: its long segments are neighbours too.
    said = sorted([*neighbours, *(s for s in segments if s.end - s.start > ECHO_SECONDS)], key=lambda s: s.start)
    return [(segment, again.language) for segment in segments if not _repeats_a_neighbour(segment, said)]


def _repeats_a_neighbour(segment: Segment, neighbours: list[Segment]) -> bool:
    """Whether a recovered segment only says again a few words of the segment right before or after
    it: the stretch began in the tail of that segment's last word, or ends in the next one's first.
    A longer segment is speech of its own, even when the same sentence is said next to it."""
    own = " ".join(repetition.tokens(segment.text))
    if not own:
        return True
    if segment.end - segment.start > ECHO_SECONDS:
        return False
    before = [n for n in neighbours if n.end <= segment.start + 0.01][-1:]
    after = [n for n in neighbours if n.start >= segment.end - 0.01][:1]
    close = [n for n in before if segment.start - n.end <= ECHO_SECONDS] + \
            [n for n in after if n.start - segment.end <= ECHO_SECONDS]
    return any(own in " ".join(repetition.tokens(n.text)) for n in close)


def _slice(samples: np.ndarray, start: float, end: float) -> np.ndarray:
    return samples[max(0, round(start * SAMPLE_RATE)):max(0, round(end * SAMPLE_RATE))]


def _mean(values: list[float], *, default: float) -> float:
    return float(np.mean(values)) if len(values) else default
