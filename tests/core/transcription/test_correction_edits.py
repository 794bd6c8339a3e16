"""Undoing the glossary's corrections as edits: one or all, each undone and redone exactly, the words'
times kept, and what the user typed over a correction never taken for it."""
import copy

import pytest

from desktop.core.glossary.correction import correct
from desktop.core.glossary.glossary_file import Term
from desktop.core.transcription import edits
from desktop.core.transcription.edits import EditRefused
from desktop.core.transcription.transcript import Segment, Transcript, Word


def corrected() -> Transcript:
    words = [Word(0.0, 0.5, "太以", 0.9), Word(0.5, 1.0, "真人", 0.9), Word(1.0, 1.5, "去了", 0.9),
             Word(1.5, 2.0, "，", 0.9), Word(2.0, 2.5, "太以真人", 0.9)]
    transcript = Transcript(segments=[
        Segment(0.0, 2.5, "".join(w.text for w in words), words=words),
        Segment(3.0, 4.0, " Open vox desk now"),
        Segment(4.0, 5.0, " Nothing to correct here"),
    ], language="zh", duration=6.0)
    correct(transcript, [Term("太乙真人"), Term("VoxDesk", ("vox desk",))])
    assert [s.text for s in transcript.segments] == ["太乙真人去了，太乙真人", " Open VoxDesk now",
                                                     " Nothing to correct here"]
    return transcript


def round_trip(transcript: Transcript, change: edits.Change) -> None:
    """Apply, undo (back to the start exactly), redo (the change again exactly)."""
    before = copy.deepcopy(transcript)
    change.apply(transcript)
    after = copy.deepcopy(transcript)
    change.revert(transcript)
    assert transcript == before
    change.apply(transcript)
    assert transcript == after


def test_one_correction_is_undone_and_redone_exactly_the_others_stay():
    transcript = corrected()
    change = edits.undo_correction(transcript, 0, 1)
    assert transcript.segments[0].text == "太乙真人去了，太乙真人", "making the change leaves the line alone"
    round_trip(transcript, change)
    line = transcript.segments[0]
    assert line.text == "太乙真人去了，太以真人"
    (left,) = line.corrections
    assert line.text[left.start:left.end] == "太乙真人"
    assert "".join(w.text for w in line.words) == line.text, "the words still spell the line"
    assert (line.words[-1].start, line.words[-1].end) == (2.0, 2.5)
    assert edits.undo_correction(transcript, 0, 0) is not None
    assert str(change.description) == "restore “太以真人” in line 1"


def test_undoing_the_first_correction_keeps_the_later_one_in_its_place():
    transcript = corrected()
    edits.undo_correction(transcript, 0, 0).apply(transcript)
    line = transcript.segments[0]
    assert line.text == "太以真人去了，太乙真人"
    (left,) = line.corrections
    assert line.text[left.start:left.end] == "太乙真人"


def test_all_corrections_are_undone_as_one_change():
    transcript = corrected()
    change = edits.undo_all_corrections(transcript)
    round_trip(transcript, change)
    assert [s.text for s in transcript.segments] == ["太以真人去了，太以真人", " Open vox desk now",
                                                     " Nothing to correct here"]
    assert all(not s.corrections for s in transcript.segments)
    assert edits.undo_all_corrections(transcript) is None, "nothing left to undo"


def test_typing_over_a_corrected_line_drops_its_corrections():
    transcript = corrected()
    edits.edit_text(transcript, 1, "Open VoxDesk later").apply(transcript)
    assert transcript.segments[1].corrections == []
    assert edits.standing_corrections(transcript.segments[0]) != []


def test_a_correction_no_longer_in_the_text_is_neither_shown_nor_undone():
    transcript = corrected()
    # Another edit (a replace, a split) left the correction's place behind: its term is not there.
    line = transcript.segments[1]
    line.text = " Open the app now"
    assert edits.standing_corrections(line) == []
    with pytest.raises(EditRefused):
        edits.undo_correction(transcript, 1, 0)
    change = edits.undo_all_corrections(transcript)
    change.apply(transcript)
    assert transcript.segments[1].text == " Open the app now", "text that is not the term is left as it is"
    assert transcript.segments[0].text == "太以真人去了，太以真人"


def test_a_split_line_keeps_each_correction_in_the_half_that_holds_it():
    transcript = Transcript(segments=[Segment(0.0, 4.0, " Ask Marian about vox desk")], language="en", duration=5.0)
    correct(transcript, [Term("Marion", ("Marian",)), Term("VoxDesk", ("vox desk",))])
    round_trip(transcript, edits.split(transcript, 0, len("Ask Marion about")))
    head, tail = transcript.segments
    assert (head.text, tail.text) == (" Ask Marion about", " VoxDesk")
    assert [(c.original, head.text[c.start:c.end]) for _, c in edits.standing_corrections(head)] == [("Marian", "Marion")]
    assert [(c.original, tail.text[c.start:c.end]) for _, c in edits.standing_corrections(tail)] == [("vox desk", "VoxDesk")]
    edits.undo_correction(transcript, 1, 0).apply(transcript)
    assert transcript.segments[1].text == " vox desk"


def test_merged_lines_keep_the_corrections_of_both():
    transcript = corrected()
    edits.merge_with_next(transcript, 1).apply(transcript)  # " Open VoxDesk now" + " Nothing to correct here"
    merged = transcript.segments[1]
    assert [merged.text[c.start:c.end] for _, c in edits.standing_corrections(merged)] == ["VoxDesk"]
    edits.merge_with_next(transcript, 0).apply(transcript)  # Chinese, then Latin text
    merged = transcript.segments[0]
    assert [merged.text[c.start:c.end] for _, c in edits.standing_corrections(merged)] == ["太乙真人", "太乙真人",
                                                                                          "VoxDesk"]
    edits.undo_all_corrections(transcript).apply(transcript)
    assert transcript.segments[0].text == "太以真人去了，太以真人 Open vox desk now Nothing to correct here"


def test_replace_all_over_a_corrected_word_drops_its_record_and_undo_brings_it_back():
    transcript = corrected()
    change, count = edits.replace_all(transcript, edits.Search("VoxDesk"), "Voxdesk")
    assert count == 1
    round_trip(transcript, change)
    line = transcript.segments[1]
    assert line.text == " Open Voxdesk now"
    assert edits.standing_corrections(line) == [], "no highlight, no hover naming “vox desk”"
    assert "corrections" not in transcript.to_dict()["segments"][1], "the export lists no replacement there"
    change.revert(transcript)
    assert [(c.original, c.term) for _, c in edits.standing_corrections(transcript.segments[1])] == \
        [("vox desk", "VoxDesk")]
    assert transcript.to_dict()["segments"][1]["corrections"] == [
        {"start": 6, "end": 13, "original": "vox desk", "term": "VoxDesk"}]


def test_replacing_a_longer_word_that_begins_with_the_term_drops_its_record():
    transcript = corrected()
    edits.replace_all(transcript, edits.Search("VoxDesk"), "VoxDesk Pro")[0].apply(transcript)
    assert transcript.segments[1].text == " Open VoxDesk Pro now"
    assert edits.standing_corrections(transcript.segments[1]) == [], "the corrected word is the user's now"


def test_replacing_text_before_a_correction_moves_it_with_its_word():
    transcript = corrected()
    change, _ = edits.replace_all(transcript, edits.Search("去了"), "已经走了")
    round_trip(transcript, change)
    line = transcript.segments[0]
    assert line.text == "太乙真人已经走了，太乙真人"
    assert [(c.original, line.text[c.start:c.end]) for _, c in edits.standing_corrections(line)] == \
        [("太以真人", "太乙真人"), ("太以真人", "太乙真人")]
    exported = transcript.to_dict()["segments"][0]["corrections"]
    assert [line.text[c["start"]:c["end"]] for c in exported] == ["太乙真人", "太乙真人"]
    edits.undo_all_corrections(transcript).apply(transcript)
    assert transcript.segments[0].text == "太以真人已经走了，太以真人"


def test_replace_one_match_over_a_correction_drops_only_that_record():
    transcript = corrected()
    search = edits.Search("太乙真人")
    (_, second, _), = [m for m in edits.find(transcript, search) if m[0] == 0][1:]
    change = edits.replace_at(transcript, search, "他", 0, second)
    round_trip(transcript, change)
    line = transcript.segments[0]
    assert line.text == "太乙真人去了，他"
    assert [(c.original, line.text[c.start:c.end]) for _, c in edits.standing_corrections(line)] == \
        [("太以真人", "太乙真人")]
    assert len(transcript.to_dict()["segments"][0]["corrections"]) == 1
    change.revert(transcript)
    assert len(edits.standing_corrections(transcript.segments[0])) == 2


def test_the_export_lists_only_replacements_whose_term_is_still_in_the_text():
    transcript = corrected()
    transcript.segments[1].text = " Open the app now"  # changed by a path that kept the old record
    assert "corrections" not in transcript.to_dict()["segments"][1]
