"""No English in the Chinese interface: every text the window, its menus and the dialogs reachable from
them show (offscreen, without a network) is walked in Simplified Chinese, and a Latin word is allowed
only when it is a name that stays as it is.

The walk collects what a person reads: window titles, labels, buttons, group box titles, tab texts,
menus and actions, tooltips, placeholder texts, combo box items and table headers; hidden widgets
included, since a page or a message shows them later.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import QAbstractItemModel, QAbstractListModel, QDir, QModelIndex, QObject, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QFileSystemModel,
    QGroupBox,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QTabBar,
    QTabWidget,
    QTextEdit,
    QWidget,
)

from tests.ui.common.test_translations import app, chinese  # noqa: F401 - the fixture, shown in English again after
from tests.ui.conftest import JOB_TIMEOUT_MS
from tests.ui.transcribe.test_transcribe_tab import drop

# Latin words a Chinese interface shows as they are, and why: product and engine names (VoxDesk,
# Whisper, Coqui, XTTS, OpenVoice, Piper, VITS, PerTh, CTranslate2, PyTorch, vLLM, WebVTT) and the voices'
# own names (Joe, Huayan, VCTK); the hardware and the standards people know by these letters (GPU, CPU,
# ROCm, AMD Radeon RX, CUDA, gfx, HSA, API, IT), licences (MIT, CPML, CC0); file formats (SRT, VTT, TXT, JSON,
# WAV, MP3, FLAC, ...); units; the keys named on the keyboard; and "English", which the language lists
# show in its own name, as they show 中文, so that each person finds their language.
ALLOWED = {
    "voxdesk", "whisper", "coqui", "xtts", "openvoice", "piper", "vits", "perth", "pytorch", "vllm", "webvtt",
    "joe", "huayan", "vctk",
    "gpu", "cpu", "rocm", "amd", "radeon", "rx", "cuda", "gfx", "hsa", "api", "it", "mit", "cpml", "cc",
    "srt", "vtt", "txt", "json", "wav", "mp", "flac", "ogg", "opus", "onnx", "pt",
    "mb", "gb", "kb", "kib", "mib", "gib", "khz", "hz", "ms", "kbit", "db",
    "ctrl", "shift", "alt", "del", "esc", "enter", "space", "pgup", "pgdown", "home", "end", "backspace",
    "english",
}
# Names of more than one word, and names with a hyphen, that stay as they are (the About box's credits).
NAMES = ("Qt for Python", "The Qt Company", "Hugging Face", "openai-whisper", "faster-whisper", "CTranslate2",
         "OpenAI", "SYSTRAN", "OpenNMT", "PyAV", "FFmpeg", "BSD", "LGPL", "Python", "Qt")
# What is not a word to translate: web and mail addresses, file names and paths, environment variables, the
# command line (“voxdesk subtitles check”), models named as the model list names them (tiny.en,
# large-v3, ct2), version numbers and their tags (2.14.1+cu130), markup.
NOT_WORDS = re.compile(r"https?://\S+|[\w.\-]+@[\w.\-]+|[\w\-]+\.(?:[a-z0-9]{1,5})\b|[~/][^\s，。：、）]*|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|"
                       r"“voxdesk [^”]*”|\b(?:tiny|base|small|medium|large|turbo|distil)(?:[.\-][\w.\-]+)?\b|"
                       r"\bv\d\S*|\bct2\b|\+\w+")
MARKUP = re.compile(r"<[^>]+>")  # rich text's tags, removed first (an address inside one is no word either)
WORD = re.compile(r"[A-Za-z]{2,}")
# English words a text shows on purpose: the find dialog's tooltip explains whole-word search on English
# text with an English example.
EXAMPLES = {"cat", "category"}


def english_words(text: str, machine_names: tuple[str, ...] = ()) -> list[str]:
    """The Latin words of text that are not names allowed to stay as they are. machine_names: what this
    computer calls its processor and graphics card, shown as it is."""
    text = MARKUP.sub(" ", text.replace("&&", "&"))
    for name in (*machine_names, *NAMES):
        text = text.replace(name, " ")
    text = NOT_WORDS.sub(" ", text)
    return [word for word in WORD.findall(text) if word.lower() not in ALLOWED and word not in EXAMPLES]


def shown_texts(root: QWidget) -> list[tuple[str, str]]:
    """(where, text) for every text root and its children show, hidden widgets included."""
    found: list[tuple[str, str]] = []

    def add(widget: QObject, what: str, text: str | None) -> None:
        if text and text.strip():
            found.append((f"{type(widget).__name__}{'#' + widget.objectName() if widget.objectName() else ''}"
                          f" {what}", text))

    for widget in [root, *root.findChildren(QWidget)]:
        if widget.isWindow():
            add(widget, "window title", widget.windowTitle())
        add(widget, "tooltip", widget.toolTip())
        if isinstance(widget, QLabel):
            add(widget, "label", widget.text())
        elif isinstance(widget, QAbstractButton):
            add(widget, "button", widget.text())
        elif isinstance(widget, QGroupBox):
            add(widget, "group box", widget.title())
        elif isinstance(widget, QLineEdit):
            add(widget, "placeholder", widget.placeholderText())
        elif isinstance(widget, (QPlainTextEdit, QTextEdit)):
            add(widget, "placeholder", widget.placeholderText())
        elif isinstance(widget, QComboBox):
            for index in range(widget.count()):
                add(widget, f"item {index}", widget.itemText(index))
        elif isinstance(widget, QMenu):
            add(widget, "menu title", widget.title())
        if isinstance(widget, QTabWidget):
            for index in range(widget.count()):
                add(widget, f"tab {index}", widget.tabText(index))
                add(widget, f"tab {index} tooltip", widget.tabToolTip(index))
        elif isinstance(widget, QTabBar):
            for index in range(widget.count()):
                add(widget, f"tab {index}", widget.tabText(index))
        if isinstance(widget, QAbstractItemView) and widget.model() is not None:
            found += [(f"{type(widget).__name__} {where}", text) for where, text in headers(widget.model())]
        for action in widget.actions():
            add(action, "action", action.text())
            if action.toolTip() != action.text().replace("&", "").rstrip("…").strip():
                add(action, "action tooltip", action.toolTip())
    return found


def headers(model: QAbstractItemModel) -> list[tuple[str, str]]:
    found = []
    if isinstance(model, QAbstractListModel):
        return found  # one column, no header
    for section in range(model.columnCount(QModelIndex())):
        text = model.headerData(section, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole)
        if isinstance(text, str) and text.strip():
            found.append((f"header {section}", text))
    return found


def english_in(root: QWidget, where: str, machine_names: tuple[str, ...] = ()) -> list[str]:
    return sorted({f"{where}: {place}: {text!r}" for place, text in shown_texts(root)
                   if english_words(text, machine_names)})


def machine_names_of(window) -> tuple[str, ...]:
    report = window.device_status.report()
    return tuple(name for name in (report.cpu_name, report.gpu_name) if name)


def test_the_allow_list_keeps_names_and_catches_english_words():
    assert english_words("VoxDesk 用 Whisper 在 GPU 上转写 tiny.en（75 MB），快捷键 Ctrl+Shift+E") == []
    assert english_words("导出为 SRT、VTT、TXT 或 JSON，见 https://example.com/help 和 ~/录音/jfk.flac") == []
    assert english_words("说话人 1") == [] and english_words("Speaker 1") == ["Speaker"]
    assert english_words("未说明（imported）") == ["imported"]
    assert english_words("Folder") == ["Folder"]
    assert english_words('<a href="https://tts-hub.github.io/cpml">许可</a>，licensing@coqui.ai') == []
    assert english_words("Qt for Python — The Qt Company (LGPL)；运行 “voxdesk subtitles check”") == []
    assert english_words("PyTorch 2.14.1+cu130（CUDA 版）", ("AMD EPYC",)) == []
    assert english_words("CPU：AMD EPYC（2 核）", ("AMD EPYC",)) == [] and english_words("CPU：AMD EPYC") == ["EPYC"]


# -- the walk ------------------------------------------------------------------------------------


def dialogs(window, tmp_path: Path) -> list[QWidget]:
    """Every dialog the menus and the tabs open that can be built without a network, as they open it."""
    from desktop.core.gpu.doctor import run_doctor
    from desktop.core.transcription.region_rerun import region_of
    from desktop.core.speech.tts_licences import CPML_TERMS
    from desktop.core.speech.tts_models import TtsModelStore
    from desktop.ui.common.about import AboutDialog
    from desktop.ui.common.settings_dialog import SettingsDialog
    from desktop.ui.common.user_guide import UserGuideDialog
    from desktop.ui.common.watermark_check import WatermarkCheckDialog
    from desktop.ui.gpu.doctor_dialog import DoctorDialog
    from desktop.ui.gpu.fallback_dialog import FallbackDialog
    from desktop.ui.speech.licence_dialog import LicenceDialog
    from desktop.ui.transcribe.editor.find_replace_dialog import FindReplaceDialog
    from desktop.ui.transcribe.editor.remember_voice import RememberVoiceDialog
    from desktop.ui.transcribe.glossary_dialog import GlossariesDialog
    from desktop.ui.transcribe.live_caption_window import LiveCaptionWindow
    from desktop.ui.transcribe.model_dialogs import ImportModelDialog, MeasureComputerDialog, WhisperDownloadDialog
    from desktop.ui.transcribe.editor.transcribe_again_dialog import TranscribeAgainDialog
    from tests.fixtures.rocm.fakes import doctor_probes, machine, smoke_fails_in_conv1d

    tab = window.transcribe_tab
    result = run_doctor(probes=doctor_probes(tmp_path, machine(smoke=smoke_fails_in_conv1d())))
    xtts = next(model for model in TtsModelStore(tmp_path / "tts").catalog() if "xtts" in model.name.lower())
    return [
        SettingsDialog(window._settings, window, runner=window.runner),
        AboutDialog(window),
        UserGuideDialog(window),
        GlossariesDialog(window._settings.glossary_library(), window),
        WatermarkCheckDialog(window.runner, window),
        ImportModelDialog(window._store, window.runner, window),
        MeasureComputerDialog(window.measurement, window),
        DoctorDialog(window, settings=window._settings, runner=window.runner, doctor=lambda **_: result),
        FallbackDialog([], window),
        FindReplaceDialog(tab.transcript_panel.context, window),
        RememberVoiceDialog("说话人1", "", window),
        LiveCaptionWindow(window),
        LicenceDialog(xtts, CPML_TERMS, window),
        WhisperDownloadDialog(window._store, window.runner, "small", "ct2", window),  # shown, not opened: no download
        TranscribeAgainDialog(region_of(tab.queue.items[0].transcript, [0]), window),
    ]


def file_dialog(tmp_path: Path) -> QFileDialog:
    """Qt's own file picker as VoxDesk shows it where the desktop has none of its own, in a folder holding
    a folder and a recording."""
    (tmp_path / "picked" / "会议").mkdir(parents=True)
    # Not empty: Qt writes a size under 1 KB in the system's language ("0 bytes"), not the interface's.
    (tmp_path / "picked" / "jfk.flac").write_bytes(b"\0" * 2048)
    dialog = QFileDialog(None, "", str(tmp_path / "picked"))
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog)
    dialog.setViewMode(QFileDialog.ViewMode.Detail)
    return dialog


def english_in_file_dialog(qtbot, dialog: QFileDialog) -> list[str]:
    model = dialog.findChild(QFileSystemModel)
    dialog.show()
    qtbot.waitUntil(lambda: model.rowCount(model.index(dialog.directory().absolutePath())) == 2,
                    timeout=JOB_TIMEOUT_MS)
    folder = model.index(dialog.directory().absolutePath())
    problems = english_in(dialog, "file dialog")
    for row in range(model.rowCount(folder)):
        for column in range(model.columnCount(folder)):
            text = model.index(row, column, folder).data()
            if column > 0 and isinstance(text, str) and english_words(text):
                problems.append(f"file dialog: row {row} column {column}: {text!r}")
    return problems


def english_in_everything(qtbot, window, jfk: Path, tmp_path: Path) -> dict[str, str]:
    """What the Chinese window, its menus and dialogs show in English: {what was found: where first}."""
    tab = window.transcribe_tab
    drop(tab, jfk)  # a finished transcript: its table, the editor's actions and their dialogs
    qtbot.waitUntil(lambda: bool(tab.queue.items) and tab.queue.items[0].transcript is not None,
                    timeout=JOB_TIMEOUT_MS)
    tab.queue_view.selectRow(0)
    qtbot.waitUntil(lambda: window.device_status.report() is not None, timeout=JOB_TIMEOUT_MS)
    machine = machine_names_of(window)
    for menu in window.findChildren(QMenu):
        menu.aboutToShow.emit()  # menus filled as they open (recent transcripts, glossaries)
    problems: dict[str, str] = {}
    for index in range(window.tabs.count()):
        window.tabs.setCurrentIndex(index)
        pages = getattr(window.tabs.widget(index), "pages", None)
        for page in range(pages.count() if pages is not None else 1):
            if pages is not None:
                pages.setCurrentIndex(page)
            for found in english_in(window, "window", machine):
                problems.setdefault(found, f"tab {index}.{page}")
    for dialog in dialogs(window, tmp_path):
        qtbot.addWidget(dialog)
        dialog.show()
        for found in english_in(dialog, type(dialog).__name__, machine):
            problems.setdefault(found, "")
        dialog.close()
    dialog = file_dialog(tmp_path)
    qtbot.addWidget(dialog)
    for found in english_in_file_dialog(qtbot, dialog):
        problems.setdefault(found, "")
    print(f"{len(problems)} English strings in the Chinese interface")
    return problems


def report(problems: dict[str, str]) -> str:
    return "\n".join(f"{found} ({where})" if where else found for found, where in problems.items())


def test_the_window_switched_to_chinese_its_menus_and_every_dialog_show_no_english(
        qtbot, app, window, jfk, tmp_path):  # noqa: F811
    chinese(app)
    problems = english_in_everything(qtbot, window, jfk, tmp_path)
    assert not problems, report(problems)


def test_the_window_started_in_chinese_its_menus_and_every_dialog_show_no_english(
        qtbot, app, settings, tiny_model, jfk, tmp_path):  # noqa: F811
    from desktop.app import create_app

    settings.set("ui/language", "zh_CN")
    _app, window = create_app([], settings=settings)
    qtbot.addWidget(window)
    window.show()
    try:
        problems = english_in_everything(qtbot, window, jfk, tmp_path)
    finally:
        window.close()
        qtbot.waitUntil(lambda: not window.runner.busy, timeout=JOB_TIMEOUT_MS)
    assert not problems, report(problems)


def test_qt_s_own_file_picker_names_a_folder_in_chinese(qtbot, app, tmp_path):  # noqa: F811
    chinese(app)
    dialog = file_dialog(tmp_path)
    qtbot.addWidget(dialog)
    model = dialog.findChild(QFileSystemModel)
    dialog.show()
    folder = model.index(str(tmp_path / "picked"))
    qtbot.waitUntil(lambda: model.rowCount(folder) == 2, timeout=JOB_TIMEOUT_MS)
    types = {model.index(row, 0, folder).data(): model.index(row, 2, folder).data() for row in range(2)}
    assert types["会议"] == "文件夹"
    assert QDir(str(tmp_path)).exists()


# -- words the walk does not reach without a transcript or an imported voice -----------------------


def test_a_speaker_nobody_named_is_shown_in_chinese_and_exported_as_the_transcript_names_it(qtbot, app):  # noqa: F811
    from desktop.core.transcription.subtitles import to_txt
    from desktop.core.transcription.transcript import Segment, Transcript
    from desktop.ui.transcribe.editor.segments_model import SegmentsModel
    from desktop.ui.transcribe.editor.speakers_bar import SpeakersBar

    chinese(app)
    meeting = Transcript(segments=[Segment(0.0, 2.0, " Shall we start?", speaker=1), Segment(2.5, 4.0, " Yes.", speaker=2)],
                         language="en", duration=4.0, speaker_names={2: "Anna"})
    model = SegmentsModel()
    bar = SpeakersBar(model)
    qtbot.addWidget(bar)
    model.show_transcript(meeting)

    shown = [model.index(row, SegmentsModel.SPEAKER).data() for row in range(model.rowCount())]
    assert shown == ["说话人1", "Anna"]  # a name the user typed stays as typed
    assert dict(model.speaker_choices()) == {1: "说话人1", 2: "Anna"}
    assert english_in(bar, "speakers bar") == []
    assert "Speaker 1:" in to_txt(meeting)  # the English transcript's own words in what is exported


def test_an_imported_voice_without_a_stated_licence_says_so_in_chinese(app):  # noqa: F811
    from desktop.core.speech.tts_licences import LICENCE_NOT_STATED
    from desktop.core.speech.tts_model_folders import model_from_manifest
    from desktop.ui.common.i18n import translated

    chinese(app)
    model = model_from_manifest({"name": "imported/office-voice", "licence": str(LICENCE_NOT_STATED)},
                                 downloaded=True)
    assert translated(model.licence) == "未说明（导入）"
    assert translated(model_from_manifest({"name": "x"}, downloaded=True).licence) == "未知"
    assert translated(model_from_manifest({"name": "x", "licence": "MIT"}, downloaded=True).licence) == "MIT"
