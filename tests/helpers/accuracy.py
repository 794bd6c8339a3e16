"""Error rates as the accuracy benchmark and the consistency tests score them, and recordings made of
the real clips of tests/data said again and again.

English: word error rate after Whisper's English normaliser (``weights.wer``). Mandarin: character
error rate in Simplified script with punctuation, symbols and spaces left out, as
benchmarks/glossary_accuracy.py scores it. Speech in both ("mixed"): the Chinese characters and the
normalised English words together, as one sequence of tokens (a mixed error rate).
"""
from __future__ import annotations

import itertools
import re
import unicodedata
from dataclasses import dataclass

import numpy as np

from tests.helpers.weights import error_rate, normalize_english, recording, reference, wer

SAMPLE_RATE = 16000


def chinese_characters(text: str) -> list[str]:
    from desktop.core.transcription.chinese import convert_script

    text = convert_script(text, "simplified")
    return [ch for ch in text if not unicodedata.category(ch).startswith(("P", "Z", "S")) and not ch.isspace()]


def cer(ref: str, hyp: str) -> float:
    """Character error rate of ``hyp`` against ``ref`` (Simplified, no punctuation or spaces)."""
    return error_rate(chinese_characters(ref), chinese_characters(hyp))


_CHINESE_RUN = re.compile(r"([\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+)")


def mixed_tokens(text: str) -> list[str]:
    """Chinese characters one by one and the English words between them, normalised, in order."""
    found: list[str] = []
    for number, run in enumerate(_CHINESE_RUN.split(text)):
        found += chinese_characters(run) if number % 2 else normalize_english(run).split()
    return found


def score(language: str, ref: str, hyp: str) -> float:
    """CER for Mandarin, WER for English, the error rate of both kinds of token for "mixed"."""
    if language == "mixed":
        return error_rate(mixed_tokens(ref), mixed_tokens(hyp))
    return cer(ref, hyp) if language == "zh" else wer(ref, hyp)


def tokens(language: str, text: str) -> list[str]:
    if language == "mixed":
        return mixed_tokens(text)
    return chinese_characters(text) if language == "zh" else normalize_english(text).split()


@dataclass
class Repeated:
    """A recording made of clips, with where each clip said again lies in it."""

    samples: np.ndarray
    reference: str
    references: list[str]  # the reference text of each repetition of the group
    language: str


def repeated(names: tuple[str, ...], times: int, language: str, pause: float = 1.0,
             references: dict[str, str] | None = None) -> Repeated:
    """The clips ``names`` of tests/data one after another, the group ``times`` times, ``pause``
    seconds of silence after each clip; ``references`` for clips transcripts.tsv does not list."""
    silence = np.zeros(int(pause * SAMPLE_RATE), dtype=np.float32)
    joiner = "" if language == "zh" else " "  # mixed: English words stay apart, Chinese is scored by character
    pieces, texts = [], []
    for name in names:
        pieces += [recording(name), silence]
        texts.append((references or {}).get(name) or reference(name))
    group = joiner.join(texts)
    return Repeated(np.concatenate(pieces * times), joiner.join([group] * times), [group] * times, language)


def aligned(ref: list[str], hyp: list[str]) -> list[int]:
    """For each token of ``ref``, the index in ``hyp`` where its aligned stretch ends (a Levenshtein
    alignment): ``hyp[ends[i-1]:ends[i]]`` is what was written for ``ref[i]``."""
    rows = [list(range(len(hyp) + 1))]
    for i, token in enumerate(ref, 1):
        row = [i] + [0] * len(hyp)
        for j, written in enumerate(hyp, 1):
            row[j] = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (token != written))
        rows.append(row)
    ends = [0] * len(ref)
    i, j = len(ref), len(hyp)
    while i > 0:
        ends[i - 1] = max(ends[i - 1], j)
        if j > 0 and rows[i][j] == rows[i - 1][j - 1] + (ref[i - 1] != hyp[j - 1]):
            i, j = i - 1, j - 1
        elif j > 0 and rows[i][j] == rows[i][j - 1] + 1:
            j -= 1
        else:
            i -= 1
    for k in range(1, len(ends)):
        ends[k] = max(ends[k], ends[k - 1])
    return ends


def repetitions(language: str, references: list[str], text: str) -> list[list[str]]:
    """The tokens of ``text`` written for each of ``references`` in turn (the repetitions of a
    recording), cut where an alignment to the joined references puts each one's end."""
    per = [tokens(language, ref) for ref in references]
    ref = [token for part in per for token in part]
    hyp = tokens(language, text)
    ends = aligned(ref, hyp)
    parts, start, at = [], 0, 0
    for part in per:
        at += len(part)
        end = ends[at - 1] if part else start
        parts.append(hyp[start:end])
        start = end
    parts[-1] += hyp[start:]
    return parts


def disagreement(parts: list[list[str]]) -> float:
    """The largest error rate between two repetitions' tokens (each pair, the longer as reference):
    0 when every repetition is written the same way."""
    worst = 0.0
    for a, b in itertools.combinations(parts, 2):
        ref, hyp = (a, b) if len(a) >= len(b) else (b, a)
        worst = max(worst, error_rate(ref, hyp))
    return worst
