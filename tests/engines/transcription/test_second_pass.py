"""The second look at a decoding, on constructed segments: what counts as Whisper's loop, which
speech counts as uncovered, and which of two decodings Whisper's rules keep."""
from __future__ import annotations

import numpy as np
import pytest

from desktop.core.transcription.transcript import Segment, Word
from desktop.engines.transcription.review import second_pass
from desktop.engines.transcription.engine import EngineResult
from desktop.engines.transcription.review.coverage import uncovered
from desktop.engines.transcription.review.repetition import Decoding, better, compression_ratio, loops, repeats_a_phrase


def seg(start: float, end: float, text: str) -> Segment:
    return Segment(start=start, end=end, text=text, words=[Word(start=start, end=end, text=text)])


@pytest.mark.parametrize("text", [
    " Thank you. Thank you. Thank you.",
    " and then we went to the and then we went to the and then we went to the",
    "我们我们我们我们",
    "好的，好的，好的，好的，好的，好的。",
])
def test_a_phrase_said_three_times_or_more_in_a_row_is_a_loop(text):
    assert repeats_a_phrase(text)
    assert loops([seg(0, 5, text)]) == [(0, 1)]


@pytest.mark.parametrize("text", [
    " No, no, no.",  # said, and short
    " Ask not what your country can do for you, ask what you can do for your country.",
    " Thank you. Thank you.",  # twice is not a loop
    "甚至出现交易几乎停滞的情况",
    "",
])
def test_ordinary_speech_is_not_a_loop(text):
    assert not repeats_a_phrase(text)
    assert loops([seg(0, 5, text)]) == []


def test_a_run_of_segments_with_the_same_text_is_one_loop():
    segments = [seg(0, 2, " Hello everyone."), seg(2, 4, " Let's begin."), seg(4, 6, " Let's begin."),
                seg(6, 8, " Let's begin!"), seg(8, 10, " The agenda has three points.")]
    assert loops(segments) == [(1, 4)]


def test_two_long_identical_segments_in_a_row_are_a_loop_two_short_ones_are_not():
    long = " The quarterly figures are in the shared folder."
    assert loops([seg(0, 3, long), seg(3, 6, long)]) == [(0, 2)]
    assert loops([seg(0, 1, " Yes."), seg(1, 2, " Yes.")]) == []


def test_compression_ratio_is_whispers_measure_of_repetition():
    assert compression_ratio(" the the the the the the the the the the the the the the the the") > 2.4
    assert compression_ratio(" Ask not what your country can do for you.") < 2.4


def test_whisper_rules_prefer_a_decoding_it_would_accept():
    looping = Decoding([seg(0, 9, " go on" * 30)], avg_logprob=-0.2)
    plain = Decoding([seg(0, 9, " Go on with the report, please.")], avg_logprob=-0.5)
    assert better(looping, plain) is plain
    improbable = Decoding([seg(0, 9, " Gone width the rapport, pleas.")], avg_logprob=-1.6)
    assert better(plain, improbable) is plain


def test_between_two_acceptable_decodings_the_one_without_a_loop_wins_then_the_more_probable():
    looping = Decoding([seg(0, 3, " Thank you. Thank you. Thank you.")], avg_logprob=-0.1)
    plain = Decoding([seg(0, 3, " Thank you for coming today.")], avg_logprob=-0.6)
    assert better(looping, plain) is plain
    likelier = Decoding([seg(0, 3, " Thank you for coming, today.")], avg_logprob=-0.3)
    assert better(plain, likelier) is likelier


def test_a_decoding_with_no_text_never_replaces_one_with_text():
    looping = Decoding([seg(0, 3, " la la la la la la la la")], avg_logprob=-2.0)
    assert better(looping, Decoding([], avg_logprob=float("-inf"))) is looping


def test_speech_without_a_segment_counts_when_it_is_long_enough():
    speech = [(0.0, 8.7)]
    segments = [seg(0.0, 2.36, " A thin stripe runs down the middle."), seg(2.6, 4.38, " Canned pears.")]
    assert uncovered(speech, segments) == [(4.38, 8.7)]
    assert uncovered(speech, segments + [seg(4.9, 8.0, "甚至出现交易几乎停滞的情况")]) == []
    assert uncovered([(0.0, 3.0), (10.0, 12.5)], [seg(0.2, 2.8, " Hi.")]) == [(10.0, 12.5)]
    assert uncovered([], segments) == []


def test_a_forced_loop_is_decoded_again_without_a_prompt_at_a_higher_temperature():
    from desktop.engines.transcription.engine import TranscribeOptions

    samples = np.zeros(16000 * 10, dtype=np.float32)
    loop = [seg(1.0, 3.0, " Next item."), seg(3.0, 5.0, " Next item."), seg(5.0, 7.0, " Next item.")]
    first = EngineResult(segments=[seg(0.0, 1.0, " Okay."), *loop], language="en", avg_logprobs=[-0.2] * 4)
    calls = []

    def decode(audio, options):
        calls.append((len(audio) / 16000, options))
        return EngineResult(segments=[seg(0.0, 5.5, " Next item is the budget for the spring.")], language="en",
                            avg_logprobs=[-0.4])

    options = TranscribeOptions(language="en", initial_prompt="Minutes of the board meeting.")
    review = second_pass.review(first, samples, decode, options, options)

    assert [s.text for s, _ in review.segments] == [" Okay.", " Next item is the budget for the spring."]
    assert review.segments[1][0].start == 1.0 and review.segments[1][0].end == 6.5
    assert review.changed and review.gaps == []
    (seconds, again), = calls
    assert seconds == pytest.approx(6.0)
    assert again.initial_prompt is None and again.condition_on_previous_text is False
    assert again.temperature > 0 and again.language == "en"


def test_speech_a_lone_decoding_still_leaves_out_is_decoded_alone_in_turn_and_the_rest_named():
    from desktop.engines.transcription.engine import TranscribeOptions
    from tests.helpers.weights import recording

    samples = recording("jfk.flac")  # 11 s of speech with short pauses, none of it decoded the first time
    first = EngineResult(segments=[], language="en", speech=[(0.0, 11.0)])
    slices = []

    def stops_early_once(audio, options):
        slices.append(len(audio) / 16000)
        if len(slices) == 1:  # the first lone decoding stops after three seconds
            return EngineResult(segments=[seg(0.0, 3.0, " And so my fellow Americans,")], language="en")
        return EngineResult(segments=[seg(0.0, slices[-1], " ask not what your country can do for you.")],
                            language="en")

    options = TranscribeOptions(language=None)
    review = second_pass.review(first, samples, stops_early_once, options, options)

    assert [s.text for s, _ in review.segments] == [" And so my fellow Americans,",
                                                     " ask not what your country can do for you."]
    assert len(slices) == 2 and slices[1] < slices[0] - 2.5
    assert review.gaps == [] and review.changed

    def never(audio, options):
        return EngineResult(segments=[], language=None)

    (gap,) = second_pass.review(first, samples, never, options, options).gaps
    assert gap[0] < 1.0 and gap[1] > 9.5


def test_a_lone_decoding_that_says_its_last_sentence_again_at_the_stretch_end_keeps_it_once():
    from desktop.engines.transcription.engine import TranscribeOptions
    from tests.helpers.weights import recording

    samples = recording("BAC009S0764W0121.wav")  # one Mandarin sentence, none of it decoded the first time
    seconds = len(samples) / 16000
    first = EngineResult(segments=[], language="zh", speech=[(0.0, seconds)])
    sentence = "甚至出现交易几乎停滞的情况。"

    def says_it_again(audio, options):
        # As Whisper base did at the end of a stretch: the sentence, then again in the last 0.36 s.
        length = len(audio) / 16000
        return EngineResult(segments=[seg(0.0, length - 0.4, sentence), seg(length - 0.4, length - 0.04, sentence)],
                            language="zh")

    options = TranscribeOptions(language="zh")
    review = second_pass.review(first, samples, says_it_again, options, options)
    assert [s.text for s, _ in review.segments] == [sentence]

    def short_replies(audio, options):
        third = len(audio) / 16000 / 3  # under ECHO_SECONDS each
        return EngineResult(segments=[seg(0.0, third, "好的。"), seg(third, 2 * third, "好的。"),
                                      seg(2 * third, 3 * third, "明白。")], language="zh")

    review = second_pass.review(first, samples, short_replies, options, options)
    assert [s.text for s, _ in review.segments] == ["好的。", "好的。", "明白。"], "short replies are speech of their own"


def test_an_agenda_said_again_that_a_second_decoding_hears_the_same_is_kept_as_said():
    from desktop.engines.transcription.engine import TranscribeOptions

    agenda = "甚至出现交易几乎停滞的情况，一二线城市虽然也处于调整中。"
    samples = np.zeros(16000 * 20, dtype=np.float32)
    said = [seg(0.0, 9.0, agenda), seg(9.5, 18.5, agenda)]  # two long identical segments: looks like a loop
    first = EngineResult(segments=said, language="zh", avg_logprobs=[-0.3, -0.3])

    def decode(audio, options):  # heard again, sampled at a higher temperature: one character differs
        return EngineResult(segments=[seg(0.0, 9.0, agenda), seg(9.5, 18.5, agenda.replace("停滞", "停制"))],
                            language="zh", avg_logprobs=[-0.2, -0.2])

    options = TranscribeOptions(language="zh")
    review = second_pass.review(first, samples, decode, options, options)
    assert [s.text for s, _ in review.segments] == [agenda, agenda] and not review.changed
