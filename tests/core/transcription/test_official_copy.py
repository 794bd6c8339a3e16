"""Which official model a folder brought in by hand is a copy of, so the import can propose its name."""
import os
import shutil
import threading

from desktop.core.transcription.whisper_models import ModelStore
from tests.helpers.weights import base_dir, tiny_en_dir


def test_a_copy_of_an_official_model_is_known_by_its_shape_whatever_its_folder_is_called(tmp_path):
    store = ModelStore(tmp_path / "models")
    assert store.official_name_of(shutil.copytree(tiny_en_dir(), tmp_path / "whisper tiny english")) == "tiny.en"
    assert store.official_name_of(base_dir()) == "base"


def test_anything_else_is_no_official_model(tmp_path):
    store = ModelStore(tmp_path / "models")
    photos = tmp_path / "holiday photos"
    photos.mkdir()
    (photos / "beach.jpg").write_bytes(b"\xff\xd8 not a model")
    assert store.official_name_of(photos) is None
    assert store.official_name_of(photos / "beach.jpg") is None
    assert store.official_name_of(tmp_path / "gone") is None


def test_a_model_bin_that_is_a_fifo_is_not_waited_on(tmp_path):
    copy = shutil.copytree(tiny_en_dir(), tmp_path / "tiny")
    (copy / "model.bin").unlink()
    os.mkfifo(copy / "model.bin")
    found = []
    looking = threading.Thread(target=lambda: found.append(ModelStore(tmp_path / "models").official_name_of(copy)),
                               daemon=True)
    looking.start()
    looking.join(timeout=20)
    if looking.is_alive():  # unblock the read, so that the thread ends
        with open(copy / "model.bin", "wb"):
            pass
    assert found == [None]
