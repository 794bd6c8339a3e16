"""Voice models from shared, read-only folders, and from the mirror when Hugging Face refuses."""
from __future__ import annotations

import json
import shutil

import pytest

from desktop.core.common.download_sources import DownloadSources
from desktop.core.common.shared_models import ModelSources
from desktop.core.speech.tts_model_folders import MANIFEST
from desktop.core.speech.tts_models import TtsModelStore
from tests.core.speech.test_tts_models import catalog_file, hub_files, serve_hub
from tests.helpers.http_server import FileServer, closed_port_url

TINY = "tts_models/en/tiny/vits"


def dead_sources(shared=()) -> ModelSources:
    dead = closed_port_url().rstrip("/")
    return ModelSources(tuple(shared), DownloadSources(official=dead, mirror=dead, probe_timeout=1))


@pytest.fixture
def shared(tmp_path, tiny_folders):
    root = tmp_path / "it-models"
    folder = root / "tts" / "models" / "tts_models--en--tiny--vits"
    shutil.copytree(tiny_folders["single"], folder)
    paths = [root, *root.rglob("*")]
    for path in paths:
        path.chmod(0o555 if path.is_dir() else 0o444)
    yield root, folder
    for path in paths:
        path.chmod(0o755 if path.is_dir() else 0o644)


def test_a_voice_model_in_a_read_only_shared_folder_needs_no_download(tmp_path, shared, no_stdin):
    root, folder = shared
    with FileServer() as unused:
        store = TtsModelStore(tmp_path / "store", catalog_file=catalog_file(tmp_path, unused),
                              sources=dead_sources([root]))
        assert store.is_downloaded(TINY)
        assert store.folder(TINY) == folder
        assert store.download(TINY) == folder
        assert unused.request_count() == 0
        manifest = store.manifest(TINY)
        assert manifest["name"] == TINY and manifest["model_file"] and manifest["kind"]
        assert next(m for m in store.catalog() if m.name == TINY).downloaded
    assert not (folder / MANIFEST).exists()  # nothing written into the shared folder
    assert not (tmp_path / "store" / "models").exists()


def test_without_the_shared_folder_the_model_is_not_there(tmp_path, shared):
    with FileServer() as unused:
        store = TtsModelStore(tmp_path / "store", catalog_file=catalog_file(tmp_path, unused), sources=dead_sources())
        assert not store.is_downloaded(TINY)


def test_a_hub_voice_model_comes_from_the_mirror_when_hugging_face_refuses(tmp_path, tiny_folders, no_stdin):
    name = "tts_models/multilingual/multi-dataset/tiny_xtts"
    with FileServer() as mirror:
        serve_hub(mirror, hub_files(tiny_folders["multi"]))
        downloads = DownloadSources(memory_file=tmp_path / "source.json", official=closed_port_url().rstrip("/"),
                                    mirror=mirror.base_url, probe_timeout=2)
        store = TtsModelStore(tmp_path / "store", catalog_file=catalog_file(tmp_path, mirror),
                              sources=ModelSources((), downloads))
        store.accept_licence(name)
        folder = store.download(name)
        assert json.loads((tmp_path / "source.json").read_text()) == {"hugging_face": mirror.base_url}
    assert (folder / "speaker_ids.json").is_file()


def test_the_synthesizer_speaks_with_a_model_from_the_shared_folder(tmp_path, shared, no_stdin):
    from desktop.core.gpu.fallback import FallbackLog
    from desktop.engines.speech.tts import SpeechSynthesizer, SynthesisSettings

    root, folder = shared
    config_before = (folder / "config.json").read_bytes()
    with FileServer() as unused:
        store = TtsModelStore(tmp_path / "store", catalog_file=catalog_file(tmp_path, unused),
                              sources=dead_sources([root]))
        speech = SpeechSynthesizer(store, FallbackLog()).synthesize(
            "Good morning.", SynthesisSettings(model=TINY, watermark=False))
        assert unused.request_count() == 0
    assert speech.complete and speech.sentences[0].samples.size > 0
    assert (folder / "config.json").read_bytes() == config_before


def test_the_voice_store_follows_the_sources_chosen_for_the_whisper_store(tmp_path, shared):
    from desktop.core.common.shared_models import LiveSources
    from desktop.core.transcription.whisper_models import ModelStore

    root, folder = shared
    live = LiveSources(dead_sources())
    whisper = ModelStore(tmp_path / "models", sources=live)
    with FileServer() as unused:
        voices = TtsModelStore(tmp_path / "store", catalog_file=catalog_file(tmp_path, unused),
                               sources=whisper.live_sources)
        assert not voices.is_downloaded(TINY)
        whisper.use_sources(dead_sources([root]))  # what OK in Settings does
        assert voices.is_downloaded(TINY) and voices.folder(TINY) == folder
