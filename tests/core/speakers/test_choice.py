import pytest

from desktop.core.speakers import choice


def test_every_choice_the_window_lists_parses_to_itself():
    assert choice.CHOICES == ("off", "auto", "2", "3", "4", "5", "6", "7", "8")
    assert [choice.parse(c) for c in choice.CHOICES] == list(choice.CHOICES)
    assert choice.parse(" AUTO ") == "auto"


def test_the_count_is_none_for_auto_and_the_number_otherwise():
    assert choice.speaker_count("auto") is None
    assert choice.speaker_count("5") == 5
    with pytest.raises(ValueError):
        choice.speaker_count("off")


@pytest.mark.parametrize("text", ["1", "9", "0", "-2", "two", "", "2.5", "auto;rm"])
def test_anything_else_is_refused(text):
    with pytest.raises(ValueError, match="off, auto or a number from 2 to 8"):
        choice.parse(text)
