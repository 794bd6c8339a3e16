"""The signs by which an English-only model's decoding tells speech in another language, and what a
multilingual model heard in that speech."""
from desktop.core.transcription.english_only import EnglishOnlySigns, HeardLanguage
from desktop.core.transcription.transcript import Segment, Word


def _segment(start, end, probability, words=4):
    step = (end - start) / words
    return Segment(start=start, end=end, text=" word" * words,
                   words=[Word(start + i * step, start + (i + 1) * step, " word", probability) for i in range(words)])


def test_sure_words_over_all_the_speech_are_english():
    signs = EnglishOnlySigns()
    signs.add([_segment(0.0, 4.0, 0.9)], [-0.3], [(0.0, 4.0)])
    assert not signs.other_language()


def test_unsure_words_and_unsure_segments_together_are_another_language():
    signs = EnglishOnlySigns()
    signs.add([_segment(0.0, 4.0, 0.5)], [-1.05], [(0.0, 4.0)])
    assert signs.other_language()


def test_unsure_words_alone_are_not_enough():
    signs = EnglishOnlySigns()
    signs.add([_segment(0.0, 4.0, 0.5)], [-0.5], [(0.0, 4.0)])
    assert not signs.other_language()


def test_speech_mostly_left_unwritten_is_another_language_even_under_sure_words():
    signs = EnglishOnlySigns()
    signs.add([_segment(0.0, 3.0, 0.95)], [-0.3], [(0.0, 3.2), (4.0, 8.5)])
    assert signs.other_language()


def test_more_words_than_the_speech_can_hold_are_another_language_even_when_sure():
    loop = EnglishOnlySigns()  # tiny.en over 4 s of Mandarin: "see you in the next video" again and again
    loop.add([_segment(0.0, 4.0, 0.65, words=38)], [-0.73], [(0.0, 4.0)])
    assert loop.other_language()
    fast_english = EnglishOnlySigns()  # 4 words a second, the fastest English measured
    fast_english.add([_segment(0.0, 4.0, 0.95, words=16)], [-0.3], [(0.0, 4.0)])
    assert not fast_english.other_language()


def test_a_sure_english_check_decides_over_too_many_words():
    signs = EnglishOnlySigns()  # English the model wrote as a loop: a loop, but not another language
    signs.add([_segment(0.0, 4.0, 0.9, words=38)], [-0.3], [(0.0, 4.0)], [HeardLanguage("en", 0.99, 4.0)])
    assert not signs.other_language()


def test_too_little_speech_is_not_judged():
    signs = EnglishOnlySigns()
    signs.add([_segment(0.0, 1.0, 0.3)], [-1.5], [(0.0, 1.0)])
    assert not signs.other_language()


def test_the_signs_add_up_over_the_chunks_of_a_recording():
    signs = EnglishOnlySigns()
    signs.add([_segment(0.0, 4.0, 0.95)], [-0.3], [(0.0, 4.0)])
    signs.add([_segment(0.0, 4.0, 0.95)], [-0.3], [(0.0, 4.0), (4.5, 11.0)])
    assert signs.other_language()  # 8 of 14.5 s of speech under words


SECONDS = 4.0  # of speech a check listened to


def test_a_sure_check_decides_over_the_unsure_words_and_segments():
    english = EnglishOnlySigns()
    english.add([_segment(0.0, 4.0, 0.4)], [-1.1], [(0.0, 4.0)], [HeardLanguage("en", 0.99, SECONDS)])
    assert not english.other_language()  # English in loud noise
    mandarin = EnglishOnlySigns()
    mandarin.add([_segment(0.0, 4.0, 0.9)], [-0.3], [(0.0, 4.0)], [HeardLanguage("zh", 0.99, SECONDS)])
    assert mandarin.other_language()


def test_an_unsure_check_leaves_the_decision_to_the_signs():
    signs = EnglishOnlySigns()
    signs.add([_segment(0.0, 4.0, 0.4)], [-1.1], [(0.0, 4.0)], [HeardLanguage("en", 0.6, SECONDS)])
    assert signs.other_language()


def test_speech_left_unwritten_is_warned_of_whatever_the_check_heard():
    signs = EnglishOnlySigns()
    signs.add([_segment(0.0, 3.0, 0.95)], [-0.3], [(0.0, 3.2), (4.0, 8.5)], [HeardLanguage("en", 0.99, SECONDS)])
    assert signs.other_language()


def test_the_checks_add_up_by_the_speech_they_heard():
    signs = EnglishOnlySigns()
    signs.add([_segment(0.0, 30.0, 0.9)], [-0.3], [(0.0, 30.0)],
              [HeardLanguage("en", 0.97, 20.0), HeardLanguage("zh", 0.95, 10.0)])
    assert not signs.other_language()
    signs.add([_segment(0.0, 15.0, 0.9)], [-0.3], [(0.0, 15.0)], [HeardLanguage("zh", 0.99, 15.0)])
    assert signs.other_language()  # 25 s heard as Mandarin against 20 s as English
