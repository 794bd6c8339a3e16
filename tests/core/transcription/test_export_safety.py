"""Exports of whatever a transcript holds: text autosaved before it was checked, or typed by the user,
with lone surrogates, control characters, overrides, subtitle arrows and impossible times. Every
format is written, readable by a subtitle library, and says what the user sees."""
from __future__ import annotations

import html
import json
import math

import pytest
import srt
import webvtt

from desktop.core.transcription.subtitles import FORMATS, LAST_SECOND, build_cues, export, render
from desktop.core.transcription.transcript import Segment, Transcript, Word

UNSAFE = ("\x00", "\x07", "\x1b", "\x7f", "\u202e", "\u2066", "\ufeff", "\u200b")


def autosaved(*texts: str, times: list[tuple[float, float]] | None = None) -> Transcript:
    """A transcript as the autosave reads it back: JSON, where "\\ud800" is a valid escape."""
    times = times or [(i * 3.0, i * 3.0 + 2.5) for i in range(len(texts))]
    data = {"language": "en", "duration": 60.0, "source": "/recordings/meeting.flac",
            "segments": [{"start": start, "end": end, "text": text,
                          "words": [{"start": start, "end": end, "text": text, "probability": 1.0}]}
                         for text, (start, end) in zip(texts, times)]}
    return Transcript.from_dict(json.loads(json.dumps(data)))


def written(transcript: Transcript, tmp_path, fmt: str) -> str:
    path = export(transcript, tmp_path / f"out.{fmt}", fmt)
    return path.read_bytes().decode("utf-8")  # strict: a surrogate could not have been encoded at all


HOSTILE = (" And so my fellow\ud800 Americans,\x07 ask not\x1b[31m what\u202e your country\ufeff can do",
           " 你好，世界\u200b。", " ask what you\x00 can do\u2066 for your country.")


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_is_written_from_a_transcript_with_surrogates_and_control_characters(tmp_path, fmt):
    text = written(autosaved(*HOSTILE), tmp_path, fmt)
    assert "\ufffd" in text  # the surrogate is shown as the character for "unreadable", not dropped unseen
    for junk in UNSAFE:
        assert junk not in text, repr(junk)
    assert "你好，世界。" in text and "Americans" in text and "for your country." in text


def test_the_json_export_reads_back_with_clean_text_and_words(tmp_path):
    data = json.loads(written(autosaved(*HOSTILE), tmp_path, "json"))
    first = data["segments"][0]
    assert first["text"] == " And so my fellow\ufffd Americans, ask not what your country can do"
    assert first["words"][0]["text"] == first["text"]
    assert Transcript.from_dict(data).segments[1].text == " 你好，世界。"


def test_typed_text_with_tabs_and_newlines_is_one_subtitle_line_and_plain_lines_in_the_text_file(tmp_path):
    transcript = autosaved(" first", " second")
    transcript.edit_text(0, "Line one\tstill one\nline two\r\nline three")
    cues = list(srt.parse(written(transcript, tmp_path, "srt")))
    assert cues[0].content.replace("\n", " ") == "Line one still one line two line three"
    assert written(transcript, tmp_path, "txt").splitlines() == [
        "Line one still one", "line two", "line three", "second"]


ARROWS = ("--> 00:00:09,000", "ask not --> what", "-->", "a--->b", "<!-- note -->")


@pytest.mark.parametrize("fmt", ("srt", "vtt"))
def test_no_cue_text_holds_the_arrow_of_a_timing_line(tmp_path, fmt):
    text = written(autosaved(*ARROWS), tmp_path, fmt)
    timing_lines = [line for line in text.splitlines() if "-->" in line]
    assert len(timing_lines) == len(ARROWS)
    assert all(line[:2].isdigit() and line.count("-->") == 1 for line in timing_lines), timing_lines


def test_an_arrow_in_a_cue_still_reads_as_an_arrow(tmp_path):
    parsed = list(srt.parse(written(autosaved(*ARROWS), tmp_path, "srt")))
    assert len(parsed) == len(ARROWS)  # no text was taken for a timing line of a cue of its own
    for cue, typed in zip(parsed, ARROWS):
        shown = cue.content.replace("\u2010", "-")  # the hyphen before ">" looks the same
        assert shown == typed
    written(autosaved(*ARROWS), tmp_path, "vtt")
    vtt = webvtt.read(str(tmp_path / "out.vtt"), strict=True).captions
    assert [html.unescape(caption.text) for caption in vtt] == list(ARROWS)  # "&gt;" and "&lt;" in WebVTT


def test_a_speaker_name_is_made_safe_like_the_text(tmp_path):
    transcript = autosaved(" Hello there.")
    transcript.segments[0].speaker = 1
    transcript.speaker_names[1] = "Anna\u202e\x1b --> "
    text = written(transcript, tmp_path, "srt")
    assert "\u202e" not in text and "\x1b" not in text
    assert [line for line in text.splitlines() if "-->" in line][0].startswith("00:")


IMPOSSIBLE_TIMES = [(math.nan, 2.0), (3.0, math.inf), (-math.inf, 1e308), (1e308, 5.0), (-1e12, -5.0)]


@pytest.mark.parametrize("fmt", FORMATS)
def test_impossible_times_in_a_saved_transcript_still_export(tmp_path, fmt):
    transcript = autosaved(*(f" line {n}" for n in range(len(IMPOSSIBLE_TIMES))), times=IMPOSSIBLE_TIMES)
    text = written(transcript, tmp_path, fmt)
    for n in range(len(IMPOSSIBLE_TIMES)):
        assert f"line {n}" in text


def test_cues_from_impossible_times_are_in_order_and_never_overlap():
    transcript = autosaved(*(f" line {n}" for n in range(len(IMPOSSIBLE_TIMES))), times=IMPOSSIBLE_TIMES)
    cues = build_cues(transcript)
    assert [cue.text for cue in cues] == [f"line {n}" for n in range(len(IMPOSSIBLE_TIMES))]
    for before, after in zip(cues, cues[1:]):
        assert math.isfinite(after.start) and before.end <= after.start < after.end
    assert all(0 <= cue.start < cue.end <= LAST_SECOND + 0.01 for cue in cues)  # what a timestamp can say


def test_half_of_a_surrogate_pair_at_the_end_of_a_word_keeps_the_json_readable():
    transcript = Transcript(segments=[Segment(0.0, 1.0, " x\ud83d", [Word(0.0, 1.0, " x\ud83d")])], language="en")
    assert json.loads(render(transcript, "json"))["segments"][0]["text"] == " x\ufffd"
