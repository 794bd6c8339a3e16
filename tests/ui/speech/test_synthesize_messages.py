"""What the Synthesize tab says after importing a voice folder, with a Piper voice and Chinese text,
and after saving: each sentence names what is really there."""
from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6.QtCore import QUrl
from PySide6.QtWidgets import QFileDialog

from desktop.core.speech.tts_models import TtsModelStore
from tests.core.speech.test_tts_model_import import unzipped_package
from tests.helpers.piper_voice import JOE_KEY, copy_of_joe
from tests.helpers.pulseaudio import pulseaudio, pulseaudio_server  # noqa: F401 - fixtures
from tests.ui.speech.test_synthesize_tab import (  # noqa: F401 - fixtures
    WAIT_MS,
    make_tab,
    no_stdin,
    speak_and_wait,
    wait_ready,
)

JOE = f"imported/{JOE_KEY}"
HUAYAN_TITLE = "Chinese, natural and fast (Piper, Huayan)"


def import_and_wait(qtbot, tab, folder: Path) -> None:
    tab.import_folder(folder)
    qtbot.waitUntil(lambda: not tab.picker._jobs.running("import"), timeout=WAIT_MS)


def test_a_piper_voice_is_imported_from_the_unzipped_packages_top_folder(qtbot, make_tab, tmp_path):
    tab = make_tab(TtsModelStore(tmp_path / "voices"), model=None)

    import_and_wait(qtbot, tab, unzipped_package(tmp_path / "unz"))

    wait_ready(qtbot, tab)
    assert tab.picker.model_name() == JOE
    assert "licence: CC0" in tab.picker.model_info.text()  # read from the voice's MODEL_CARD
    assert "Copying the model" not in tab.progress.format()


def test_a_folder_without_a_voice_says_so_and_copying_the_model_goes_away(qtbot, make_tab, tmp_path):
    tab = make_tab(TtsModelStore(tmp_path / "voices"), model=None)
    (tmp_path / "unz" / "docs").mkdir(parents=True)

    import_and_wait(qtbot, tab, tmp_path / "unz")

    assert tab.error_text().startswith("No Piper or Coqui voice was found in “unz”.")
    assert "Copying the model" not in tab.status_text()
    assert "Copying the model" not in tab.progress.format()


def test_with_joe_and_chinese_text_the_message_suggests_the_default_chinese_voice(qtbot, make_tab, tmp_path,
                                                                                 pulseaudio):
    store = TtsModelStore(tmp_path / "voices")
    store.import_folder(copy_of_joe(tmp_path / "joe"))
    tab = make_tab(store, model=JOE)
    wait_ready(qtbot, tab)

    speak_and_wait(qtbot, tab, "各位同事，明天上午九点开会。")
    only_chinese = tab.error_text()
    speak_and_wait(qtbot, tab, "Good morning, 各位同事。")
    mixed = tab.error_text()

    for message in (only_chinese, mixed):
        assert "cannot read the Chinese" in message
        assert HUAYAN_TITLE in message and "Tacotron" not in message, message


def test_saving_names_the_folder_offers_to_open_it_and_remembers_it(qtbot, make_tab, tmp_path, settings,
                                                                     monkeypatch):
    from PySide6.QtGui import QDesktopServices

    tab = make_tab(TtsModelStore(tmp_path / "voices"), model=None)
    folder = tmp_path / "Reception notices"
    folder.mkdir()
    opened: list[QUrl] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url) or True)

    tab.saver.save(folder / "speech.wav", np.zeros(22050, np.float32), 22050, normalize=False)
    qtbot.waitUntil(lambda: not tab.saver.saving, timeout=WAIT_MS)

    assert tab.status_text() == f"Saved “speech.wav” in the folder {folder}."
    assert tab.status_lines.open_folder_button.isVisibleTo(tab)
    tab.status_lines.open_folder_button.click()
    assert opened == [QUrl.fromLocalFile(str(folder))]
    assert settings.get("synthesize/save_folder") == str(folder)

    offered: list[str] = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda _parent, _title, path, *_a, **_k: offered.append(path) or ("", ""))
    tab.saver.choose_file()
    assert offered == [str(folder / "speech.wav")]

    tab.status_lines.set_status("Something else.")
    assert not tab.status_lines.open_folder_button.isVisibleTo(tab)
