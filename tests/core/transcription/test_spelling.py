"""English spell checking with the system's Hunspell dictionary (make test installs hunspell-en-us)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from desktop.core.transcription import spelling
from desktop.core.transcription.spelling import Misspelling, SpellChecker

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def checker():
    made = SpellChecker(["Anna Kowalczyk", "VoxDesk"])
    assert made.available, made.unavailable
    return made


def test_misspelled_english_words_are_found_where_they_are(checker):
    text = "Please recieve the minutes, they are brokn."
    assert checker.misspellings(text) == [Misspelling(7, 14, "recieve"), Misspelling(37, 42, "brokn")]
    assert checker.misspellings("Please receive the minutes, they aren’t broken.") == []


def test_suggestions_offer_the_word_meant(checker):
    assert "receive" in checker.suggestions("recieve")
    assert "broken" in checker.suggestions("brokn")


def test_glossary_terms_and_speaker_names_count_as_words_and_are_suggested(checker):
    assert checker.misspellings("Anna Kowalczyk opened VoxDesk.") == []
    assert checker.suggestions("Kowalczik")[0] == "Kowalczyk"
    assert checker.suggestions("VoxDesc")[0] == "VoxDesk"
    checker.set_known_words(["Zbigniew"])
    try:
        assert [m.word for m in checker.misspellings("Zbigniew met Kowalczyk")] == ["Kowalczyk"]
    finally:
        checker.set_known_words(["Anna Kowalczyk", "VoxDesk"])


def test_addresses_acronyms_and_words_with_digits_are_not_called_misspelled(checker):
    text = "See www.exampel.com, write to anna@exampel.org, JFK and NATO met on the 2nd in room B12x."
    assert checker.misspellings(text) == []


def test_chinese_is_never_spell_checked(checker):
    assert not spelling.checks("zh")
    assert not spelling.checks(None, "我们今天开会")
    assert spelling.checks("en") and spelling.checks(None, "We meet today")
    assert checker.misspellings("我们用 recieve 这个词") == []


def test_without_a_dictionary_the_checker_says_why_and_finds_nothing():
    missing = SpellChecker(tags=["xx_XX"])
    assert not missing.available
    assert missing.unavailable == spelling.NO_DICTIONARY and "hunspell-en-us" in missing.unavailable
    assert missing.misspellings("recieve teh brokn") == []
    assert missing.suggestions("recieve") == []


def test_without_the_spelling_library_the_checker_says_why():
    script = ("from desktop.core.transcription.spelling import SpellChecker, NO_ENCHANT\n"
              "c = SpellChecker(['VoxDesk'])\n"
              "assert not c.available and c.unavailable == NO_ENCHANT, c.unavailable\n"
              "assert c.misspellings('recieve') == [] and c.suggestions('VoxDesc') == ['VoxDesk']\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYENCHANT_LIBRARY_PATH": str(ROOT / "no-such-libenchant.so")}
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_the_terms_of_every_readable_glossary_are_known_words(tmp_path):
    from desktop.core.glossary.library import GlossaryLibrary

    mine, shared = tmp_path / "mine", tmp_path / "shared"
    mine.mkdir()
    shared.mkdir()
    (mine / "team.txt").write_text("Kowalczyk\nVoxDesk\n", encoding="utf-8")
    (shared / "office.txt").write_text("Brzęczyszczykiewicz\n", encoding="utf-8")
    (mine / "broken.txt").write_bytes(b"\xff\xfe\x00bad")
    terms = spelling.glossary_terms(GlossaryLibrary(mine, [shared]))
    assert {"Kowalczyk", "VoxDesk", "Brzęczyszczykiewicz"} <= set(terms)
    checker = SpellChecker(terms)
    assert checker.misspellings("Kowalczyk uses VoxDesk") == []
