"""The engine live captions load: chosen as for files, a sentence when the model is not on disk."""
from __future__ import annotations

import pytest

from desktop.core.common.errors import ModelError
from desktop.core.gpu.fallback import FallbackLog
from desktop.core.transcription.whisper_models import ModelStore
from desktop.engines.transcription.live.engine import NOT_DOWNLOADED, load_live_engine, missing_model
from desktop.engines.transcription.transcriber import TranscribeSettings
from tests.helpers.weights import tiny_en_dir


def test_a_model_given_as_a_folder_loads_on_the_cpu_with_the_fast_engine(tmp_path):
    store = ModelStore(tmp_path / "models")
    settings = TranscribeSettings(model=str(tiny_en_dir()), device="cpu")
    assert missing_model(store, settings) is None
    engine = load_live_engine(store, settings, FallbackLog())
    try:
        assert (engine.name, engine.device) == ("ct2", "cpu")
    finally:
        engine.close()


def test_a_model_not_downloaded_is_named_with_what_to_do(tmp_path):
    store = ModelStore(tmp_path / "models")
    settings = TranscribeSettings(model="small", device="cpu")
    assert missing_model(store, settings) == ("small", "ct2")  # the CLI downloads it first
    with pytest.raises(ModelError) as error:
        load_live_engine(store, settings, FallbackLog())
    assert error.value.message == NOT_DOWNLOADED.format(model="small")
    assert "Start live captions again to download it" in error.value.message


def test_a_name_that_is_no_model_at_all_is_refused_in_a_sentence(tmp_path):
    store = ModelStore(tmp_path / "models")
    with pytest.raises(ModelError) as error:
        missing_model(store, TranscribeSettings(model="no such model", device="cpu"))
    assert "There is no model called" in error.value.message
