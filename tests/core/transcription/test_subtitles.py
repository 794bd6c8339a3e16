"""Subtitle cues and files: line lengths for English and Chinese, splits, timing, and the four formats."""
from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
import srt
import webvtt

from desktop.core.common.atomic import ExportExists
from desktop.core.transcription.subtitles import (
    CLOSING_PUNCTUATION,
    FORMATS,
    Cue,
    LineLimits,
    build_cues,
    default_export_path,
    display_width,
    export,
    render,
    to_json,
    to_srt,
    to_txt,
    to_vtt,
    wrap,
)
from desktop.core.transcription.transcript import Segment, Transcript, Word

JFK = "And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country."
ZH = ("甚至出现交易几乎停滞的情况，一二线城市虽然也处于调整中。大家对后市的看法出现了分歧，"
      "有人认为会继续下跌，也有人认为已经见底；专家建议保持观望，不要盲目入市。")
MIXED = "我们今天用 PyTorch 和 ROCm 在 AMD Radeon 显卡上运行 Whisper 模型，转写速度比 CPU 快很多，效果也不错。"


def latin_words(text: str, start: float, end: float) -> list[Word]:
    """Whisper-style words (leading space) spread evenly over [start, end]."""
    pieces = [" " + w for w in text.split()]
    step = (end - start) / len(pieces)
    return [Word(start + i * step, start + (i + 1) * step, p) for i, p in enumerate(pieces)]


def chinese_words(text: str, start: float, end: float) -> list[Word]:
    """Whisper-style words for Chinese: one character each, punctuation kept with the character before."""
    pieces: list[str] = []
    for ch in text:
        if pieces and ch in CLOSING_PUNCTUATION:
            pieces[-1] += ch
        else:
            pieces.append(ch)
    step = (end - start) / len(pieces)
    return [Word(start + i * step, start + (i + 1) * step, p) for i, p in enumerate(pieces)]


def one_segment(text: str, start: float = 0.0, end: float = 10.0, words: list[Word] | None = None) -> Transcript:
    return Transcript(segments=[Segment(start, end, text, words or [])], language="en", duration=end)


def all_lines(cues: list[Cue]) -> list[str]:
    return [line for cue in cues for line in cue.lines]


def squeezed(text: str) -> str:
    return "".join(text.split())


def assert_lines_within(cues: list[Cue], limits: LineLimits) -> None:
    for cue in cues:
        assert 1 <= len(cue.lines) <= limits.max_lines, cue
        for line in cue.lines:
            has_cjk = any(display_width(ch) == 2 for ch in line)
            budget = limits.max_cjk_chars * 2 if has_cjk else limits.max_latin_chars
            assert display_width(line) <= budget, line


def assert_no_line_starts_with_closing_punctuation(cues: list[Cue]) -> None:
    for line in all_lines(cues):
        assert line[0] not in CLOSING_PUNCTUATION, line


# --- display width and wrapping -------------------------------------------------------------------


def test_chinese_characters_count_twice_in_display_width():
    assert display_width("abc") == 3
    assert display_width("你好") == 4
    assert display_width("你好，OK") == 8  # the full-width comma is wide too


def test_a_segment_that_fits_becomes_one_cue_with_its_own_times():
    cues = build_cues(one_segment(" Good morning, everyone.", 1.25, 3.5))
    assert cues == [Cue(1.25, 3.5, ["Good morning, everyone."])]


def test_latin_lines_hold_at_most_42_columns_and_break_at_spaces():
    text = "Please remember that the quarterly budget review has moved to Thursday afternoon at three."
    lines = wrap(text)
    assert len(lines) == 3
    assert all(len(line) <= 42 for line in lines)
    assert " ".join(lines) == text


def test_two_lines_of_a_cue_are_balanced_rather_than_one_full_and_one_stub():
    lines = wrap("The meeting starts at nine tomorrow morning in room four.")
    assert len(lines) == 2
    assert abs(len(lines[0]) - len(lines[1])) <= 10


def test_chinese_lines_hold_at_most_18_characters():
    text = "甚至出现交易几乎停滞的情况一二线城市虽然也处于调整中大家对后市的看法出现了分歧"
    lines = wrap(text)
    assert "".join(lines) == text
    assert all(len(line) <= 18 for line in lines)
    assert len(lines) == 3  # 39 characters need three lines, and two lines of 18 are not enough


def test_mixed_chinese_and_english_keeps_english_words_whole_within_the_chinese_budget():
    lines = wrap(MIXED)
    assert squeezed("".join(lines)) == squeezed(MIXED)
    assert all(display_width(line) <= 36 for line in lines)
    english = {"PyTorch", "ROCm", "AMD", "Radeon", "Whisper", "CPU"}
    found = {word for line in lines for word in english if word in line}
    assert found == english  # each English word appears whole on one line


def test_english_in_chinese_without_spaces_is_not_broken():
    text = "请把会议记录发到team@example.com邮箱里面谢谢大家的配合今天就到这里"
    lines = wrap(text)
    assert any("team@example.com" in line for line in lines)


def test_a_word_wider_than_a_line_gets_a_line_of_its_own_uncut():
    url = "https://intranet.example.com/projects/2024/quarterly-review/minutes"
    lines = wrap(f"The minutes are at {url} for everyone.")
    assert url in lines
    assert len(lines) == 3


def test_a_word_wider_than_a_line_in_a_two_line_cue_gets_its_own_line_and_no_line_is_empty():
    url = "https://intranet.example.com/projects/2024/quarterly-review/minutes"
    assert wrap(f"See {url}") == ["See", url]
    assert wrap(f"See {url} now", LineLimits(max_lines=3)) == ["See", url, "now"]


def test_no_line_starts_with_closing_punctuation_in_chinese():
    text = "好的，好的，好的，好的，好的，好的，好的，好的，好的，好的。嗯！对？是：行；好、好"
    for chars in range(3, 19):
        limits = LineLimits(max_lines=50, max_cjk_chars=chars)
        for line in wrap(text, limits):
            assert line[0] not in CLOSING_PUNCTUATION, (chars, line)


def test_punctuation_written_after_a_space_stays_on_the_line_of_its_word():
    lines = wrap("one two three four five six seven eight nine ten eleven twelve , thirteen",
                 LineLimits(max_latin_chars=12))
    assert all(not line.startswith(",") for line in lines)
    assert "twelve ," in " ".join(lines)


# Real sentences and the two-character words in them that a line must not cut.
CHINESE_SENTENCES = {
    "我们的研究团队正在开发一种新的语音识别技术可以帮助听障人士参与会议":
        ["研究", "团队", "正在", "开发", "语音", "识别", "技术", "可以", "帮助", "人士", "参与", "会议"],
    "据报道，这家公司上个月宣布收购内下公司因此股价大幅上涨了百分之二十以上":
        ["报道", "公司", "宣布", "收购", "因此", "股价", "大幅", "上涨", "以上"],
}


def test_chinese_lines_break_between_words_not_inside_one():
    text = "我们的研究团队正在开发一种新的语音识别技术可以帮助听障人士参与会议"
    assert wrap(text) == ["我们的研究团队正在开发一种新的语音", "识别技术可以帮助听障人士参与会议"]
    for text, words in CHINESE_SENTENCES.items():
        for chars in range(4, 19):
            lines = wrap(text, LineLimits(max_lines=20, max_cjk_chars=chars))
            assert "".join(lines) == text
            for before, after in zip(lines, lines[1:]):
                for word in words:
                    assert not (before.endswith(word[0]) and after.startswith(word[1])), (chars, before, after)


def test_a_chinese_word_wider_than_a_line_still_breaks_between_its_characters():
    lines = wrap("百分之二十", LineLimits(max_lines=5, max_cjk_chars=2))
    assert "".join(lines) == "百分之二十"
    assert all(display_width(line) <= 4 for line in lines)


def test_a_chinese_cue_never_grows_a_line_to_keep_its_words_whole():
    # By words it would take three lines of four characters; by characters it fits the two allowed.
    assert wrap("图书馆博物馆公司", LineLimits(max_lines=3, max_cjk_chars=4)) == ["图书馆", "博物馆", "公司"]
    assert wrap("图书馆博物馆公司", LineLimits(max_lines=2, max_cjk_chars=4)) == ["图书馆博", "物馆公司"]


def test_the_editors_cue_warnings_need_no_chinese_word_segmentation():
    import subprocess
    import sys

    script = ("import sys\n"
              "from desktop.core.transcription.cue_checks import segment_warnings\n"
              "from desktop.core.transcription.transcript import Segment, Transcript\n"
              "t = Transcript(segments=[Segment(0.0, 1.0, '我们的研究团队正在开发一种新的语音识别技术可以帮助听障人士参与会议')],"
              " language='zh')\n"
              "assert segment_warnings(t, 0)\n"
              "assert 'jieba' not in sys.modules\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).resolve().parents[3])
    assert done.returncode == 0, done.stderr


def test_the_chinese_srt_keeps_words_whole_across_its_lines():
    text = "我们的研究团队正在开发一种新的语音识别技术可以帮助听障人士参与会议"
    srt = render(Transcript(segments=[Segment(0.0, 6.0, text)], language="zh"), "srt")
    assert "语音\n识别" in srt and "语\n音" not in srt


def test_a_line_does_not_end_with_an_opening_bracket():
    text = "会议的内容很多（包括预算、人员和进度）需要大家提前准备"
    for chars in range(4, 19):
        for line in wrap(text, LineLimits(max_lines=20, max_cjk_chars=chars)):
            assert line[-1] not in "（「", (chars, line)


def test_full_width_brackets_and_the_name_dot_never_start_a_line():
    text = "主持人迈克尔·杰克逊〔笑〕说：［注］这一段【略】不算。好的"
    for chars in range(2, 19):
        for line in wrap(text, LineLimits(max_lines=30, max_cjk_chars=chars)):
            assert line[0] not in CLOSING_PUNCTUATION and line[0] not in "〕］·", (chars, line)
            assert line[-1] not in "〔［【", (chars, line)


# --- splitting long segments into cues ------------------------------------------------------------


def test_a_long_segment_is_split_at_punctuation_at_the_word_timings():
    words = latin_words(JFK, 0.0, 11.0)
    cues = build_cues(one_segment(JFK, 0.0, 11.0, words), LineLimits(max_lines=1, max_latin_chars=42))
    assert [c.text for c in cues] == [
        "And so my fellow Americans,",
        "ask not what your country can do for you,",
        "ask what you can do for your country.",
    ]
    by_text = {w.text.strip(): w for w in words}
    assert cues[0].start == 0.0
    assert cues[0].end == pytest.approx(by_text["Americans,"].end, abs=0.001)
    assert cues[1].start == pytest.approx(words[5].start, abs=0.001)  # " ask"
    assert cues[1].end == pytest.approx(by_text["you,"].end, abs=0.001)
    assert cues[2].end == 11.0


def test_a_sentence_end_is_preferred_to_a_comma_for_a_split():
    text = ("We will meet again next week to review the results. "
            "Then, if everything is fine, we will send the report to the board for approval.")
    cues = build_cues(one_segment(text, 0, 12, latin_words(text, 0, 12)))
    assert cues[0].text.replace("\n", " ") == "We will meet again next week to review the results."
    assert cues[1].lines[0].startswith("Then,")


def test_a_long_segment_without_punctuation_is_split_between_words_and_never_inside_one():
    text = ("so what we really need to think about now is how we bring all the teams together "
            "and make sure that everybody understands the plan before we start the next phase "
            "of the project in the autumn")
    limits = LineLimits()
    cues = build_cues(one_segment(text, 0, 20, latin_words(text, 0, 20)), limits)
    assert len(cues) >= 3
    assert_lines_within(cues, limits)
    assert " ".join(all_lines(cues)).split() == text.split()
    for earlier, later in zip(cues, cues[1:]):
        assert earlier.end <= later.start


def test_the_last_two_cues_of_a_split_are_about_equally_long():
    text = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho"
    cues = build_cues(one_segment(text, 0, 10, latin_words(text, 0, 10)), LineLimits(max_lines=1, max_latin_chars=60))
    assert len(cues) == 2
    assert abs(len(cues[0].text) - len(cues[1].text)) <= 10


def test_word_pieces_that_whisper_splits_without_a_space_stay_together():
    # Whisper may give one word in pieces; a cue must not end between " intern" and "ational".
    words = [Word(0.0, 0.3, " We"), Word(0.3, 0.6, " need"), Word(0.6, 0.9, " intern"),
             Word(0.9, 1.3, "ational"), Word(1.3, 1.6, " help")]
    text = "".join(w.text for w in words)
    cues = build_cues(one_segment(text, 0, 1.6, words), LineLimits(max_lines=1, max_latin_chars=14))
    assert [c.text for c in cues] == ["We need", "international", "help"]
    assert cues[1].start == pytest.approx(0.6) and cues[1].end == pytest.approx(1.3)


def test_punctuation_given_as_a_word_of_its_own_stays_in_the_cue_of_the_word_before():
    words = [Word(0.0, 1.0, " Yes"), Word(1.0, 1.5, " ,"), Word(2.0, 2.5, " we"), Word(2.5, 3.0, " do")]
    text = "".join(w.text for w in words)
    cues = build_cues(one_segment(text, 0, 3, words), LineLimits(max_lines=1, max_latin_chars=4))
    assert [c.text for c in cues] == ["Yes ,", "we", "do"]
    assert cues[0].end == 1.5 and cues[1].start == 2.0

    words = [Word(0.0, 1.0, "好的"), Word(1.0, 1.5, "，"), Word(2.0, 2.5, "我们"), Word(2.5, 3.0, "同意")]
    text = "".join(w.text for w in words)
    cues = build_cues(one_segment(text, 0, 3, words), LineLimits(max_lines=1, max_cjk_chars=2))
    # "好的，" is wider than a line, so the word itself is split; the comma stays with "的".
    assert [c.text for c in cues] == ["好", "的，", "我们", "同意"]
    assert cues[1].end == 1.5 and cues[2].start == 2.0


def test_english_word_pieces_inside_chinese_stay_together():
    words = [Word(0.0, 0.4, "我们"), Word(0.4, 0.6, "用"), Word(0.6, 0.8, " Py"), Word(0.8, 1.0, "Tor"),
             Word(1.0, 1.2, "ch"), Word(1.2, 1.6, "训练"), Word(1.6, 2.0, "模型")]
    text = "".join(w.text for w in words)
    cues = build_cues(one_segment(text, 0, 2, words), LineLimits(max_lines=1, max_cjk_chars=4))
    assert [c.text for c in cues] == ["我们用", "PyTorch", "训练模型"]


def test_a_long_chinese_segment_splits_after_chinese_punctuation():
    limits = LineLimits()
    cues = build_cues(one_segment(ZH, 0, 20, chinese_words(ZH, 0, 20)), limits)
    assert len(cues) > 1
    assert_lines_within(cues, limits)
    assert_no_line_starts_with_closing_punctuation(cues)
    assert "".join(all_lines(cues)) == ZH
    for cue in cues[:-1]:
        assert cue.text[-1] in "，。；、：！？", cue.text


def test_a_long_chinese_segment_is_cut_into_cues_between_words_not_inside_one():
    # Cut between characters, the first cue ended with "处于调" and the second started with "整中".
    from desktop.core.transcription.chinese import word_ends

    text = "甚至出现交易几乎停滞的情况一二线城市虽然也处于调整中大家对后市的看法出现了分歧有人认为会继续下跌"
    limits = LineLimits()
    for words in ([], chinese_words(text, 0, 20)):
        cues = build_cues(Transcript(segments=[Segment(0, 20, text, words)], language="zh"), limits)
        assert len(cues) > 1
        assert "".join(all_lines(cues)) == text
        assert_lines_within(cues, limits)
        cuts = [len("".join(all_lines(cues[:n]))) for n in range(1, len(cues))]
        assert all(cut in word_ends(text) for cut in cuts), [text[cut - 2:cut + 2] for cut in cuts]
        for earlier, later in zip(cues, cues[1:]):
            assert earlier.end <= later.start


def test_a_chinese_word_wider_than_a_cue_is_still_cut_between_its_characters():
    text = "中华人民共和国"
    cues = build_cues(Transcript(segments=[Segment(0, 7, text)], language="zh"), LineLimits(max_lines=1, max_cjk_chars=3))
    assert "".join(all_lines(cues)) == text
    assert_lines_within(cues, LineLimits(max_lines=1, max_cjk_chars=3))


def test_a_segment_without_word_timings_is_split_in_proportion_to_its_characters():
    text = "a" * 40 + " " + "b" * 40 + " " + "c" * 40 + " " + "d" * 40
    cues = build_cues(one_segment(text, 10.0, 18.0), LineLimits(max_lines=1, max_latin_chars=42))
    assert [c.text for c in cues] == ["a" * 40, "b" * 40, "c" * 40, "d" * 40]
    assert [c.start for c in cues] == [10.0, 12.0, 14.0, 16.0]
    assert cues[-1].end == 18.0


def test_edited_text_whose_words_no_longer_match_is_split_by_its_characters():
    words = latin_words(JFK, 0.0, 11.0)
    transcript = one_segment(JFK, 0.0, 11.0, words)
    edited = "我们不问国家能为我们做什么，而要问我们能为国家做什么。这是一句很有名的话，大家都听说过。"
    transcript.segments[0].text = edited  # words left in place, as an older file might have them
    cues = build_cues(transcript)
    assert "".join(all_lines(cues)) == edited
    assert cues[0].start == 0.0 and cues[-1].end == 11.0
    assert_no_line_starts_with_closing_punctuation(cues)


def test_punctuation_that_starts_a_segment_moves_to_the_end_of_the_cue_before():
    transcript = Transcript(segments=[
        Segment(0.0, 2.0, "今天的会议就到这里"),
        Segment(2.0, 4.0, "。谢谢大家"),
        Segment(4.0, 6.0, ", thank you all"),
    ])
    cues = build_cues(transcript)
    assert [c.text for c in cues] == ["今天的会议就到这里。", "谢谢大家,", "thank you all"]
    assert_no_line_starts_with_closing_punctuation(cues)


def test_a_segment_of_punctuation_alone_joins_the_cue_before():
    transcript = Transcript(segments=[Segment(0.0, 2.0, "好的"), Segment(2.0, 2.5, "。")])
    cues = build_cues(transcript)
    assert [c.text for c in cues] == ["好的。"]


# --- timing ---------------------------------------------------------------------------------------


def test_overlapping_segments_become_monotonic_cues_that_never_overlap():
    transcript = Transcript(segments=[
        Segment(0.0, 3.0, "First sentence."),
        Segment(2.5, 5.0, "Second overlaps the first."),
        Segment(1.0, 1.5, "Third starts before both."),
        Segment(6.0, 5.0, "Fourth ends before it starts."),
        Segment(7.0, 7.0, "Fifth has no length."),
    ])
    cues = build_cues(transcript)
    assert len(cues) == 5
    for cue in cues:
        assert cue.end >= cue.start + 0.001
    for earlier, later in zip(cues, cues[1:]):
        assert later.start >= earlier.end
    assert cues[1].start == 3.0
    assert cues[3].start == 6.0


def test_empty_segments_are_dropped():
    transcript = Transcript(segments=[Segment(0, 1, "  "), Segment(1, 2, "Hello."), Segment(2, 3, "")])
    assert [c.text for c in build_cues(transcript)] == ["Hello."]
    assert build_cues(Transcript()) == []


def test_times_are_whole_milliseconds():
    cues = build_cues(one_segment("Hello.", 1.23456, 2.34567))
    assert (cues[0].start, cues[0].end) == (1.235, 2.346)


# --- files ----------------------------------------------------------------------------------------


def long_transcript() -> Transcript:
    return Transcript(
        segments=[
            Segment(0.0, 11.0, " " + JFK, latin_words(JFK, 0.0, 11.0)),
            Segment(11.5, 25.0, ZH, chinese_words(ZH, 11.5, 25.0)),
            Segment(25.0, 31.0, MIXED),
            Segment(3725.5, 3727.25, "An hour later & still <talking>."),
        ],
        language="en",
        duration=3730.0,
        source="会议 录音.mp3",
    )


def test_srt_reads_back_with_the_same_texts_and_times(tmp_path):
    transcript = long_transcript()
    cues = build_cues(transcript)
    path = export(transcript, tmp_path / "out.srt", "srt")
    parsed = list(srt.parse(path.read_text(encoding="utf-8")))
    assert [s.content for s in parsed] == [c.text for c in cues]
    assert [s.start for s in parsed] == [timedelta(seconds=c.start) for c in cues]
    assert [s.end for s in parsed] == [timedelta(seconds=c.end) for c in cues]
    assert [s.index for s in parsed] == list(range(1, len(cues) + 1))
    assert parsed[-1].start == timedelta(hours=1, minutes=2, seconds=5, milliseconds=500)


def test_vtt_reads_back_with_the_same_texts_and_times(tmp_path):
    transcript = long_transcript()
    cues = build_cues(transcript)
    path = export(transcript, tmp_path / "out.vtt", "vtt")
    assert path.read_text(encoding="utf-8").startswith("WEBVTT\n\n")
    captions = webvtt.read(str(path), strict=True).captions
    assert [c.start_time.in_milliseconds() for c in captions] == [round(c.start * 1000) for c in cues]
    assert [c.end_time.in_milliseconds() for c in captions] == [round(c.end * 1000) for c in cues]
    assert [c.text for c in captions[:-1]] == [c.text for c in cues[:-1]]
    assert captions[-1].start == "01:02:05.500"
    # Markup characters are escaped, so a player shows them instead of reading them as tags.
    assert captions[-1].raw_text == "An hour later &amp; still &lt;talking&gt;."


def test_vtt_of_an_empty_transcript_is_a_valid_empty_file():
    assert to_vtt([]) == "WEBVTT\n"
    assert to_srt([]) == ""


def test_txt_has_one_segment_per_line():
    transcript = Transcript(segments=[Segment(0, 1, " First line. "), Segment(1, 2, "  "),
                                      Segment(2, 3, "第二行。")])
    assert to_txt(transcript) == "First line.\n第二行。\n"


def test_json_round_trips_through_transcript_from_dict(tmp_path):
    transcript = long_transcript()
    path = export(transcript, tmp_path / "out.json", "json")
    raw = path.read_bytes()
    assert "甚至".encode("utf-8") in raw  # readable UTF-8, not \\u escapes
    data = json.loads(raw.decode("utf-8"))
    assert set(data) >= {"segments", "language", "duration", "source"}
    assert data["segments"][0]["words"][0]["text"] == " And"
    assert Transcript.from_dict(data) == transcript
    assert to_json(transcript) == raw.decode("utf-8")


@pytest.mark.parametrize("fmt", FORMATS)
def test_export_refuses_to_replace_an_existing_file_unless_allowed(tmp_path, fmt):
    path = tmp_path / f"meeting.{fmt}"
    path.write_text("an earlier version")
    with pytest.raises(ExportExists) as caught:
        export(long_transcript(), path, fmt)
    assert f"meeting.{fmt}" in caught.value.message
    assert path.read_text() == "an earlier version"
    export(long_transcript(), path, fmt, overwrite=True)
    assert path.read_text(encoding="utf-8") == render(long_transcript(), fmt)


def test_export_uses_the_given_line_limits(tmp_path):
    path = export(one_segment(JFK, 0, 11), tmp_path / "narrow.srt", "srt",
                  limits=LineLimits(max_lines=1, max_latin_chars=20))
    lines = [line for s in srt.parse(path.read_text(encoding="utf-8")) for line in s.content.split("\n")]
    assert all(len(line) <= 20 for line in lines)
    assert " ".join(lines) == JFK


def test_an_unknown_format_is_rejected():
    with pytest.raises(ValueError):
        render(long_transcript(), "docx")
    with pytest.raises(ValueError):
        default_export_path("a.mp3", "docx")


def test_the_default_export_path_is_next_to_the_recording_or_in_the_chosen_folder(tmp_path):
    source = Path("recordings") / "周一 例会.final.m4a"
    assert default_export_path(source, "srt") == Path("recordings") / "周一 例会.final.srt"
    assert default_export_path(str(source), "json", tmp_path) == tmp_path / "周一 例会.final.json"


# --- a real transcript ----------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("recording, model, language", [
    ("jfk.flac", "tiny.en", "en"),
    ("BAC009S0764W0121.wav", "base", "zh"),
])
def test_a_real_whisper_transcript_splits_at_its_own_word_timings(tmp_path, recording, model, language):
    from faster_whisper import WhisperModel

    from desktop.core.common.audio import decode
    from tests.helpers.weights import DATA_DIR, base_dir, tiny_en_dir

    folder = tiny_en_dir() if model == "tiny.en" else base_dir()
    whisper = WhisperModel(str(folder), device="cpu", compute_type="int8", cpu_threads=2)
    segments, _ = whisper.transcribe(decode(DATA_DIR / recording), language=language,
                                     word_timestamps=True, beam_size=1)
    transcript = Transcript(
        segments=[Segment(s.start, s.end, s.text, [Word(w.start, w.end, w.word, w.probability) for w in s.words])
                  for s in segments],
        language=language,
    )
    limits = LineLimits(max_lines=1, max_latin_chars=16, max_cjk_chars=4)
    cues = build_cues(transcript, limits)
    assert len(cues) > len(transcript.segments)
    assert_no_line_starts_with_closing_punctuation(cues)
    assert squeezed("".join(all_lines(cues))) == squeezed(transcript.text)
    # Every cut between two cues of a segment is at one of Whisper's word boundaries.
    word_starts = {round(w.start, 3) for s in transcript.segments for w in s.words}
    segment_starts = {round(s.start, 3) for s in transcript.segments}
    for cue in cues:
        assert round(cue.start, 3) in word_starts | segment_starts
    parsed = list(srt.parse(export(transcript, tmp_path / "real.srt", "srt", limits=limits).read_text("utf-8")))
    assert [p.content for p in parsed] == [c.text for c in cues]


# --- line limits from Settings --------------------------------------------------------------------


def test_line_limits_come_from_settings_and_a_value_below_one_counts_as_its_default(tmp_path):
    from PySide6.QtCore import QSettings

    from desktop.settings import Settings

    settings = Settings(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    assert settings.line_limits() == LineLimits()
    settings.set("subtitles/max_lines", 1)
    settings.set("subtitles/max_cjk_chars", 12)
    settings.set("subtitles/max_latin_chars", 0)
    assert settings.line_limits() == LineLimits(max_lines=1, max_latin_chars=42, max_cjk_chars=12)
