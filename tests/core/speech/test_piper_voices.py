"""Piper voices as data: the official list, hostile voice folders, downloads and shared folders."""
import hashlib
import json
import os

import pytest

from desktop.core.common.errors import ModelError
from desktop.core.speech.piper_voices import PIPER_REPO, PIPER_REVISION, inspect_piper, official_voices
from desktop.core.speech.tts_catalog import RECOMMENDED
from desktop.core.speech.tts_models import TtsModelStore
from tests.helpers.http_server import FileServer
from tests.helpers.piper_voice import JOE_KEY, copy_of_joe, joe_folder


def edit_config(folder, change):
    path = folder / f"{JOE_KEY}.onnx.json"
    config = json.loads(path.read_text(encoding="utf-8"))
    change(config)
    path.write_text(json.dumps(config), encoding="utf-8")


def refused(path) -> str:
    with pytest.raises(ModelError) as caught:
        inspect_piper(path)
    message = caught.value.message
    assert message.endswith(".") and "\n" not in message and "Traceback" not in message
    return message


# --- the official list ---------------------------------------------------------------------------


def test_the_voice_list_holds_english_chinese_and_many_other_languages():
    voices = {v.key: v for v in official_voices()}
    assert {"en_US-joe-medium", "en_US-lessac-medium", "zh_CN-huayan-medium"} <= set(voices)
    assert len({v.language.split("_")[0] for v in voices.values()}) >= 25
    huayan = voices["zh_CN-huayan-medium"]
    assert huayan.quality == "medium" and huayan.size_bytes > 60_000_000
    assert all(len(f.md5) == 32 for v in voices.values() for f in v.files)


def test_the_store_offers_piper_voices_with_quality_size_and_terms(tmp_path):
    catalog = {m.name: m for m in TtsModelStore(tmp_path).catalog()}
    assert [name for name in catalog][: len(RECOMMENDED)] == list(RECOMMENDED)
    huayan = catalog["piper/zh_CN-huayan-medium"]
    assert huayan.languages == ("zh",) and huayan.size_mb == 63 and not huayan.downloaded
    lessac = catalog["piper/en_US-lessac-medium"]
    assert "medium" in lessac.title and "non-commercial research" in lessac.description


# --- hostile voice folders -----------------------------------------------------------------------


def test_the_real_voice_passes_the_check():
    check = inspect_piper(joe_folder())
    assert check.espeak_voice == "en-us" and check.sample_rate == 22050 and check.languages == ("en",)


def test_a_config_naming_a_file_outside_the_folder_is_refused(tmp_path):
    folder = copy_of_joe(tmp_path / "voice")
    edit_config(folder, lambda c: c["espeak"].update(data_path="../../etc"))
    assert "outside the voice's folder" in refused(folder)


def test_a_two_gigabyte_model_is_refused_without_being_read(tmp_path):
    folder = copy_of_joe(tmp_path / "voice")
    with open(folder / f"{JOE_KEY}.onnx", "r+b") as model:
        model.truncate(2 * 1024**3)  # sparse: no disk is used
    assert "far larger than any Piper voice" in refused(folder)


def test_a_fifo_in_place_of_the_model_is_refused(tmp_path):
    folder = copy_of_joe(tmp_path / "voice")
    (folder / f"{JOE_KEY}.onnx").unlink()
    os.mkfifo(folder / f"{JOE_KEY}.onnx")
    assert "named pipe" in refused(folder)
    assert "named pipe" in refused(folder / f"{JOE_KEY}.onnx")


def test_a_link_to_a_file_elsewhere_is_refused(tmp_path):
    folder = copy_of_joe(tmp_path / "voice")
    (folder / "MODEL_CARD").unlink()
    (folder / "MODEL_CARD").symlink_to("/etc/hostname")
    assert "link" in refused(folder)


def test_a_config_without_its_phoneme_map_is_refused(tmp_path):
    folder = copy_of_joe(tmp_path / "voice")
    edit_config(folder, lambda c: c.pop("phoneme_id_map"))
    assert "no phoneme map" in refused(folder)


def test_an_espeak_voice_that_looks_like_an_option_is_refused(tmp_path):
    folder = copy_of_joe(tmp_path / "voice")
    edit_config(folder, lambda c: c["espeak"].update(voice="--path=/tmp"))
    assert "is damaged: its espeak-ng language “--path=/tmp” is not the name of a language" in refused(folder)


def test_a_model_without_its_config_is_refused(tmp_path):
    folder = copy_of_joe(tmp_path / "voice")
    (folder / f"{JOE_KEY}.onnx.json").unlink()
    assert ".onnx.json" in refused(folder / f"{JOE_KEY}.onnx")


def test_a_hostile_folder_is_not_imported_and_leaves_nothing_behind(tmp_path):
    folder = copy_of_joe(tmp_path / "voice")
    edit_config(folder, lambda c: c.pop("phoneme_id_map"))
    store = TtsModelStore(tmp_path / "store")
    with pytest.raises(ModelError):
        store.import_folder(folder)
    assert store.imported() == [] and not any((tmp_path / "store").rglob("*.onnx"))


def test_a_config_nested_200000_levels_deep_is_refused_in_a_sentence(tmp_path):
    folder = copy_of_joe(tmp_path / "voice")
    path = folder / f"{JOE_KEY}.onnx.json"
    text = path.read_text(encoding="utf-8").rstrip().removesuffix("}")
    path.write_text(text + ', "notes": ' + "[" * 200_000 + "]" * 200_000 + "}", encoding="utf-8")
    assert refused(folder) == ("The Piper voice “en_US-joe-medium” is damaged: its settings file "
                               "en_US-joe-medium.onnx.json is nested far deeper than any Piper voice's. Copy or "
                               "download the voice again from its source.")


def test_a_config_that_is_not_json_is_refused_in_a_sentence(tmp_path):
    folder = copy_of_joe(tmp_path / "voice")
    (folder / f"{JOE_KEY}.onnx.json").write_bytes(b'{"phoneme_id_map": {"_": [0]')
    assert "is damaged: its settings file en_US-joe-medium.onnx.json is not valid JSON" in refused(folder)


def test_the_real_voices_symbol_table_is_read_from_its_model():
    from desktop.core.speech.piper_voices import embedding_rows, read_piper_model

    check = inspect_piper(joe_folder())
    assert check.num_symbols == 256
    assert embedding_rows(read_piper_model(check), "joe") == 256


def test_a_model_file_that_is_not_onnx_is_refused_in_a_sentence(tmp_path):
    from desktop.core.speech.piper_voices import read_piper_model

    folder = copy_of_joe(tmp_path / "voice")
    (folder / f"{JOE_KEY}.onnx").write_bytes(b"\xff" * 4096)
    with pytest.raises(ModelError) as caught:
        read_piper_model(inspect_piper(folder))
    assert caught.value.message == ("The Piper voice “en_US-joe-medium” is damaged: its model file is not an ONNX "
                                    "model. Copy or download the voice again from its source.")


def test_a_voice_whose_phoneme_map_outgrows_its_model_is_not_imported(tmp_path):
    folder = copy_of_joe(tmp_path / "voice")
    edit_config(folder, lambda c: c.update(num_symbols=1000) or c["phoneme_id_map"].update({"a": [300]}))
    inspect_piper(folder)  # the config alone is consistent: only the model shows the damage
    store = TtsModelStore(tmp_path / "store")
    with pytest.raises(ModelError) as caught:
        store.import_folder(folder)
    assert caught.value.message == (
        "The Piper voice “en_US-joe-medium” is damaged: the sound “a” stands for symbol 300, but its model has "
        "only 256 symbols. Copy or download the voice again from its source.")
    assert store.imported() == [] and not any((tmp_path / "store").rglob("*.onnx"))


# --- downloads and shared folders -----------------------------------------------------------------


def catalog_for(tmp_path, files: dict[str, bytes]) -> "os.PathLike":
    """A voice list of one voice, en_US-joe-medium, with the digests of the files given."""
    entry = {
        "key": JOE_KEY, "name": "joe", "quality": "medium", "num_speakers": 1, "speaker_id_map": {},
        "language": {"code": "en_US", "family": "en", "region": "US"},
        "files": {f"en/en_US/joe/medium/{name}": {"size_bytes": len(data),
                                                  "md5_digest": hashlib.md5(data).hexdigest()}
                  for name, data in files.items()},
    }
    path = tmp_path / "voices.json"
    path.write_text(json.dumps({JOE_KEY: entry}), encoding="utf-8")
    return path


def joe_files() -> dict[str, bytes]:
    return {name: (joe_folder() / name).read_bytes() for name in (f"{JOE_KEY}.onnx", f"{JOE_KEY}.onnx.json")}


def served(files: dict[str, bytes]) -> dict[str, bytes]:
    return {f"/{PIPER_REPO}/resolve/{PIPER_REVISION}/en/en_US/joe/medium/{name}": data for name, data in files.items()}


def test_a_voice_downloads_from_the_chosen_server_and_is_checked(tmp_path):
    files = joe_files()
    with FileServer(served(files)) as server:
        store = TtsModelStore(tmp_path / "store", piper_catalog_file=catalog_for(tmp_path, files),
                              catalog_file=None, hf_endpoint=server.url(""))
        store.download(f"piper/{JOE_KEY}")
    assert store.is_downloaded(f"piper/{JOE_KEY}")
    assert store.manifest(f"piper/{JOE_KEY}")["kind"] == "piper"
    assert inspect_piper(store.folder(f"piper/{JOE_KEY}")).sample_rate == 22050


def test_a_download_that_does_not_match_the_official_digest_is_deleted(tmp_path):
    files = joe_files()
    catalog = catalog_for(tmp_path, files)
    tampered = dict(files)
    model = bytearray(files[f"{JOE_KEY}.onnx"])
    model[5000] ^= 0xFF  # same size, other bytes
    tampered[f"{JOE_KEY}.onnx"] = bytes(model)
    with FileServer(served(tampered)) as server:
        store = TtsModelStore(tmp_path / "store", piper_catalog_file=catalog, hf_endpoint=server.url(""))
        with pytest.raises(ModelError, match="official checksum"):
            store.download(f"piper/{JOE_KEY}")
    assert not store.is_downloaded(f"piper/{JOE_KEY}")
    assert not list((tmp_path / "store").rglob(f"{JOE_KEY}.onnx"))


def test_a_voice_in_a_shared_folder_is_used_in_place(tmp_path):
    from desktop.core.common.download_sources import DownloadSources
    from desktop.core.common.shared_models import ModelSources

    shared = tmp_path / "shared"
    copy_of_joe(shared / JOE_KEY)
    store = TtsModelStore(tmp_path / "store", sources=ModelSources((shared,), DownloadSources.fixed("http://127.0.0.1:9")))
    assert store.is_downloaded(f"piper/{JOE_KEY}")
    assert store.folder(f"piper/{JOE_KEY}") == shared / JOE_KEY
    assert store.manifest(f"piper/{JOE_KEY}")["kind"] == "piper"
    assert not (shared / JOE_KEY / "voxdesk-model.json").exists()  # nothing written into a shared folder


# --- the default voice by measurement ---------------------------------------------------------------


def test_the_default_voice_is_the_best_measured_among_those_here_or_recommended(tmp_path):
    from dataclasses import replace

    from desktop.core.speech.voice_scores import best_voice

    catalog = TtsModelStore(tmp_path).catalog()
    here = [replace(m, downloaded=True) if m.name == "piper/en_US-lessac-medium" else m for m in catalog]
    # Measured voices come first, the lower error rate winning; a voice neither here nor recommended never.
    scores = {"piper/en_US-joe-medium": 0.08, "piper/en_US-lessac-medium": 0.03, "piper/en_US-ryan-high": 0.0}
    assert best_voice("en", here, RECOMMENDED, scores) == "piper/en_US-lessac-medium"
    assert best_voice("en", catalog, RECOMMENDED, scores) == "piper/en_US-joe-medium"
    # Nothing measured: the recommended order decides.
    assert best_voice("zh", catalog, RECOMMENDED, {}) == "piper/zh_CN-huayan-medium"
    assert best_voice("sw", catalog, RECOMMENDED, {}) is None  # nothing here or recommended speaks it
