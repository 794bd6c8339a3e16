"""The captioner fed directly (as fast as it decodes): utterances cut at pauses, in order, timed on the
session; the short Whisper window; the filler word over an utterance's quiet end. Real base weights."""
from __future__ import annotations

import numpy as np
import opencc
import pytest

from desktop.core.transcription.transcript import Segment, Word
from desktop.engines.transcription.live.captioner import LiveCaptioner, LiveOptions, _without_unheard_tail
from desktop.engines.transcription.decoders.loading import load_engine
from desktop.engines.transcription.live.short_window import WHISPER_WINDOW_FRAMES, window_for, window_frames
from tests.helpers.weights import ModelRef, base_dir, error_rate, normalize_english, recording, reference, wer

pytestmark = pytest.mark.slow

SECOND = 16000


@pytest.fixture(scope="module")
def engine():
    engine = load_engine(ModelRef("base", "ct2", base_dir()), "ct2", "cpu")
    yield engine
    engine.close()


def caption(engine, audio: np.ndarray, options: LiveOptions) -> LiveCaptioner:
    captioner = LiveCaptioner(engine, options)
    for start in range(0, audio.size, SECOND // 10):  # 100 ms blocks, as a microphone delivers them
        captioner.feed(audio[start:start + SECOND // 10])
    captioner.finish()
    return captioner


def test_utterances_are_committed_at_their_pauses_in_order_and_timed_on_the_session(engine):
    pause = np.zeros(2 * SECOND, np.float32)
    jfk, zh = recording("jfk.flac"), recording("BAC009S0764W0121.wav")
    captioner = caption(engine, np.concatenate([pause, jfk, pause, zh, pause]), LiveOptions(tentative=False))

    segments = captioner.lines.segments
    english = [s for s in segments if s.end <= 2 + jfk.size / SECOND + 0.5]
    mandarin = segments[len(english):]
    assert wer("And so my fellow Americans, ask not what your country can do for you, ask what you can do "
               "for your country.", "".join(s.text for s in english)) <= 0.10
    assert english[0].start >= 2.0 - 0.5  # after the first pause
    chinese_start = 4 + jfk.size / SECOND
    assert mandarin and all(chinese_start - 0.5 <= s.start for s in mandarin)
    text = "".join(s.text for s in mandarin)
    assert "交易" in text and opencc.OpenCC("t2s").convert(text) == text  # each utterance its own language
    starts = [s.start for s in segments]
    assert starts == sorted(starts)


def test_mandarin_chosen_is_simplified_with_chinese_punctuation_and_no_filler_after_it(engine):
    captioner = caption(engine, np.concatenate([recording(name) for name in
                                                ("BAC009S0764W0121.wav", "BAC009S0764W0122.wav")]),
                        LiveOptions(language="zh", tentative=False))
    text = "".join(s.text for s in captioner.lines.segments)
    spoken = reference("BAC009S0764W0121.wav") + reference("BAC009S0764W0122.wav")
    # As close to what was said as file transcription is (tests/engines/transcription/test_chinese_transcripts.py).
    assert error_rate([c for c in spoken if c.isalnum()], [c for c in text if c.isalnum()]) <= 0.2, text
    assert "。" in text and opencc.OpenCC("t2s").convert(text) == text
    assert text.endswith(("中", "。"))  # nothing invented after the last word


def test_the_window_is_the_utterance_and_a_margin_never_more_than_whisper_s():
    assert window_frames(3.2) == 900  # 3.2 s + 5 s, in whole seconds
    assert window_frames(0.0) == 500
    assert window_frames(28.0) == WHISPER_WINDOW_FRAMES


def test_the_short_window_gives_the_same_text_and_the_model_is_left_as_it_was(engine):
    from desktop.engines.transcription.engine import TranscribeOptions

    audio = recording("jfk.flac")[: 5 * SECOND]
    options = TranscribeOptions(language="en")
    full = engine.transcribe(audio, options)
    with window_for(engine, audio.size / SECOND):
        short = engine.transcribe(audio, options)
    def words(result) -> str:
        return normalize_english("".join(s.text for s in result.segments))

    # The same words (punctuation and case may differ), within one: the encoder sees 10 s, not 30 s,
    # a different sum in every kernel, as two decoders are (tests.helpers.weights).
    said, heard = words(full).split(), words(short).split()
    assert len(said) >= 6 and error_rate(said, heard) * len(said) <= 1, (said, heard)
    # Outside the block the encoder sees whole windows again: the first text, to the letter (same input).
    assert words(engine.transcribe(audio, options)) == words(full)


def unheard(text: str, start: float) -> Segment:
    return Segment(start, start + 0.3, text, words=[Word(start, start + 0.3, text, probability=0.03)])


def test_a_last_segment_whisper_did_not_hear_is_dropped_and_only_that():
    said = Segment(0.0, 3.0, "甚至出现交易几乎停滞的情况。", words=[Word(0.0, 3.0, "甚至", probability=0.95)])
    assert _without_unheard_tail([said, unheard("好", 3.0)]) == [said]
    assert _without_unheard_tail([unheard("好", 0.0), said]) == [unheard("好", 0.0), said]
    assert _without_unheard_tail([said]) == [said]


def test_an_unsure_last_segment_after_the_utterance_is_dropped_never_the_only_one():
    from desktop.engines.transcription.engine import EngineResult
    from desktop.engines.transcription.live.captioner import _without_unsure_tail

    said = Segment(0.6, 3.9, "一二线城市虽然也处于调整中。")
    filler = Segment(3.9, 4.3, "我认识了")
    result = _without_unsure_tail(EngineResult([said, filler], "zh", avg_logprobs=[-0.19, -1.53]))
    assert result.segments == [said] and result.avg_logprobs == [-0.19]
    alone = EngineResult([filler], "zh", avg_logprobs=[-1.53])
    assert _without_unsure_tail(alone).segments == [filler]  # a quiet utterance of its own is kept
    sure = EngineResult([said, filler], "zh", avg_logprobs=[-0.19, -0.4])
    assert _without_unsure_tail(sure).segments == [said, filler]


def test_a_glossary_term_said_in_one_utterance_steers_the_next_ones(engine):
    from desktop.core.glossary.glossary_file import Term

    told = []

    class Listening:
        """The real engine, noting which glossary terms each utterance was told of."""

        def __getattr__(self, name):
            return getattr(engine, name)

        def transcribe(self, audio, options, **kwargs):
            told.append(tuple(options.glossary_heard))
            return engine.transcribe(audio, options, **kwargs)

    pause = np.zeros(2 * SECOND, np.float32)
    jfk = recording("jfk.flac")
    captioner = LiveCaptioner(Listening(), LiveOptions(language="en", tentative=False,
                                                       glossary=(Term("Americans"), Term("Kubernetes"))))
    audio = np.concatenate([pause, jfk, pause, jfk, pause])
    for start in range(0, audio.size, SECOND // 10):
        captioner.feed(audio[start:start + SECOND // 10])
    captioner.finish()
    assert told[0] == ()  # nothing heard yet: no term is suggested
    assert told[-1] == ("Americans",)  # said in the first utterance, never Kubernetes
