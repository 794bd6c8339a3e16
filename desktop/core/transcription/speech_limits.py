"""How much a stretch of speech can hold, and the notes a transcript carries when a transcription server
sent more than that, or times that cannot be.

The limits are set for the fastest speech with generous room. Fast speakers say about 7 syllables a
second in English and Spanish (Pellegrino et al., 2011, measured 6.2 and 7.8 in read speech; auctioneers
and sports commentators reach 8–9): some 4–5 English words, about 30 characters with their spaces and
punctuation. Alphabetic scripts write the most characters per second of speech; Chinese writes one
character per syllable (5–6 a second in fast Mandarin), Japanese about one kana per mora (about 8), so
the one character limit leaves them even more room. Whisper itself writes at most 224 tokens for a
30-second window, a few hundred to a thousand characters. Segments: Whisper ends one at each sentence
or pause, rarely more than one a second even in quick short replies ("Yes." "No." "Right.").
Each allowance has a fixed part as well, for a very short piece that holds one long word or two.
"""
from __future__ import annotations

from dataclasses import dataclass

from desktop.core.common.i18n import N_, Message
from desktop.core.transcription.transcript import clock

CHARACTERS_PER_SECOND = 60  # twice the fastest alphabetic speech, ten times fast Mandarin
SEGMENTS_PER_SECOND = 3  # three times the quickest exchange of short replies
WORDS_PER_SECOND = 20  # Whisper's words: four times fast English, twice the kana of fast Japanese
CHARACTERS_AT_LEAST = 200
SEGMENTS_AT_LEAST = 10
WORDS_AT_LEAST = 40

TOO_MUCH = "too much"  # the answer held more segments, characters or words than its speech can
TIMES_MOVED = "times moved"  # the answer had times outside its piece, out of order, or not numbers


@dataclass(frozen=True)
class SpeechLimits:
    segments: int
    characters: int  # of all the segments' text together
    words: int


def allowed(seconds: float) -> SpeechLimits:
    """The most a transcription of ``seconds`` of speech may hold."""
    seconds = max(0.0, seconds)
    return SpeechLimits(segments=SEGMENTS_AT_LEAST + int(SEGMENTS_PER_SECOND * seconds),
                        characters=CHARACTERS_AT_LEAST + int(CHARACTERS_PER_SECOND * seconds),
                        words=WORDS_AT_LEAST + int(WORDS_PER_SECOND * seconds))


@dataclass(frozen=True)
class AnswerNote:
    """Something changed in one piece of a server's answer: ``kind`` is TOO_MUCH or TIMES_MOVED."""

    kind: str
    start: float  # where the piece starts, seconds on the timeline of the audio transcribed

    def shifted(self, offset: float) -> "AnswerNote":
        return AnswerNote(self.kind, self.start + offset)


_SENTENCES = {
    TOO_MUCH: N_("Transcript", "The transcription server sent more text than anyone can say in that time; what went "
                               "beyond it was left out (parts of the recording: {count}, the first at {start})."),
    TIMES_MOVED: N_("Transcript", "The transcription server sent impossible times; those lines were put in order "
                                  "inside their part of the recording, so their subtitles may show a little early or "
                                  "late (parts of the recording: {count}, the first at {start})."),
}


def sentences(notes: list[AnswerNote]) -> list[Message]:
    """One sentence for each kind of note, however many parts of the recording it concerns."""
    result = []
    for kind, sentence in _SENTENCES.items():
        starts = sorted({round(note.start, 3) for note in notes if note.kind == kind})
        if starts:
            result.append(sentence.format(count=len(starts), start=clock(starts[0])))
    return result
