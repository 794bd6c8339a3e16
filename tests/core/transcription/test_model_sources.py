"""Whisper models from shared folders, imports under the official name, and downloads from the mirror."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest

from desktop.core.common.download import NETWORK_MESSAGE
from desktop.core.common.download_sources import DownloadSources
from desktop.core.common.errors import ModelError
from desktop.core.common.shared_models import ENV_VARIABLE, LiveSources, ModelSources, shared_model_dirs
from desktop.core.transcription.official_copy import ct2_shape
from desktop.core.transcription.whisper_models import METADATA_FILE, ModelStore
from tests.helpers.http_server import FileServer, closed_port_url
from tests.helpers.weights import base_dir, tiny_en_dir

TINY_EN_REPO = "Systran/faster-whisper-tiny.en"


def offline(shared: tuple[Path, ...] = ()) -> ModelSources:
    """Sources where every download host refuses connections."""
    dead = closed_port_url().rstrip("/")
    return ModelSources(shared, DownloadSources(official=dead, mirror=dead, probe_timeout=1))


def read_only_copy(source: Path, target: Path) -> Path:
    shutil.copytree(source, target)
    for path in [target, *target.rglob("*")]:
        path.chmod(0o555 if path.is_dir() else 0o444)
    return target


@pytest.fixture
def shared(tmp_path):
    root = tmp_path / "shared"
    root.mkdir()
    yield root
    for path in [root, *root.rglob("*")]:
        if not path.is_symlink():
            path.chmod(0o755 if path.is_dir() else 0o644)


# --- the list of shared folders ---------------------------------------------------------------------


def test_settings_folders_come_first_then_the_environment_then_the_system_folder(tmp_path):
    a, b, c, system = (tmp_path / n for n in ("a", "b", "c", "system"))
    for folder in (a, b, c, system):
        folder.mkdir()
    environ = {ENV_VARIABLE: os.pathsep.join([str(b), str(tmp_path / "missing"), "", str(a), str(c)])}
    assert shared_model_dirs([str(a)], environ=environ, system_folder=system) == (a, b, c, system)
    assert shared_model_dirs([], environ={}, system_folder=tmp_path / "not-installed") == ()
    # A relative folder depends on where VoxDesk was started, so it is not used.
    assert shared_model_dirs(["relative/models"], environ={}, system_folder=None) == ()


# --- a shared folder serves the official name ---------------------------------------------------------


@pytest.mark.parametrize("layout", ["faster-whisper-base", "base", "ct2/base",
                                    "models--Systran--faster-whisper-base/snapshots/abc123"])
def test_a_read_only_shared_folder_serves_base_without_any_download(tmp_path, shared, layout):
    target = shared / layout
    target.parent.mkdir(parents=True, exist_ok=True)
    read_only_copy(base_dir(), target)
    store = ModelStore(tmp_path / "models", sources=offline((shared,)))

    [model] = store.local("base")
    assert (model.format, model.path, model.shared, model.imported) == ("ct2", target, True, False)
    entry = next(e for e in store.catalog() if e.name == "base")
    assert entry.downloaded == {"pt": False, "ct2": True} and entry.shared and not entry.imported
    assert store.download("base", "ct2") == model  # nothing to fetch: no server answers anyway
    assert not (tmp_path / "models").exists()


def test_an_openai_checkpoint_in_the_shared_folder_serves_its_official_name(tmp_path, shared):
    (shared / "large-v3-turbo.pt").write_bytes(b"checkpoint bytes")
    (shared / "openai").mkdir()
    (shared / "openai" / "small.pt").write_bytes(b"checkpoint bytes")
    store = ModelStore(tmp_path / "models", sources=offline((shared,)))
    assert [(m.format, m.path) for m in store.local("turbo")] == [("pt", shared / "large-v3-turbo.pt")]
    assert [(m.format, m.path) for m in store.local("small")] == [("pt", shared / "openai" / "small.pt")]
    assert store.local("tiny") == []


def test_an_incomplete_folder_in_the_shared_folder_serves_nothing(tmp_path, shared):
    folder = shared / "faster-whisper-base"
    folder.mkdir()
    (folder / "model.bin").write_bytes(b"x")  # no config.json, no vocabulary
    store = ModelStore(tmp_path / "models", sources=offline((shared,)))
    assert store.local("base") == []


def test_the_users_own_copy_comes_before_the_shared_one(tmp_path, shared):
    read_only_copy(tiny_en_dir(), shared / "faster-whisper-tiny.en")
    store = ModelStore(tmp_path / "models", sources=offline((shared,)))
    store.import_model(tiny_en_dir(), name="tiny.en")
    [model] = store.local("tiny.en")
    assert model.imported and not model.shared


def test_live_sources_follow_a_change_in_settings(tmp_path, shared):
    read_only_copy(tiny_en_dir(), shared / "tiny.en")
    live = LiveSources(offline())
    store = ModelStore(tmp_path / "models", sources=live)
    assert store.local("tiny.en") == []
    store.use_sources(offline((shared,)))
    assert store.local("tiny.en")[0].shared
    assert live().shared_dirs == (shared,)


# --- import under the official name -----------------------------------------------------------------


def test_a_copy_of_the_official_model_may_take_its_name_and_is_listed_as_an_imported_copy(tmp_path):
    store = ModelStore(tmp_path / "models", sources=offline())
    model = store.import_model(base_dir(), name="base")
    assert (model.name, model.format, model.imported) == ("base", "ct2", True)
    assert store.local("base") == [model]
    entry = next(e for e in store.catalog() if e.name == "base")
    assert entry.imported and entry.info is not None and entry.downloaded["ct2"]
    assert store.names().count("base") == 1 and [e.name for e in store.catalog()].count("base") == 1
    meta = json.loads((tmp_path / "models" / "imported" / "base" / "voxdesk-model.json").read_text())
    assert meta["official"] is True


def test_the_official_name_is_taken_in_its_own_spelling(tmp_path):
    store = ModelStore(tmp_path / "models", sources=offline())
    assert store.import_model(tiny_en_dir(), name="Tiny.EN").name == "tiny.en"


def test_a_different_model_cannot_take_an_official_name(tmp_path):
    store = ModelStore(tmp_path / "models", sources=offline())
    with pytest.raises(ModelError) as err:
        store.import_model(base_dir(), name="base.en")  # multilingual base is not base.en
    assert 'not a copy of the official "base.en" model' in err.value.message
    with pytest.raises(ModelError):
        store.import_model(tiny_en_dir(), name="small.en")


def test_a_checkpoint_takes_an_official_name_only_with_openais_checksum(tmp_path):
    from desktop.core.transcription.official_copy import check_official_pt
    from desktop.core.transcription.whisper_models import OFFICIAL_MODELS

    fake = tmp_path / "base.pt"
    fake.write_bytes(b"not openai's file")
    base = next(i for i in OFFICIAL_MODELS if i.name == "base")
    with pytest.raises(ModelError) as err:
        check_official_pt(fake, base)
    assert 'not a copy of the official "base" model' in err.value.message


def test_the_shape_of_the_real_models_is_read_from_model_bin(tmp_path):
    assert ct2_shape(base_dir() / "model.bin") == (512, 6, 80, 51865)
    assert ct2_shape(tiny_en_dir() / "model.bin") == (384, 4, 80, 51864)
    junk = tmp_path / "model.bin"
    junk.write_bytes(os.urandom(5000))
    assert ct2_shape(junk) is None
    junk.write_bytes(b"\x06\x00\x00\x00\x0c\x00WhisperSpec\x00\x01\x00\x00\x00\xff\xff\xff\xff")  # ends early
    assert ct2_shape(junk) is None


# --- downloads: the mirror when the official host refuses, openai's .pt from Hugging Face --------------


def hub_files() -> dict[str, bytes]:
    files = {p.name: p.read_bytes() for p in sorted(tiny_en_dir().iterdir()) if p.is_file()}
    tree = [{"type": "file", "path": n, "size": len(d), "oid": "3" * 40,
             "lfs": {"oid": hashlib.sha256(d).hexdigest(), "size": len(d)}} for n, d in files.items()]
    served = {f"/{TINY_EN_REPO}/resolve/main/{n}": d for n, d in files.items()}
    served[f"/api/models/{TINY_EN_REPO}/tree/main"] = json.dumps(tree).encode()
    return served


def mirror_sources(tmp_path, mirror: FileServer) -> ModelSources:
    downloads = DownloadSources(memory_file=tmp_path / "download-source.json", official=closed_port_url().rstrip("/"),
                                mirror=mirror.base_url, probe_timeout=2)
    return ModelSources((), downloads)


def test_automatic_downloads_from_the_mirror_when_hugging_face_refuses_and_remembers_it(tmp_path):
    with FileServer(hub_files()) as mirror:
        store = ModelStore(tmp_path / "models", sources=mirror_sources(tmp_path, mirror))
        model = store.download("tiny.en", "ct2")
        assert model.path == tmp_path / "models" / "ct2" / "tiny.en"
        assert (model.path / "model.bin").read_bytes() == (tiny_en_dir() / "model.bin").read_bytes()
        assert json.loads((tmp_path / "download-source.json").read_text()) == {"hugging_face": mirror.base_url}
        assert mirror_sources(tmp_path, mirror).downloads.candidates()[0] == mirror.base_url
    assert model.unverified_source is None  # a mirror's copy of a pinned model is held to the pins


def test_a_damaged_file_from_the_mirror_is_refused_by_its_checksum(tmp_path):
    files = hub_files()
    files[f"/{TINY_EN_REPO}/resolve/main/model.bin"] = b"\0" * len(files[f"/{TINY_EN_REPO}/resolve/main/model.bin"])
    with FileServer(files) as mirror:
        store = ModelStore(tmp_path / "models", sources=mirror_sources(tmp_path, mirror))
        with pytest.raises(ModelError) as err:
            store.download("tiny.en", "ct2")
    assert "damaged on the way" in err.value.message
    assert store.local("tiny.en") == []


def test_the_gpu_models_file_comes_from_hugging_face_when_openais_host_cannot_be_reached(tmp_path):
    with FileServer(hub_files()) as mirror:
        store = ModelStore(tmp_path / "models", openai_url_base=closed_port_url().rstrip("/"),
                           sources=mirror_sources(tmp_path, mirror))
        model = store.download("tiny.en", "pt")
    # The CTranslate2 copy: the GPU engine converts it to openai-whisper's layout when it loads it.
    assert (model.format, model.path) == ("ct2", tmp_path / "models" / "ct2" / "tiny.en")
    assert not (tmp_path / "models" / "openai" / "tiny.en.pt").exists()


def test_a_firewall_block_page_on_openais_host_also_falls_back_on_hugging_face(tmp_path):
    with FileServer(hub_files()) as mirror, FileServer({}) as blocking:  # 404 for everything
        store = ModelStore(tmp_path / "models", openai_url_base=blocking.base_url,
                           sources=mirror_sources(tmp_path, mirror))
        model = store.download("tiny.en", "pt")
        assert blocking.request_count() == 1
    assert model.format == "ct2" and (model.path / "model.bin").is_file()


def test_when_no_source_answers_the_message_offers_the_ways_out(tmp_path):
    store = ModelStore(tmp_path / "models", openai_url_base=closed_port_url().rstrip("/"), sources=offline())
    for fmt in ("ct2", "pt"):
        with pytest.raises(ModelError) as err:
            store.download("base", fmt)
        assert err.value.message == NETWORK_MESSAGE
    assert "Settings → Downloads" in NETWORK_MESSAGE and "Import model…" in NETWORK_MESSAGE


# --- hostile shared folders ----------------------------------------------------------------------------


def test_pipes_in_a_shared_folder_are_never_opened_or_served(tmp_path, shared):
    os.mkfifo(shared / "base.pt")
    folder = shared / "faster-whisper-small"
    folder.mkdir()
    for name in ("config.json", "vocabulary.txt"):
        (folder / name).write_text("{}")
    os.mkfifo(folder / "model.bin")
    cache = shared / "models--Systran--faster-whisper-tiny"
    shutil.copytree(tiny_en_dir(), cache / "snapshots" / "abc")
    (cache / "refs").mkdir()
    os.mkfifo(cache / "refs" / "main")  # reading it would block forever
    store = ModelStore(tmp_path / "models", sources=offline((shared,)))
    assert store.local("base") == [] and store.local("small") == []
    assert [m.path for m in store.local("tiny")] == [cache / "snapshots" / "abc"]


def test_a_link_loop_in_a_shared_folder_serves_nothing(tmp_path, shared):
    (shared / "faster-whisper-base").symlink_to(shared / "faster-whisper-base")
    (shared / "base.pt").symlink_to(shared / "base.pt")
    store = ModelStore(tmp_path / "models", sources=offline((shared,)))
    assert store.local("base") == []


# --- the catalogue's checksums decide, not the mirror's listing -------------------------------------


def zero_model_files(repo: str, size: int = 1000) -> dict[str, bytes]:
    """A mirror's listing and files for ``repo`` where every file is zeros and the listing gives their
    true checksums: consistent, and not the official model."""
    files = {name: b"\0" * size for name in ("config.json", "model.bin", "tokenizer.json", "vocabulary.txt")}
    tree = [{"type": "file", "path": n, "size": len(d), "oid": "3" * 40,
             "lfs": {"oid": hashlib.sha256(d).hexdigest(), "size": len(d)}} for n, d in files.items()]
    served = {f"/{repo}/resolve/main/{n}": d for n, d in files.items()}
    served[f"/api/models/{repo}/tree/main"] = json.dumps(tree).encode()
    return served


def test_a_mirror_serving_other_bytes_with_matching_checksums_is_refused_before_anything_is_fetched(tmp_path):
    with FileServer(zero_model_files("Systran/faster-whisper-tiny")) as mirror:
        store = ModelStore(tmp_path / "models", sources=ModelSources((), DownloadSources.fixed(mirror.base_url)))
        with pytest.raises(ModelError) as err:
            store.download("tiny", "ct2")
        assert mirror.request_count("/Systran/faster-whisper-tiny/resolve/main/model.bin") == 0
    assert err.value.message == ('The download server offers a different file than the official one for the "tiny" '
                                 "model, so VoxDesk did not download it. Choose another download source in Settings "
                                 "→ Downloads.")
    assert store.local("tiny") == []


def test_a_model_without_pinned_checksums_from_a_mirror_is_kept_and_marked_unverified_with_its_address(tmp_path):
    with FileServer(zero_model_files("Systran/faster-whisper-large-v1")) as mirror:
        address = mirror.base_url
        store = ModelStore(tmp_path / "mirrored", sources=ModelSources((), DownloadSources.fixed(address)))
        model = store.download("large-v1", "ct2")
    assert (model.path / "model.bin").read_bytes() == b"\0" * 1000
    assert model.unverified_source == address
    manifest = json.loads((model.path / METADATA_FILE).read_text(encoding="utf-8"))
    assert (manifest["source"], manifest["verified"]) == (address, False)
    # What a later run finds on disk says the same, in the model list too.
    assert [m.unverified_source for m in ModelStore(tmp_path / "mirrored").local("large-v1")] == [address]
    listed = {entry.name: entry.unverified_source for entry in store.catalog()}
    assert listed["large-v1"] == address and listed["tiny"] is None


def test_the_same_model_from_hugging_face_itself_is_not_marked(tmp_path):
    with FileServer(zero_model_files("Systran/faster-whisper-large-v1")) as host:
        # This server stands in for the official host: its listing is the publisher's.
        official = ModelSources((), DownloadSources(choice="huggingface", official=host.base_url))
        store = ModelStore(tmp_path / "official", sources=official)
        model = store.download("large-v1", "ct2")
    assert (model.path / "model.bin").read_bytes() == b"\0" * 1000
    assert model.unverified_source is None
    assert next(e for e in store.catalog() if e.name == "large-v1").unverified_source is None


def test_an_unpinned_file_that_differs_from_the_mirrors_own_listing_is_still_refused(tmp_path):
    files = zero_model_files("Systran/faster-whisper-large-v1")
    files["/Systran/faster-whisper-large-v1/resolve/main/model.bin"] = b"\1" * 1000  # not what the listing says
    with FileServer(files) as mirror:
        store = ModelStore(tmp_path / "models", sources=ModelSources((), DownloadSources.fixed(mirror.base_url)))
        with pytest.raises(ModelError) as err:
            store.download("large-v1", "ct2")
    assert "damaged on the way" in err.value.message
    assert store.local("large-v1") == [] and not list((tmp_path / "models").rglob("*.part"))


def test_a_pinned_model_whose_bytes_differ_from_the_pin_is_refused_even_when_the_listing_names_no_checksum(tmp_path):
    files = zero_model_files("Systran/faster-whisper-tiny")
    listing = "/api/models/Systran/faster-whisper-tiny/tree/main"
    files[listing] = json.dumps([{k: v for k, v in entry.items() if k != "lfs"}
                                 for entry in json.loads(files[listing])]).encode()
    with FileServer(files) as mirror:
        store = ModelStore(tmp_path / "models", sources=ModelSources((), DownloadSources.fixed(mirror.base_url)))
        with pytest.raises(ModelError) as err:
            store.download("tiny", "ct2")
    assert "damaged on the way" in err.value.message
    assert store.local("tiny") == [] and not (tmp_path / "models" / "ct2" / "tiny").exists()
