"""File → Open subtitles… and dropped .srt/.vtt files in the real window: subtitles made elsewhere
become the transcript of their recording, exported again unchanged where nothing was edited, edited
like any transcript; a bad file is refused with a sentence naming its line."""
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from tests.ui.transcribe.editor.test_autosave_window import close, copy_of, open_window, texts
from tests.ui.transcribe.editor.test_editor_window import CTRL, press, select_line
from tests.ui.transcribe.test_transcribe_tab import drop

pytestmark = pytest.mark.slow

# Lines the SRT writer keeps as they are (each fits on one subtitle line), so that an unedited round
# trip can be compared byte for byte; the writer re-wraps longer lines by its own line limits.
ORIGINAL_SRT = (
    "1\n00:00:00,250 --> 00:00:02,900\nAnd so my fellow Americans,\n\n"
    "2\n00:00:03,200 --> 00:00:05,500\nask not what your country\n\n"
    "3\n00:00:05,600 --> 00:00:08,000\ncan do for you.\n\n"
    "4\n00:00:08,500 --> 00:00:10,250\n我们的国家\n"
)


def fresh_window(qtbot, settings):
    window = open_window(qtbot, settings)
    # Qt remembers the modifiers of the last key event, from the test before too: a plain key first, so
    # that selecting a row is not taken as Ctrl-clicking it.
    qtbot.keyClick(window.transcribe_tab.queue_view, Qt.Key.Key_Escape)
    return window


def read(qtbot, tab) -> None:
    """Wait for the subtitle file to be read: that is done off the window's thread."""
    qtbot.waitUntil(lambda: not tab.subtitle_import.reading(), timeout=10_000)


def choose_in_file_dialog(monkeypatch, *paths) -> None:
    """The next file dialogs answer with these files, one each, as if the user picked them."""
    answers = [str(path) for path in paths]
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *args, **kwargs: (answers.pop(0), "")))


def exported_srt(qtbot, tab, folder):
    bar = tab.export_bar
    for fmt, box in bar.format_boxes.items():
        box.setChecked(fmt == "srt")
    tab.set_export_folder(folder)
    qtbot.mouseClick(bar.export_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bar.done_message is not None and bar.done_message.isVisible(), timeout=30_000)
    qtbot.mouseClick(bar.done_message.close_button, Qt.MouseButton.LeftButton)


def test_an_opened_srt_exported_again_is_the_same_file(qtbot, settings, tmp_path, monkeypatch):
    recording = copy_of("jfk.flac", tmp_path / "in", "speech.flac")
    subtitles = tmp_path / "in" / "speech.srt"
    subtitles.write_bytes(ORIGINAL_SRT.encode())
    window = fresh_window(qtbot, settings)
    tab = window.transcribe_tab
    choose_in_file_dialog(monkeypatch, subtitles)  # the recording is found by its name, next to it
    window.open_subtitles_action.trigger()
    read(qtbot, tab)
    assert [item.path for item in tab.queue.items] == [recording]
    assert texts(tab) == ["And so my fellow Americans,", "ask not what your country", "can do for you.", "我们的国家"]
    out = tmp_path / "out"
    out.mkdir()
    exported_srt(qtbot, tab, out)
    assert (out / "speech.srt").read_bytes() == subtitles.read_bytes()

    view = tab.transcript_panel.view
    window.activateWindow()  # back from the export's message
    qtbot.waitUntil(window.isActiveWindow)
    view.setFocus()
    select_line(view, 1)
    press(qtbot, view, Qt.Key.Key_M, CTRL)
    assert texts(tab)[1] == "ask not what your country can do for you.", "edited like any transcript"
    close(qtbot, window)


def test_a_webvtt_file_dropped_next_to_its_recording_opens_as_its_transcript(qtbot, settings, tmp_path):
    recording = copy_of("jfk.flac", tmp_path / "in", "talk.flac")
    subtitles = tmp_path / "in" / "talk.vtt"
    subtitles.write_text("WEBVTT\n\n00:00.500 --> 00:02.000\n<v Anna>Hello &amp; welcome\n", encoding="utf-8")
    window = fresh_window(qtbot, settings)
    tab = window.transcribe_tab
    drop(window, subtitles)
    read(qtbot, tab)
    assert [item.path for item in tab.queue.items] == [recording], "the recording is listed, not the .vtt"
    assert texts(tab) == ["Hello & welcome"]
    assert tab.queue.items[0].transcript.segments[0].start == 0.5
    close(qtbot, window)


def test_subtitles_for_a_transcribed_recording_replace_its_lines_and_ctrl_z_brings_them_back(
        qtbot, settings, tmp_path, monkeypatch):
    recording = copy_of("jfk.flac", tmp_path / "in", "speech.flac")
    first, second = tmp_path / "first.srt", tmp_path / "second.srt"
    first.write_text("1\n00:00:01,000 --> 00:00:02,000\nfirst version\n", encoding="utf-8")
    second.write_text("1\n00:00:01,000 --> 00:00:02,000\nsecond version\n", encoding="utf-8")
    window = fresh_window(qtbot, settings)
    tab = window.transcribe_tab
    choose_in_file_dialog(monkeypatch, first, recording, second)  # not named alike: the recording is picked
    window.open_subtitles_action.trigger()
    read(qtbot, tab)
    assert texts(tab) == ["first version"]
    window.open_subtitles_action.trigger()  # the selected file's recording this time
    read(qtbot, tab)
    assert len(tab.queue.items) == 1 and texts(tab) == ["second version"]
    view = tab.transcript_panel.view
    view.setFocus()
    press(qtbot, view, Qt.Key.Key_Z, CTRL)
    assert texts(tab) == ["first version"]
    close(qtbot, window)


def test_a_bad_subtitle_file_is_refused_naming_its_line_and_nothing_is_listed(qtbot, settings, tmp_path, monkeypatch):
    copy_of("jfk.flac", tmp_path / "in", "speech.flac")
    subtitles = tmp_path / "in" / "speech.srt"
    subtitles.write_text("1\n00:00:01,000 --> 00:00:02,000\nfine\n\n2\n00:00:03,000 -> 00:00:04\nbroken\n",
                         encoding="utf-8")
    window = fresh_window(qtbot, settings)
    choose_in_file_dialog(monkeypatch, subtitles)
    window.open_subtitles_action.trigger()
    read(qtbot, window.transcribe_tab)
    assert "Line 5 of “speech.srt”" in window.statusBar().currentMessage()
    assert window.transcribe_tab.queue.items == []
    close(qtbot, window)


def test_subtitles_with_speakers_open_with_them_and_export_again_unchanged(qtbot, settings, tmp_path):
    from desktop.ui.transcribe.editor.segments_model import SegmentsModel

    copy_of("jfk.flac", tmp_path / "in", "meeting.flac")
    subtitles = tmp_path / "in" / "meeting.srt"
    subtitles.write_bytes((
        "1\n00:00:00,250 --> 00:00:02,900\nAnna: And so my fellow Americans,\n\n"
        "2\n00:00:03,200 --> 00:00:05,500\nSpeaker 2: ask not what your country\n\n"
        "3\n00:00:05,600 --> 00:00:08,000\nAnna: can do for you.\n").encode())
    window = fresh_window(qtbot, settings)
    tab = window.transcribe_tab
    drop(window, subtitles)
    read(qtbot, tab)
    panel = tab.transcript_panel
    assert texts(tab) == ["And so my fellow Americans,", "ask not what your country", "can do for you."]
    model = panel.segments_model
    assert [model.index(row, SegmentsModel.SPEAKER).data() for row in range(3)] == ["Anna", "Speaker 2", "Anna"]
    assert not panel.view.isColumnHidden(SegmentsModel.SPEAKER)
    assert set(panel.speakers_bar.name_edits) == {1, 2}
    out = tmp_path / "out"
    out.mkdir()
    exported_srt(qtbot, tab, out)
    assert (out / "meeting.srt").read_bytes() == subtitles.read_bytes()
    close(qtbot, window)


def test_subtitles_are_read_off_the_windows_thread(qtbot, settings, tmp_path, monkeypatch):
    import threading

    from desktop.ui.transcribe import subtitle_import

    recording = copy_of("jfk.flac", tmp_path / "in", "speech.flac")
    subtitles = tmp_path / "in" / "speech.srt"
    subtitles.write_bytes(ORIGINAL_SRT.encode())
    readers = []
    real_read = subtitle_import.read_subtitles

    def read_and_note(path, cancelled=None):
        readers.append(threading.current_thread())
        return real_read(path, cancelled=cancelled)
    monkeypatch.setattr(subtitle_import, "read_subtitles", read_and_note)
    window = fresh_window(qtbot, settings)
    tab = window.transcribe_tab
    tab.subtitle_import.open(subtitles, recording)
    read(qtbot, tab)
    assert texts(tab)[0] == "And so my fellow Americans,"
    assert readers and readers[0] is not threading.main_thread()
    close(qtbot, window)
