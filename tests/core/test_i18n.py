"""Core sentences stay plain English strings, and carry what the window needs to translate them."""
import copy
import dataclasses
import json
import pickle

from desktop.core.errors import AudioError
from desktop.core.i18n import N_, Message, localized

CHINESE = {
    ("Audio", "“{name}” has no sound track."): "“{name}”没有音轨。",
    ("Audio", "Check {what}."): "请检查{what}。",
    ("Audio", "the speakers"): "扬声器",
    ("Audio", "Broken {name}."): "坏了 {other}。",
}


def chinese(context: str, text: str) -> str:
    return CHINESE.get((context, text), text)


def test_a_marked_sentence_is_its_english_text_everywhere_a_string_is_used():
    message = N_("Audio", "“{name}” has no sound track.").format(name="a.wav")
    assert message == "“a.wav” has no sound track."
    assert isinstance(message, str)
    assert json.dumps({"error": message}, ensure_ascii=False) == '{"error": "“a.wav” has no sound track."}'
    assert AudioError(message).message == "“a.wav” has no sound track."


def test_a_marked_sentence_is_shown_in_the_language_the_translate_function_speaks():
    message = N_("Audio", "“{name}” has no sound track.").format(name="a.wav")
    assert localized(message, chinese) == "“a.wav”没有音轨。"


def test_a_phrase_put_into_a_sentence_is_translated_with_it():
    message = N_("Audio", "Check {what}.").format(what=N_("Audio", "the speakers"))
    assert message == "Check the speakers."
    assert localized(message, chinese) == "请检查扬声器。"


def test_text_that_was_never_marked_is_shown_as_it_is():
    assert localized("plain words", chinese) == "plain words"
    assert localized(N_("Audio", "No translation for this.") + " Joined.", chinese) == "No translation for this. Joined."


def test_a_translation_with_wrong_placeholders_falls_back_to_english_instead_of_failing():
    message = N_("Audio", "Broken {name}.").format(name="x")
    assert localized(message, chinese) == "Broken x."


def test_a_sentence_keeps_its_translation_key_when_copied_or_pickled():
    @dataclasses.dataclass
    class Finding:
        text: str

    message = N_("Audio", "Check {what}.").format(what=N_("Audio", "the speakers"))
    for copied in (copy.copy(message), copy.deepcopy(message), pickle.loads(pickle.dumps(message)),
                   dataclasses.asdict(Finding(message))["text"]):
        assert isinstance(copied, Message)
        assert localized(copied, chinese) == "请检查扬声器。"
