"""Edit commands on a transcript: each one applies, undoes and redoes exactly, and refuses what would
break the timing with a sentence."""
import copy

import pytest

from desktop.core.transcription import edits
from desktop.core.transcription.edits import EditRefused, Search
from desktop.core.transcription.transcript import Segment, Transcript, Word


def english() -> Transcript:
    return Transcript(segments=[
        Segment(0.0, 2.0, " Hello there my friend", words=[
            Word(0.0, 0.4, " Hello"), Word(0.5, 0.9, " there"), Word(1.2, 1.5, " my"), Word(1.6, 2.0, " friend")],
            speaker=1),
        Segment(3.0, 4.0, " The cat sat", speaker=2),
        Segment(5.0, 6.0, " Category cat", speaker=1),
    ], language="en", duration=10.0)


def chinese() -> Transcript:
    return Transcript(segments=[
        Segment(0.0, 3.0, "你好，世界很大", words=[
            Word(0.0, 0.8, "你好"), Word(0.8, 1.0, "，"), Word(1.1, 2.0, "世界"), Word(2.0, 3.0, "很大")]),
        Segment(4.0, 5.0, "北京欢迎你"),
    ], language="zh", duration=10.0)


def undo_redo_round_trip(transcript: Transcript, change: edits.Change) -> Transcript:
    """Apply, undo (back to the start exactly), redo; returns the transcript as changed."""
    before = copy.deepcopy(transcript)
    change.apply(transcript)
    after = copy.deepcopy(transcript)
    change.revert(transcript)
    assert transcript == before
    change.apply(transcript)
    assert transcript == after
    return transcript


def test_split_divides_at_word_timings_and_undoes():
    transcript = english()
    change = edits.split(transcript, 0, len("Hello the"))  # caret inside "there": moves to a word's end
    undo_redo_round_trip(transcript, change)
    head, tail = transcript.segments[:2]
    assert (head.text, tail.text) == (" Hello there", " my friend")
    assert [w.text for w in head.words] == [" Hello", " there"] and [w.text for w in tail.words] == [" my", " friend"]
    assert head.start == 0.0 and tail.end == 2.0
    assert 0.9 <= head.end == tail.start <= 1.2  # between the words' times
    assert head.speaker == tail.speaker == 1
    assert str(change.description) == "split line 1"


def test_split_chinese_keeps_a_word_and_its_punctuation_together():
    transcript = chinese()
    change = edits.split(transcript, 0, 1)  # between 你 and 好, inside the word 你好
    change.apply(transcript)
    assert [s.text for s in transcript.segments[:2]] == ["你好，", "世界很大"]  # the comma stays with 你好
    assert transcript.segments[0].end == transcript.segments[1].start
    assert 1.0 <= transcript.segments[1].start <= 1.1


def test_split_without_words_divides_time_by_characters():
    transcript = chinese()
    edits.split(transcript, 1, 2).apply(transcript)
    assert [s.text for s in transcript.segments[1:]] == ["北京", "欢迎你"]
    assert transcript.segments[1].end == pytest.approx(4.4)


def test_split_a_single_word_is_refused():
    transcript = Transcript(segments=[Segment(0, 1, " Hello")])
    with pytest.raises(EditRefused, match="Line 1"):
        edits.split(transcript, 0, 2)


def test_merge_joins_text_words_and_times():
    transcript = english()
    edits.split(transcript, 0, 11).apply(transcript)
    undo_redo_round_trip(transcript, edits.merge_with_next(transcript, 0))
    assert transcript.segments[0] == english().segments[0]
    with pytest.raises(EditRefused, match="last one"):
        edits.merge_with_next(transcript, len(transcript.segments) - 1)


def test_merge_chinese_lines_without_a_space():
    transcript = chinese()
    edits.merge_with_next(transcript, 0).apply(transcript)
    assert transcript.segments[0].text == "你好，世界很大北京欢迎你"
    assert (transcript.segments[0].start, transcript.segments[0].end) == (0.0, 5.0)


def test_edit_text_times_speaker_insert_delete_undo():
    transcript = english()
    for make in (lambda: edits.edit_text(transcript, 1, "The dog sat"),
                 lambda: edits.set_times(transcript, 1, 2.5, 4.5),
                 lambda: edits.set_speaker(transcript, 1, 1),
                 lambda: edits.insert_after(transcript, 1),
                 lambda: edits.delete(transcript, [0, 3])):
        undo_redo_round_trip(transcript, make())
    assert [s.text for s in transcript.segments] == [" The dog sat", ""]
    assert transcript.segments[0].text.startswith(" ")  # Whisper's leading space kept
    assert (transcript.segments[1].start, transcript.segments[1].end) == (4.5, 5.0)  # the gap before the next line


def test_times_that_overlap_or_run_backwards_are_refused():
    transcript = english()
    with pytest.raises(EditRefused, match="end before it starts"):
        edits.set_times(transcript, 1, 3.5, 3.0)
    with pytest.raises(EditRefused, match="before line 1 ends"):
        edits.set_times(transcript, 1, 1.5, 4.0)


def test_shift_moves_lines_and_words_and_refuses_overlap():
    transcript = english()
    undo_redo_round_trip(transcript, edits.shift(transcript, [1, 2], 0.5))
    assert (transcript.segments[2].start, transcript.segments[2].end) == (5.5, 6.5)
    with pytest.raises(EditRefused, match="overlap line 1"):
        edits.shift(transcript, [1, 2], -2.0)
    with pytest.raises(EditRefused, match="before the recording"):
        edits.shift(transcript, [0], -0.5)
    edits.shift(transcript, [0], 0.25).apply(transcript)
    assert transcript.segments[0].words[0].start == 0.25


def test_shift_refuses_past_the_recordings_end_as_it_refuses_before_zero():
    transcript = english()  # the last line ends at 6.0 of a 10-second recording
    with pytest.raises(EditRefused, match="Line 3 would end after the recording does: shift by at most 4.500 s later"):
        edits.shift(transcript, [2], 5.0)
    with pytest.raises(EditRefused, match="Line 1 would start before the recording does: shift by at most 0.000 s earlier"):
        edits.shift(transcript, [0], -0.5)
    edits.shift(transcript, [2], 4.5).apply(transcript)
    assert transcript.segments[2].end == pytest.approx(10.5)
    assert edits.shift_range(transcript, [2]) == (pytest.approx(-5.5), pytest.approx(0.0))


def test_a_refused_shift_says_how_far_the_lines_can_go():
    transcript = english()
    assert edits.shift_range(transcript, [1]) == (pytest.approx(-1.0), pytest.approx(1.0))
    with pytest.raises(EditRefused, match="overlap line 3: shift by at most 1.000 s later"):
        edits.shift(transcript, [1], 1.5)
    with pytest.raises(EditRefused, match="overlap line 1: shift by at most 1.000 s earlier"):
        edits.shift(transcript, [1], -1.5)
    unknown_length = Transcript(segments=[Segment(0.0, 2.0, " Hi")], language="en")
    assert edits.shift_range(unknown_length, [0]) == (0.0, float("inf"))


def test_typed_times_name_the_limit_they_met():
    transcript = english()
    with pytest.raises(EditRefused, match="the earliest start is 00:00:02.000, or change line 1 first"):
        edits.set_times(transcript, 1, 1.5, 4.0)
    with pytest.raises(EditRefused, match="the latest end is 00:00:05.000, or change line 3 first"):
        edits.set_times(transcript, 1, 3.0, 5.5)
    with pytest.raises(EditRefused, match="the latest end is 00:00:10.000"):
        edits.set_times(transcript, 2, 5.0, 11.0)


def test_insert_line_says_which_edge_leaves_no_room():
    transcript = english()
    transcript.segments[2] = Segment(5.0, 10.0, " Category cat")  # the last line ends with the recording
    with pytest.raises(EditRefused) as after_last:
        edits.insert_after(transcript, 2)
    assert "after line 3: it ends where the recording does" in after_last.value.message
    assert "next lines" not in after_last.value.message
    with pytest.raises(EditRefused, match="no room before line 1: it starts where the recording does"):
        edits.insert_after(transcript, None)
    transcript.segments[1] = Segment(2.0, 5.0, " The cat sat")
    with pytest.raises(EditRefused, match="between line 1 and line 2: make line 1 end earlier or line 2 start later"):
        edits.insert_after(transcript, 0)


def test_replace_all_whole_words_and_case():
    transcript = english()
    change, count = edits.replace_all(transcript, Search("cat", whole_words=True), "dog")
    assert count == 2
    undo_redo_round_trip(transcript, change)
    assert [s.text for s in transcript.segments[1:]] == [" The dog sat", " Category dog"]
    assert edits.replace_all(transcript, Search("DOG", match_case=True), "x") == (None, 0)


def test_replace_all_in_chinese_by_characters_and_in_speaker_names():
    transcript = chinese()
    transcript.segments[1].speaker = 1
    transcript.speaker_names = {1: "北京台"}
    change, count = edits.replace_all(transcript, Search("北京", whole_words=True), "上海", in_speaker_names=True)
    assert count == 2
    undo_redo_round_trip(transcript, change)
    assert transcript.segments[1].text == "上海欢迎你" and transcript.speaker_name(1) == "上海台"
    change.revert(transcript)
    assert transcript.speaker_names == {1: "北京台"}


def test_find_reports_positions_in_the_shown_text():
    assert edits.find(english(), Search("cat")) == [(1, 4, 7), (2, 0, 3), (2, 9, 12)]


def test_rename_speaker_joining_another_undoes():
    transcript = english()
    change = edits.rename_speaker(transcript, 2, "Ann")
    undo_redo_round_trip(transcript, change)
    assert transcript.speaker_name(2) == "Ann"
    transcript.speaker_names[1] = "Bob"
    undo_redo_round_trip(transcript, edits.rename_speaker(transcript, 2, "Bob"))  # joins speaker 1
    assert {s.speaker for s in transcript.segments} == {1}


def test_replace_at_replaces_only_the_match_it_names():
    transcript = english()
    found = edits.find(transcript, Search("cat", whole_words=True))
    assert found == [(1, 4, 7), (2, 9, 12)]
    change = edits.replace_at(transcript, Search("cat", whole_words=True), "dog", *found[1][:2])
    assert [s.text for s in undo_redo_round_trip(transcript, change).segments] == [
        " Hello there my friend", " The cat sat", " Category dog"]
    assert edits.replace_at(transcript, Search("cat", whole_words=True), "dog", 2, 0) is None, "no match there"


def test_replace_at_in_chinese():
    transcript = chinese()
    change = edits.replace_at(transcript, Search("世界"), "天下", 0, 3)
    assert undo_redo_round_trip(transcript, change).segments[0].text == "你好，天下很大"
    assert transcript.segments[0].words == [], "the word times no longer match an edited line"


def test_lines_replaced_with_their_own_speakers_keep_their_names_and_undo_restores_the_old():
    transcript = english()
    transcript.speaker_names = {1: "JFK", 2: "Jackie"}
    opened = [Segment(0.0, 1.0, " Hello", speaker=1), Segment(1.0, 2.0, " Hi", speaker=2)]
    change = edits.replace_lines(transcript, opened, edits.N_("Edits", "open"), {1: "Anna", 2: "Bob"})
    undo_redo_round_trip(transcript, change)
    assert [transcript.speaker_name(s.speaker) for s in transcript.segments] == ["Anna", "Bob"]
    change.revert(transcript)
    assert transcript.speaker_names == {1: "JFK", 2: "Jackie"}
