"""Transcribe again… in core: the stretch decoded for the selected lines (a margin that never reaches into
a neighbour), the new lines put on the recording's timeline in place of the old ones as one change that
undoes exactly, and a sentence instead of a change when nothing was heard or the lines changed meanwhile."""
import copy

import pytest

from desktop.core.transcription import edits
from desktop.core.transcription.edits import EditRefused
from desktop.core.transcription.region_rerun import MARGIN, region_of, replacement
from desktop.core.transcription.transcript import Segment, Transcript, Word


def meeting() -> Transcript:
    return Transcript(segments=[
        Segment(0.0, 4.0, " Good morning everyone.", speaker=1),
        Segment(4.2, 7.0, " Let's look at the numbers.", speaker=1),
        Segment(9.0, 12.0, " Sales were up", speaker=2),
        Segment(12.0, 15.0, " by three per cent.", speaker=2),
        Segment(18.0, 20.0, " Thank you.", speaker=1),
    ], language="en", duration=21.0)


def heard(*lines) -> list[Segment]:
    """What a decoding of a stretch found, on the stretch's own timeline (from 0)."""
    return [Segment(start, end, text, words=[Word(start, end, text)]) for start, end, text in lines]


def test_the_stretch_runs_from_the_first_line_to_the_last_with_a_margin_that_stops_at_the_neighbours():
    transcript = meeting()
    region = region_of(transcript, [2, 1])
    assert (region.first, region.last) == (1, 2)
    assert region.lines == (transcript.segments[1], transcript.segments[2])
    assert region.start == 4.0, "the margin before stops where line 1 ends"
    assert region.end == 12.0, "the margin after stops where line 4 begins"

    roomy = region_of(transcript, [3])
    assert roomy.start == 12.0 and roomy.end == pytest.approx(15.0 + MARGIN)
    assert region_of(transcript, [0]).start == 0.0, "never before the recording"
    transcript.duration = 20.2
    assert region_of(transcript, [4]).end == 20.2, "never after it"


def test_lines_that_are_not_next_to_each_other_or_too_short_are_refused_with_a_sentence():
    transcript = meeting()
    with pytest.raises(EditRefused, match="next to each other"):
        region_of(transcript, [0, 2])
    with pytest.raises(EditRefused, match="Select the lines"):
        region_of(transcript, [])
    squeezed = Transcript(segments=[Segment(1.0, 1.05, " a"), Segment(1.05, 1.1, " b"), Segment(1.1, 2.0, " c")],
                          duration=3.0)
    with pytest.raises(EditRefused, match="too little of the recording under line 2"):
        region_of(squeezed, [1])


def test_new_lines_replace_the_old_ones_on_the_recordings_timeline_and_undo_brings_them_back_exactly():
    transcript = meeting()
    before = copy.deepcopy(transcript.segments)
    untouched = [transcript.segments[0], transcript.segments[3], transcript.segments[4]]
    region = region_of(transcript, [1, 2])  # 4.0–12.0
    change = replacement(transcript, region, heard((0.1, 3.0, " Let us look at the numbers."),
                                                   (4.9, 7.8, " Sales were up.")))
    assert str(change.description) == "transcribe again lines 2–3"
    change.apply(transcript)
    assert [s.text for s in transcript.segments] == [" Good morning everyone.", " Let us look at the numbers.",
                                                     " Sales were up.", " by three per cent.", " Thank you."]
    new = transcript.segments[1:3]
    assert [(s.start, s.end) for s in new] == [(4.1, 7.0), (8.9, 11.8)], "moved by where the stretch starts"
    assert [(w.start, w.end) for w in new[1].words] == [(8.9, 11.8)], "the words move with their line"
    assert [transcript.segments[i] for i in (0, 3, 4)] == untouched
    assert all(a is b for a, b in zip([transcript.segments[i] for i in (0, 3, 4)], untouched))

    change.revert(transcript)
    assert transcript.segments == before
    assert transcript.segments[1] is region.lines[0] and transcript.segments[2] is region.lines[1]
    change.apply(transcript)
    assert [s.text for s in transcript.segments][1:3] == [" Let us look at the numbers.", " Sales were up."]


def test_new_lines_never_reach_past_the_stretch_into_a_neighbour_and_lines_without_words_are_left_out():
    transcript = meeting()
    region = region_of(transcript, [1, 2])  # 4.0–12.0, between lines 1 and 4
    change = replacement(transcript, region, heard((0.0, 0.0, " "), (0.0, 3.0, " Let's look."),
                                                   (6.5, 9.0, " Sales were up by three")))
    change.apply(transcript)
    segments = transcript.segments
    assert [s.text for s in segments[1:3]] == [" Let's look.", " Sales were up by three"]
    assert segments[2].end == 12.0 and segments[2].words[0].end == 12.0
    assert all(earlier.end <= later.start for earlier, later in zip(segments, segments[1:])), "nothing overlaps"


def test_each_new_line_keeps_the_speaker_of_the_old_line_it_overlaps_most():
    transcript = meeting()
    region = region_of(transcript, [1, 2, 3])  # speakers 1, 2, 2 from 4.0 to 15.5
    change = replacement(transcript, region, heard((0.0, 3.0, " Let's look at the numbers."),
                                                   (5.0, 10.5, " Sales were up by three per cent.")))
    assert [s.speaker for s in change.splices[0].inserted] == [1, 2]
    unlabelled = Transcript(segments=[Segment(0.0, 2.0, " one"), Segment(2.0, 4.0, " two")], duration=5.0)
    change = replacement(unlabelled, region_of(unlabelled, [0]), heard((0.0, 1.5, " One.")))
    assert change.splices[0].inserted[0].speaker is None


def test_nothing_heard_leaves_the_lines_with_a_sentence_naming_the_stretch():
    transcript = meeting()
    before = copy.deepcopy(transcript.segments)
    region = region_of(transcript, [3])
    for nothing in ([], heard((0.0, 1.0, "  "))):
        with pytest.raises(EditRefused, match=r"No words were heard in 0:12–0:15 this time"):
            replacement(transcript, region, nothing)
    assert transcript.segments == before


def test_lines_changed_while_they_were_decoded_are_not_replaced():
    transcript = meeting()
    region = region_of(transcript, [1, 2])
    edits.edit_text(transcript, 2, "Sales went up").apply(transcript)
    with pytest.raises(EditRefused, match="changed while they were being transcribed again"):
        replacement(transcript, region, heard((0.0, 3.0, " Let's look.")))

    moved = meeting()
    region = region_of(moved, [1, 2])
    edits.insert_after(moved, 3).apply(moved)  # a line added after them, one before them taken out:
    edits.delete(moved, [0]).apply(moved)  # the lines themselves are as they were, found where they are now
    change = replacement(moved, region, heard((0.0, 3.0, " Let's look.")))
    change.apply(moved)
    assert [s.text for s in moved.segments] == [" Let's look.", " by three per cent.", "", " Thank you."]
