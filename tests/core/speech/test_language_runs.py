"""Splitting mixed Chinese and English text into runs of one language, for two voices."""
from desktop.core.speech.language_runs import is_mixed, split_by_language


def runs(text: str) -> list[tuple[str, str]]:
    return [(run.language, run.text) for run in split_by_language(text)]


def test_the_runs_cover_the_whole_text_in_order():
    text = "各位同事，明天的meeting改到下午3点。Please bring the report！谢谢。"
    found = split_by_language(text)
    assert "".join(run.text for run in found) == text
    assert [text[run.start:run.end] for run in found] == [run.text for run in found]
    assert [run.language for run in found] == ["zh", "en", "zh", "en", "zh"]


def test_punctuation_and_spaces_stay_with_the_run_they_close():
    assert runs("Hello, 你好") == [("en", "Hello, "), ("zh", "你好")]
    assert runs("你好。 Hello world!") == [("zh", "你好。 "), ("en", "Hello world!")]
    assert runs("GPU，我们") == [("en", "GPU，"), ("zh", "我们")]


def test_digits_stay_with_their_neighbours():
    assert runs("会议在3点，请准时") == [("zh", "会议在3点，请准时")]  # one language around them: one run
    assert runs("in 2024年开会") == [("en", "in "), ("zh", "2024年开会")]  # written against 年
    assert runs("iPhone15上市") == [("en", "iPhone15"), ("zh", "上市")]  # part of the name
    assert runs("Room 101") == [("en", "Room 101")]


def test_a_lone_latin_letter_in_a_chinese_word_stays_chinese():
    assert runs("A股涨了，做了B超") == [("zh", "A股涨了，做了B超")]
    assert runs("X光片") == [("zh", "X光片")]


def test_an_acronym_inside_chinese_is_a_run_of_its_own_for_the_english_voice():
    assert runs("请把PDF发给我。") == [("zh", "请把"), ("en", "PDF"), ("zh", "发给我。")]
    assert runs("我们用 GPU 加速") == [("zh", "我们用 "), ("en", "GPU "), ("zh", "加速")]


def test_quotes_and_brackets_at_the_edges_go_with_the_first_and_last_run():
    assert runs("“hello”他说") == [("en", "“hello”"), ("zh", "他说")]
    assert runs("（见附件 Appendix A）") == [("zh", "（见附件 "), ("en", "Appendix A）")]


def test_text_in_one_language_is_one_run_and_text_without_letters_none():
    assert runs("Good morning, everyone.") == [("en", "Good morning, everyone.")]
    assert runs("大家早上好。") == [("zh", "大家早上好。")]
    assert runs("123 !!!") == []
    assert runs("") == []


def test_only_text_with_both_scripts_is_mixed():
    assert is_mixed("请把PDF发给我")
    assert not is_mixed("大家早上好。3点开会")
    assert not is_mixed("Good morning, 3 pm.")
