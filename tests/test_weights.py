"""The Whisper test weights are what the pinned packages ship, the split base model joined right."""
import shutil

import pytest

from tests.helpers import weights


def test_the_test_models_match_their_sha256_sums():
    assert weights.damaged_files(weights.tiny_en_dir(), weights.TINY_EN_SHA256) == []
    assert weights.damaged_files(weights.base_dir(), weights.BASE_SHA256) == []


def test_a_badly_joined_base_model_is_refused(tmp_path):
    copy = tmp_path / "whisper-base"
    shutil.copytree(weights.base_dir(), copy)
    with open(copy / "model.bin", "r+b") as model:  # as if the second half had been cut short
        model.truncate(model.seek(0, 2) - 1)
    assert weights.damaged_files(copy, weights.BASE_SHA256) == ["model.bin"]
    with pytest.raises(weights.DamagedTestWeights, match="model.bin"):
        weights._checked(copy, weights.BASE_SHA256, "Whisper base")
