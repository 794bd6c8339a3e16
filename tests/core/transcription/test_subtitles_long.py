"""One very long segment (a server's runaway answer, a long text pasted into one line of the editor):
the cues are right, and the work grows with the text's length, not with its square. The work is
counted in characters measured (every width the writer looks up), never timed; the times are in
benchmarks/subtitle_benchmark.py."""
from __future__ import annotations

import random
import unicodedata

import pytest
import srt

from desktop.core.transcription import subtitles
from desktop.core.transcription.subtitles import CLOSING_PUNCTUATION, LineLimits, build_cues, display_width, render, wrap
from desktop.core.transcription.transcript import Segment, Transcript

VOCABULARY = ("the quarterly budget review has moved to thursday afternoon at three and everyone in the "
              "finance team should bring their numbers").split()
ZH = "甚至出现交易几乎停滞的情况，一二线城市虽然也处于调整中。大家对后市的看法出现了分歧，有人认为会继续下跌"


def words(count: int, seed: int = 1) -> str:
    rng = random.Random(seed)
    return " " + " ".join(rng.choice(VOCABULARY) for _ in range(count))


def one_segment(text: str, language: str = "en") -> Transcript:
    return Transcript(segments=[Segment(0.0, len(text) / 15, text)], language=language, duration=len(text) / 15)


class WidthLookups:
    """Counts the characters the writer measures (unicodedata.east_asian_width, which every width
    and every line break it decides on needs)."""

    def __init__(self) -> None:
        self.count = 0

    def __getattr__(self, name):
        return getattr(unicodedata, name)

    def east_asian_width(self, ch: str) -> str:
        self.count += 1
        return unicodedata.east_asian_width(ch)


def lookups_for(text: str, monkeypatch, fmt: str) -> int:
    counter = WidthLookups()
    monkeypatch.setattr(subtitles, "unicodedata", counter)
    render(one_segment(text), fmt)
    monkeypatch.undo()
    return counter.count


@pytest.mark.parametrize("fmt", ("srt", "vtt"))
def test_four_times_the_words_cost_about_four_times_the_work(monkeypatch, fmt):
    short, long = words(500), words(2000)
    ratio = lookups_for(long, monkeypatch, fmt) / lookups_for(short, monkeypatch, fmt)
    assert ratio < 5, ratio  # linear: 4 (a quadratic writer: about 11 here, 16 in the limit)


def assert_full_except_the_last_two(cues, limits: LineLimits) -> None:
    """Without punctuation to break at, each cue holds as many words as its lines allow; only the last
    two share what is left evenly."""
    texts = [" ".join(cue.lines) for cue in cues]
    for text, following in zip(texts[:-2], texts[1:-1]):
        more = text + " " + following.split()[0]
        assert len(wrap(more, limits)) > limits.max_lines, (text, following)


def test_a_segment_of_32000_words_gives_full_cues_that_say_every_word_in_order():
    text = words(32000, seed=7)
    limits = LineLimits()
    cues = build_cues(one_segment(text), limits)
    assert " ".join(" ".join(cue.lines) for cue in cues).split() == text.split()
    for cue in cues:
        assert 1 <= len(cue.lines) <= limits.max_lines and all(len(line) <= 42 for line in cue.lines)
    for before, after in zip(cues, cues[1:]):
        assert before.start < before.end <= after.start
    assert_full_except_the_last_two(cues, limits)


def test_the_srt_file_of_a_long_segment_reads_back_whole():
    text = words(8000, seed=3)
    parsed = list(srt.parse(render(one_segment(text), "srt")))
    assert " ".join(cue.content.replace("\n", " ") for cue in parsed).split() == text.split()


def test_a_long_chinese_segment_keeps_the_chinese_line_rules():
    text = ZH * 400  # 20,000 characters
    limits = LineLimits()
    cues = build_cues(one_segment(text, "zh"), limits)
    assert "".join("".join(cue.lines) for cue in cues) == text
    for cue in cues:
        assert 1 <= len(cue.lines) <= limits.max_lines
        for line in cue.lines:
            assert display_width(line) <= limits.max_cjk_chars * 2 and line[0] not in CLOSING_PUNCTUATION
