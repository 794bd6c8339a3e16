"""Reading-speed and length warnings, from the cues the SRT writer makes; reading and shifting SRT files."""
import pytest

from desktop.core.transcription.cue_checks import ReadingLimits, check_cues, line_warnings
from desktop.core.transcription.subtitle_files import SubtitleFileError, read_srt, shifted, write_srt
from desktop.core.transcription.subtitles import Cue
from desktop.core.transcription.transcript import Segment, Transcript


def test_each_kind_of_hard_to_read_line_is_named():
    transcript = Transcript(segments=[
        Segment(0.0, 2.0, " A line that is comfortably read."),
        Segment(2.0, 3.0, " Far too many words are crammed into this single second"),
        Segment(3.0, 3.5, " Hi"),
        Segment(4.0, 12.0, " Slow"),
        Segment(12.0, 15.0, "这句话在三秒钟里说了太多太多的汉字了吧我们应该把它分开来说"),
        Segment(15.0, 16.5, " Overlapping"),
        Segment(16.0, 18.0, " the next one"),
    ], language="en", duration=20.0)
    found = {row: " ".join(warnings) for row, warnings in line_warnings(transcript).items()}
    assert 0 not in found
    assert "characters a second" in found[1]
    assert "shorter than 0.8 s" in found[2]
    assert "longer than 7 s" in found[3]
    assert "more than a reader manages (9)" in found[4], "Chinese is held to its own speed"
    assert "Overlaps the next subtitle by 0.50 s" in found[5]
    assert line_warnings(transcript, ReadingLimits(latin_cps=100, chinese_cps=100)).keys() == {2, 3, 5}


def test_cue_checks_number_cues_from_one():
    cues = [Cue(0, 2, ["Fine here."]), Cue(2, 2.3, ["Quick"])]
    assert [number for number, _ in check_cues(cues)] == [2]


def test_an_srt_file_reads_shifts_and_writes_back(tmp_path):
    path = tmp_path / "film.srt"
    path.write_text("1\n00:00:01,000 --> 00:00:02,500\nHello\nthere\n\n2\n00:00:03,000 --> 00:00:04,000\n你好\n",
                    encoding="utf-8")
    cues = read_srt(path)
    assert [(c.start, c.end, c.lines) for c in cues] == [(1.0, 2.5, ["Hello", "there"]), (3.0, 4.0, ["你好"])]
    write_srt(path, shifted(cues, 0.25))
    assert [(c.start, c.end) for c in read_srt(path)] == [(1.25, 2.75), (3.25, 4.25)]
    with pytest.raises(SubtitleFileError, match="Subtitle 1 would start before"):
        shifted(cues, -1.5)


def test_a_bad_srt_file_names_the_line(tmp_path):
    path = tmp_path / "bad.srt"
    path.write_text("1\n00:00:01,000 --> 00:00:02,000\nhi\n\n2\n00:00:0x,000 --> 00:00:04,000\nho\n", encoding="utf-8")
    with pytest.raises(SubtitleFileError, match="Line 5 of “bad.srt”"):
        read_srt(path)
    path.write_bytes(b"1\n00:00:01,000 --> 00:00:02,000\n\xff\xfe\n")
    with pytest.raises(SubtitleFileError, match="Line 3 of “bad.srt” is not UTF-8"):
        read_srt(path)


def test_a_cue_ending_before_it_starts_is_named_so_rather_than_given_a_negative_time_on_screen():
    found = check_cues([Cue(5.0, 2.0, ["backwards"]), Cue(6.0, 7.0, ["fine"])])
    assert found == [(1, ["Ends before it starts."])]
