"""Chinese transcripts: the chosen script on segments and word timings alike, Chinese punctuation,
spacing in mixed Chinese and English, and the prompt given to Whisper."""
from __future__ import annotations

import json

import opencc
import pytest

from desktop.core.transcription.chinese import (
    MANDARIN_PROMPT,
    initial_prompt,
    is_chinese,
    looks_chinese,
    tidy_segment,
    tidy_text,
)
from desktop.core.transcription.subtitles import LineLimits, build_cues, to_json
from desktop.core.transcription.transcript import Segment, Transcript, Word

TO_SIMPLIFIED = opencc.OpenCC("t2s")


def whisper_segment(*pieces: str, start: float = 0.0) -> Segment:
    """A segment as Whisper gives it: words one after the other, 0.3 s each, spelling the text."""
    words = [Word(start + 0.3 * i, start + 0.3 * (i + 1), piece, 0.9) for i, piece in enumerate(pieces)]
    return Segment(start, start + 0.3 * len(pieces), "".join(pieces), words)


def spelled(segment: Segment) -> str:
    return "".join(word.text for word in segment.words)


# --- script ---------------------------------------------------------------------------------------


def test_traditional_characters_become_simplified_in_the_segment_and_its_words():
    segment = whisper_segment("一二", "線", "城市", "雖然", "也", "處於", "調整", "中")

    tidy = tidy_segment(segment, "simplified")

    assert tidy.text == "一二线城市虽然也处于调整中"
    assert [w.text for w in tidy.words] == ["一二", "线", "城市", "虽然", "也", "处于", "调整", "中"]
    assert spelled(tidy) == tidy.text
    assert [(w.start, w.end, w.probability) for w in tidy.words] == [
        (w.start, w.end, w.probability) for w in segment.words
    ]


def test_what_whisper_wrote_is_kept_where_the_text_changed_and_only_there():
    segment = whisper_segment("一二", "線", "城市")

    tidy = tidy_segment(segment, "simplified")

    assert tidy.text_original == "一二線城市"
    assert [w.text_original for w in tidy.words] == [None, "線", None]
    assert segment.text == "一二線城市" and segment.words[1].text == "線", "the input is left as it was"


def test_simplified_text_is_left_as_it_is():
    segment = whisper_segment("甚至", "出现", "交易", "几乎", "停滞", "的", "情况")
    tidy = tidy_segment(segment, "simplified")
    assert tidy == segment
    assert tidy.text_original is None


def test_traditional_is_chosen_with_the_characters_taiwan_readers_expect():
    segment = whisper_segment("为了", "以后", "里面")
    tidy = tidy_segment(segment, "traditional")
    assert tidy.text == "為了以後裡面"
    assert spelled(tidy) == tidy.text


def test_a_phrase_split_over_two_words_is_converted_as_a_phrase():
    # "发" alone is 發 (to send); in 头发 (hair) it is 髮. Each word alone would get it wrong.
    segment = whisper_segment("他", "的", "头", "发", "很", "长")
    tidy = tidy_segment(segment, "traditional")
    assert tidy.text == "他的頭髮很長"
    assert [w.text for w in tidy.words] == ["他", "的", "頭", "髮", "很", "長"]


def test_as_recognised_keeps_the_characters_whisper_wrote():
    segment = whisper_segment("一二", "線", "城市")
    tidy = tidy_segment(segment, "original")
    assert tidy.text == "一二線城市"
    assert tidy.text_original is None


def test_changing_the_script_later_converts_from_what_whisper_wrote():
    segment = whisper_segment("頭", "髮", "乾", "了")
    simplified = tidy_segment(segment, "simplified")
    assert simplified.text == "头发干了"

    again = tidy_segment(simplified, "traditional")

    assert again.text == "頭髮乾了"
    assert again.text_original is None, "back to what Whisper wrote"
    assert tidy_segment(simplified, "original") == tidy_segment(segment, "original")


def test_words_that_no_longer_spell_the_text_are_converted_each_on_its_own():
    segment = Segment(0.0, 1.0, "處於調整中", [Word(0.0, 0.5, "處於"), Word(0.5, 1.0, "調整")])
    tidy = tidy_segment(segment, "simplified")
    assert tidy.text == "处于调整中"
    assert [w.text for w in tidy.words] == ["处于", "调整"]


def test_an_unknown_script_is_rejected():
    with pytest.raises(ValueError):
        tidy_text("你好", "klingon")


# --- punctuation ----------------------------------------------------------------------------------


@pytest.mark.parametrize("whisper, expected", [
    ("今天开会,明天休息.", "今天开会，明天休息。"),
    ("真的吗?不是吧!", "真的吗？不是吧！"),
    ("注意:第一;第二", "注意：第一；第二"),
    ("你好 , 世界", "你好，世界"),
    ("他说“好”,然后走了", "他说“好”，然后走了"),
    ("然后...就没有了", "然后……就没有了"),
    ("真的?!", "真的？！"),
])
def test_half_width_marks_between_chinese_characters_become_full_width(whisper, expected):
    assert tidy_text(whisper, "simplified") == expected


@pytest.mark.parametrize("text", [
    "增长了3.5个百分点",
    "会议在10:30开始",
    "Hello, world. How are you?",
    "版本是v1.2.3,不是别的",
    "我们用Python.",
])
def test_marks_in_latin_text_and_numbers_stay_half_width(text):
    assert tidy_text(text, "simplified") == text


def test_punctuation_changes_reach_the_word_that_holds_the_mark():
    segment = whisper_segment("好的", ",", "我们", "开始.")
    tidy = tidy_segment(segment, "simplified")
    assert [w.text for w in tidy.words] == ["好的", "，", "我们", "开始。"]
    assert [w.text_original for w in tidy.words] == [None, ",", None, "开始."]
    assert tidy.text == "好的，我们开始。" and tidy.text_original == "好的,我们开始."


# --- mixed Chinese and English --------------------------------------------------------------------


def test_mixed_chinese_and_english_has_spaces_only_where_latin_words_meet():
    text = "我们用 PyTorch 和 AMD Radeon 显卡训练 machine learning 模型"
    assert tidy_text(text, "simplified") == "我们用PyTorch和AMD Radeon显卡训练machine learning模型"


def test_spaces_between_chinese_characters_go():
    assert tidy_text("甚至出现 交易几乎停滞", "simplified") == "甚至出现交易几乎停滞"


def test_english_words_split_into_pieces_by_whisper_stay_whole_and_keep_their_timings():
    segment = whisper_segment("我们", "用", " Py", "Tor", "ch", " 訓練", " Whisper", " large", " 模型")
    tidy = tidy_segment(segment, "simplified")

    assert tidy.text == "我们用PyTorch训练Whisper large模型"
    assert [w.text for w in tidy.words] == ["我们", "用", "Py", "Tor", "ch", "训练", "Whisper", " large", "模型"]
    assert spelled(tidy) == tidy.text
    cues = build_cues(Transcript(segments=[tidy]), LineLimits(max_lines=1, max_cjk_chars=4))
    assert "PyTorch" in [cue.text for cue in cues], "a subtitle never cuts an English word"


def test_a_word_that_was_only_a_space_is_dropped_and_the_rest_still_spell_the_text():
    segment = whisper_segment("你好", " ", "世界")
    tidy = tidy_segment(segment, "simplified")
    assert [w.text for w in tidy.words] == ["你好", "世界"]
    assert tidy.text == "你好世界"


# --- when text is Chinese, and the prompt -----------------------------------------------------------


def test_chinese_language_codes():
    assert is_chinese("zh") and is_chinese("yue") and is_chinese("ZH")
    assert not is_chinese("ja") and not is_chinese("en") and not is_chinese(None)


def test_text_looks_chinese_with_chinese_characters_and_without_kana_or_hangul():
    assert looks_chinese("我们用PyTorch训练模型")
    assert looks_chinese("一二線城市")
    assert not looks_chinese("東京では雨が降っています")
    assert not looks_chinese("한국어 漢字")
    assert not looks_chinese("Hello, world.")


def test_mandarin_gets_a_simplified_chinese_prompt_unless_the_user_wrote_their_own():
    assert initial_prompt("zh", "transcribe", None) == MANDARIN_PROMPT
    assert initial_prompt("zh", "transcribe", "  ") == MANDARIN_PROMPT
    assert initial_prompt("zh", "transcribe", "会议纪要：预算") == "会议纪要：预算"
    assert TO_SIMPLIFIED.convert(MANDARIN_PROMPT) == MANDARIN_PROMPT
    assert any(ch in MANDARIN_PROMPT for ch in "。，"), "it shows Whisper Chinese punctuation"


def test_other_languages_detection_and_translation_get_no_chinese_prompt():
    assert initial_prompt("en", "transcribe", None) is None
    assert initial_prompt(None, "transcribe", None) is None
    assert initial_prompt("zh", "translate", None) is None
    assert initial_prompt("en", "transcribe", "Project Falcon") == "Project Falcon"


# --- the transcript and its JSON ------------------------------------------------------------------


def test_the_json_export_keeps_what_whisper_wrote_next_to_the_converted_text():
    transcript = Transcript(
        segments=[tidy_segment(whisper_segment("一二", "線", "城市"), "simplified"),
                  tidy_segment(whisper_segment("好的", "。", start=2.0), "simplified")],
        language="zh",
    )

    data = json.loads(to_json(transcript))

    first, second = data["segments"]
    assert (first["text"], first["text_original"]) == ("一二线城市", "一二線城市")
    assert [w.get("text_original") for w in first["words"]] == [None, "線", None]
    assert "text_original" not in first["words"][0], "only where the text differs"
    assert "text_original" not in second and all("text_original" not in w for w in second["words"])
    assert Transcript.from_dict(data) == transcript


def test_editing_a_segment_drops_what_whisper_wrote_with_the_word_timings():
    transcript = Transcript(segments=[tidy_segment(whisper_segment("一二", "線", "城市"), "simplified")])
    transcript.edit_text(0, "一二线城市的房价")
    segment = transcript.segments[0]
    assert (segment.text, segment.words, segment.text_original) == ("一二线城市的房价", [], None)
    assert "text_original" not in json.loads(to_json(transcript))["segments"][0]


def test_an_older_json_without_original_texts_still_reads():
    data = {"segments": [{"start": 0.0, "end": 1.0, "text": "你好",
                          "words": [{"start": 0.0, "end": 1.0, "text": "你好", "probability": 0.9}]}],
            "language": "zh", "duration": 1.0, "source": None}
    transcript = Transcript.from_dict(data)
    assert transcript.segments[0].text_original is None
    assert transcript.segments[0].words[0].text_original is None
