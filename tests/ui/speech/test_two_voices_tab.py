"""The Synthesize tab reading text that mixes Chinese and English with two tiny random VITS voices."""
from __future__ import annotations

import pytest

from desktop.core.speech.tts_models import TtsModelStore
from tests.engines.speech.test_two_voices import CHINESE_CHARACTERS, CHINESE_RATE
from tests.helpers.pulseaudio import pulseaudio, pulseaudio_server  # noqa: F401 - fixtures
from tests.helpers.tiny_tts import SAMPLE_RATE, build_single_speaker_vits
from tests.ui.speech.test_synthesize_tab import (  # noqa: F401 - fixtures
    make_tab,
    no_stdin,
    speak_and_wait,
    tiny_folders,
    wait_ready,
)


@pytest.fixture(scope="module")
def chinese_folder(tmp_path_factory):
    return build_single_speaker_vits(tmp_path_factory.mktemp("zh") / "tiny-chinese", characters=CHINESE_CHARACTERS,
                                     language="zh", sample_rate=CHINESE_RATE, seed=3)


def test_mixed_text_is_read_by_a_voice_of_each_language_and_the_status_says_so(qtbot, make_tab, tmp_path,
                                                                                tiny_folders, chinese_folder,
                                                                                pulseaudio):
    store = TtsModelStore(tmp_path / "voices")
    store.import_folder(tiny_folders["single"])
    store.import_folder(chinese_folder)
    tab = make_tab(store)
    wait_ready(qtbot, tab)

    speak_and_wait(qtbot, tab, "Good morning. 各位同事，明天上午九点开会。")

    assert not tab.error_text()
    assert len(tab.speaker.take) == 2 and tab.speaker.take.sample_rate == SAMPLE_RATE
    status = tab.status_text()
    assert status.startswith("Done.") and "“tiny-english” reads the English" in status
    assert "“tiny-chinese” the Chinese" in status
    assert tab.save_button.isEnabled()


def test_without_a_chinese_voice_the_refusal_names_what_to_install(qtbot, make_tab, tmp_path, tiny_folders,
                                                                    pulseaudio):
    store = TtsModelStore(tmp_path / "voices")
    store.import_folder(tiny_folders["single"])
    tab = make_tab(store)
    wait_ready(qtbot, tab)

    speak_and_wait(qtbot, tab, "Good morning, 各位同事。")

    assert "no Chinese voice is on this computer" in tab.error_text()
    assert "Chinese, natural and fast (Piper, Huayan)" in tab.error_text()  # the default Chinese voice
    assert not tab.speaker.take.sentences
