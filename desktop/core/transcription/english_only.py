"""Whether an English-only model (tiny.en, base.en …) was given speech in another language.

Such a model cannot say so itself: asked to detect the language it answers English, and over Mandarin
it writes fluent, invented English. Its own decoding gives it away, though. Measured with tiny.en on
the recordings of tests/data (first pass, voice activity detection on):

| speech | mean word probability | mean log-probability | speech its words cover |
|---|---|---|---|
| English (jfk, lj050, mixed's English, 7 Harvard/LibriSpeech speakers) | 0.63 – 0.99 | −0.67 – −0.28 | 0.89 – 0.99 |
| Mandarin (AISHELL BAC009 …0121, …0122) | 0.52 – 0.56 | −1.14 – −0.99 | 0.42 – 0.88 |
| English then Mandarin (mixed_en_zh: the Mandarin left unwritten) | 0.96 | −0.32 | 0.49 |

So speech is taken for another language when the model is unsure of both its words and its segments,
or when its words leave much of the speech heard untouched. The signs add up over a whole recording
(or a whole live session); too little speech is not judged.

The model may also be sure of what it invents. Decoded as VoxDesk decodes now, …0121 comes out as a
loop ("see you in the next video" four times): words at 0.64, segments at −0.73, 0.86 of the speech
covered, all as English speech gives; but 9.6 words for each second of speech heard, where English
gave 1.6 – 4.0 (the recordings above, each also in loud noise, jfk three times, two sentences of
espeak-ng's English; …0122 gave 4.1). More words than the speech can hold are taken for another
language too.

The margin on English is slim (0.63 against a line at 0.6), so when a multilingual model is on this
computer the engine asks it instead (``engines.transcription.decoders.language_check``): it tells the
language of the speech voice activity detection kept. Measured with base as that model, on the same
recordings (tiny, the other small one it may be, was not at hand to measure):

| speech | language heard, probability | the signs above |
|---|---|---|
| English (jfk, lj050, 7 Harvard/LibriSpeech speakers) | en 0.96 – 1.00 | English |
| Mandarin (AISHELL BAC009 …0121, …0122) | zh 1.00 | another language |
| English then Mandarin (mixed_en_zh) | zh 0.79 | another language (speech left unwritten) |
| the English in loud noise (Gaussian, 0 dB SNR) | en 0.69 – 0.99 | another language for 2 of 9 |
| the Mandarin in loud noise | zh 0.54 – 0.81 | another language |

A check sure of its language (CONFIDENT_LANGUAGE_PROBABILITY; it never was of a wrong one here)
decides over the unsure words and segments, each window it listened to counting for its seconds of
speech, over a whole recording or live session: another language is warned of, English is not,
however unsure the model was in the noise (spk1_snt4 and spk2_snt6: word probability 0.52 and 0.39,
checked en 0.95 and 0.99). Speech left unwritten is warned of all the same, whatever the check heard
(the English then Mandarin recording in noise is heard as en 0.95: the user must still know that
part of it has no text). A check less sure leaves the decision to the signs. No Qt here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from desktop.core.common.i18n import N_
from desktop.core.transcription.transcript import Segment

OTHER_LANGUAGE_WARNING = N_("Engine", "This model understands only English; the speech may be in another "
                                      "language: choose a multilingual model.")

UNSURE_WORD_PROBABILITY = 0.6  # English speech: 0.63 at the lowest; Mandarin 0.56 at the highest
UNSURE_LOGPROB = -0.8  # English speech: −0.67 at the lowest; Mandarin −0.99 at the highest
LEAST_COVERED = 0.6  # English speech: 0.89 of it under words at the least; Mandarin left unwritten, 0.49
LEAST_SPEECH_SECONDS = 1.5  # less speech than this is not judged
MOST_WORDS_PER_SECOND = 6.5  # of speech heard: English 4.0 at the most; the loop over Mandarin 9.6
CONFIDENT_LANGUAGE_PROBABILITY = 0.85  # English heard at 0.96 at the least, Mandarin at 1.00; the mix at 0.79


@dataclass(frozen=True)
class HeardLanguage:
    """The language a multilingual model heard in speech an English-only model decoded."""

    language: str  # a Whisper code: "en", "zh" …
    probability: float  # the model's probability of that language
    seconds: float  # of speech it listened to

    @property
    def confident(self) -> bool:
        """Sure enough to decide (see the second table above)."""
        return self.probability >= CONFIDENT_LANGUAGE_PROBABILITY


@dataclass
class EnglishOnlySigns:
    """What an English-only model's decodings of one recording (or live session) tell, added up."""

    speech_seconds: float = 0.0  # speech voice activity detection heard
    covered_seconds: float = 0.0  # of that, the time under the words written
    words: int = 0
    word_probability_sum: float = 0.0
    segment_seconds: float = 0.0
    logprob_seconds: float = 0.0  # each segment's average log-probability times its length
    # Speech a multilingual model was sure it heard in English, and in another language (HeardLanguage).
    checked_english_seconds: float = 0.0
    checked_other_seconds: float = 0.0

    def add(self, segments: Sequence[Segment], avg_logprobs: Sequence[float],
            speech: Iterable[tuple[float, float]], checked: Sequence[HeardLanguage] = ()) -> None:
        """One decoding's segments (with word timings), their log-probabilities and the speech heard,
        all on the same timeline, and the languages a multilingual model heard in that speech (none:
        not checked)."""
        stretches = list(speech)
        self.speech_seconds += sum(max(0.0, end - start) for start, end in stretches)
        for heard in checked:
            if heard.confident and heard.language == "en":
                self.checked_english_seconds += heard.seconds
            elif heard.confident:
                self.checked_other_seconds += heard.seconds
        for segment, logprob in zip(segments, avg_logprobs):
            length = max(segment.end - segment.start, 0.01)
            self.segment_seconds += length
            self.logprob_seconds += logprob * length
            for word in segment.words:
                self.words += 1
                self.word_probability_sum += word.probability
                self.covered_seconds += sum(max(0.0, min(end, word.end) - max(start, word.start))
                                            for start, end in stretches)

    def other_language(self) -> bool:
        """Whether the speech is likely not English (see the tables above)."""
        if self.speech_seconds < LEAST_SPEECH_SECONDS:
            return False
        if self.words and self.covered_seconds / self.speech_seconds < LEAST_COVERED:
            return True  # speech left unwritten, whatever a check heard
        if self.checked_english_seconds or self.checked_other_seconds:
            return self.checked_other_seconds > self.checked_english_seconds
        if not self.words or not self.segment_seconds:
            return False
        if self.words / self.speech_seconds > MOST_WORDS_PER_SECOND:
            return True  # a loop, however sure of it the model was
        unsure_words = self.word_probability_sum / self.words < UNSURE_WORD_PROBABILITY
        unsure_segments = self.logprob_seconds / self.segment_seconds < UNSURE_LOGPROB
        return unsure_words and unsure_segments
