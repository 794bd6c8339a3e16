"""After Export, one message says where the files went and offers to open the file or its folder,
without stopping the window; the next export's message takes its place."""
import pytest
from PySide6.QtCore import QObject, Qt, QUrl, Slot
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QApplication

from desktop.core.transcription.autosave import AutosaveStore, default_path
from desktop.ui.transcribe import export_bar
from desktop.ui.transcribe.export_done import ExportDoneMessage
from tests.ui.transcribe.editor.test_autosave_window import close, copy_of
from tests.ui.transcribe.editor.test_editor_window import saved, shown, timed_transcript

pytestmark = pytest.mark.slow


class OpenedUrls(QObject):
    """Takes the place of the desktop's file manager for file: links while a test runs."""

    def __init__(self):
        super().__init__()
        self.urls: list[QUrl] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        self.urls.append(url)


@pytest.fixture
def opened():
    handler = OpenedUrls()
    QDesktopServices.setUrlHandler("file", handler, "open")
    yield handler.urls
    QDesktopServices.unsetUrlHandler("file")


@pytest.fixture
def recording(tmp_path):
    source = copy_of("jfk.flac", tmp_path / "in")
    store = AutosaveStore(default_path())
    saved(store, source, timed_transcript(source))
    store.close()
    return source


def exported_message(qtbot, tab, formats, folder):
    bar = tab.export_bar
    for fmt, box in bar.format_boxes.items():
        box.setChecked(fmt in formats)
    tab.set_export_folder(folder)
    qtbot.mouseClick(bar.export_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bar.done_message is not None and bar.done_message.isVisible(), timeout=30_000)
    return bar.done_message


def test_after_export_the_file_or_its_folder_can_be_opened(qtbot, settings, recording, tmp_path, opened,
                                                           monkeypatch):
    window, tab, view = shown(qtbot, settings)
    out = tmp_path / "out"
    out.mkdir()
    message = exported_message(qtbot, tab, ["srt"], out)
    assert (out / "jfk.srt").is_file()
    assert message.windowModality() == Qt.WindowModality.NonModal, "the window goes on working under it"
    assert "jfk.srt" in message.text() and str(out) in message.text()
    qtbot.mouseClick(message.open_file_button, Qt.MouseButton.LeftButton)
    assert [url.toLocalFile() for url in opened] == [str(out / "jfk.srt")]
    qtbot.waitUntil(lambda: not message.isVisible())

    monkeypatch.setattr(export_bar, "ask_replace", lambda parent, paths: True)  # "Replace" the first export's file
    second = exported_message(qtbot, tab, ["srt", "txt"], out)
    assert [w for w in QApplication.topLevelWidgets() if isinstance(w, ExportDoneMessage) and w.isVisible()] == [
        second], "one message: the last export's"
    assert second.open_file_button is None, "two files: no single file to open"
    qtbot.mouseClick(second.open_folder_button, Qt.MouseButton.LeftButton)
    assert [url.toLocalFile() for url in opened][1:] == [str(out)]
    close(qtbot, window)


def test_close_leaves_the_files_and_opens_nothing(qtbot, settings, recording, tmp_path, opened):
    window, tab, view = shown(qtbot, settings)
    message = exported_message(qtbot, tab, ["srt"], tmp_path)
    qtbot.mouseClick(message.close_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not message.isVisible())
    assert opened == [] and (tmp_path / "jfk.srt").is_file()
    close(qtbot, window)
