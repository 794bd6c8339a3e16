"""Where live recordings are kept and what they are called: Documents/Recordings by default, the
folder chosen in Settings otherwise, named in the interface's language, with Open folder at hand."""
from __future__ import annotations

import datetime

import pytest
from PySide6.QtCore import QObject, QUrl, Slot
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QComboBox

from desktop.core.transcription.live_capture import session_path
from desktop.ui.common.settings_dialog import SettingsDialog
from desktop.ui.transcribe.live_panel import LivePanel
from desktop.ui.transcribe.live_recordings import recordings_folder
from desktop.workers.job import JobRunner

STARTED = datetime.datetime(2026, 12, 1, 8, 51, 45)


def test_recordings_are_named_in_the_interfaces_words_and_the_date(tmp_path):
    assert session_path(tmp_path, STARTED).name == "Live captions 2026-12-01 08-51-45.flac"
    assert session_path(tmp_path, STARTED, "实时字幕").name == "实时字幕 2026-12-01 08-51-45.flac"
    # A translation can never put the file elsewhere or hide characters in its name.
    hostile = session_path(tmp_path, STARTED, "../../x\u202e/\x1b[31m:*")
    assert hostile.parent == tmp_path and hostile.name == "x 2026-12-01 08-51-45.flac"
    assert session_path(tmp_path, STARTED, " / ").name == "Live captions 2026-12-01 08-51-45.flac"


def test_by_default_they_go_to_a_recordings_folder_in_documents_and_settings_can_change_it(
        qtbot, settings, isolated_user_folders, tmp_path):
    assert recordings_folder(settings) == isolated_user_folders / "Documents" / "Recordings"

    dialog = SettingsDialog(settings)
    qtbot.addWidget(dialog)
    assert dialog.general_page.isAncestorOf(dialog.recordings_edit)
    assert dialog.recordings_edit.placeholderText() == str(isolated_user_folders / "Documents" / "Recordings")
    dialog.recordings_edit.setText(str(tmp_path / "Meetings"))
    dialog.accept()
    assert "live/recordings_folder" in dialog.changed()
    assert recordings_folder(settings) == tmp_path / "Meetings"


class OpenedUrls(QObject):
    def __init__(self):
        super().__init__()
        self.urls: list[QUrl] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:  # noqa: A003 - the name QDesktopServices calls
        self.urls.append(url)


@pytest.fixture
def opened():
    """file: URLs the app asks the desktop to open, caught by Qt's own handler mechanism."""
    handler = OpenedUrls()
    QDesktopServices.setUrlHandler("file", handler, "open")
    yield handler
    QDesktopServices.unsetUrlHandler("file")


def test_open_folder_in_the_live_panel_shows_the_recordings_folder(qtbot, tmp_path, opened):
    runner = JobRunner()
    folder = tmp_path / "Recordings"
    panel = LivePanel(runner, None, None, lambda: None, QComboBox(), lambda paths: None,
                      recordings_folder=lambda: folder)
    qtbot.addWidget(panel)
    assert panel.open_folder_button.text() == "Open folder"
    panel.open_folder_button.click()
    assert folder.is_dir()  # made, so there is something to show before the first recording
    assert [url.toLocalFile() for url in opened.urls] == [str(folder)]
    panel.shutdown()
    assert runner.shutdown(30_000)
