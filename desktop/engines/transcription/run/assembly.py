"""One recording's transcript, put together chunk by chunk from what the engine decodes.

Segments move from the chunk's timeline to the recording's, have their text made safe (every engine's
text passes here: no control characters, overrides or lone surrogates), never overlap, lose Whisper's
echoes of its prompt, and are shown in the chosen Chinese script once their language is known. Segments stream
to ``on_segment`` as the engine finds them; the second pass (``second_pass``) may then settle a chunk
differently, and the finished Transcript holds the settled form.
"""
from __future__ import annotations

import logging
from dataclasses import replace
from typing import Callable

from desktop.core.common.safe_text import clean_text
from desktop.core.transcription import chinese, speech_limits
from desktop.core.transcription.speech_limits import AnswerNote
from desktop.core.transcription.transcript import EngineFacts, Gap, Segment, Transcript, Word
from desktop.engines.transcription.review.second_pass import Review

log = logging.getLogger(__name__)


class TranscriptAssembly:
    def __init__(self, *, task: str, chinese_script: str, language: str | None,
                 on_segment: Callable[[Segment], None] | None = None):
        self._task = task
        self._script = chinese_script
        self.language = language  # chosen, or detected in the first chunk with speech
        self._on_segment = on_segment
        self.segments: list[Segment] = []
        self.gaps: list[Gap] = []
        self.heard_speech = False  # whether voice activity detection heard any
        self.notes: list[AnswerNote] = []  # what was changed in a server's answers, on the recording's timeline
        self.engine: EngineFacts | None = None  # how the last chunk was decoded
        self._offset = 0.0
        self._prompt: str | None = None
        self._first = 0  # index of the current chunk's first segment
        self._recognised: list[Segment] = []  # the current chunk's segments as Whisper wrote them

    def start_chunk(self, offset: float, prompt: str | None) -> None:
        self._offset, self._prompt = offset, prompt
        self._first = len(self.segments)
        self._recognised = []

    def stream(self, segment: Segment) -> None:
        """A segment as the engine found it, on the chunk's timeline; shown at once."""
        visible = self._add(segment, None)
        if visible is not None and self._on_segment:
            self._on_segment(visible)

    def settle(self, review: Review, chunk_language: str | None, *, heard_speech: bool) -> None:
        """End the chunk with the segments the second pass settled on, and the speech still missing."""
        self.heard_speech = self.heard_speech or heard_speech
        if review.changed or (self.language is None and chunk_language):
            # Redone from the engine's segments: before the language was known, the text alone
            # decided the script of what streamed.
            del self.segments[self._first:]
            self._recognised = []
            for segment, heard_in in review.segments:
                self._add(segment, heard_in or chunk_language)
        self.gaps.extend(Gap(round(self._offset + start, 3), round(self._offset + end, 3))
                         for start, end in review.gaps)
        self.notes.extend(note.shifted(self._offset) for note in review.notes)
        self.language = self.language or chunk_language

    def transcript(self, *, duration: float, source: str, warnings: list[str]) -> Transcript:
        # Each gap is also an empty segment in its place, so the transcript table shows a row the
        # user can fill in (exports skip segments without text).
        rows_to_fill = [Segment(start=gap.start, end=gap.end, text="") for gap in self.gaps]
        segments = sorted(self.segments + rows_to_fill, key=lambda segment: segment.start)
        return Transcript(segments=segments, language=self.language, duration=duration, source=source,
                          gaps=self.gaps, warnings=warnings + speech_limits.sentences(self.notes),
                          engine=self.engine)

    def _add(self, segment: Segment, heard_in: str | None) -> Segment | None:
        safe = _made_safe(segment)
        if not safe.text.strip() and segment.text.strip():
            log.info("Dropped a segment of nothing but control characters: %r", segment.text)
            return None
        shifted = safe.shifted(self._offset)
        earlier = [self._prompt or "", self._recognised[-1].text if self._recognised else ""]
        if _is_echo(shifted, earlier):
            log.info("Dropped a repeat with no audio of its own: %r", shifted.text)
            return None
        if self.segments and shifted.start < self.segments[-1].end:
            shifted = _starting_at(shifted, self.segments[-1].end)  # segments never overlap
        self._recognised.append(shifted)
        visible = self._shown(shifted, heard_in or self.language)
        self.segments.append(visible)
        return visible

    def _shown(self, segment: Segment, language: str | None) -> Segment:
        """The segment as the user sees it: Chinese in the chosen script, with Chinese punctuation.
        Before the language is known (detection in the first chunk), the text itself decides."""
        if self._task != "transcribe":
            return segment  # a translation is English
        is_chinese = chinese.looks_chinese(segment.text) if language is None else chinese.is_chinese(language)
        return chinese.tidy_segment(segment, self._script) if is_chinese else segment


def _made_safe(segment: Segment) -> Segment:
    """A copy with text safe to show and to save (desktop.core.common.safe_text), its words' too."""
    return replace(
        segment,
        text=clean_text(segment.text),
        text_original=None if segment.text_original is None else clean_text(segment.text_original),
        words=[_safe_word(word) for word in segment.words],
    )


def _safe_word(word: Word) -> Word:
    return replace(word, text=clean_text(word.text),
                   text_original=None if word.text_original is None else clean_text(word.text_original))


def _starting_at(segment: Segment, start: float) -> Segment:
    """A copy that starts no earlier than start, its words too (the engine's object is not changed)."""
    return replace(
        segment,
        start=start,
        end=max(segment.end, start),
        words=[replace(w, start=max(w.start, start), end=max(w.end, start)) for w in segment.words],
    )


def _is_echo(segment: Segment, earlier: list[str]) -> bool:
    """Whether segment repeats an earlier text (the segment before, or the prompt) word for word with
    no audio of its own: most of its words take no time. Whisper writes such a repeat over the
    silence after the last words of a recording, most often when given a prompt; a repeat that was
    really said has timed words."""
    if not segment.words or segment.text.strip() not in {text.strip() for text in earlier if text.strip()}:
        return False
    timeless = sum(1 for word in segment.words if word.end - word.start < 0.02)
    return timeless * 2 > len(segment.words)
