"""Importing a voice model folder ("Import model folder…") takes data only, never code or links."""
import json
import os

import pytest

from desktop.core.common.errors import ModelError
from desktop.core.speech.tts_models import TtsModelStore
from tests.core.common.hostile_models import HOSTILE_FOLDERS, copy_of, genuine_stats, stats_inside, with_stats
from tests.core.speech.test_tts_models import catalog_file, zipped
from tests.helpers.http_server import FileServer

# The sentence names the file that was refused.
NAMED = {
    "stats inside the folder": "scale_stats.npy",
    "stats outside the folder": "scale_stats.npy",
    "a checkpoint with code": "model.pth",
}


@pytest.fixture
def store(tmp_path):
    return TtsModelStore(tmp_path / "store")


def stored(store) -> list[str]:
    root = store.root
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()) if root.exists() else []


@pytest.mark.parametrize("how", sorted(HOSTILE_FOLDERS))
def test_a_hostile_model_folder_is_refused_without_running_its_pickle(store, tiny_folders, tmp_path, how):
    marker = tmp_path / "code-was-run"
    folder = HOSTILE_FOLDERS[how](tiny_folders["single"], tmp_path / "hostile" / "voice", marker)

    with pytest.raises(ModelError) as refused:
        store.import_folder(folder)

    assert not marker.exists()
    assert NAMED[how] in refused.value.message
    assert stored(store) == []


def test_a_folder_whose_readme_links_elsewhere_is_refused_and_nothing_is_copied(store, tiny_folders, tmp_path):
    secret = tmp_path / "shadow"
    secret.write_text("root:$6$secret", encoding="utf-8")
    folder = copy_of(tiny_folders["single"], tmp_path / "voice")
    os.symlink(secret, folder / "README")

    with pytest.raises(ModelError) as refused:
        store.import_folder(folder)

    assert "README" in refused.value.message and "link" in refused.value.message
    assert stored(store) == []


def test_a_fifo_in_a_model_folder_is_refused_at_once(store, tiny_folders, tmp_path):
    folder = copy_of(tiny_folders["single"], tmp_path / "voice")
    os.mkfifo(folder / "notes.txt")

    with pytest.raises(ModelError) as refused:
        store.import_folder(folder)  # opening the pipe would wait for a writer forever

    assert "notes.txt" in refused.value.message and "pipe" in refused.value.message
    assert stored(store) == []


def test_genuine_statistics_inside_the_folder_are_imported_and_point_at_the_copy(store, tiny_folders, tmp_path):
    folder = copy_of(tiny_folders["single"], tmp_path / "voice")
    with_stats(folder, genuine_stats(folder / "scale_stats.npy"))

    model = store.import_folder(folder)

    config = json.loads((store.folder(model.name) / "config.json").read_text(encoding="utf-8"))
    assert config["audio"]["stats_path"] == str(store.folder(model.name).resolve() / "scale_stats.npy")


def test_a_config_path_outside_the_folder_is_refused_even_for_a_harmless_file(store, tiny_folders, tmp_path):
    folder = copy_of(tiny_folders["multi"], tmp_path / "voices")
    elsewhere = tmp_path / "elsewhere" / "ids.json"
    elsewhere.parent.mkdir()
    elsewhere.write_text(json.dumps({"en": 0}), encoding="utf-8")
    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    config["model_args"]["language_ids_file"] = str(elsewhere)
    (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")

    with pytest.raises(ModelError) as refused:
        store.import_folder(folder)

    assert "ids.json" in refused.value.message and "language_ids_file" in refused.value.message
    assert stored(store) == []


def test_a_download_whose_files_carry_code_is_refused_and_nothing_is_kept(tmp_path, tiny_folders, no_stdin):
    marker = tmp_path / "code-was-run"
    folder = stats_inside(tiny_folders["single"], tmp_path / "tampered", marker)
    with FileServer({"/releases/tiny.zip": zipped(folder)}) as server:
        store = TtsModelStore(tmp_path / "store", catalog_file=catalog_file(tmp_path, server))

        with pytest.raises(ModelError) as refused:
            store.download("tts_models/en/tiny/vits")

    assert not marker.exists()
    assert "scale_stats.npy" in refused.value.message
    assert stored(store) == []
