"""The voice model store: Coqui's catalog, licence records, downloads from a local server, imports."""
import errno
import hashlib
import io
import json
import os
import shutil
import zipfile

import pytest

from desktop.core.common.errors import Cancelled, ModelError
from desktop.core.speech.coqui_folders import inspect_folder
from desktop.core.speech.tts_catalog import CURATED, RECOMMENDED, default_model
from desktop.core.speech.tts_licences import CPML_TERMS, LicenceNotAccepted
from desktop.core.speech.tts_model_folders import MANIFEST, TOS_FILE
from desktop.core.speech.tts_models import TtsModelStore
from desktop.core.common.download_sources import DownloadSources
from desktop.core.common.shared_models import ModelSources
from tests.helpers.http_server import FileServer


def zipped(folder) -> bytes:
    """A release zip the way Coqui publishes them: the files inside a top-level folder."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.iterdir()):
            archive.write(path, f"tts_models--en--tiny--vits/{path.name}")
    return buffer.getvalue()


def catalog_file(tmp_path, server: FileServer) -> object:
    """A model list in Coqui's own format whose entries download from the local server."""
    data = {
        "tts_models": {
            "en": {
                "tiny": {
                    "vits": {
                        "description": "Tiny test voice",
                        "github_rls_url": server.url("/releases/tiny.zip"),
                        "default_vocoder": None,
                        "license": "apache 2.0",
                    }
                }
            },
            "multilingual": {
                "multi-dataset": {
                    "tiny_xtts": {
                        "description": "Tiny voice behind a licence",
                        "repo_id": "tts-hub/Tiny",
                        "ignore": ["samples/*"],
                        "default_vocoder": None,
                        "license": "CPML",
                        "tos_required": True,
                    }
                }
            },
        }
    }
    path = tmp_path / "models.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def hub_files(folder) -> dict[str, bytes]:
    files = {p.name: p.read_bytes() for p in folder.iterdir()}
    files["samples/demo.wav"] = b"RIFF-not-needed"
    return files


def serve_hub(server: FileServer, files: dict[str, bytes], *, wrong_sha_for: str | None = None) -> None:
    siblings = []
    for name, data in files.items():
        sha = hashlib.sha256(data).hexdigest() if name != wrong_sha_for else "0" * 64
        siblings.append({"rfilename": name, "size": len(data), "lfs": {"sha256": sha, "size": len(data)}})
        server.files[f"/tts-hub/Tiny/resolve/main/{name}"] = data
    server.files["/api/models/tts-hub/Tiny"] = json.dumps({"siblings": siblings}).encode()


# --- the catalog ---------------------------------------------------------------------------------


def test_the_catalog_comes_from_coquis_own_list_with_the_recommended_and_curated_voices_first(tmp_path):
    catalog = TtsModelStore(tmp_path).catalog()
    names = [m.name for m in catalog]
    assert names[: len(RECOMMENDED)] == list(RECOMMENDED)
    assert set(names[: len(CURATED)]) == set(CURATED) | set(RECOMMENDED)
    assert "tts_models/de/thorsten/vits" in names  # the rest of Coqui's list follows
    assert not any(n.startswith("vocoder_models/") for n in names)
    assert "tts_models/multilingual/multi-dataset/bark" not in names  # cannot be used here


def test_each_catalog_entry_shows_size_languages_licence_and_whether_it_is_downloaded(tmp_path):
    models = {m.name: m for m in TtsModelStore(tmp_path).catalog()}
    english = models["tts_models/en/ljspeech/vits"]
    assert english.languages == ("en",) and english.licence == "apache 2.0" and english.size_mb
    assert english.licence_url and not english.downloaded
    assert models["tts_models/en/vctk/vits"].multi_speaker
    assert models["tts_models/zh-CN/baker/tacotron2-DDC-GST"].languages == ("zh",)
    xtts = models["tts_models/multilingual/multi-dataset/xtts_v2"]
    assert {"en", "zh"} <= set(xtts.languages) and xtts.multi_speaker
    assert xtts.licence == "CPML" and xtts.licence_required
    # A Tacotron model names the vocoder Coqui pairs it with; it is downloaded along with it.
    assert models["tts_models/en/ljspeech/tacotron2-DDC"].vocoder == "vocoder_models/en/ljspeech/hifigan_v2"


def test_there_is_a_default_model_for_english_and_for_chinese():
    assert default_model("en") == "tts_models/en/ljspeech/vits"
    assert default_model("zh") == "tts_models/zh-CN/baker/tacotron2-DDC-GST"
    assert default_model("fr") == default_model("en")


def test_an_unknown_model_name_is_a_plain_error(tmp_path):
    with pytest.raises(ModelError) as error:
        TtsModelStore(tmp_path).get("tts_models/xx/none/none")
    assert "Import model folder" in error.value.message


# --- licences ------------------------------------------------------------------------------------


def test_xtts_licence_terms_are_coquis_cpml_statements_for_a_dialog(tmp_path, no_stdin):
    store = TtsModelStore(tmp_path)
    terms = store.licence_terms("tts_models/multilingual/multi-dataset/xtts_v2")
    assert terms == CPML_TERMS
    assert "non-commercial CPML" in terms.text and terms.url in terms.text
    assert store.licence_terms("tts_models/en/ljspeech/vits") is None
    assert store.licence_accepted("tts_models/en/ljspeech/vits")


def test_an_accepted_licence_is_recorded_once_and_remembered(tmp_path, no_stdin):
    name = "tts_models/multilingual/multi-dataset/xtts_v2"
    store = TtsModelStore(tmp_path)
    assert not store.licence_accepted(name)
    store.accept_licence(name)
    assert TtsModelStore(tmp_path).licence_accepted(name)  # a new store (next start) still knows
    record = json.loads((tmp_path / "licences.json").read_text(encoding="utf-8"))[name]
    assert record["licence"] == "CPML" and record["accepted"] and record["statements"]


def test_a_model_behind_a_licence_is_not_downloaded_before_acceptance(tmp_path, no_stdin):
    with FileServer() as server:
        store = TtsModelStore(tmp_path / "store", catalog_file=catalog_file(tmp_path, server),
                              hf_endpoint=server.base_url)
        with pytest.raises(LicenceNotAccepted):
            store.download("tts_models/multilingual/multi-dataset/tiny_xtts")
        assert server.request_count() == 0


# --- downloads -----------------------------------------------------------------------------------


def test_a_release_zip_downloads_with_progress_and_becomes_a_usable_model(tmp_path, tiny_folders, no_stdin):
    with FileServer({"/releases/tiny.zip": zipped(tiny_folders["single"])}) as server:
        store = TtsModelStore(tmp_path / "store", catalog_file=catalog_file(tmp_path, server))
        seen = []
        folder = store.download("tts_models/en/tiny/vits", progress=lambda done, total: seen.append((done, total)))
    assert store.is_downloaded("tts_models/en/tiny/vits")
    assert {"model.pth", "config.json", MANIFEST} <= {p.name for p in folder.iterdir()}
    assert seen[-1][0] == seen[-1][1] and len(seen) > 2
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert not (store.staging_root / "tts_models--en--tiny--vits").exists()
    assert inspect_folder(folder).kind == "vits"
    assert {m.name: m for m in store.catalog()}["tts_models/en/tiny/vits"].downloaded


def test_a_voice_download_without_internet_names_the_synthesize_tabs_own_import(tmp_path, no_stdin):
    with FileServer({}) as server:
        store = TtsModelStore(tmp_path / "store", catalog_file=catalog_file(tmp_path, server))
    # The server is gone: as on a computer without internet.
    with pytest.raises(ModelError) as raised:
        store.download("tts_models/en/tiny/vits")
    assert "“Import model folder…” next to the model list on the Synthesize tab" in raised.value.message
    assert "File → Import model" not in raised.value.message  # that one takes Whisper models only
    assert not store.is_downloaded("tts_models/en/tiny/vits")


def test_a_cancelled_download_is_not_a_model_and_the_next_try_resumes(tmp_path, tiny_folders, no_stdin):
    data = zipped(tiny_folders["single"])
    with FileServer({"/releases/tiny.zip": data}) as server:
        store = TtsModelStore(tmp_path / "store", catalog_file=catalog_file(tmp_path, server))
        received = [0]
        with pytest.raises(Cancelled):
            store.download("tts_models/en/tiny/vits", progress=lambda done, _total: received.__setitem__(0, done),
                           cancelled=lambda: received[0] > 100_000)
        assert not store.is_downloaded("tts_models/en/tiny/vits")
        assert not store.folder("tts_models/en/tiny/vits").exists()
        store.download("tts_models/en/tiny/vits")
        second = server.requests_for("/releases/tiny.zip")[-1]
    assert second.range is not None and second.status == 206
    assert second.bytes_sent < len(data)
    assert store.is_downloaded("tts_models/en/tiny/vits")


def test_a_broken_connection_fails_plainly_and_a_retry_finishes(tmp_path, tiny_folders, no_stdin):
    with FileServer({"/releases/tiny.zip": zipped(tiny_folders["single"])}) as server:
        store = TtsModelStore(tmp_path / "store", catalog_file=catalog_file(tmp_path, server))
        server.drop_after = 200_000
        with pytest.raises(ModelError) as error:
            store.download("tts_models/en/tiny/vits")
        assert "try again" in error.value.message
        assert not store.is_downloaded("tts_models/en/tiny/vits")
        server.drop_after = None
        store.download("tts_models/en/tiny/vits")
    assert store.is_downloaded("tts_models/en/tiny/vits")


def test_a_damaged_zip_is_deleted_and_never_becomes_a_model(tmp_path, no_stdin):
    with FileServer({"/releases/tiny.zip": b"PK\x03\x04 this is not really a zip" * 100}) as server:
        store = TtsModelStore(tmp_path / "store", catalog_file=catalog_file(tmp_path, server))
        with pytest.raises(ModelError) as error:
            store.download("tts_models/en/tiny/vits")
    assert "damaged" in error.value.message
    assert not store.is_downloaded("tts_models/en/tiny/vits")
    assert not list(store.staging_root.rglob("*.zip"))


def test_a_zip_without_a_model_inside_is_refused(tmp_path, no_stdin):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("readme.txt", "nothing here")
    with FileServer({"/releases/tiny.zip": buffer.getvalue()}) as server:
        store = TtsModelStore(tmp_path / "store", catalog_file=catalog_file(tmp_path, server))
        with pytest.raises(ModelError) as error:
            store.download("tts_models/en/tiny/vits")
    assert "config.json" in error.value.message
    assert not store.is_downloaded("tts_models/en/tiny/vits")


def test_a_hub_model_downloads_after_acceptance_with_checksums_and_skips_ignored_files(
    tmp_path, tiny_folders, no_stdin
):
    name = "tts_models/multilingual/multi-dataset/tiny_xtts"
    with FileServer() as server:
        serve_hub(server, hub_files(tiny_folders["multi"]))
        store = TtsModelStore(tmp_path / "store", catalog_file=catalog_file(tmp_path, server),
                              hf_endpoint=server.base_url)
        store.accept_licence(name)
        seen = []
        folder = store.download(name, progress=lambda d, t: seen.append((d, t)))
        assert server.request_count("/tts-hub/Tiny/resolve/main/samples/demo.wav") == 0
    assert (folder / TOS_FILE).is_file()  # what Coqui's own tools check, so they never prompt either
    assert (folder / "speaker_ids.json").is_file()
    assert seen[-1][0] == seen[-1][1] == sum(p.stat().st_size for p in tiny_folders["multi"].iterdir())


def test_a_hub_model_from_a_mirror_is_kept_and_marked_unverified_with_the_mirrors_address(
    tmp_path, tiny_folders, no_stdin
):
    name = "tts_models/multilingual/multi-dataset/tiny_xtts"
    with FileServer() as mirror:
        serve_hub(mirror, hub_files(tiny_folders["multi"]))
        address = mirror.base_url
        store = TtsModelStore(tmp_path / "store", catalog_file=catalog_file(tmp_path, mirror),
                              sources=ModelSources((), DownloadSources.fixed(address)))
        store.accept_licence(name)
        folder = store.download(name)
    manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    assert (manifest["source"], manifest["verified"]) == (address, False)
    assert store.get(name).unverified_source == address
    listed = {model.name: model.unverified_source for model in store.catalog()}
    assert listed[name] == address and listed["tts_models/en/tiny/vits"] is None


def test_the_same_hub_model_from_hugging_face_itself_is_not_marked(tmp_path, tiny_folders, no_stdin):
    name = "tts_models/multilingual/multi-dataset/tiny_xtts"
    with FileServer() as host:
        serve_hub(host, hub_files(tiny_folders["multi"]))
        # This server stands in for the official host: its listing's checksums are the publisher's.
        official = ModelSources((), DownloadSources(choice="huggingface", official=host.base_url))
        store = TtsModelStore(tmp_path / "store", catalog_file=catalog_file(tmp_path, host), sources=official)
        store.accept_licence(name)
        folder = store.download(name)
    assert json.loads((folder / MANIFEST).read_text(encoding="utf-8"))["verified"] is True
    assert store.get(name).unverified_source is None


def test_a_hub_file_with_the_wrong_checksum_is_not_kept(tmp_path, tiny_folders, no_stdin):
    name = "tts_models/multilingual/multi-dataset/tiny_xtts"
    with FileServer() as server:
        serve_hub(server, hub_files(tiny_folders["multi"]), wrong_sha_for="model.pth")
        store = TtsModelStore(tmp_path / "store", catalog_file=catalog_file(tmp_path, server),
                              hf_endpoint=server.base_url)
        store.accept_licence(name)
        with pytest.raises(ModelError) as error:
            store.download(name)
    assert "damaged" in error.value.message
    assert not store.is_downloaded(name)
    assert not list(store.staging_root.rglob("model.pth"))


BAD_NAME = ("The download server listed a file under a name VoxDesk does not accept, so VoxDesk did not download "
            "from it. Please try again later, or choose another download source in Settings → Downloads.")
NOT_UNDERSTOOD = "The download server sent an answer VoxDesk does not understand; please try again later."


@pytest.mark.parametrize("listing, sentence", [
    pytest.param({"siblings": [{"rfilename": "model\0.pth", "size": 2}]}, BAD_NAME, id="NUL in a name"),
    pytest.param({"siblings": [{"rfilename": "model.pth\u202e", "size": 2}]}, BAD_NAME, id="bidirectional override"),
    pytest.param({"siblings": "model.pth"}, NOT_UNDERSTOOD, id="siblings not a list"),
    pytest.param(["model.pth"], NOT_UNDERSTOOD, id="not an object"),
])
def test_a_hub_listing_with_bad_names_or_shape_is_a_sentence(tmp_path, tiny_folders, no_stdin, listing, sentence):
    name = "tts_models/multilingual/multi-dataset/tiny_xtts"
    with FileServer() as server:
        server.files["/api/models/tts-hub/Tiny"] = json.dumps(listing).encode()
        store = TtsModelStore(tmp_path / "store", catalog_file=catalog_file(tmp_path, server),
                              hf_endpoint=server.base_url)
        store.accept_licence(name)
        with pytest.raises(ModelError) as error:
            store.download(name)
        assert server.request_count() == 1  # the listing, and nothing it names
    assert error.value.message == sentence
    assert not store.is_downloaded(name)


# --- importing a model folder --------------------------------------------------------------------


def test_importing_a_model_folder_copies_it_in_and_lists_it(tmp_path, tiny_folders):
    store = TtsModelStore(tmp_path / "store")
    model = store.import_folder(tiny_folders["single"])
    assert model.name == "imported/tiny-english" and model.imported and model.downloaded
    assert model.languages == ("en",) and not model.multi_speaker
    assert model in store.catalog()
    assert (store.folder(model.name) / "model.pth").is_file()
    assert tiny_folders["single"].is_dir()  # the original is left alone


def test_importing_a_multi_speaker_folder_points_its_speaker_file_at_the_copy(tmp_path, tiny_folders):
    store = TtsModelStore(tmp_path / "store")
    model = store.import_folder(tiny_folders["multi"], name="Team voices")
    assert model.multi_speaker and model.title == "Team voices"
    config = json.loads((store.folder(model.name) / "config.json").read_text(encoding="utf-8"))
    expected = str((store.folder(model.name) / "speaker_ids.json").resolve())
    assert config["speakers_file"] == expected and config["model_args"]["speakers_file"] == expected


def test_a_folder_without_config_is_refused_with_what_is_missing(tmp_path, tiny_folders):
    folder = tmp_path / "no-config"
    shutil.copytree(tiny_folders["single"], folder)
    (folder / "config.json").unlink()
    store = TtsModelStore(tmp_path / "store")
    with pytest.raises(ModelError) as error:
        store.import_folder(folder)
    assert "no config.json" in error.value.message
    assert store.imported() == []


def test_a_folder_with_a_damaged_config_is_refused(tmp_path, tiny_folders):
    folder = tmp_path / "bad-config"
    shutil.copytree(tiny_folders["single"], folder)
    (folder / "config.json").write_text('{"model": "vits", ', encoding="utf-8")
    with pytest.raises(ModelError) as error:
        TtsModelStore(tmp_path / "store").import_folder(folder)
    assert "damaged" in error.value.message


def test_a_cut_off_model_file_is_refused_before_anything_is_copied(tmp_path, tiny_folders):
    folder = tmp_path / "cut-off"
    shutil.copytree(tiny_folders["single"], folder)
    data = (folder / "model.pth").read_bytes()
    (folder / "model.pth").write_bytes(data[: len(data) // 2])
    store = TtsModelStore(tmp_path / "store")
    with pytest.raises(ModelError) as error:
        store.import_folder(folder)
    assert "damaged or incomplete" in error.value.message
    assert not store.models_root.exists() or not any(store.models_root.iterdir())


def test_a_folder_without_its_speaker_file_is_refused(tmp_path, tiny_folders):
    folder = tmp_path / "no-speakers"
    shutil.copytree(tiny_folders["multi"], folder)
    (folder / "speaker_ids.json").unlink()
    with pytest.raises(ModelError) as error:
        TtsModelStore(tmp_path / "store").import_folder(folder)
    assert "speaker_ids.json" in error.value.message


def test_a_folder_with_only_settings_and_no_model_file_is_refused(tmp_path, tiny_folders):
    folder = tmp_path / "settings-only"
    folder.mkdir()
    shutil.copy(tiny_folders["single"] / "config.json", folder)
    with pytest.raises(ModelError) as error:
        inspect_folder(folder)
    assert "no model file" in error.value.message


def test_importing_the_same_name_twice_asks_for_another_name(tmp_path, tiny_folders):
    store = TtsModelStore(tmp_path / "store")
    store.import_folder(tiny_folders["single"])
    with pytest.raises(ModelError) as error:
        store.import_folder(tiny_folders["single"])
    assert "another name" in error.value.message
    assert store.import_folder(tiny_folders["single"], name="tiny 2").name == "imported/tiny-2"


def test_a_cancelled_import_leaves_no_model_behind(tmp_path, tiny_folders):
    store = TtsModelStore(tmp_path / "store")
    with pytest.raises(Cancelled):
        store.import_folder(tiny_folders["single"], cancelled=lambda: True)
    assert store.imported() == []
    assert not store.staging_root.exists() or not any(store.staging_root.iterdir())


# --- a full disk and odd archives ------------------------------------------------------------------


def disk_full(*_args, **_kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")


def test_a_full_disk_while_importing_says_so_in_model_words_and_leaves_no_copy_behind(
    tmp_path, tiny_folders, monkeypatch
):
    store = TtsModelStore(tmp_path / "store")
    monkeypatch.setattr(os, "fsync", disk_full)  # the manifest is the first file synced to the disk
    with pytest.raises(ModelError) as error:
        store.import_folder(tiny_folders["single"])
    monkeypatch.undo()
    assert error.value.message.startswith("The disk is full, so the voice model could not be saved.")
    assert store.imported() == [] and not store.is_downloaded("imported/tiny-english")
    assert not store.staging_root.exists() or not any(store.staging_root.iterdir())


def test_a_full_disk_while_unpacking_a_download_says_so_and_it_is_not_a_model(
    tmp_path, tiny_folders, no_stdin, monkeypatch
):
    real_copy = shutil.copyfileobj

    def fills_up(src, dst, length=0):
        dst.write(src.read(1000))  # some of the file fits, then the disk is full
        disk_full()

    with FileServer({"/releases/tiny.zip": zipped(tiny_folders["single"])}) as server:
        store = TtsModelStore(tmp_path / "store", catalog_file=catalog_file(tmp_path, server))
        monkeypatch.setattr(shutil, "copyfileobj", fills_up)
        with pytest.raises(ModelError) as error:
            store.download("tts_models/en/tiny/vits")
        monkeypatch.setattr(shutil, "copyfileobj", real_copy)
        assert error.value.message.startswith("The disk is full")
        assert not store.is_downloaded("tts_models/en/tiny/vits")
        store.download("tts_models/en/tiny/vits")  # once there is room again, it finishes
    assert store.is_downloaded("tts_models/en/tiny/vits")


def test_a_release_zip_with_two_files_of_one_name_in_different_folders_is_refused(tmp_path, tiny_folders, no_stdin):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path in sorted(tiny_folders["single"].iterdir()):
            archive.write(path, f"tts_models--en--tiny--vits/{path.name}")
        archive.writestr("tts_models--en--tiny--vits/old/config.json", '{"model": "glow_tts"}')
    with FileServer({"/releases/tiny.zip": buffer.getvalue()}) as server:
        store = TtsModelStore(tmp_path / "store", catalog_file=catalog_file(tmp_path, server))
        with pytest.raises(ModelError) as error:
            store.download("tts_models/en/tiny/vits")
    assert "two files called config.json" in error.value.message
    assert not store.is_downloaded("tts_models/en/tiny/vits")
    assert not list(store.staging_root.rglob("*.zip"))
