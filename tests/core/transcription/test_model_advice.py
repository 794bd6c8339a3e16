"""The advice the model list gives: groups, languages, sizes, speeds, and the hint for Chinese."""
from pathlib import Path

from desktop.core.transcription import model_advice
from desktop.core.transcription.model_advice import ACCURATE, BALANCED, FAST, IMPORTED, advise, needs_chinese_hint
from desktop.core.transcription.whisper_models import ModelStore


def test_official_models_fall_into_fast_balanced_and_accurate():
    assert [model_advice.group_of(n) for n in ("tiny", "tiny.en", "base", "base.en")] == [FAST] * 4
    assert [model_advice.group_of(n) for n in ("small", "small.en", "medium", "medium.en")] == [BALANCED] * 4
    assert [model_advice.group_of(n) for n in ("turbo", "large-v1", "large-v2", "large-v3")] == [ACCURATE] * 4
    assert model_advice.group_of("office tiny") == IMPORTED


def test_every_catalog_model_gets_languages_size_and_a_speed_only_where_measured(tmp_path: Path):
    entries = ModelStore(tmp_path).catalog()
    advice = advise(entries, {"base": 15.2, "large-v3": 0.42})
    assert [a.group for a in advice] == sorted((a.group for a in advice), key=model_advice.GROUP_ORDER.index)
    by_name = {a.name: a for a in advice}
    assert set(by_name) == {e.name for e in entries}
    assert by_name["base"].languages == "99 languages" and by_name["base.en"].languages == "English only"
    assert by_name["base"].size == "145 MB" and by_name["large-v3"].size == "3.1 GB"
    assert by_name["base"].speed == "an hour of recording takes about 4 minutes here"
    assert by_name["large-v3"].speed == "an hour of recording takes about 2.4 hours here"
    assert by_name["small"].speed is None


def test_speeds_read_naturally():
    # As the time an hour of recording takes, not as a factor of "real time".
    assert model_advice.speed_text(15.4) == "an hour of recording takes about 4 minutes here"
    assert model_advice.speed_text(12.0) == "an hour of recording takes about 5 minutes here"
    assert model_advice.speed_text(2.5) == "an hour of recording takes about 24 minutes here"
    assert model_advice.speed_text(1.0) == "an hour of recording takes about 60 minutes here"
    assert model_advice.speed_text(50.0) == "an hour of recording takes about a minute here"
    assert model_advice.speed_text(200.0) == "an hour of recording takes less than a minute here"
    assert model_advice.speed_text(0.5) == "an hour of recording takes about 2 hours here"


def test_the_chinese_hint_is_for_chinese_with_tiny_or_base_only():
    for model in ("tiny", "base", "tiny.en", "base.en"):
        assert needs_chinese_hint("zh", model)
    for model in ("small", "medium", "turbo", "large-v3", "office tiny"):
        assert not needs_chinese_hint("zh", model)
    for language in (None, "auto", "en", "yue", "ja"):
        assert not needs_chinese_hint(language, "base")
