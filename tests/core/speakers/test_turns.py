"""The rules that turn "who spoke when" into labelled lines, on word timings written out by hand."""
from desktop.core.speakers.turns import SpeakerSpan, label_segments, speaker_at, speech_stretches
from desktop.core.transcription.transcript import Segment, Word


def words(*timed: tuple[float, float, str]) -> list[Word]:
    return [Word(start, end, text) for start, end, text in timed]


def segment(*timed: tuple[float, float, str]) -> Segment:
    items = words(*timed)
    return Segment(items[0].start, items[-1].end, "".join(w.text for w in items), items)


def test_stretches_join_words_closer_than_a_pause_and_ignore_empty_segments():
    segments = [segment((0.0, 0.5, " Hello"), (0.6, 1.0, " there.")),
                Segment(1.0, 2.0, "  "),
                segment((1.5, 2.0, " Yes."))]
    assert speech_stretches(segments) == [(0.0, 1.0), (1.5, 2.0)]


def test_the_dominant_speaker_gets_a_word_where_two_overlap_and_the_nearest_one_outside_all_spans():
    spans = [SpeakerSpan(0.0, 1.0, 0), SpeakerSpan(0.8, 2.0, 1)]
    assert speaker_at(0.7, 1.2, spans) == 1  # 0.2 s of speaker 0 against 0.4 s of speaker 1
    assert speaker_at(0.1, 0.5, spans) == 0
    assert speaker_at(2.5, 2.7, spans) == 1
    assert speaker_at(0.0, 1.0, []) is None


def test_a_segment_is_split_where_the_speaker_changes_and_speakers_are_numbered_by_first_appearance():
    line = segment((0.0, 0.4, " We"), (0.4, 0.8, " start"), (0.8, 1.3, " now."),
                   (1.35, 1.7, " Fine"), (1.7, 2.1, " by"), (2.1, 2.6, " me."))
    spans = [SpeakerSpan(0.0, 1.32, 5), SpeakerSpan(1.32, 3.0, 2)]
    labelled = label_segments([line], spans)
    assert [(s.text, s.speaker) for s in labelled] == [(" We start now.", 1), (" Fine by me.", 2)]
    assert (labelled[0].start, labelled[0].end, labelled[1].start, labelled[1].end) == (0.0, 1.3, 1.35, 2.6)
    assert [w.text for w in labelled[1].words] == [" Fine", " by", " me."]


def test_a_brief_flicker_inside_one_persons_speech_goes_to_that_person():
    line = segment((0.0, 0.5, " One"), (0.5, 1.0, " two"), (1.0, 1.3, " three"), (1.3, 1.8, " four"),
                   (1.8, 2.3, " five."))
    spans = [SpeakerSpan(0.0, 1.0, 0), SpeakerSpan(1.0, 1.3, 1), SpeakerSpan(1.3, 2.3, 0)]
    labelled = label_segments([line], spans)
    assert [(s.text, s.speaker) for s in labelled] == [(" One two three four five.", 1)]


def test_a_short_reply_after_a_pause_keeps_its_own_speaker():
    talk = segment((0.0, 1.0, " We"), (1.0, 2.5, " agree?"))
    reply = segment((3.0, 3.4, " Yes."))
    more = segment((4.0, 5.0, " Then"), (5.0, 6.0, " go."))
    spans = [SpeakerSpan(0.0, 2.5, 0), SpeakerSpan(3.0, 3.4, 1), SpeakerSpan(4.0, 6.0, 0)]
    assert [s.speaker for s in label_segments([talk, reply, more], spans)] == [1, 2, 1]


def test_chinese_words_split_without_spaces_and_keep_the_text_whisper_wrote():
    items = [Word(0.0, 0.5, "我们", text_original="我們"), Word(0.5, 1.2, "开始。"),
             Word(1.5, 2.0, "好的", text_original="好的"), Word(2.0, 2.8, "没问题。")]
    line = Segment(0.0, 2.8, "我们开始。好的没问题。", items, text_original="我們开始。好的没问题。")
    labelled = label_segments([line], [SpeakerSpan(0.0, 1.3, 0), SpeakerSpan(1.3, 2.8, 1)])
    assert [(s.text, s.text_original, s.speaker) for s in labelled] == [
        ("我们开始。", "我們开始。", 1), ("好的没问题。", "好的没问题。", 2)]


def test_a_segment_whose_text_no_longer_matches_its_words_is_labelled_whole_by_the_majority():
    line = segment((0.0, 1.0, " Old"), (1.0, 3.0, " words"))
    line.text = " Edited text."
    spans = [SpeakerSpan(0.0, 1.0, 0), SpeakerSpan(1.0, 3.0, 1)]
    assert [(s.text, s.speaker) for s in label_segments([line], spans)] == [(" Edited text.", 1)]


def test_a_segment_without_words_takes_the_speaker_of_its_time():
    line = Segment(2.0, 4.0, " No word timings here.")
    spans = [SpeakerSpan(0.0, 2.0, 3), SpeakerSpan(2.0, 5.0, 7)]
    assert label_segments([line], spans)[0].speaker == 1
