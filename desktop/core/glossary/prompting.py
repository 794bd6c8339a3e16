"""The glossary's terms in what Whisper is told before each window: the prompt, or faster-whisper's hotwords.

Whisper keeps at most 223 tokens of a prompt (half its text context, less one) and drops the start
of a longer one, so the terms are chosen to fit beside the prompt VoxDesk already gives (the user's
own, or the Mandarin one), the most recently heard first. Only the terms heard in this recording
so far go in, as written in the decoded text or as the near-miss the correction pass would replace
(一二线尝试 for 一二线城市): told of terms not said, Whisper writes them where words of like sound were
said (城实 for 城市, 停止期 for 停滞), in Mandarin it turns to Latin letters and digits for Latin names,
and in English too it drifts (BENCHMARKS.md, "False corrections"). The correction pass catches a term's
near-misses before it is heard.

The tokenizer belongs to the engines, so the length here is a cautious estimate that never
undercounts Whisper's multilingual tokenizer by much: two tokens for a character outside ASCII, one
for every three ASCII characters.
"""
from __future__ import annotations

from typing import Collection, Iterable, Sequence

from desktop.core.glossary.correction import CorrectionReport, Corrector
from desktop.core.glossary.glossary_file import Term
from desktop.core.transcription.chinese import looks_chinese
from desktop.core.transcription.transcript import Segment

PROMPT_TOKENS = 223  # Whisper's limit: n_text_ctx // 2 - 1
_SAFETY_TOKENS = 8  # room for the separators and the estimate's error


def estimated_tokens(text: str) -> int:
    ascii_chars = sum(1 for ch in text if ord(ch) < 128)
    return 2 * (len(text) - ascii_chars) + -(-ascii_chars // 3)


def ordered_terms(terms: Sequence[str], heard: Collection[str] = ()) -> list[str]:
    """The terms heard in this recording so far first, then the others, each in the glossary's order."""
    return [t for t in terms if t in heard] + [t for t in terms if t not in heard]


def terms_heard_in(texts: Iterable[str], terms: Sequence[str]) -> set[str]:
    """The terms that the text decoded so far contains."""
    joined = "\n".join(texts)
    return {term for term in terms if term in joined} if joined else set()


class HeardTerms:
    """The glossary's terms for the next window of a recording, kept up to date as its windows are
    decoded: the terms heard so far, the most recently heard first (see above)."""

    def __init__(self, terms: Sequence[str], heard: Sequence[str] = ()):
        """``heard``: those of ``terms`` heard before (in earlier parts of the recording), the last first."""
        self._terms = tuple(terms)
        known = set(self._terms)
        self._heard: list[str] = [term for term in dict.fromkeys(heard) if term in known]  # the last heard first
        self._corrector: Corrector | None = None  # to hear near-misses, made when first needed

    def hear(self, text: str) -> None:
        """Take note of the terms in ``text``, a window's decoded text, as written or as near-misses."""
        if not self._terms or not text:
            return
        if self._corrector is None:
            self._corrector = Corrector(Term(term) for term in self._terms)
        report = CorrectionReport()
        self._corrector.correct_segment(Segment(0.0, 0.0, text), report)  # a copy: the text stays as decoded
        found = [term for term in self._terms if term in text or term in report.terms_heard]
        self._heard = found + [term for term in self._heard if term not in found]

    def ordered(self) -> tuple[str, ...]:
        return tuple(self._heard)


def terms_that_fit(terms: Sequence[str], budget: int) -> list[str]:
    chosen: list[str] = []
    for term in terms:
        cost = estimated_tokens(term) + 2  # and its separator ("、" or ", ")
        if cost <= budget:
            chosen.append(term)
            budget -= cost
    return chosen


def prompt_with_terms(prompt: str | None, terms: Sequence[str]) -> str | None:
    """The prompt with as many of the terms (already in order) in front as fit in Whisper's limit.

    The terms come first so that the prompt that sets the style (Chinese punctuation, the user's
    own words) stays right before the speech, where Whisper follows it most."""
    base = prompt or ""
    chosen = terms_that_fit(terms, PROMPT_TOKENS - _SAFETY_TOKENS - estimated_tokens(base))
    if not chosen:
        return prompt
    if any(looks_chinese(term) for term in chosen):
        return "、".join(chosen) + "。" + base
    return ", ".join(chosen) + (". " + base if base else ".")


def hotwords(terms: Sequence[str]) -> str | None:
    """The terms as faster-whisper's ``hotwords``, which it places before each window's own prompt."""
    chosen = terms_that_fit(terms, PROMPT_TOKENS // 2)
    return " ".join(chosen) or None
