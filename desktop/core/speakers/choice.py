"""How many speakers to label: off, decided by VoxDesk ("auto"), or a number the user gives."""
from __future__ import annotations

OFF = "off"
AUTO = "auto"
MIN_SPEAKERS = 2
MAX_SPEAKERS = 8
# Every choice, in the order the window lists them.
CHOICES = (OFF, AUTO, *(str(n) for n in range(MIN_SPEAKERS, MAX_SPEAKERS + 1)))


def parse(text: str) -> str:
    """The choice written as text ("off", "auto", "2"…"8"), normalised; ValueError for anything else."""
    choice = str(text).strip().lower()
    if choice not in CHOICES:
        raise ValueError(f"expected off, auto or a number from {MIN_SPEAKERS} to {MAX_SPEAKERS}, not {text!r}")
    return choice


def speaker_count(choice: str) -> int | None:
    """The number of speakers asked for; None when VoxDesk decides (auto). Not for "off"."""
    choice = parse(choice)
    if choice == OFF:
        raise ValueError("speaker labelling is off")
    return None if choice == AUTO else int(choice)
