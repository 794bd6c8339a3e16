"""Advice for choosing a Whisper model: Fast, Balanced or Accurate, which languages, how big, how fast here.

The model list shows each model under its group with its languages and size, and, where it was
measured on this computer (``speed_records``), how many times faster than real time it runs.
"""
from __future__ import annotations

from dataclasses import dataclass

from desktop.core.common.i18n import N_, Message

FAST, BALANCED, ACCURATE, IMPORTED = "fast", "balanced", "accurate", "imported"
GROUP_ORDER = (FAST, BALANCED, ACCURATE, IMPORTED)

GROUP_TITLES: dict[str, Message] = {
    FAST: N_("ModelAdvice", "Fast"),
    BALANCED: N_("ModelAdvice", "Balanced"),
    ACCURATE: N_("ModelAdvice", "Accurate"),
    IMPORTED: N_("ModelAdvice", "Imported"),
}

# The group of each official model, by its name without ".en". turbo (large-v3 with a smaller
# decoder) is nearly as accurate as large-v3 at a fraction of the time.
_GROUP_OF_FAMILY = {
    "tiny": FAST, "base": FAST,
    "small": BALANCED, "medium": BALANCED,
    "turbo": ACCURATE, "large-v1": ACCURATE, "large-v2": ACCURATE, "large-v3": ACCURATE,
}
_WEAK_FOR_CHINESE = {"tiny", "base"}

CHINESE_HINT = N_("ModelAdvice", "For Chinese, the “small” model or a larger one gives much better text than "
                                 "tiny or base.")


def family(name: str) -> str:
    """The official model a name belongs to: "base.en" → "base"."""
    return name[:-3] if name.endswith(".en") else name


def group_of(name: str) -> str:
    """FAST, BALANCED or ACCURATE for an official model (and a copy imported under its name), IMPORTED otherwise."""
    return _GROUP_OF_FAMILY.get(family(name), IMPORTED)


def languages_text(english_only: bool | None) -> Message | None:
    if english_only is None:
        return None
    return N_("ModelAdvice", "English only") if english_only else N_("ModelAdvice", "99 languages")


def size_text(size_mb: int) -> Message:
    if size_mb >= 1000:
        return N_("ModelAdvice", "{size} GB").format(size=f"{size_mb / 1000:.1f}")
    return N_("ModelAdvice", "{size} MB").format(size=size_mb)


def speed_text(factor: float) -> Message:
    """How fast a model runs here, from its real-time factor (seconds of audio per second of work), as
    the time an hour of recording takes: words anyone can plan a morning with."""
    minutes = 60.0 / factor if factor > 0 else float("inf")
    if minutes < 1.0:
        return N_("ModelAdvice", "an hour of recording takes less than a minute here")
    if minutes < 1.5:
        return N_("ModelAdvice", "an hour of recording takes about a minute here")
    if minutes < 90.0:
        return N_("ModelAdvice", "an hour of recording takes about {minutes} minutes here").format(
            minutes=round(minutes))
    hours = f"{minutes / 60:.1f}".rstrip("0").rstrip(".")
    return N_("ModelAdvice", "an hour of recording takes about {hours} hours here").format(hours=hours)


def needs_chinese_hint(language: str | None, model: str) -> bool:
    """Chinese with tiny or base: small or larger makes far fewer mistakes in Chinese."""
    return language == "zh" and family(model) in _WEAK_FOR_CHINESE


@dataclass(frozen=True)
class ModelAdvice:
    """What the model list says about one model."""

    name: str
    group: str  # FAST, BALANCED, ACCURATE or IMPORTED
    languages: Message | None
    size: Message
    speed: Message | None  # None: not measured on this computer (or not on it at all)


def advise(entries, factors: dict[str, float]) -> list[ModelAdvice]:
    """The catalog entries (``ModelStore.catalog()``) with their advice, in group order then catalog order.

    factors: model name → real-time factor measured here, for the models that have one.
    """
    advice = []
    for entry in entries:
        factor = factors.get(entry.name)
        advice.append(ModelAdvice(
            name=entry.name,
            group=group_of(entry.name),
            languages=languages_text(entry.english_only),
            size=size_text(entry.size_mb),
            speed=speed_text(factor) if factor is not None else None,
        ))
    return sorted(advice, key=lambda item: GROUP_ORDER.index(item.group))
