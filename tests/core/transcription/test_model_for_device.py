"""The model to start with, by what the GPU affords."""
from desktop.core.transcription.model_for_device import recommended_model

GIB = 2**30


def test_a_16_to_24_gb_radeon_gets_large_v3_turbo_and_says_why():
    for reported in (15.98 * GIB, 24 * GIB):
        advice = recommended_model(True, int(reported))
        assert advice.model == "turbo" and "large-v3-turbo" in advice.reason


def test_a_small_card_gets_a_smaller_model_and_the_reason_names_its_memory():
    advice = recommended_model(True, 8 * GIB)
    assert advice.model == "small" and "8 GB" in advice.reason
    assert recommended_model(True, 4 * GIB).model == "base"


def test_a_model_measured_too_slow_on_this_card_gives_way_to_the_next():
    assert recommended_model(True, 16 * GIB, {"turbo": 1.5}).model == "small"
    assert recommended_model(True, 16 * GIB, {"turbo": 30.0}).model == "turbo"


def test_on_the_processor_it_stays_base():
    assert recommended_model(False, 24 * GIB).model == "base"
    assert recommended_model(True, None).model == "base"
