"""The Synthesize tab's voice list: recommended voices first, what is here and what needs a download,
"More voices…" with languages in words, download-only entries offline, and the default voice
following the interface's language."""
import pytest

from desktop.core.gpu.fallback import FallbackLog
from desktop.core.speech.tts_catalog import RECOMMENDED
from desktop.core.speech.tts_models import TtsModelStore
from desktop.engines.speech.tts import SpeechSynthesizer
from desktop.ui.speech.model_picker import MORE_VOICES
from desktop.ui.speech.synthesize_tab import SynthesizeTab
from desktop.workers.job import JobRunner
from tests.helpers.piper_voice import copy_of_joe


@pytest.fixture
def store(tmp_path):
    store = TtsModelStore(tmp_path / "voices")
    store.import_folder(copy_of_joe(tmp_path / "joe"), name="Joe at work")
    return store


@pytest.fixture
def make_tab(qtbot, settings):
    made = []

    def make(store):
        runner = JobRunner()
        tab = SynthesizeTab(settings, SpeechSynthesizer(store, FallbackLog()), runner, FallbackLog())
        qtbot.addWidget(tab)
        made.append((tab, runner))
        return tab

    yield make
    for tab, runner in made:
        tab.shutdown()
        assert runner.shutdown(60_000)


def entries(tab) -> list[tuple[str, str, bool]]:
    combo = tab.picker.model_combo
    return [(combo.itemData(i), combo.itemText(i), combo.model().item(i).isEnabled())
            for i in range(combo.count()) if combo.itemData(i) is not None]


def test_the_four_recommended_voices_come_first_then_those_here_then_more_voices(make_tab, store):
    tab = make_tab(store)
    listed = entries(tab)
    assert [name for name, _, _ in listed[:4]] == list(RECOMMENDED)
    assert listed[4][0] == "imported/Joe-at-work" and listed[4][1].startswith("✓ ")
    assert listed[-1][0] == MORE_VOICES and len(listed) == 6  # the ~160 others wait under "More voices…"
    assert all("needs a download" in text for _, text, _ in listed[:4])


def test_more_voices_lists_the_whole_catalog_with_languages_in_words(make_tab, store):
    tab = make_tab(store)
    combo = tab.picker.model_combo
    combo.setCurrentIndex(combo.findData(MORE_VOICES))
    listed = {name: text for name, text, _ in entries(tab)}
    assert MORE_VOICES not in listed and len(listed) > 150
    assert listed["tts_models/en/blizzard2013/capacitron-t2-c150_v2"].startswith("English · blizzard2013 · ")
    assert listed["piper/de_DE-thorsten-medium"].startswith("German · Piper · thorsten")
    assert combo.currentData() != MORE_VOICES  # the choice before stays chosen


def test_offline_the_entries_that_need_a_download_are_shown_as_download_only(make_tab, store):
    tab = make_tab(store)
    tab.picker.set_offline(True)
    listed = entries(tab)
    for name, text, enabled in listed:
        if name == "imported/Joe-at-work":
            assert enabled
        elif name != MORE_VOICES:
            assert not enabled and "download only" in text


def test_the_default_voice_follows_the_interface_language(make_tab, store, settings):
    settings.set("ui/language", "zh_CN")
    assert make_tab(store).picker.model_name() == "piper/zh_CN-huayan-medium"
    settings.set("ui/language", "en_US")
    assert make_tab(store).picker.model_name() in ("piper/en_US-joe-medium", "imported/Joe-at-work")


def test_a_voice_the_user_chose_is_kept_over_the_default(make_tab, store, settings):
    settings.set("ui/language", "zh_CN")
    settings.set("synthesize/model", "imported/Joe-at-work")
    assert make_tab(store).picker.model_name() == "imported/Joe-at-work"
