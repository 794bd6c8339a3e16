"""Settings… → Downloads: the download source, a company mirror's address, shared model folders."""
from __future__ import annotations

import shutil

from PySide6.QtWidgets import QDialogButtonBox

from desktop.ui.common.settings_dialog import SettingsDialog
from tests.helpers.weights import tiny_en_dir


def open_settings(qtbot, settings) -> SettingsDialog:
    dialog = SettingsDialog(settings)
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def test_the_source_and_shared_folders_are_written_on_ok(qtbot, settings, tmp_path):
    dialog = open_settings(qtbot, settings)
    box = dialog.downloads_box
    assert box.source_combo.currentData() == "auto" and box.source_combo.currentText() == "Automatic"
    assert [box.source_combo.itemText(i) for i in range(box.source_combo.count())] == [
        "Automatic", "Hugging Face", "hf-mirror.com (mirror in mainland China)", "Company mirror"]
    box.source_combo.setCurrentIndex(box.source_combo.findData("hf-mirror"))
    box.add_folder(str(tmp_path / "a"))
    box.add_folder(str(tmp_path / "b"))
    box.add_folder(str(tmp_path / "a"))  # once is enough
    dialog.accept()
    assert settings.get("downloads/source") == "hf-mirror"
    assert settings.get("models/shared_folders") == f"{tmp_path / 'a'}\n{tmp_path / 'b'}"
    assert dialog.changed() == {"downloads/source", "models/shared_folders"}
    sources = settings.model_sources()
    assert sources.downloads.candidates() == ["https://hf-mirror.com"]


def test_cancel_writes_nothing_and_a_folder_can_be_removed(qtbot, settings, tmp_path):
    settings.set("models/shared_folders", str(tmp_path))
    dialog = open_settings(qtbot, settings)
    folders = dialog.downloads_box.folders
    assert folders.folder_list.count() == 1 and not folders.remove_button.isEnabled()
    folders.folder_list.setCurrentRow(0)
    assert folders.remove_button.isEnabled()
    folders.remove_button.click()
    assert folders.folder_list.count() == 0
    dialog.reject()
    assert settings.get("models/shared_folders") == str(tmp_path)


def test_a_company_mirror_needs_an_address_that_is_a_url(qtbot, settings):
    dialog = open_settings(qtbot, settings)
    dialog.pages.setCurrentWidget(dialog.downloads_page)  # as a user clicks its tab
    box = dialog.downloads_box
    assert not box.url_edit.isEnabled()
    box.source_combo.setCurrentIndex(box.source_combo.findData("custom"))
    assert box.url_edit.isEnabled() and box.url_problem.isVisible()
    assert box.url_problem.text() == "Enter the mirror's address, starting with https:// or http://."
    box.url_edit.setText("https://models.corp.example/hf/ ")
    assert not box.url_problem.isVisible()
    dialog.accept()
    assert settings.get("downloads/custom_url") == "https://models.corp.example/hf"
    assert settings.model_sources().downloads.candidates() == ["https://models.corp.example/hf"]


def test_a_shared_folder_added_in_settings_serves_the_window_at_once(qtbot, window, tmp_path):
    shared = tmp_path / "it-models"
    shutil.copytree(tiny_en_dir(), shared / "faster-whisper-tiny.en")
    store = window._store
    assert store.local("tiny.en") == []
    window.open_settings()
    dialog = window.findChild(SettingsDialog)
    dialog.downloads_box.add_folder(str(shared))
    dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok).click()
    [model] = store.local("tiny.en")
    assert model.shared and model.path == shared / "faster-whisper-tiny.en"
