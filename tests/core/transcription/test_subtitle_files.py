"""Reading WebVTT files made elsewhere: cues, times and text as written; a bad file is refused with
a sentence naming the line that could not be read; no file is too big or too strange to refuse safely."""
import pytest

from desktop.core.transcription.subtitle_files import MAX_SUBTITLE_BYTES, SubtitleFileError, read_subtitles, read_vtt

GOOD_VTT = """WEBVTT - made elsewhere

STYLE
::cue { color: yellow }

NOTE a note is not a subtitle

intro
00:00:01.500 --> 00:00:03.250 align:start position:10%
<v Anna>Hello &amp; <b>welcome</b>
second line

00:04.000 --> 00:05.125
你好，世界
"""


def test_a_webvtt_file_gives_its_cues_text_without_tags(tmp_path):
    path = tmp_path / "talk.vtt"
    path.write_text(GOOD_VTT, encoding="utf-8")
    cues = read_vtt(path)
    assert [(c.start, c.end, c.lines) for c in cues] == [
        (1.5, 3.25, ["Hello & welcome", "second line"]),
        (4.0, 5.125, ["你好，世界"]),
    ]
    assert read_subtitles(path) == cues, "chosen by the file's ending"


def test_windows_line_ends_and_a_byte_order_mark_read_the_same(tmp_path):
    path = tmp_path / "talk.vtt"
    path.write_bytes(b"\xef\xbb\xbf" + GOOD_VTT.replace("\n", "\r\n").encode())
    assert [c.lines for c in read_vtt(path)] == [["Hello & welcome", "second line"], ["你好，世界"]]


@pytest.mark.parametrize("text, line", [
    ("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nfine\n\n00:00:03.000 --> 00:0x:04.000\nbroken\n", 6),
    ("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nfine\n00:00:03.000 --> 00:00:04.000\nno empty line before\n", 5),
    ("1\n00:00:01,000 --> 00:00:02,000\nan SRT named .vtt\n", 1),
])
def test_a_bad_file_is_refused_naming_the_line(tmp_path, text, line):
    path = tmp_path / "bad.vtt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SubtitleFileError) as refused:
        read_vtt(path)
    assert f"Line {line} of “bad.vtt”" in str(refused.value.message)


def test_text_that_is_not_utf8_names_its_line(tmp_path):
    path = tmp_path / "latin1.vtt"
    path.write_bytes("WEBVTT\n\n00:01.000 --> 00:02.000\ncafé\n".encode("latin-1"))
    with pytest.raises(SubtitleFileError, match="Line 4"):
        read_vtt(path)


def test_a_file_too_large_to_be_subtitles_is_refused_without_reading_it_all(tmp_path):
    path = tmp_path / "huge.vtt"
    with open(path, "wb") as out:
        out.truncate(MAX_SUBTITLE_BYTES + 1)
    with pytest.raises(SubtitleFileError, match="too large"):
        read_vtt(path)


def test_control_characters_in_a_cue_are_taken_out(tmp_path):
    path = tmp_path / "odd.vtt"
    path.write_text("WEBVTT\n\n00:01.000 --> 00:02.000\nbell\x07 and \x1b[31mescape\n", encoding="utf-8")
    (cue,) = read_vtt(path)
    assert "\x07" not in cue.text and "\x1b" not in cue.text


def test_cues_become_a_transcript_in_time_order_with_their_lines_joined():
    from desktop.core.transcription.subtitle_files import transcript_from_cues
    from desktop.core.transcription.subtitles import Cue

    transcript = transcript_from_cues([
        Cue(5.0, 6.0, ["北京", "欢迎你"]),
        Cue(1.0, 2.5, ["Hello there,", "my friend"]),
    ], "talk.flac")
    assert [(s.start, s.end, s.text) for s in transcript.segments] == [
        (1.0, 2.5, "Hello there, my friend"), (5.0, 6.0, "北京欢迎你")]
    assert transcript.source == "talk.flac" and transcript.duration == 6.0
