"""Mixed Chinese and English text read by two voices, through Coqui's real code with two tiny random
VITS voices: an English one and a Chinese one at another sample rate."""
from __future__ import annotations

import numpy as np
import pytest

from desktop.core.common.errors import UserFacingError
from desktop.core.gpu.fallback import FallbackLog
from desktop.core.speech.tts_models import TtsModelStore
from desktop.engines.speech.tts import SENTENCE_PAUSE_SECONDS, SpeechSynthesizer, SynthesisSettings
from desktop.engines.speech.two_voices import TwoVoiceSpeech, voice_for_language
from tests.helpers.tiny_tts import SAMPLE_RATE, build_single_speaker_vits

CHINESE_CHARACTERS = "各位同事明天上午九点开会请把发给我谢谢 "
CHINESE_RATE = 22050  # unlike the English voice's, so the Chinese runs must be resampled
ENGLISH = "imported/tiny-english"
CHINESE = "imported/tiny-chinese"
FRAME = 256  # samples per VITS frame


@pytest.fixture(scope="module")
def chinese_folder(tmp_path_factory):
    return build_single_speaker_vits(tmp_path_factory.mktemp("zh") / "tiny-chinese", characters=CHINESE_CHARACTERS,
                                     language="zh", sample_rate=CHINESE_RATE, seed=3)


@pytest.fixture
def store(tmp_path, tiny_folders, chinese_folder) -> TtsModelStore:
    store = TtsModelStore(tmp_path / "voices")
    store.import_folder(tiny_folders["single"])
    store.import_folder(chinese_folder)
    return store


@pytest.fixture
def voices(store):
    chosen = SpeechSynthesizer(store, FallbackLog())
    speech = TwoVoiceSpeech(chosen, SpeechSynthesizer(store, FallbackLog()))
    yield chosen, speech
    speech.release()
    chosen.release()


def spoken_length(store, model: str, text: str, rate: int) -> int:
    """How many samples one voice makes of text, without the pause after it, at rate."""
    engine = SpeechSynthesizer(store, FallbackLog())
    try:
        speech = engine.synthesize(text, SynthesisSettings(model=model, watermark=False))
    finally:
        engine.release()
    samples = len(speech.samples) - int(SENTENCE_PAUSE_SECONDS * speech.sample_rate)
    return round(samples * rate / speech.sample_rate)


def test_the_other_voice_is_the_one_on_this_computer_that_speaks_the_language(store, tmp_path):
    assert voice_for_language(store, "zh").name == CHINESE
    assert voice_for_language(store, "en").name == ENGLISH
    assert voice_for_language(TtsModelStore(tmp_path / "empty"), "zh") is None


def test_each_language_is_read_by_a_voice_of_its_own_one_sentence_at_a_time(voices, store):
    chosen, speech = voices
    text = "Good morning. 各位同事，明天上午九点开会。Thank you all."
    sentences, statuses = [], []

    made = speech.synthesize(text, SynthesisSettings(model=ENGLISH), on_sentence=sentences.append,
                             on_status=statuses.append)

    assert made.complete and made.sample_rate == SAMPLE_RATE
    assert [s.sentence.text for s in sentences] == ["Good morning.", "各位同事，明天上午九点开会。", "Thank you all."]
    assert {s.sample_rate for s in sentences} == {SAMPLE_RATE}
    # The Chinese sentence is as long as the Chinese voice makes it (resampled), not the English one.
    chinese = spoken_length(store, CHINESE, "各位同事，明天上午九点开会。", SAMPLE_RATE)
    pause = int(SENTENCE_PAUSE_SECONDS * SAMPLE_RATE)
    assert abs(len(sentences[1].samples) - pause - chinese) <= FRAME
    note = speech.last_note
    assert note in statuses
    assert "tiny-english" in note and "tiny-chinese" in note and "Chinese" in note


def test_runs_of_two_languages_in_one_sentence_are_joined_with_one_pause_at_the_end(voices, store):
    chosen, speech = voices
    made = speech.synthesize("请把report发给我。", SynthesisSettings(model=ENGLISH, watermark=False))

    assert len(made.sentences) == 1
    english = spoken_length(store, ENGLISH, "report", SAMPLE_RATE)
    chinese = spoken_length(store, CHINESE, "请把", SAMPLE_RATE) + spoken_length(store, CHINESE, "发给我。", SAMPLE_RATE)
    pause = int(SENTENCE_PAUSE_SECONDS * SAMPLE_RATE)
    # The pause comes once, after the sentence, not after each run (resampling rings into its start).
    assert abs(len(made.samples) - (english + chinese + pause)) <= 3 * FRAME
    assert not np.any(made.samples[-pause // 2:])


def test_a_chinese_voice_gets_an_english_voice_for_the_english_parts(voices):
    chosen, speech = voices
    made = speech.synthesize("各位同事，please read this.", SynthesisSettings(model=CHINESE))

    assert made.complete and made.sample_rate == CHINESE_RATE
    assert "tiny-chinese" in speech.last_note and "tiny-english" in speech.last_note


def test_the_joined_sentence_carries_the_watermark(voices):
    from desktop.engines.voices.watermark import carries_watermark

    chosen, speech = voices
    made = speech.synthesize("各位同事，明天上午九点开会，please read the report about the meeting.",
                             SynthesisSettings(model=ENGLISH))

    assert carries_watermark(made.samples, made.sample_rate)


def test_text_in_one_language_goes_to_the_chosen_voice_as_before(voices):
    chosen, speech = voices
    made = speech.synthesize("Good morning. Thank you.", SynthesisSettings(model=ENGLISH))

    assert made.complete and len(made.sentences) == 2
    assert speech.last_note is None
    with pytest.raises(UserFacingError, match="cannot read the Chinese"):
        speech.synthesize("各位同事。", SynthesisSettings(model=ENGLISH))  # no English in it: the old refusal


def test_without_a_chinese_voice_mixed_text_is_refused_naming_what_to_install(tmp_path, tiny_folders):
    store = TtsModelStore(tmp_path / "voices")
    store.import_folder(tiny_folders["single"])
    chosen = SpeechSynthesizer(store, FallbackLog())
    speech = TwoVoiceSpeech(chosen, SpeechSynthesizer(store, FallbackLog()))

    with pytest.raises(UserFacingError) as refused:
        speech.synthesize("Good morning, 各位同事。", SynthesisSettings(model=ENGLISH))

    message = refused.value.message
    assert "cannot read the Chinese" in message and "no Chinese voice is on this computer" in message
    assert "Chinese, natural and fast (Piper, Huayan)" in message and "Import model folder…" in message
    chosen.release()


def test_a_cancel_keeps_the_whole_sentences_made_so_far(voices):
    chosen, speech = voices
    made: list = []
    result = speech.synthesize("One. 各位同事。 Two. 谢谢。", SynthesisSettings(model=ENGLISH),
                               on_sentence=made.append, cancelled=lambda: len(made) >= 2)

    assert not result.complete and result.total == 4
    assert [s.sentence.text for s in result.sentences] == ["One.", "各位同事。"]
