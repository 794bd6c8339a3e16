"""Each transcription option's one declaration: its default is one of its allowed values, and what
Settings stores comes back as the value a job takes."""
import pytest

from desktop.core.transcription import options
from desktop.core.transcription.options import BATCH_SIZE, BEAM_SIZE, LANGUAGE, TASK


@pytest.mark.parametrize("option", options.ALL, ids=lambda option: option.name)
def test_every_default_is_one_of_its_own_allowed_values(option):
    assert option.allows(option.default)
    assert option.help.strip().endswith(".")
    assert options.BY_NAME[option.name] is option


def test_a_choice_outside_the_list_or_the_range_is_not_allowed():
    assert TASK.allows("translate") and not TASK.allows("summarise") and not TASK.allows(None)
    assert BEAM_SIZE.allows(BEAM_SIZE.low) and BEAM_SIZE.allows(BEAM_SIZE.high)
    assert not BEAM_SIZE.allows(BEAM_SIZE.low - 1) and not BEAM_SIZE.allows(BEAM_SIZE.high + 1)
    assert not BEAM_SIZE.allows(None)  # a beam size is never VoxDesk's to decide
    assert BATCH_SIZE.allows(None)  # automatic


def test_what_settings_store_for_automatic_comes_back_as_none():
    assert LANGUAGE.stored_default() == "auto" and LANGUAGE.from_stored("auto") is None
    assert LANGUAGE.from_stored("zh") == "zh"
    assert BATCH_SIZE.stored_default() == 0 and BATCH_SIZE.from_stored(0) is None
    assert BATCH_SIZE.from_stored(8) == 8
    assert options.INITIAL_PROMPT.stored_default() == ""
    assert TASK.stored_default() == TASK.default == TASK.from_stored(TASK.default)


def test_settings_offer_the_engines_of_this_computer():
    assert options.LOCAL_ENGINES == tuple(e for e in options.ENGINE.choices if e != "server")
    assert "server" in options.ENGINE.choices
