"""The speakers benchmark scores with pyannote.metrics: checked here on hand-made cases whose DER is
known from its definition (confusion + missed + false alarm over the reference speech)."""
from __future__ import annotations

import importlib.util

import pytest

from desktop.core.transcription.transcript import Segment, Transcript, Word
from tests.helpers.weights import TESTS_DIR


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("speakers_benchmark",
                                                  TESTS_DIR.parent / "benchmarks" / "speakers_benchmark.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def transcript(*lines: tuple[float, float, int]) -> Transcript:
    return Transcript(segments=[Segment(a, b, " words", [Word(a, b, " words")], speaker=n) for a, b, n in lines],
                      duration=10.0)


def test_the_right_speakers_under_other_names_score_zero(bench):
    truth = [(0.0, 4.0, "A"), (5.0, 9.0, "B")]
    assert bench.der(truth, transcript((0.0, 4.0, 2), (5.0, 9.0, 1)))["der"] == pytest.approx(0.0)


def test_a_wrong_speaker_counts_as_confusion_outside_the_collar(bench):
    truth = [(0.0, 4.0, "A"), (5.0, 9.0, "B"), (9.5, 11.5, "A")]
    # The last turn given to B. The collar takes 0.25 s inside each of the six boundaries from the
    # 10 s of speech (8.5 s scored), and 0.5 s of that turn: 1.5 s of 8.5 s confused.
    result = bench.der(truth, transcript((0.0, 4.0, 1), (5.0, 9.0, 2), (9.5, 11.5, 2)))
    assert result["confusion"] == pytest.approx(1.5 / 8.5, abs=1e-3)
    assert result["der"] == pytest.approx(result["confusion"])


def test_speech_without_words_is_missed_and_words_over_silence_are_false_alarms(bench):
    truth = [(0.0, 4.0, "A")]
    missed = bench.der(truth, transcript((0.0, 2.0, 1)), collar=0.0)
    assert missed["missed"] == pytest.approx(0.5) and missed["der"] == pytest.approx(0.5)
    extra = bench.der(truth, transcript((0.0, 4.0, 1), (6.0, 7.0, 1)), collar=0.0)
    assert extra["false_alarm"] == pytest.approx(0.25)


def test_a_row_of_untranscribed_speech_counts_with_its_speaker(bench):
    truth = [(0.0, 4.0, "A")]
    gap_row = Transcript(segments=[Segment(0.0, 2.0, " words", [Word(0.0, 2.0, " words")], speaker=1),
                                   Segment(2.0, 4.0, "", speaker=1)], duration=4.0)
    assert bench.der(truth, gap_row, collar=0.0)["der"] == pytest.approx(0.0)
