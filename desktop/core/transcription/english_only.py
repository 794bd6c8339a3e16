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
(or a whole live session); too little speech is not judged. No Qt here.
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
CONFIDENT_LANGUAGE_PROBABILITY = 0.85  # English heard at 0.96 at the least, Mandarin at 1.00; the mix at 0.79


@dataclass(frozen=True)
class HeardLanguage:
    """The language a multilingual model heard in speech an English-only model decoded."""

    language: str  # a Whisper code: "en", "zh" …
    probability: float  # the model's probability of that language

    @property
    def confident(self) -> bool:
        """Sure enough to decide."""
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

    def add(self, segments: Sequence[Segment], avg_logprobs: Sequence[float],
            speech: Iterable[tuple[float, float]]) -> None:
        """One decoding's segments (with word timings), their log-probabilities and the speech heard,
        all on the same timeline."""
        stretches = list(speech)
        self.speech_seconds += sum(max(0.0, end - start) for start, end in stretches)
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
        """Whether the speech is likely not English (see the table above)."""
        if self.speech_seconds < LEAST_SPEECH_SECONDS:
            return False
        if self.words and self.covered_seconds / self.speech_seconds < LEAST_COVERED:
            return True
        if not self.words or not self.segment_seconds:
            return False
        unsure_words = self.word_probability_sum / self.words < UNSURE_WORD_PROBABILITY
        unsure_segments = self.logprob_seconds / self.segment_seconds < UNSURE_LOGPROB
        return unsure_words and unsure_segments
