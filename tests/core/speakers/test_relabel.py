"""Labelling the speakers of a finished transcript again: a voice found again keeps its number and the
name the user gave it, a new voice gets a free number, and the whole relabelling is one change that
undo takes back exactly."""
from desktop.core.speakers.relabel import keeping_known_speakers, relabelled, same_speakers
from desktop.core.transcription.transcript import Segment, Transcript, Word


def lines(*speakers, length: float = 2.0) -> list[Segment]:
    return [Segment(length * n, length * n + length * 0.9, f" line {n}", [Word(length * n, length * n + 1, f" line {n}")],
                    speaker=speaker) for n, speaker in enumerate(speakers)]


def test_voices_found_again_keep_their_numbers_and_names_whatever_order_the_stage_numbered_them():
    before = lines(1, 2, 1, 2, 1)
    after = lines(2, 1, 2, 1, 2)  # the same voices, numbered the other way round by the stage
    assert same_speakers(before, after) == {2: 1, 1: 2}
    kept, names = keeping_known_speakers(before, {1: "Anna", 2: "Bob"}, after)
    assert [s.speaker for s in kept] == [1, 2, 1, 2, 1]
    assert names == {1: "Anna", 2: "Bob"}
    assert [s.speaker for s in after] == [2, 1, 2, 1, 2], "the stage's lines are not changed"


def test_a_voice_newly_told_apart_gets_a_free_number_and_the_default_name():
    before = lines(1, 1, 1, 1, 2, 2)  # Anna was given every line the third voice had
    after = lines(1, 1, 2, 3, 3, 3)
    kept, names = keeping_known_speakers(before, {1: "Anna", 2: "Bob"}, after)
    # Anna keeps the voice with most of her time, Bob his, and the third voice takes number 3.
    assert [s.speaker for s in kept] == [1, 1, 3, 2, 2, 2]
    assert names == {1: "Anna", 2: "Bob"}


def test_the_new_speakers_match_by_shared_time_one_old_speaker_each():
    before = lines(1, 1, 1, 1, 2, 2)
    after = lines(5, 5, 7, 7, 7, 7)  # 7: two lines of Anna's, two of Bob's — Bob's are all 7's
    matched = same_speakers(before, after)
    assert matched[5] == 1, "all of 5's time was Anna's"
    assert 7 not in matched, "half of 7's time is Anna's, half Bob's: neither is more than half"
    kept, names = keeping_known_speakers(before, {1: "Anna", 2: "Bob"}, after)
    assert [s.speaker for s in kept] == [1, 1, 2, 2, 2, 2]
    assert names == {1: "Anna"}, "Bob was not found again: his name is not given to someone else"


def test_lines_without_a_speaker_before_match_nobody():
    before = lines(None, None, None)
    after = lines(2, 1, 2)
    kept, names = keeping_known_speakers(before, {}, after)
    assert [s.speaker for s in kept] == [1, 2, 1] and names == {}


def test_relabelling_is_one_change_and_undo_brings_back_the_speakers_exactly():
    transcript = Transcript(segments=lines(1, 1, 2), language="en", duration=6.0, speaker_names={1: "Anna"})
    old_segments, old_names = list(transcript.segments), dict(transcript.speaker_names)
    new = [Segment(0.0, 0.9, " line", speaker=1), Segment(0.9, 1.8, " 0", speaker=2), *lines(2, 1, 2)[1:]]
    change = relabelled(transcript, new, {2: "Bob"})
    change.apply(transcript)
    assert [s.speaker for s in transcript.segments] == [1, 2, 1, 2] and transcript.speaker_names == {2: "Bob"}
    change.revert(transcript)
    assert all(a is b for a, b in zip(transcript.segments, old_segments)) and len(transcript.segments) == 3
    assert transcript.speaker_names == old_names
    change.apply(transcript)
    assert transcript.speaker_names == {2: "Bob"}, "and redo makes it again"


def test_speakers_found_as_they_were_are_no_change():
    transcript = Transcript(segments=lines(1, 2), speaker_names={1: "Anna"})
    assert relabelled(transcript, lines(1, 2), {1: "Anna"}) is None
