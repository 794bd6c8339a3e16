"""Sentence splitting for speech: Chinese, English and both mixed, with offsets for highlighting."""
import pytest

from desktop.core.common.errors import UserFacingError
from desktop.core.speech.sentences import guess_language, has_han, is_speakable, read_text_file, split_sentences


def texts(text: str, **kwargs) -> list[str]:
    return [s.text for s in split_sentences(text, **kwargs)]


def test_english_sentences_end_at_full_stops_question_and_exclamation_marks():
    assert texts("Welcome to the team. Are you ready? Let's start!") == [
        "Welcome to the team.",
        "Are you ready?",
        "Let's start!",
    ]


def test_chinese_sentences_end_at_chinese_punctuation_without_spaces():
    assert texts("大家好。今天下午开会！你准备好了吗？请准时到场；谢谢……好的") == [
        "大家好。",
        "今天下午开会！",
        "你准备好了吗？",
        "请准时到场；",
        "谢谢……",
        "好的",
    ]


def test_mixed_chinese_and_english_text_is_split_at_both_kinds_of_punctuation():
    assert texts("请打开 Outlook。Then click Send. 然后关闭窗口。") == [
        "请打开 Outlook。",
        "Then click Send.",
        "然后关闭窗口。",
    ]


def test_abbreviations_initials_and_decimals_do_not_end_a_sentence():
    assert texts("Mr. Smith paid 3.50 dollars, e.g. a coffee. J. Smith works for the U.S. office.") == [
        "Mr. Smith paid 3.50 dollars, e.g. a coffee.",
        "J. Smith works for the U.S. office.",
    ]


def test_closing_quotes_stay_with_the_sentence_they_close():
    assert texts("“你好。”他说。She said “Stop!” Then she left.") == [
        "“你好。”",
        "他说。",
        "She said “Stop!”",
        "Then she left.",
    ]


def test_a_line_break_ends_a_heading_without_punctuation():
    assert texts("Notice\n\nThe office closes at five.\n通知\n明天放假。") == [
        "Notice",
        "The office closes at five.",
        "通知",
        "明天放假。",
    ]


def test_offsets_point_at_each_sentence_in_the_original_text():
    text = "  First one.   第二句。\n Third!  "
    sentences = split_sentences(text)
    assert [text[s.start:s.end] for s in sentences] == ["First one.", "第二句。", "Third!"]


def test_offsets_count_an_emoji_as_one_character():
    text = "Good job 🙂. Next step."
    sentences = split_sentences(text)
    assert [text[s.start:s.end] for s in sentences] == ["Good job 🙂.", "Next step."]


def test_pieces_with_only_punctuation_or_emoji_are_dropped():
    assert texts("!!! 🙂🙂🙂 ... 。。。 ——") == []
    assert texts("Hello. 🎉🎉 . Bye.") == ["Hello.", "Bye."]


def test_a_long_sentence_is_cut_at_commas_within_the_limit():
    text = "，".join(["我们今天讨论预算"] * 40) + "。"
    pieces = split_sentences(text, max_chars=60)
    assert len(pieces) > 1
    assert all(len(p.text) <= 60 for p in pieces)
    assert all(p.text.endswith(("，", "。")) for p in pieces)
    assert "".join(p.text for p in pieces) == text


def test_a_long_sentence_without_commas_is_cut_between_words():
    text = " ".join(["word"] * 200) + "."
    pieces = split_sentences(text, max_chars=50)
    assert all(len(p.text) <= 50 for p in pieces)
    assert all(not p.text.startswith("ord") for p in pieces)
    assert " ".join(p.text for p in pieces) == text


def test_twenty_thousand_characters_split_into_many_bounded_sentences():
    text = "This is one line of a long training script, read aloud by the computer. " * 280
    assert len(text) > 20000
    sentences = split_sentences(text)
    assert len(sentences) == 280
    assert all(len(s.text) <= 250 for s in sentences)


def test_the_length_limit_must_leave_room_for_a_sentence():
    with pytest.raises(ValueError):
        split_sentences("Hello.", max_chars=5)


def test_speakable_text_needs_a_letter_or_digit():
    assert is_speakable("42")
    assert is_speakable("好")
    assert not is_speakable("?! 🙂 …")


def test_language_is_guessed_from_the_script_of_a_sentence():
    assert guess_language("今天下午三点开会。") == "zh"
    assert guess_language("The meeting starts at three.") == "en"
    assert guess_language("请打开 Outlook。") == "zh"
    assert guess_language("🙂!") is None
    assert has_han("Hello 世界") and not has_han("Hello world")


# --- reading a text file to speak ----------------------------------------------------------------


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "gb18030"])
def test_text_files_from_windows_and_linux_editors_are_read(tmp_path, encoding):
    path = tmp_path / "notice.txt"
    path.write_bytes("通知：明天放假。\r\nThe office is closed tomorrow.\r\n".encode(encoding))
    assert read_text_file(path) == "通知：明天放假。\nThe office is closed tomorrow.\n"


def test_a_file_that_is_not_text_is_refused_plainly(tmp_path):
    path = tmp_path / "report.docx"
    path.write_bytes(b"PK\x03\x04\x00\x00\x08\x00" + bytes(range(256)) * 4)
    with pytest.raises(UserFacingError) as error:
        read_text_file(path)
    assert "not a text file" in error.value.message


def test_a_missing_file_is_refused_plainly(tmp_path):
    with pytest.raises(UserFacingError) as error:
        read_text_file(tmp_path / "gone.txt")
    assert "cannot open" in error.value.message


def test_a_file_too_long_to_read_in_one_go_says_how_to_split_it(tmp_path):
    path = tmp_path / "book.txt"
    path.write_text("word " * 100, encoding="utf-8")
    with pytest.raises(UserFacingError) as error:
        read_text_file(path, limit=200)
    assert "500 characters" in error.value.message and "Split" in error.value.message
