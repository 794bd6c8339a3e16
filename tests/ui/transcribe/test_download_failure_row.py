"""A file whose model cannot be downloaded: the row says the two ways out."""
from __future__ import annotations

from desktop.core.common.download_sources import DownloadSources
from desktop.core.common.paths import models_dir
from desktop.core.common.shared_models import ModelSources
from desktop.core.transcription.whisper_models import ModelStore
from desktop.workers.transcription_queue import ItemState
from tests.helpers.http_server import closed_port_url
from tests.ui.conftest import JOB_TIMEOUT_MS
from tests.ui.transcribe.test_queue import close, window_with_store


def test_when_no_download_source_answers_the_row_offers_another_source_or_an_import(qtbot, settings, jfk):
    settings.set("transcribe/model", "tiny.en")
    dead = closed_port_url().rstrip("/")
    sources = ModelSources((), DownloadSources(official=dead, mirror=dead, probe_timeout=1))
    window = window_with_store(qtbot, settings, ModelStore(models_dir(), sources=sources))
    tab = window.transcribe_tab
    tab.add_paths([jfk])
    qtbot.waitUntil(lambda: bool(tab.queue.items) and tab.queue.items[0].state is ItemState.FAILED,
                    timeout=JOB_TIMEOUT_MS)
    status = tab.queue.items[0].status
    assert "choose another download source in Settings → Downloads" in status
    assert "File → Import model…" in status and "ask your IT department for the shared model folder" in status
    close(qtbot, window)
