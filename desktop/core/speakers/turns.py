"""From "who spoke when" to the transcript: each word gets its speaker, segments split where the speaker
changes, and turns too short to trust go to their neighbours.

The speaker of a stretch of time comes from an engine (desktop.engines.speakers) as SpeakerSpans; this
module only applies rules on times and words, so it runs without any heavy library.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from desktop.core.transcription.transcript import Segment, Word

# Words closer than this belong to one stretch of speech (a speaker rarely changes without a pause).
STRETCH_PAUSE = 0.2
# A turn shorter than this that is not a separate utterance is taken as noise in the labels and
# given to its neighbour; a short reply after a pause ("yes", "对") keeps its own speaker.
MIN_TURN_SECONDS = 1.0
OWN_UTTERANCE_PAUSE = 0.3


@dataclass(frozen=True)
class SpeakerSpan:
    """Who spoke from start to end (seconds); speakers are numbered from 0 by the engine."""

    start: float
    end: float
    speaker: int


def speech_stretches(segments: list[Segment], max_pause: float = STRETCH_PAUSE) -> list[tuple[float, float]]:
    """Stretches of continuous speech, from word timings (segment times where there are none)."""
    spans = sorted(
        (item.start, item.end)
        for segment in segments if segment.text.strip()
        for item in (_spoken_words(segment) or [segment])
        if item.end > item.start
    )
    stretches: list[list[float]] = []
    for start, end in spans:
        if stretches and start - stretches[-1][1] < max_pause:
            stretches[-1][1] = max(stretches[-1][1], end)
        else:
            stretches.append([start, end])
    return [(start, end) for start, end in stretches]


def speaker_at(start: float, end: float, spans: list[SpeakerSpan]) -> int | None:
    """The speaker who holds most of [start, end] (the dominant one where voices overlap); the nearest
    span's speaker when none overlaps; None without spans."""
    if not spans:
        return None
    held: dict[int, float] = {}
    for span in spans:
        overlap = min(end, span.end) - max(start, span.start)
        if overlap > 0:
            held[span.speaker] = held.get(span.speaker, 0.0) + overlap
    if held:
        return max(held, key=held.__getitem__)
    middle = (start + end) / 2
    return min(spans, key=lambda span: max(span.start - middle, middle - span.end, 0.0)).speaker


def label_segments(segments: list[Segment], spans: list[SpeakerSpan],
                   min_turn: float = MIN_TURN_SECONDS) -> list[Segment]:
    """The segments with their speakers (numbered 1, 2, … in order of first appearance), split where
    the speaker changes inside one."""
    words = [word for segment in segments for word in _spoken_words(segment)]
    word_speaker = dict(zip(map(id, words), _smoothed(words, [speaker_at(w.start, w.end, spans) for w in words],
                                                      min_turn)))
    labelled: list[Segment] = []
    for segment in segments:
        spoken = _spoken_words(segment)
        if spoken and _spells(spoken, segment.text):
            labelled.extend(_split(segment, [word_speaker[id(w)] for w in spoken]))
        else:
            labelled.append(replace(segment, speaker=_majority(spoken, word_speaker)
                                    if spoken else speaker_at(segment.start, segment.end, spans)))
    return _numbered_by_appearance(labelled)


def _spoken_words(segment: Segment) -> list[Word]:
    return [word for word in segment.words if word.text.strip()]


def _spells(words: list[Word], text: str) -> bool:
    return "".join("".join(w.text for w in words).split()) == "".join(text.split())


def _smoothed(words: list[Word], labels: list[int | None], min_turn: float) -> list[int | None]:
    """Labels where each short run of words (under min_turn seconds) that is not an utterance of its
    own takes the speaker of the neighbour it is closest to in time; shortest runs first."""
    labels = list(labels)
    for _ in range(len(words)):
        runs = _runs(labels)
        short = [(words[last].end - words[first].start, first, last) for first, last in runs
                 if words[last].end - words[first].start < min_turn and len(runs) > 1]
        short = [run for run in short if not _own_utterance(words, run[1], run[2])]
        if not short:
            break
        _, first, last = min(short)
        before = words[first].start - words[first - 1].end if first > 0 else float("inf")
        after = words[last + 1].start - words[last].end if last + 1 < len(words) else float("inf")
        neighbour = labels[first - 1] if before <= after else labels[last + 1]
        labels[first:last + 1] = [neighbour] * (last + 1 - first)
    return labels


def _runs(labels: list) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    for index, label in enumerate(labels):
        if runs and labels[runs[-1][0]] == label:
            runs[-1] = (runs[-1][0], index)
        else:
            runs.append((index, index))
    return runs


def _own_utterance(words: list[Word], first: int, last: int) -> bool:
    before = words[first].start - words[first - 1].end if first > 0 else float("inf")
    after = words[last + 1].start - words[last].end if last + 1 < len(words) else float("inf")
    return before >= OWN_UTTERANCE_PAUSE and after >= OWN_UTTERANCE_PAUSE


def _majority(words: list[Word], word_speaker: dict[int, int | None]) -> int | None:
    held: dict[int | None, float] = {}
    for word in words:
        speaker = word_speaker[id(word)]
        held[speaker] = held.get(speaker, 0.0) + max(word.end - word.start, 1e-3)
    return max(held, key=held.__getitem__)


def _split(segment: Segment, speakers: list[int | None]) -> list[Segment]:
    """The segment cut into one piece per run of words of one speaker."""
    words = _spoken_words(segment)
    runs = _runs(speakers)
    if len(runs) == 1:
        return [replace(segment, speaker=speakers[0])]
    pieces = []
    for number, (first, last) in enumerate(runs):
        run_words = words[first:last + 1]
        start = segment.start if number == 0 else run_words[0].start
        end = segment.end if number == len(runs) - 1 else run_words[-1].end
        text = "".join(w.text for w in run_words)
        original = None
        if segment.text_original is not None:
            original = "".join(w.text_original if w.text_original is not None else w.text for w in run_words)
        pieces.append(Segment(start=start, end=max(end, start), text=text, words=list(run_words),
                              text_original=original, speaker=speakers[first]))
    if pieces and segment.text[:1].isspace() and not pieces[0].text[:1].isspace():
        pieces[0].text = " " + pieces[0].text
    return pieces


def _numbered_by_appearance(segments: list[Segment]) -> list[Segment]:
    numbers: dict[int, int] = {}
    for segment in segments:
        if segment.speaker is not None:
            segment.speaker = numbers.setdefault(segment.speaker, len(numbers) + 1)
    return segments
