"""A damaged Piper voice in the Synthesize tab: what is wrong shows as the tab's message, never a traceback."""
import json

import pytest

from desktop.core.gpu.fallback import FallbackLog
from desktop.core.speech.tts_models import TtsModelStore
from desktop.engines.speech.tts import SpeechSynthesizer
from desktop.ui.speech.synthesize_tab import SynthesizeTab
from desktop.workers.job import JobRunner
from tests.helpers.piper_voice import JOE_KEY, copy_of_joe
from tests.helpers.tools import require_tool

WAIT_MS = 120_000  # two shared cores


def pad_for_100000_ids(folder):
    path = folder / f"{JOE_KEY}.onnx.json"
    config = json.loads(path.read_text(encoding="utf-8"))
    config["phoneme_id_map"]["_"] = [0] * 100_000
    path.write_text(json.dumps(config), encoding="utf-8")


@pytest.fixture
def tab_on(qtbot, settings):
    made = []

    def make(store: TtsModelStore, model: str | None) -> SynthesizeTab:
        runner = JobRunner()
        if model:
            settings.set("synthesize/model", model)
        tab = SynthesizeTab(settings, SpeechSynthesizer(store, FallbackLog()), runner, FallbackLog())
        qtbot.addWidget(tab)
        tab.show()
        made.append((tab, runner))
        return tab

    yield make
    for tab, runner in made:
        tab.shutdown()
        assert runner.shutdown(60_000)


def test_a_damaged_piper_voice_is_not_imported_and_the_tab_says_what_is_wrong(qtbot, tab_on, tmp_path):
    folder = copy_of_joe(tmp_path / "voice")
    pad_for_100000_ids(folder)
    store = TtsModelStore(tmp_path / "store")
    tab = tab_on(store, None)
    tab.import_folder(folder)
    qtbot.waitUntil(lambda: bool(tab.error_text()), timeout=WAIT_MS)
    assert tab.error_text() == (
        "The Piper voice “en_US-joe-medium” is damaged: the sound “_” stands for 100000 symbols in its phoneme map, "
        "where a Piper voice uses at most 4. Copy or download the voice again from its source.")
    assert store.imported() == []


def test_a_voice_damaged_after_its_import_is_refused_in_the_tabs_message(qtbot, tab_on, tmp_path):
    require_tool("espeak-ng")
    store = TtsModelStore(tmp_path / "store")
    model = store.import_folder(copy_of_joe(tmp_path / "voice"))
    pad_for_100000_ids(store.folder(model.name))
    tab = tab_on(store, model.name)
    qtbot.waitUntil(lambda: bool(tab.error_text()), timeout=WAIT_MS)
    assert tab.error_text().startswith(f"The Piper voice “{model.title}” is damaged: the sound “_” stands for "
                                       "100000 symbols")
    assert "Traceback" not in tab.error_text()
