"""Changes to a transcript as a subtitler makes them, each one a value that can be applied and undone.

An edit function looks at a transcript and returns a :class:`Change` without touching it; ``apply``
makes the change and ``revert`` takes it back, as often as the user undoes and redoes. A change never
mutates a segment in place: it swaps rows for new Segment objects, so the rows it took out stay
exactly as they were and putting them back restores their word timings too. A change the rules do not
allow raises :class:`EditRefused` with a sentence for the user that names the limit it met.

The timing rule is one, for typed times, Shift times and Insert line alike, and the same at both
ends: a line runs forward, starts at 0 or later, ends at the recording's end or earlier (give or take
END_TOLERANCE), and does not overlap its neighbours. An edit that would break it is refused, never
clamped, so nothing moves further or less than the user asked; the sentence says how far it can go.

Rows are counted from 0 here; the sentences that name a line count from 1, as the table does.
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field, replace

from desktop.core.common.errors import UserFacingError
from desktop.core.common.i18n import Message, N_
from desktop.core.transcription.cue_times import table_time
from desktop.core.transcription.subtitles import display_width, may_break_between
from desktop.core.transcription.transcript import Correction, Segment, Transcript, Word
from desktop.core.transcription.transcript import undo_correction as undo_in_segment

_TOLERANCE = 1e-6  # seconds: times closer than this are the same time
SMALL_LINE = 1.0  # seconds: the length of a line inserted where there is room
# seconds a line may end after the recording's measured length: the decoder's last frame and the
# length read from the file's header can differ by a few hundred milliseconds.
END_TOLERANCE = 0.5


class EditRefused(UserFacingError):
    """The edit would break the transcript's timing; its message says why."""


@dataclass
class _Splice:
    """segments[at:at + len(removed)] becomes inserted."""

    at: int
    removed: list[Segment]
    inserted: list[Segment]


@dataclass(frozen=True)
class KnownVoiceFacts:
    """What the known voices said of a transcript's speakers: who was recognised (how sure), who sounds
    like whom (not yet accepted), and the names the user said a speaker is not."""

    recognised: dict[int, tuple[str, float]] = field(default_factory=dict)
    suggested: dict[int, tuple[str, float]] = field(default_factory=dict)
    refused: dict[int, list[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, transcript: Transcript) -> "KnownVoiceFacts":
        return cls(dict(transcript.recognised), dict(transcript.suggested),
                   {number: list(names) for number, names in transcript.refused.items()})

    def put(self, transcript: Transcript) -> None:
        transcript.recognised = dict(self.recognised)
        transcript.suggested = dict(self.suggested)
        transcript.refused = {number: list(names) for number, names in self.refused.items()}


@dataclass
class Change:
    """One edit the user can undo: rows swapped, and the speakers' names before and after."""

    description: Message  # "split line 12", shown as "Undo split line 12"
    splices: list[_Splice] = field(default_factory=list)  # in the order they apply, never overlapping
    names_before: dict[int, str] | None = None  # None: the speakers' names are not touched
    names_after: dict[int, str] | None = None
    first_row: int = 0  # the row to select after the change
    rows_changed: bool = False  # lines were added or removed, not only changed
    voices_before: KnownVoiceFacts | None = None  # None: what the known voices said is not touched
    voices_after: KnownVoiceFacts | None = None

    def apply(self, transcript: Transcript) -> None:
        for splice in self.splices:
            transcript.segments[splice.at:splice.at + len(splice.removed)] = splice.inserted
        if self.names_after is not None:
            transcript.speaker_names = dict(self.names_after)
        if self.voices_after is not None:
            self.voices_after.put(transcript)

    def revert(self, transcript: Transcript) -> None:
        for splice in reversed(self.splices):
            transcript.segments[splice.at:splice.at + len(splice.inserted)] = splice.removed
        if self.names_before is not None:
            transcript.speaker_names = dict(self.names_before)
        if self.voices_before is not None:
            self.voices_before.put(transcript)


def _one_row(transcript: Transcript, row: int, new: Segment, description: Message) -> Change:
    return Change(description, [_Splice(row, [transcript.segments[row]], [new])], first_row=row)


# -- one line ----------------------------------------------------------------------------------


def edit_text(transcript: Transcript, row: int, text: str) -> Change | None:
    """The line's text typed anew; None when it says the same. Word timings no longer match an edited
    text, so the new line has none (subtitles then time its words by their share of the line)."""
    segment = transcript.segments[row]
    text = text.strip()
    if text == segment.text.strip():
        return None
    if segment.text.startswith(" ") and text:
        text = " " + text  # Whisper's leading space for Latin text, so joined text reads the same
    # The typed text is what stands now: the glossary's replacements are no longer there to undo.
    return _one_row(transcript, row, replace(segment, text=text, words=[], text_original=None, corrections=[]),
                    N_("Edits", "edit line {line}").format(line=row + 1))


def set_times(transcript: Transcript, row: int, start: float, end: float) -> Change | None:
    """New start and end for a line, kept between its neighbours and inside the recording."""
    segment = transcript.segments[row]
    check_times(transcript, row, start, end)
    if abs(start - segment.start) < _TOLERANCE and abs(end - segment.end) < _TOLERANCE:
        return None
    # Word timings were measured for the old stretch; subtitles fall back to the line's.
    return _one_row(transcript, row, replace(segment, start=start, end=end, words=[]),
                    N_("Edits", "change the times of line {line}").format(line=row + 1))


def check_times(transcript: Transcript, row: int, start: float, end: float) -> None:
    """Subtitles run forward and never overlap: raises EditRefused where start–end would break that."""
    segments = transcript.segments
    if end <= start:
        raise EditRefused(N_("Edits", "Line {line} would end before it starts: its end must come after "
                             "{start}.").format(line=row + 1, start=table_time(start)))
    if start < -_TOLERANCE:
        raise EditRefused(N_("Edits", "Line {line} would start before the recording does: the earliest start "
                             "is 00:00:00.000.").format(line=row + 1))
    if row > 0 and start < segments[row - 1].end - _TOLERANCE:
        raise EditRefused(N_("Edits", "Line {line} would start before line {previous} ends: the earliest start "
                             "is {time}, or change line {previous} first.").format(
            line=row + 1, previous=row, time=table_time(segments[row - 1].end)))
    if row + 1 < len(segments) and end > segments[row + 1].start + _TOLERANCE:
        raise EditRefused(N_("Edits", "Line {line} would end after line {next} starts: the latest end is "
                             "{time}, or change line {next} first.").format(
            line=row + 1, next=row + 2, time=table_time(segments[row + 1].start)))
    latest = recording_end(transcript)
    if latest is not None and end > latest + END_TOLERANCE:
        raise EditRefused(N_("Edits", "Line {line} would end after the recording does: the latest end is "
                             "{time}.").format(line=row + 1, time=table_time(latest)))


def recording_end(transcript: Transcript) -> float | None:
    """The recording's length, where it is known (subtitles opened without a recording have none)."""
    return transcript.duration if transcript.duration and transcript.duration > 0 else None


def set_speaker(transcript: Transcript, row: int, number: int | None) -> Change | None:
    """Give one line to another speaker (None: to nobody)."""
    segment = transcript.segments[row]
    if segment.speaker == number:
        return None
    return _one_row(transcript, row, replace(segment, speaker=number),
                    N_("Edits", "change the speaker of line {line}").format(line=row + 1))


def rename_speaker(transcript: Transcript, number: int, name: str) -> Change | None:
    """Transcript.rename_speaker as an undoable change (a name another speaker has joins the two)."""
    trial = Transcript(segments=[replace(s) for s in transcript.segments], language=transcript.language,
                       speaker_names=dict(transcript.speaker_names))
    trial.rename_speaker(number, name)
    moved = [row for row, (old, new) in enumerate(zip(transcript.segments, trial.segments))
             if old.speaker != new.speaker]
    if not moved and trial.speaker_names == transcript.speaker_names:
        return None
    return Change(N_("Edits", "rename {speaker}").format(speaker=transcript.speaker_name(number)),
                  [_Splice(row, [transcript.segments[row]], [trial.segments[row]]) for row in moved],
                  names_before=dict(transcript.speaker_names), names_after=dict(trial.speaker_names),
                  first_row=moved[0] if moved else 0)


def accept_suggestion(transcript: Transcript, number: int) -> Change | None:
    """The speaker named as the known voice it sounds like ("Accept"), marked as recognised; None
    when it has no suggestion."""
    if number not in transcript.suggested:
        return None
    name, sure = transcript.suggested[number]
    before = KnownVoiceFacts.of(transcript)
    change = rename_speaker(transcript, number, name) or Change(
        N_("Edits", "rename {speaker}").format(speaker=transcript.speaker_name(number)),
        names_before=dict(transcript.speaker_names), names_after=dict(transcript.speaker_names))
    change.description = N_("Edits", "accept {name} for {speaker}").format(
        name=name, speaker=transcript.speaker_name(number))
    suggested = {n: s for n, s in before.suggested.items() if n != number}
    recognised = dict(before.recognised)
    if (change.names_after or {}).get(number) == name:  # not joined to a speaker who already had the name
        recognised[number] = (name, sure)
    change.voices_before, change.voices_after = before, KnownVoiceFacts(recognised, suggested, before.refused)
    return change


def refuse_suggestion(transcript: Transcript, number: int) -> Change | None:
    """The user said the speaker is not the known voice it sounds like ("Not Anna"): the suggestion
    goes, and that name is never suggested for this speaker of this transcript again."""
    if number not in transcript.suggested:
        return None
    name, _sure = transcript.suggested[number]
    before = KnownVoiceFacts.of(transcript)
    refused = {n: list(names) for n, names in before.refused.items()}
    refused.setdefault(number, [])
    if name not in refused[number]:
        refused[number].append(name)
    suggested = {n: s for n, s in before.suggested.items() if n != number}
    return Change(N_("Edits", "not {name} for {speaker}").format(name=name, speaker=transcript.speaker_name(number)),
                  names_before=dict(transcript.speaker_names), names_after=dict(transcript.speaker_names),
                  voices_before=before, voices_after=KnownVoiceFacts(before.recognised, suggested, refused))


# -- glossary corrections ----------------------------------------------------------------------


def standing_corrections(segment: Segment) -> list[tuple[int, Correction]]:
    """(number, correction) of each glossary replacement whose term still stands where it says in the
    line's text; one an edit has moved or cut through is left out (it can no longer be shown or undone)."""
    standing, end = [], 0
    for number, correction in enumerate(segment.corrections):
        if end <= correction.start <= correction.end <= len(segment.text) \
                and segment.text[correction.start:correction.end] == correction.term:
            standing.append((number, correction))
            end = correction.end
    return standing


def undo_correction(transcript: Transcript, row: int, number: int) -> Change:
    """Bring back what Whisper wrote in place of one glossary replacement of a line."""
    segment = transcript.segments[row]
    if number not in dict(standing_corrections(segment)):
        raise EditRefused(N_("Edits", "Line {line} no longer has that glossary correction.").format(line=row + 1))
    restored = _uncorrected(segment, [number])
    correction = segment.corrections[number]
    return _one_row(transcript, row, restored,
                    N_("Edits", "restore “{original}” in line {line}").format(original=correction.original,
                                                                               line=row + 1))


def undo_all_corrections(transcript: Transcript) -> Change | None:
    """Bring back what Whisper wrote for every glossary replacement of the transcript; None when
    there is none."""
    splices, count = [], 0
    for row, segment in enumerate(transcript.segments):
        numbers = [number for number, _ in standing_corrections(segment)]
        if numbers:
            splices.append(_Splice(row, [segment], [_uncorrected(segment, numbers)]))
            count += len(numbers)
    if not splices:
        return None
    return Change(N_("Edits", "remove all glossary corrections ({count})").format(count=count), splices,
                  first_row=splices[0].at)


def _uncorrected(segment: Segment, numbers: list[int]) -> Segment:
    """A copy of the line with those replacements undone (the line itself stays as it is); the ones no
    longer standing in its text are dropped."""
    restored = copy.deepcopy(segment)
    standing = [number for number, _ in standing_corrections(segment)]
    restored.corrections = [restored.corrections[number] for number in standing]
    for number in sorted(numbers, reverse=True):  # the last first, so the earlier ones keep their place
        undo_in_segment(restored, standing.index(number))
    return restored


# -- splitting and joining ---------------------------------------------------------------------


def split(transcript: Transcript, row: int, position: int) -> Change:
    """Divide a line in two at a place in its shown (stripped) text. The place moves to the nearest
    point where a word ends and a line may break (never inside a word, nor between a Chinese character
    and the punctuation kept with it); the times divide at the word timings where the line has them,
    else in proportion to the characters on each side."""
    segment = transcript.segments[row]
    leading = len(segment.text) - len(segment.text.lstrip())
    cut = _break_near(segment.text, leading + position, _word_ends(segment))
    if cut is None:
        raise EditRefused(N_("Edits", "Line {line} has no place to split there: put the cursor between two "
                             "words.").format(line=row + 1))
    head_text, tail_text = segment.text[:cut].rstrip(), segment.text[cut:]
    if segment.text.startswith(" ") and not tail_text.startswith(" ") and not _wide(tail_text[:1]):
        tail_text = " " + tail_text
    head_words, tail_words, middle = _divide_words(segment, cut)
    if middle is None:
        share = len(head_text.strip()) / max(1, len(head_text.strip()) + len(tail_text.strip()))
        middle = segment.start + (segment.end - segment.start) * share
    middle = min(max(middle, segment.start + _TOLERANCE), segment.end - _TOLERANCE)
    tail_shift = len(tail_text) - len(segment.text) + cut  # where the tail's old offsets now are
    head = replace(segment, end=middle, text=head_text, words=head_words, text_original=None,
                   corrections=_moved(segment.corrections, 0, 0, len(head_text)))
    tail = replace(segment, start=middle, text=tail_text, words=tail_words, text_original=None,
                   corrections=_moved(segment.corrections, cut - tail_shift, cut, len(segment.text)))
    return Change(N_("Edits", "split line {line}").format(line=row + 1),
                  [_Splice(row, [segment], [head, tail])], first_row=row, rows_changed=True)


def _moved(corrections: list[Correction], back: int, start: int, end: int) -> list[Correction]:
    """Copies of the glossary replacements lying within text[start:end] of a line, moved back by
    ``back`` characters, for the line that now holds that text."""
    return [replace(c, start=c.start - back, end=c.end - back) for c in corrections
            if start <= c.start and c.end <= end]


def _break_near(text: str, position: int, word_ends: set[int] | None) -> int | None:
    """The place nearest to position, strictly inside the text, where a line may break: between words
    (word_ends: where the timed words end, when the line has them), after closing punctuation."""
    stripped_end = len(text.rstrip())
    first = len(text) - len(text.lstrip())
    candidates = [i for i in range(first + 1, stripped_end)
                  if text[i - 1] != " " and may_break_between(text[:i], text[i:])
                  and (word_ends is None or i in word_ends)]
    if not candidates:
        return None
    return min(candidates, key=lambda i: (abs(i - position), i))


def _word_ends(segment: Segment) -> set[int] | None:
    """Character offsets in the text where a timed word ends; None without words that spell the text."""
    if not segment.words or "".join(w.text for w in segment.words) != segment.text:
        return None
    ends, offset = set(), 0
    for word in segment.words:
        offset += len(word.text)
        ends.add(offset)
    return ends


def _divide_words(segment: Segment, cut: int) -> tuple[list[Word], list[Word], float | None]:
    """The line's words on each side of a character offset, and the time between them; no words and
    no time when the words do not spell the text (edited text) or the cut falls inside one."""
    if not segment.words or "".join(w.text for w in segment.words) != segment.text:
        return [], [], None
    offset = 0
    for index, word in enumerate(segment.words):
        if offset == cut and index:
            head, tail = segment.words[:index], segment.words[index:]
            return list(head), list(tail), (head[-1].end + tail[0].start) / 2
        offset += len(word.text)
        if offset > cut:
            break
    return [], [], None


def merge_with_next(transcript: Transcript, row: int) -> Change:
    """Join a line and the one after it: the text and the words of both, from the first's start to the
    second's end; the first line's speaker."""
    if row + 1 >= len(transcript.segments):
        raise EditRefused(N_("Edits", "Line {line} is the last one: there is no next line to merge "
                             "it with.").format(line=row + 1))
    first, second = transcript.segments[row], transcript.segments[row + 1]
    joiner = "" if _wide(first.text.rstrip()[-1:]) or _wide(second.text.lstrip()[:1]) else " "
    second_text = second.text if second.text[:1].isspace() or not joiner else joiner + second.text
    keep_words = bool(first.words) and bool(second.words) and second_text == second.text
    merged = Segment(start=first.start, end=max(first.end, second.end), text=first.text.rstrip() + second_text
                     if first.text.strip() else second.text,
                     words=[*first.words, *second.words] if keep_words else [], speaker=first.speaker)
    if not second.text.strip():
        merged.text, merged.words = first.text, list(first.words)
    if first.text.strip() and second.text.strip():
        head = len(first.text.rstrip())
        merged.corrections = [*_moved(first.corrections, 0, 0, head),
                              *_moved(second.corrections, -head - len(second_text) + len(second.text), 0,
                                      len(second.text))]
    else:
        merged.corrections = _moved((first if first.text.strip() else second).corrections, 0, 0, len(merged.text))
    return Change(N_("Edits", "merge line {line} with the next").format(line=row + 1),
                  [_Splice(row, [first, second], [merged])], first_row=row, rows_changed=True)


# -- adding and removing lines -----------------------------------------------------------------


def insert_after(transcript: Transcript, row: int | None) -> Change:
    """An empty line in the gap after row (before the first line when None), at most SMALL_LINE long,
    within the recording; refused, saying which line to shorten, when there is no room."""
    segments = transcript.segments
    at = 0 if row is None else row + 1
    start = segments[at - 1].end if at > 0 else 0.0
    end_of_recording = recording_end(transcript)
    if at < len(segments):
        limit = segments[at].start
    else:
        limit = end_of_recording if end_of_recording is not None else start + SMALL_LINE
    if limit - start < 0.05:
        raise EditRefused(_no_room(at, len(segments)))
    speaker = segments[at - 1].speaker if at > 0 else None
    new = Segment(start=start, end=min(limit, start + SMALL_LINE), text="", speaker=speaker)
    return Change(N_("Edits", "insert line {line}").format(line=at + 1),
                  [_Splice(at, [], [new])], first_row=at, rows_changed=True)


def _no_room(at: int, count: int) -> Message:
    """Why no line fits in before row at (of count): the neighbour to shorten, or the recording's edge."""
    if at == 0:
        return N_("Edits", "There is no room before line 1: it starts where the recording does. Make it start "
                  "later first.")
    if at >= count:
        return N_("Edits", "There is no room after line {line}: it ends where the recording does. Make it end "
                  "earlier first.").format(line=at)
    return N_("Edits", "There is no room between line {line} and line {next}: make line {line} end earlier "
              "or line {next} start later first.").format(line=at, next=at + 1)


def delete(transcript: Transcript, rows: list[int]) -> Change | None:
    """Take lines out."""
    rows = sorted(set(rows))
    if not rows:
        return None
    description = (N_("Edits", "delete line {line}").format(line=rows[0] + 1) if len(rows) == 1 else
                   N_("Edits", "delete {count} lines").format(count=len(rows)))
    # From the last row backwards, so the rows before each one are still where they were.
    splices = [_Splice(row, [transcript.segments[row]], []) for row in reversed(rows)]
    return Change(description, splices, first_row=max(0, rows[0] - 1), rows_changed=True)


# -- timing ------------------------------------------------------------------------------------


def shift_range(transcript: Transcript, rows: list[int]) -> tuple[float, float]:
    """How far a run of consecutive rows can move: (the most earlier, as a number <= 0; the most later,
    >= 0; inf when the recording's length is not known), by the rule check_times keeps."""
    segments = transcript.segments
    first, last = min(rows), max(rows)
    floor = segments[first - 1].end if first > 0 else 0.0
    ceiling: float | None
    if last + 1 < len(segments):
        ceiling = segments[last + 1].start
    else:
        end = recording_end(transcript)
        ceiling = None if end is None else end + END_TOLERANCE
    earliest = min(0.0, floor - segments[first].start)
    latest = float("inf") if ceiling is None else max(0.0, ceiling - segments[last].end)
    return earliest, latest


def shift(transcript: Transcript, rows: list[int], seconds: float) -> Change | None:
    """Move lines (a run of consecutive rows) earlier or later by seconds, their words with them;
    refused, saying how far they can go, where they would leave the recording or overlap a line."""
    rows = sorted(set(rows))
    if not rows or abs(seconds) < _TOLERANCE:
        return None
    if rows != list(range(rows[0], rows[-1] + 1)):
        raise EditRefused(N_("Edits", "Select lines next to each other to shift them together."))
    segments = transcript.segments
    first, last = rows[0], rows[-1]
    earliest, latest = shift_range(transcript, rows)
    if seconds < earliest - _TOLERANCE:
        most = f"{abs(earliest):.3f}"
        if first == 0:
            raise EditRefused(N_("Edits", "Line 1 would start before the recording does: shift by at most "
                                 "{seconds} s earlier.").format(seconds=most))
        raise EditRefused(N_("Edits", "Line {line} would overlap line {previous}: shift by at most {seconds} s "
                             "earlier, or move that line too.").format(line=first + 1, previous=first, seconds=most))
    if seconds > latest + _TOLERANCE:
        most = f"{latest:.3f}"
        if last + 1 >= len(segments):
            raise EditRefused(N_("Edits", "Line {line} would end after the recording does: shift by at most "
                                 "{seconds} s later.").format(line=last + 1, seconds=most))
        raise EditRefused(N_("Edits", "Line {line} would overlap line {next}: shift by at most {seconds} s "
                             "later, or move that line too.").format(line=last + 1, next=last + 2, seconds=most))
    moved = [replace(segment, start=segment.start + seconds, end=segment.end + seconds,
                     words=[replace(w, start=w.start + seconds, end=w.end + seconds) for w in segment.words])
             for segment in segments[first:last + 1]]
    description = (N_("Edits", "shift line {line}").format(line=first + 1) if first == last else
                   N_("Edits", "shift lines {first}–{last}").format(first=first + 1, last=last + 1))
    return Change(description, [_Splice(first, segments[first:last + 1], moved)], first_row=first)


def replace_lines(transcript: Transcript, segments: list[Segment], description: Message,
                  speaker_names: dict[int, str] | None = None) -> Change:
    """Every line replaced by segments, undoably. speaker_names: the names the new lines' speaker
    numbers stand for (subtitles opened for a transcribed recording bring their own: their speaker 1
    is not the transcript's speaker 1); None keeps the transcript's names."""
    change = Change(description, [_Splice(0, list(transcript.segments), list(segments))], rows_changed=True)
    if speaker_names is not None:
        change.names_before, change.names_after = dict(transcript.speaker_names), dict(speaker_names)
    return change


def replace_run(transcript: Transcript, at: int, count: int, segments: list[Segment], description: Message) -> Change:
    """The count lines from row at replaced by segments, undoably (lines transcribed again)."""
    return Change(description, [_Splice(at, list(transcript.segments[at:at + count]), list(segments))],
                  first_row=at, rows_changed=True)


# -- finding and replacing ---------------------------------------------------------------------


@dataclass(frozen=True)
class Search:
    """What Find and replace looks for. whole_words applies to Latin text: a Chinese phrase is found
    wherever its characters are, as Chinese has no spaces between words."""

    text: str
    match_case: bool = False
    whole_words: bool = False

    def spans(self, text: str) -> list[tuple[int, int]]:
        """Where it is found in text, as (start, end), in order and never overlapping."""
        if not self.text:
            return []
        pattern = re.compile(re.escape(self.text), 0 if self.match_case else re.IGNORECASE)
        return [(m.start(), m.end()) for m in pattern.finditer(text)
                if not self.whole_words or self._stands_alone(text, m.start(), m.end())]

    def _stands_alone(self, text: str, start: int, end: int) -> bool:
        """No Latin letter or digit runs on from the match on either side (Chinese never does)."""
        before = text[start - 1] if start else ""
        after = text[end] if end < len(text) else ""
        return not (_latin_word_char(before) and _latin_word_char(self.text[0])) and \
            not (_latin_word_char(after) and _latin_word_char(self.text[-1]))

    def replaced(self, text: str, replacement: str) -> tuple[str, int]:
        spans = self.spans(text)
        pieces, done = [], 0
        for start, end in spans:
            pieces += [text[done:start], replacement]
            done = end
        return "".join(pieces) + text[done:], len(spans)


def _latin_word_char(ch: str) -> bool:
    return bool(ch) and ch.isalnum() and not _wide(ch)


def find(transcript: Transcript, search: Search) -> list[tuple[int, int, int]]:
    """Every match as (row, start, end) in the row's shown (stripped) text, in order."""
    return [(row, start, end) for row, segment in enumerate(transcript.segments)
            for start, end in search.spans(segment.text.strip())]


def replace_at(transcript: Transcript, search: Search, replacement: str, row: int, start: int) -> Change | None:
    """Replace the one match that begins at start of the row's shown (stripped) text, as *Replace*
    does; None when no match begins there any more (the line was changed meanwhile)."""
    segment = transcript.segments[row]
    shown = segment.text.strip()
    end = next((e for s, e in search.spans(shown) if s == start), None)
    if end is None:
        return None
    offset = len(segment.text) - len(segment.text.lstrip())
    text = segment.text[:offset + start] + replacement + segment.text[offset + end:]
    corrections = _corrections_after_replacing(segment.corrections, [(offset + start, offset + end)], len(replacement))
    return _one_row(transcript, row, replace(segment, text=text, words=[], text_original=None, corrections=corrections),
                    N_("Edits", "replace “{text}” in line {line}").format(text=search.text, line=row + 1))


def replace_all(transcript: Transcript, search: Search, replacement: str, *,
                in_speaker_names: bool = False, rows: list[int] | None = None) -> tuple[Change | None, int]:
    """Replace every match (in rows, when given) and, if asked, in the speakers' names; returns the
    change (None when nothing matched) and how many were replaced."""
    if not search.text:
        return None, 0
    count = 0
    splices: list[_Splice] = []
    for row in (range(len(transcript.segments)) if rows is None else sorted(set(rows))):
        segment = transcript.segments[row]
        text, found = search.replaced(segment.text, replacement)
        if found:
            count += found
            corrections = _corrections_after_replacing(segment.corrections, search.spans(segment.text), len(replacement))
            splices.append(_Splice(row, [segment], [replace(segment, text=text, words=[], text_original=None,
                                                            corrections=corrections)]))
    names_before = names_after = None
    if in_speaker_names:
        renamed = {}
        for number in transcript.speakers:
            name, found = search.replaced(transcript.speaker_name(number), replacement)
            if found and name.strip():
                renamed[number] = name.strip()
                count += found
        if renamed:
            names_before = dict(transcript.speaker_names)
            names_after = {**transcript.speaker_names, **renamed}
    if not count:
        return None, 0
    change = Change(N_("Edits", "replace “{text}” ({count}×)").format(text=search.text, count=count), splices,
                    names_before=names_before, names_after=names_after,
                    first_row=splices[0].at if splices else 0)
    return change, count


def _corrections_after_replacing(corrections: list[Correction], spans: list[tuple[int, int]],
                                 replacement_length: int) -> list[Correction]:
    """A line's glossary replacements once the text at ``spans`` (in order) was replaced: a replacement
    whose word a span touches is the user's word now and is dropped, so neither its highlight nor the
    export names an original that is no longer there; the others move with the text before them."""
    kept = []
    for correction in corrections:
        if any(start < correction.end and correction.start < end for start, end in spans):
            continue
        moved = sum(replacement_length - (end - start) for start, end in spans if end <= correction.start)
        kept.append(replace(correction, start=correction.start + moved, end=correction.end + moved))
    return kept


def _wide(text: str) -> bool:
    return bool(text) and display_width(text[:1]) == 2
