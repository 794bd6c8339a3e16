"""How well each voice is understood, as benchmarks/tts_benchmark.py measured it, and the default
voice per language that follows from it.

The benchmark writes resources/speech/voice-scores.json: for each voice it measured, its language
and its word error rate when Whisper transcribes what it said (lower is better). The default voice
of a language is the best-scoring voice among those on this computer or recommended; voices never
measured come after the measured ones, in the order of the recommended list.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Iterable

SCORES_FILE = "voice-scores.json"


def scores_file() -> Path:
    from desktop.resources import resource_path

    shipped = Path(str(resource_path("speech", SCORES_FILE)))
    source_tree = Path(__file__).resolve().parents[3] / "resources" / "speech" / SCORES_FILE
    return shipped if shipped.is_file() else source_tree


def read_scores(path: Path | None = None) -> dict[str, float]:
    """Voice name -> word error rate (0..1); empty when nothing was measured or the file is unreadable."""
    try:
        data = json.loads(Path(path or scores_file()).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    voices = data.get("voices") if isinstance(data, dict) else None
    scores = {}
    for name, entry in (voices or {}).items():
        rate = entry.get("wer") if isinstance(entry, dict) else None
        if isinstance(name, str) and isinstance(rate, (int, float)) and 0 <= rate:
            scores[name] = float(rate)
    return scores


def best_voice(language: str, models: Iterable, recommended: tuple[str, ...], scores: dict[str, float]) -> str | None:
    """The default voice for language among models (catalog entries) on this computer or recommended."""
    order = {name: index for index, name in enumerate(recommended)}
    candidates = [m for m in models if language in m.languages and (m.downloaded or m.name in order)]
    if not candidates:
        return None

    def rank(model) -> tuple:
        measured = model.name in scores
        return (not measured, scores.get(model.name, 0.0), order.get(model.name, len(order)), not model.downloaded)

    return min(candidates, key=rank).name
