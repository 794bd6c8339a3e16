"""check_model: a model is data only, whatever kind it is, and its config names files in its own folder."""
import json
import os
import pickle

import numpy as np
import pytest

from desktop.core.common.errors import ModelError
from desktop.core.common.model_files import check_model, read_stats
from tests.core.common.hostile_models import CreatesAFile, copy_of, genuine_stats, hostile_stats, with_stats


def test_a_genuine_coqui_folder_passes(tiny_folders):
    check_model(tiny_folders["single"], "coqui")
    check_model(tiny_folders["multi"], "openvoice")  # no config paths checked, files still scanned


@pytest.mark.parametrize("protocol", [2, 4])
def test_a_pickle_naming_code_is_refused_without_running_it(tmp_path, tiny_folders, protocol):
    marker = tmp_path / "code-was-run"
    folder = copy_of(tiny_folders["single"], tmp_path / "voice")
    (folder / "speakers.pth").write_bytes(pickle.dumps({"alice": CreatesAFile(marker)}, protocol=protocol))

    with pytest.raises(ModelError) as refused:
        check_model(folder, "coqui")

    assert not marker.exists()
    assert "speakers.pth" in refused.value.message and "program code" in refused.value.message


def test_genuine_statistics_are_read_as_arrays(tmp_path):
    stats = read_stats(genuine_stats(tmp_path / "scale_stats.npy")).item()

    assert stats["mel_std"].shape == (80,) and stats["audio_config"]["num_mels"] == 80


def test_a_plain_array_file_is_read_without_pickle(tmp_path):
    path = tmp_path / "plain.npy"
    np.save(path, np.arange(4.0))

    assert read_stats(path).tolist() == [0.0, 1.0, 2.0, 3.0]


def test_statistics_carrying_code_are_refused_without_running_it(tmp_path):
    marker = tmp_path / "code-was-run"

    with pytest.raises(ModelError) as refused:
        read_stats(hostile_stats(tmp_path / "scale_stats.npy", marker))

    assert not marker.exists()
    assert "scale_stats.npy" in refused.value.message


def test_a_staged_folder_may_name_the_folder_it_will_become(tmp_path, tiny_folders):
    staged = copy_of(tiny_folders["single"], tmp_path / "staging")
    final = tmp_path / "models" / "voice"
    genuine_stats(staged / "scale_stats.npy")
    with_stats(staged, final / "scale_stats.npy")

    check_model(staged, "coqui", named_as=final)
    with pytest.raises(ModelError, match="not a file in the model's folder"):
        check_model(staged, "coqui")


def test_a_config_path_that_leaves_the_folder_through_dots_is_refused(tmp_path, tiny_folders):
    folder = copy_of(tiny_folders["single"], tmp_path / "voice")
    genuine_stats(tmp_path / "scale_stats.npy")
    with_stats(folder, str(folder / ".." / "scale_stats.npy"))

    with pytest.raises(ModelError, match="audio.stats_path"):
        check_model(folder, "coqui")


def test_training_only_paths_of_a_released_config_are_left_alone(tmp_path, tiny_folders):
    folder = copy_of(tiny_folders["single"], tmp_path / "voice")
    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    config.update(output_path="/home/trainer/runs", phoneme_cache_path="/home/trainer/phonemes",
                  datasets=[{"path": "/data/LJSpeech-1.1", "meta_file_train": "metadata.csv"}])
    (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")

    check_model(folder, "coqui")


def test_a_whisper_checkpoint_that_is_a_pipe_is_refused(tmp_path):
    fifo = tmp_path / "model.pt"
    os.mkfifo(fifo)

    with pytest.raises(ModelError, match="named pipe"):
        check_model(fifo, "whisper-pt")
