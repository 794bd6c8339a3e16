"""Split a text that mixes Chinese and English into runs of one language each, for two voices.

A voice that speaks one language reads its runs, a voice of the other language the rest. Only
letters decide: Chinese characters are "zh", Latin letters "en". Everything else (punctuation,
digits, spaces, symbols) stays with its neighbours:

- between two runs of the same language it joins them, so "会议在3点，请准时" stays one run;
- between two languages, what comes before the last space goes with the run before it, the rest
  with the run after it ("Hello, 你好" → "Hello, " + "你好"; "in 2024年" → "in " + "2024年"); with no
  space at all, it goes with the run before ("GPU，我们" → "GPU，" + "我们");
- at the start or the end of the text it goes with the first or the last run.

A single Latin letter written against Chinese characters is part of a Chinese word ("A股", "X光",
"T恤") and stays in the Chinese run. Short acronyms inside Chinese ("请把PDF发给我") are runs of their
own, read by the English voice, as a bilingual speaker says them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from desktop.core.speech.sentences import has_han, has_latin


@dataclass(frozen=True)
class LanguageRun:
    language: str  # "zh" or "en"
    start: int  # offset of the run in the text it was split from (Python characters)
    end: int
    text: str  # text[start:end], spaces included


def is_mixed(text: str) -> bool:
    """True when the text has both Chinese characters and Latin letters."""
    return has_han(text) and has_latin(text)


def split_by_language(text: str) -> list[LanguageRun]:
    """The runs of text, in order, covering all of it; [] when it has no Chinese or Latin letter."""
    letters = _letter_runs(text)
    if not letters:
        return []
    letters = _keep_single_letters_in_chinese(text, letters)
    merged: list[list] = []  # [language, start, end] of runs of letters, neighbours of one language joined
    for language, start, end in letters:
        if merged and merged[-1][0] == language:
            merged[-1][2] = end
        else:
            merged.append([language, start, end])
    # Hand the characters between two runs to one side or the other (see the module notes).
    bounds = [0]
    for (_, _, left_end), (_, right_start, _) in zip(merged, merged[1:]):
        between = text[left_end:right_start]
        spaces = [m.end() for m in re.finditer(r"\s+", between)]
        bounds.append(left_end + spaces[-1] if spaces else right_start)
    bounds.append(len(text))
    return [LanguageRun(language, bounds[i], bounds[i + 1], text[bounds[i]:bounds[i + 1]])
            for i, (language, _, _) in enumerate(merged)]


def _letter_runs(text: str) -> list[tuple[str, int, int]]:
    """Maximal stretches of Chinese characters or of Latin letters (digits inside a Latin word, as in
    "USB3" or "MP4", belong to it)."""
    runs: list[tuple[str, int, int]] = []
    i, n = 0, len(text)
    while i < n:
        language = _language_of(text[i])
        if language is None:
            i += 1
            continue
        j = i + 1
        while j < n and (_language_of(text[j]) == language or (language == "en" and text[j].isdigit())):
            j += 1
        runs.append((language, i, j))
        i = j
    return runs


def _keep_single_letters_in_chinese(text: str, runs: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    """A lone Latin letter touching a Chinese character ("A股") is part of the Chinese word."""
    kept = []
    for index, (language, start, end) in enumerate(runs):
        if language == "en" and end - start == 1:
            touches_before = index > 0 and runs[index - 1][0] == "zh" and runs[index - 1][2] == start
            touches_after = index + 1 < len(runs) and runs[index + 1][0] == "zh" and runs[index + 1][1] == end
            if touches_before or touches_after:
                language = "zh"
        kept.append((language, start, end))
    return kept


def _language_of(ch: str) -> str | None:
    if has_han(ch):
        return "zh"
    if has_latin(ch):
        return "en"
    return None
