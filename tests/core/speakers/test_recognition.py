"""Matching speakers to known voices: a clear match names, a close one suggests, one name per recording."""
from __future__ import annotations

import numpy as np

from desktop.core.speakers.recognition import NAME_SPREADS, SUGGEST_SPREADS, VoicePrint, recognise, unit


def voice(seed: int, spread: float = 0.1, count: int = 20) -> tuple[np.ndarray, np.ndarray]:
    """A centre and count windows scattered around it."""
    rng = np.random.default_rng(seed)
    centre = unit(rng.normal(size=256))
    windows = centre + spread * rng.normal(size=(count, 256)) / np.sqrt(256)
    return centre, windows / np.linalg.norm(windows, axis=1, keepdims=True)


def between(a: np.ndarray, b: np.ndarray, share: float) -> np.ndarray:
    return unit((1 - share) * a + share * b)


def test_the_same_voice_is_named_a_stranger_is_not_and_a_near_one_is_only_suggested():
    anna_centre, anna_windows = voice(1)
    stranger, _ = voice(2)
    anna = VoicePrint.of("Anna", anna_windows)
    assert anna.score(anna_centre) > -NAME_SPREADS
    assert anna.score(stranger) < -SUGGEST_SPREADS
    near = next(between(anna_centre, stranger, share) for share in np.linspace(0, 1, 201)
                if -SUGGEST_SPREADS <= anna.score(between(anna_centre, stranger, share)) < -NAME_SPREADS)
    found = recognise({1: anna_centre, 2: stranger, 3: near}, [anna])
    assert found[1].name == "Anna" and found[1].clear and 0.5 <= found[1].confidence <= 1.0
    assert 2 not in found and 3 not in found  # Anna went to speaker 1: one name per recording
    found = recognise({3: near}, [anna])
    assert found[3].name == "Anna" and not found[3].clear


def test_two_speakers_never_get_one_name_the_closer_one_keeps_it():
    anna_centre, anna_windows = voice(1)
    other, _ = voice(3)
    anna = VoicePrint.of("Anna", anna_windows)
    found = recognise({1: between(anna_centre, other, 0.02), 2: anna_centre}, [anna])
    assert list(found) == [2]


def test_a_name_the_user_refused_for_a_speaker_is_not_offered_to_it_again():
    anna_centre, anna_windows = voice(1)
    found = recognise({1: anna_centre}, [VoicePrint.of("Anna", anna_windows)], refused={1: ["anna"]})
    assert found == {}


def test_the_spread_is_never_taken_below_its_floor_from_a_few_alike_windows():
    _, windows = voice(1, spread=0.0, count=3)
    assert VoicePrint.of("Anna", windows).spread > 0
