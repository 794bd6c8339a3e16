"""Subtitle files are read in one pass: the first problem is named by its line as it is met, at most
20,000 subtitles are taken, reading can be cancelled, and times no recording can have are refused
where they enter, naming the subtitle and its line."""
import math
import subprocess
import sys

import pytest

from desktop.core.transcription.cue_times import (
    BEFORE_ZERO, ENDS_BEFORE_START, MAX_CUE_SECONDS, NOT_A_NUMBER, TOO_LATE, time_problem)
from desktop.core.transcription.subtitle_files import (
    MAX_CUES, SubtitleFileError, SubtitleReadCancelled, read_subtitles)


def _time(ms: int, separator: str) -> str:
    hours, ms = divmod(ms, 3_600_000)
    minutes, ms = divmod(ms, 60_000)
    seconds, ms = divmod(ms, 1000)
    return f"{hours:02d}:{minutes:02d}:{seconds:02d}{separator}{ms:03d}"


def srt_text(cues: int) -> str:
    return "".join(f"{n}\n{_time(n * 2000, ',')} --> {_time(n * 2000 + 1500, ',')}\nline {n}\n\n"
                   for n in range(1, cues + 1))


def vtt_text(cues: int) -> str:
    return "WEBVTT\n\n" + "".join(f"{_time(n * 2000, '.')} --> {_time(n * 2000 + 1500, '.')}\nline {n}\n\n"
                                  for n in range(1, cues + 1))


def test_the_bad_last_cue_of_a_long_webvtt_file_is_named_reading_each_block_once(tmp_path, monkeypatch):
    import webvtt.vtt

    text = vtt_text(600) + "00:30:00.000 --> 00:0x:01.000\nbroken\n"
    path = tmp_path / "long.vtt"
    path.write_text(text, encoding="utf-8")
    blocks_read = []
    real_parse_item = webvtt.vtt.parse_item

    def counting(lines, *args, **kwargs):
        blocks_read.append(lines[0])
        return real_parse_item(lines, *args, **kwargs)
    monkeypatch.setattr(webvtt.vtt, "parse_item", counting)
    with pytest.raises(SubtitleFileError) as refused:
        read_subtitles(path)
    bad_line = text.count("\n", 0, text.index("00:0x")) + 1
    assert f"Line {bad_line} of “long.vtt”" in refused.value.message
    assert len(blocks_read) <= 600 + 2, "the header, every cue and the bad one, each once"


def test_reading_stops_with_its_own_exception_when_cancelled(tmp_path):
    path = tmp_path / "long.srt"
    path.write_text(srt_text(5000), encoding="utf-8")
    asked = []

    def cancelled() -> bool:
        asked.append(True)
        return len(asked) >= 2
    with pytest.raises(SubtitleReadCancelled):
        read_subtitles(path, cancelled=cancelled)
    assert len(asked) == 2, "asked until it said yes, then stopped at once"


@pytest.mark.parametrize("text, name", [(srt_text(3000), "long.srt"), (vtt_text(3000), "long.vtt")])
def test_the_cancel_check_is_asked_every_few_hundred_cues(tmp_path, text, name):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    asked = []
    cues = read_subtitles(path, cancelled=lambda: asked.append(True) or False)
    assert len(cues) == 3000 and len(asked) >= 3000 // 500


@pytest.mark.parametrize("make, name", [(srt_text, "many.srt"), (vtt_text, "many.vtt")])
def test_more_than_20000_subtitles_are_refused_naming_the_limit_and_20000_are_read(tmp_path, make, name):
    path = tmp_path / name
    path.write_text(make(MAX_CUES + 1), encoding="utf-8")
    with pytest.raises(SubtitleFileError) as refused:
        read_subtitles(path)
    assert refused.value.message == (f"“{name}” has more than 20,000 subtitles; VoxDesk opens files of up to "
                                     "20,000 subtitles.")
    path.write_text(make(MAX_CUES), encoding="utf-8")
    assert len(read_subtitles(path)) == MAX_CUES


# Reads a file in a process of its own and writes its peak resident memory (VmHWM, kB) into a file.
_READ_REPORTING_PEAK = """
import sys
from desktop.core.common.errors import UserFacingError
from desktop.core.transcription.subtitle_files import read_subtitles
try:
    read_subtitles(sys.argv[2])
    said = "read"
except UserFacingError as error:
    said = error.message
with open("/proc/self/status") as status, open(sys.argv[1], "w") as out:
    out.write(next(line for line in status if line.startswith("VmHWM:")).split()[1] + "\\n" + said)
"""
ADDRESS_SPACE_CAP = 768 * 1024 * 1024
PEAK_LIMIT_MB = 90  # the interpreter and the file's bytes and text (about 13 MB) with room to spare


def test_a_150000_cue_srt_file_is_refused_within_bounded_memory(tmp_path):
    import resource

    path = tmp_path / "film.srt"
    path.write_text("".join(f"{n}\n{_time(n * 1500, ',')} --> {_time(n * 1500 + 1200, ',')}\nbudget\n\n"
                            for n in range(1, 150_001)), encoding="utf-8")  # about 6 MB
    report = tmp_path / "report"

    def capped() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE_CAP, ADDRESS_SPACE_CAP))
    result = subprocess.run([sys.executable, "-c", _READ_REPORTING_PEAK, str(report), str(path)],
                            capture_output=True, text=True, preexec_fn=capped, timeout=600)
    assert result.returncode == 0, result.stderr
    peak_kb, said = report.read_text(encoding="utf-8").split("\n", 1)
    assert "has more than 20,000 subtitles" in said
    assert int(peak_kb) / 1024 < PEAK_LIMIT_MB, f"peak {int(peak_kb) / 1024:.0f} MB"


@pytest.mark.parametrize("text, name, line", [
    ("1\n00:00:01,000 --> 00:00:02,000\nfine\n\n2\n3000000000:00:01,000 --> 3000000000:00:02,000\nfar\n",
     "far.srt", 6),
    ("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nfine\n\n101:00:00.000 --> 101:00:01.000\nfar\n", "far.vtt", 6),
])
def test_times_past_100_hours_are_refused_naming_the_subtitle_and_its_line(tmp_path, text, name, line):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SubtitleFileError) as refused:
        read_subtitles(path)
    assert refused.value.message == (f"Subtitle 2 (line {line} of “{name}”) is timed after 100 hours, longer "
                                     "than a recording can last: check its times.")


@pytest.mark.parametrize("text, name, line", [
    ("1\n00:00:01,000 --> 00:00:02,000\nfine\n\n2\n00:00:08,000 --> 00:00:05,000\nbackwards\n", "back.srt", 6),
    ("WEBVTT\n\n00:01.000 --> 00:02.000\nfine\n\nsecond\n00:08.000 --> 00:05.000\nbackwards\n", "back.vtt", 7),
])
def test_a_cue_ending_before_it_starts_is_refused_naming_it(tmp_path, text, name, line):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SubtitleFileError) as refused:
        read_subtitles(path)
    assert refused.value.message == (f"Subtitle 2 (line {line} of “{name}”) ends before it starts: check its "
                                     "times.")


def test_the_last_time_a_recording_can_have_is_read_and_fits_32_bit_milliseconds(tmp_path):
    path = tmp_path / "long.srt"
    path.write_text("1\n99:59:59,000 --> 100:00:00,000\nthe end\n", encoding="utf-8")
    (cue,) = read_subtitles(path)
    assert cue.end == MAX_CUE_SECONDS and round(cue.end * 1000) < 2**31 - 1


def test_a_line_of_a_million_digits_is_named_not_read_as_a_number(tmp_path):
    path = tmp_path / "digits.srt"
    path.write_text("1\n00:00:01,000 --> 00:00:02,000\nfine\n\n2\n" + "9" * 1_000_000
                    + ":00:00,000 --> 00:00:01,000\nx\n", encoding="utf-8")
    with pytest.raises(SubtitleFileError, match="Line 5 of “digits.srt”"):
        read_subtitles(path)


@pytest.mark.parametrize("start, end, problem", [
    (1.0, 2.0, None), (0.0, 0.0, None), (0.0, MAX_CUE_SECONDS, None),
    (math.nan, 2.0, NOT_A_NUMBER), (1.0, math.inf, NOT_A_NUMBER), (-math.inf, 1.0, NOT_A_NUMBER),
    (True, 2.0, NOT_A_NUMBER), (None, 2.0, NOT_A_NUMBER), ("1", 2.0, NOT_A_NUMBER),
    (-0.5, 2.0, BEFORE_ZERO), (1.0, MAX_CUE_SECONDS + 0.001, TOO_LATE), (1e20, 1e20, TOO_LATE),
    (3.0, 1.0, ENDS_BEFORE_START),
])
def test_the_time_check_for_every_way_in_says_what_is_wrong(start, end, problem):
    assert time_problem(start, end) == problem


SRT_SAMPLES = [
    "1\n00:00:01,000 --> 00:00:02,000\none\n\n2\n00:00:03,000 --> 00:00:04,000\ntwo\nlines\n",
    "1\n00:00:01,000 --> 00:00:02,000\nno empty line\n2\n00:00:03,000 --> 00:00:04,000\nafter it\n",
    "1\n00:00:01,000 --> 00:00:02,000\nan empty line\n\ninside the text\n\n2\n00:00:03,000 --> 00:00:04,000\nx\n",
    "00:00:01,000 --> 00:00:02,000\nno numbers\n\n00:00:03.5 --> 00:00:04.250\ndots\n",
    "\n\n1\r\n00:00:01,000 --> 00:00:02,000 X1:100 X2:200 Y1:10 Y2:50\r\nwindows\r\n\r\n",
    "1\n00:00:01,000 --> 00:00:02,000\n42\nthe answer\n\n2\n00:00:03,000 --> 00:00:04,000\n\n3\n"
    "00:00:05,000 --> 00:00:06,000\nafter an empty cue\n",
    "1\n00:00:01,000 --> 00:00:02,000\ntwo empty lines\n\n\nand text\n\n2\n00:00:03,000 --> 00:00:04,000\nx",
]


@pytest.mark.parametrize("text", SRT_SAMPLES)
def test_srt_files_are_read_as_the_srt_library_reads_them(tmp_path, text):
    import srt

    path = tmp_path / "sample.srt"
    path.write_text(text, encoding="utf-8", newline="")
    expected = [(s.start.total_seconds(), s.end.total_seconds(), s.content.split("\n")) for s in srt.parse(text)]
    assert [(c.start, c.end, c.lines) for c in read_subtitles(path)] == expected


VTT_SAMPLES = [
    "WEBVTT - made elsewhere\n\nSTYLE\n::cue { color: yellow }\n\nNOTE a note\n\nintro\n"
    "00:00:01.500 --> 00:00:03.250 align:start position:10%\n<v Anna>Hello &amp; <b>welcome</b>\nsecond\n\n"
    "00:04.000 --> 00:05.125\n你好，世界\n",
    "WEBVTT\nKind: captions\n\nREGION\nid:fred width:40%\n\n1\n00:01.000 --> 00:02.000 region:fred\none\n\n"
    "NOTE\nlonger note\n\n00:03.000 --> 00:04.000\n\n2\n00:05.000 --> 00:06.000\n<v.loud Bob>two</v>\n",
    "WEBVTT\r\n\r\n00:01.000 --> 00:02.000\r\nwindows\r\n\r\n00:03.000 --> 00:04.000 line:0 size:50%\r\nends\r\n",
]


@pytest.mark.parametrize("text", VTT_SAMPLES)
def test_webvtt_files_are_read_as_webvtt_py_reads_them_whole(tmp_path, text):
    import html

    from webvtt import WebVTT

    path = tmp_path / "sample.vtt"
    path.write_text(text, encoding="utf-8", newline="")
    whole = WebVTT.from_string(text, strict=True).captions
    expected = [(c.start_time.in_milliseconds() / 1000, c.end_time.in_milliseconds() / 1000,
                 html.unescape(c.text).split("\n")) for c in whole]
    assert [(c.start, c.end, c.lines) for c in read_subtitles(path)] == expected
