"""The prompt parts the drift check tells apart: the text decoded before a window, after the hotwords
and the window's own initial prompt (faster-whisper's ``get_prompt`` layout)."""
from __future__ import annotations

from desktop.engines.transcription.decoders.ct2_model import EncoderChoice, previous_text

SOT_PREV, SOT, NO_TIMESTAMPS = 50361, 50258, 50363


def test_the_text_before_a_window_is_what_follows_the_hotwords_and_the_initial_prompt():
    hotwords, own, before = [11, 12], [21, 22, 23], [31, 32, 33, 34]
    prompt = [SOT_PREV, *hotwords, *own, *before, SOT, 50260, 50359]
    assert previous_text(prompt, SOT, SOT_PREV, own_prompt=len(own), hotwords=len(hotwords)) == before


def test_a_first_window_has_no_text_before_it_only_its_own_prompt_or_none():
    own = [21, 22, 23]
    assert previous_text([SOT_PREV, *own, SOT, 50260], SOT, SOT_PREV, own_prompt=len(own), hotwords=0) == []
    assert previous_text([SOT, 50260, NO_TIMESTAMPS], SOT, SOT_PREV, own_prompt=0, hotwords=0) == []
    assert previous_text([SOT_PREV, 11, SOT, 50260], SOT, SOT_PREV, own_prompt=0, hotwords=1) == []


def test_a_short_window_is_cut_before_the_encoder_and_whole_windows_go_to_the_encoder_in_use():
    import numpy as np

    seen = []
    choice = EncoderChoice()
    features = np.zeros((80, 3000), np.float32)
    choice.encode(features, seen.append)
    choice.frames = 900
    choice.encode(features, seen.append)
    assert [f.shape[-1] for f in seen] == [3000, 900]
