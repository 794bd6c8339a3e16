"""The Whisper model list marks what is on this computer and what needs a download; once a download found
no connection, the models to download are shown as download-only and cannot be chosen, until a model
arrives or a download works again."""
from __future__ import annotations

from PySide6.QtCore import Qt

from desktop.core.common.download_sources import DownloadSources
from desktop.core.common.paths import models_dir
from desktop.core.common.shared_models import ModelSources
from desktop.core.transcription.whisper_models import ModelStore
from desktop.workers.transcription_queue import ItemState
from tests.helpers.http_server import closed_port_url
from tests.ui.conftest import JOB_TIMEOUT_MS, TEST_MODEL
from tests.ui.transcribe import test_queue
from tests.ui.transcribe.test_queue import close, window_with_store

hub = test_queue.hub  # the fixture: a local stand-in for the Hugging Face hub holding tiny.en

NO_CONNECTION = "download only, no connection now"


def offline_store() -> ModelStore:
    dead = closed_port_url().rstrip("/")
    return ModelStore(models_dir(), sources=ModelSources((), DownloadSources(official=dead, mirror=dead,
                                                                               probe_timeout=1)))


def entry(combo, name: str) -> tuple[str, bool]:
    """The text of the model's entry, and whether it can be chosen."""
    index = combo.findData(name)
    assert index >= 0, name
    return combo.itemText(index), combo.model().item(index).isEnabled()


def fail_for_no_connection(qtbot, tab, recording):
    tab.add_paths([recording])
    qtbot.waitUntil(lambda: bool(tab.queue.items) and tab.queue.items[0].state is ItemState.FAILED,
                    timeout=JOB_TIMEOUT_MS)
    qtbot.waitUntil(lambda: NO_CONNECTION in entry(tab.model_combo, "small")[0], timeout=10_000)
    return tab.queue.items[0]


def test_without_a_connection_models_to_download_are_shown_as_download_only(qtbot, settings, tiny_model, jfk):
    from tests.helpers.cli import voxdesk
    from tests.helpers.weights import tiny_en_dir

    settings.set("transcribe/model", "tiny.en")
    window = window_with_store(qtbot, settings, offline_store())
    tab = window.transcribe_tab
    combo = tab.model_combo
    # Before any download was tried, a model to download is a choice like any other.
    qtbot.waitUntil(lambda: combo.findData("small") >= 0, timeout=JOB_TIMEOUT_MS)
    assert entry(combo, "small") == ("small (484 MB download)", True)
    assert entry(combo, TEST_MODEL) == (f"✓ {TEST_MODEL} (imported)", True)

    fail_for_no_connection(qtbot, tab, jfk)
    assert entry(combo, "small") == (f"small (484 MB) — {NO_CONNECTION}", False)
    assert entry(combo, "tiny.en") == (f"tiny.en (75 MB) — {NO_CONNECTION}", False)
    assert "download server cannot be reached" in combo.itemData(combo.findData("small"), Qt.ItemDataRole.ToolTipRole)
    assert entry(combo, TEST_MODEL) == (f"✓ {TEST_MODEL} (imported)", True)  # what is here stays a choice

    # A model brought in while the window is open (here from a terminal) offers the downloads again.
    assert voxdesk("models", "import", str(tiny_en_dir()), "--name", "office-tiny") == 0
    qtbot.waitUntil(lambda: combo.findData("office-tiny") >= 0, timeout=JOB_TIMEOUT_MS)
    qtbot.waitUntil(lambda: entry(combo, "small") == ("small (484 MB download)", True), timeout=10_000)
    assert entry(combo, "office-tiny") == ("✓ office-tiny (imported)", True)
    close(qtbot, window)


def test_a_download_that_works_again_restores_the_models_to_download(qtbot, settings, hub, jfk):
    settings.set("transcribe/model", "tiny.en")
    store = offline_store()
    window = window_with_store(qtbot, settings, store)
    tab = window.transcribe_tab
    combo = tab.model_combo
    failed = fail_for_no_connection(qtbot, tab, jfk)
    assert not entry(combo, "small")[1]

    # The connection is back (here: another download source that answers) and the file is tried again.
    store.use_sources(ModelSources((), DownloadSources.fixed(hub.base_url)))
    tab.queue.retry([failed])
    qtbot.waitUntil(lambda: entry(combo, "tiny.en") == ("✓ tiny.en", True), timeout=JOB_TIMEOUT_MS)
    assert entry(combo, "small") == ("small (484 MB download)", True)
    close(qtbot, window)


def test_live_captions_that_find_no_connection_mark_the_list_too(qtbot, settings):
    from desktop.engines.transcription.live.captioner import LiveOptions

    settings.set("transcribe/model", "tiny.en")
    window = window_with_store(qtbot, settings, offline_store())
    tab = window.transcribe_tab
    combo = tab.model_combo
    qtbot.waitUntil(lambda: combo.findData("small") >= 0, timeout=JOB_TIMEOUT_MS)
    tab.live.button.click()
    panel = tab.live.panel
    panel.captions.start(tab.transcribe_settings(), "no-such-microphone", LiveOptions(language="en"))
    qtbot.waitUntil(lambda: "could not reach the download server" in panel.message.text(), timeout=JOB_TIMEOUT_MS)
    qtbot.waitUntil(lambda: entry(combo, "small") == (f"small (484 MB) — {NO_CONNECTION}", False), timeout=10_000)
    panel.close()
    close(qtbot, window)
