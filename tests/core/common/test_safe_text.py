"""Text from outside made safe to show and to save: what is taken out, and what legitimate text keeps."""
from __future__ import annotations

import pytest

from desktop.core.common.safe_text import clean_text

REPLACEMENT = "\ufffd"


@pytest.mark.parametrize("junk", [
    "\x00", "\x07", "\x08", "\x0b", "\x0c", "\x1b", "\x7f", "\x80", "\x9b",  # C0 and C1 controls, DEL
    "\u202a", "\u202b", "\u202c", "\u202d", "\u202e",  # bidirectional embeddings and overrides
    "\u2066", "\u2067", "\u2068", "\u2069",  # bidirectional isolates
    "\ufeff", "\u200b", "\u2060",  # byte order mark, zero-width space, word joiner
])
def test_controls_overrides_and_invisible_characters_are_taken_out(junk):
    assert clean_text(f" ask not{junk} what") == " ask not what"


def test_a_terminal_escape_sequence_goes_as_a_whole():
    assert clean_text(" red\x1b[31;1m text\x1b[0m and\x1b]0;title\x07 more") == " red text and more"


@pytest.mark.parametrize("lone", ["\ud800", "\udfff", "\udc80"])
def test_a_lone_surrogate_becomes_the_replacement_character_and_the_text_can_be_encoded(lone):
    cleaned = clean_text(f" fellow{lone} Americans")
    assert cleaned == f" fellow{REPLACEMENT} Americans"
    cleaned.encode("utf-8")  # would raise UnicodeEncodeError with the surrogate in it


@pytest.mark.parametrize("text", [
    " And so, my fellow Americans: ask not what your country can do for you!",
    "甚至出现交易几乎停滞的情况，一二线城市虽然也处于调整中。",
    "我们今天用 PyTorch 和 ROCm 在 AMD Radeon 显卡上运行 Whisper 模型。",
    "مرحبا بالعالم", "שלום עולם",  # right-to-left scripts need no override
    "café naïve Ελλάδα Привет नमस्ते",  # combining marks and other scripts
    "👩\u200d💻 and 🇨🇳",  # the zero-width joiner inside an emoji sequence is part of it
    "می\u200cخواهم",  # the zero-width non-joiner is spelling in Persian
])
def test_legitimate_text_is_kept_as_it_is(text):
    assert clean_text(text) == text


def test_line_breaks_become_spaces_in_a_single_line_and_stay_where_newlines_are_allowed():
    text = "one\ntwo\r\nthree\rfour\u2028five\u2029six\x85seven\teight"
    assert clean_text(text) == "one two three four five six seven eight"
    assert clean_text(text, newlines=True) == "one\ntwo\nthree\nfour\nfive\nsix\nseven eight"


def test_text_that_is_only_junk_becomes_empty():
    assert clean_text("\ufeff\u202e\x00\u200b") == ""
