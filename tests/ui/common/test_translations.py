"""The Simplified Chinese interface: complete, compiled, switchable while VoxDesk runs, Qt's own
dialogs included, and laid out without clipped words in both languages.

Set VOXDESK_SCREENSHOTS to a folder to keep the screenshots the layout test takes of every tab.
"""
import ast
import os
import string
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QLocale, Qt, QTranslator
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QDialogButtonBox,
    QFileDialog,
    QLabel,
    QMessageBox,
    QWidget,
)

from desktop.ui.common.i18n import apply_language, lrelease_command, lupdate_command
from tests.ui.conftest import JOB_TIMEOUT_MS
from tests.ui.transcribe.test_transcribe_tab import drop

ROOT = Path(__file__).resolve().parents[3]
TS_FILE = ROOT / "resources" / "translations" / "voxdesk_zh_CN.ts"
QM_FILE = TS_FILE.with_suffix(".qm")


def messages(ts_file: Path) -> dict[tuple[str, str], ET.Element]:
    """(context, source) -> the <translation> element of every message in a .ts file."""
    found = {}
    for context in ET.parse(ts_file).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            found[(name, message.findtext("source"))] = message.find("translation")
    return found


def finished(translation: ET.Element | None) -> bool:
    return translation is not None and not translation.get("type") and bool((translation.text or "").strip())


@pytest.fixture
def app(qapp):
    """The application, shown in English again after the test whatever it switched to."""
    yield qapp
    apply_language(qapp, "en")


def chinese(app) -> None:
    assert apply_language(app, "zh_CN") == "zh_CN"


# -- the translation files -----------------------------------------------------------------------


def test_every_translatable_string_in_the_code_has_a_finished_chinese_translation(tmp_path):
    extracted = tmp_path / "voxdesk_zh_CN.ts"
    subprocess.run(lupdate_command(ROOT, extracted), check=True, capture_output=True)
    wanted = messages(extracted)
    assert len(wanted) > 500  # the whole interface, not an extraction that found nothing
    have = messages(TS_FILE)
    missing = sorted(key for key in wanted if not finished(have.get(key)))
    assert not missing, (f"{len(missing)} strings lack a Chinese translation; run `make translations`, then "
                         f"translate them in {TS_FILE.name}: {missing[:10]}")


def test_the_shipped_qm_file_holds_every_translation_of_the_ts_file(tmp_path):
    """Compared message by message, not byte by byte, so another Qt release's lrelease still agrees."""
    shipped = QTranslator()
    assert shipped.load(str(QM_FILE))
    stale = [(context, source) for (context, source), translation in messages(TS_FILE).items()
             if shipped.translate(context, source) != (translation.text or "")]
    assert not stale, f"the .qm is stale, run `make translations`: {stale[:10]}"
    # And it is what lrelease makes of the .ts now.
    compiled = tmp_path / "voxdesk_zh_CN.qm"
    subprocess.run(lrelease_command(TS_FILE, compiled), check=True, capture_output=True)
    fresh = QTranslator()
    assert fresh.load(str(compiled))
    assert all(fresh.translate(context, source) == shipped.translate(context, source)
               for context, source in messages(TS_FILE))


def test_every_translation_keeps_the_placeholders_and_the_shortcut_of_its_english_text():
    def fields(text: str) -> list[str]:
        return sorted(f"{name}:{spec}" for _, name, spec, _ in string.Formatter().parse(text) if name is not None)

    for (context, source), translation in messages(TS_FILE).items():
        text = translation.text or ""
        assert fields(text) == fields(source), (context, source, text)
        assert ("&" in source) == ("&" in text), (context, source, text)


def test_translatable_strings_are_literals_lupdate_can_read():
    """tr("…"), translate("Context", "…") and N_("Context", "…"): a variable or an f-string would be
    invisible to lupdate and silently stay English."""
    problems = []
    for path in sorted((ROOT / "desktop").rglob("*.py")):
        if path.relative_to(ROOT / "desktop").as_posix() == "core/common/i18n.py":
            continue  # the marker's own definition
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.JoinedStr):
                calls = [n for n in ast.walk(node) if isinstance(n, ast.Call)]
                problems += [f"{path.name}:{node.lineno} inside an f-string" for call in calls
                             if _marker(call)]
            if not isinstance(node, ast.Call) or not _marker(node):
                continue
            literals = node.args[:1] if _marker(node) == "tr" else node.args[:2]
            expected = 1 if _marker(node) == "tr" else 2
            if len(literals) < expected or not all(isinstance(a, ast.Constant) and isinstance(a.value, str)
                                                   for a in literals):
                problems.append(f"{path.name}:{node.lineno} {ast.unparse(node)[:80]}")
    assert not problems, problems


def _marker(call: ast.Call) -> str | None:
    """"tr", "translate" or "N_" for a call lupdate reads; None for anything else (str.translate too)."""
    func = call.func
    if isinstance(func, ast.Name) and func.id in ("translate", "N_"):
        return func.id
    if isinstance(func, ast.Attribute) and func.attr == "tr":
        return "tr"
    if isinstance(func, ast.Attribute) and func.attr == "translate" and len(call.args) >= 2:
        return "translate"
    return None


# -- choosing the language -------------------------------------------------------------------------


def test_the_interface_follows_a_chinese_system_locale_when_no_language_was_chosen(app):
    assert apply_language(app, "", system=QLocale("zh_CN")) == "zh_CN"
    assert QCoreApplication.translate("MainWindow", "Transcribe") == "转写"


def test_the_interface_stays_english_for_a_system_locale_without_a_translation(app):
    assert apply_language(app, "", system=QLocale("de_DE")) is None
    assert QCoreApplication.translate("MainWindow", "Transcribe") == "Transcribe"
    # Qt's own buttons stay English too, so a German computer does not get a mixed window.
    box = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
    assert box.button(QDialogButtonBox.StandardButton.Cancel).text() == "Cancel"


def test_qt_standard_buttons_and_the_file_dialog_come_out_in_chinese(qtbot, app):
    chinese(app)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
    qtbot.addWidget(buttons)
    assert buttons.button(QDialogButtonBox.StandardButton.Ok).text() == "确定"
    assert buttons.button(QDialogButtonBox.StandardButton.Cancel).text() == "取消"

    box = QMessageBox(QMessageBox.Icon.Question, "", "", QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
    qtbot.addWidget(box)
    assert box.button(QMessageBox.StandardButton.Yes).text().startswith("是")
    assert box.button(QMessageBox.StandardButton.No).text().startswith("否")

    dialog = QFileDialog(None, "", str(ROOT))
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog)
    qtbot.addWidget(dialog)
    texts = {label.text() for label in dialog.findChildren(QLabel)}
    # Two of these are missing from Qt's own translation; VoxDesk's .ts fills them in.
    assert {"查找范围(&L)：", "文件名称(&N)：", "文件类型(&T)："} <= texts, texts


def test_switching_to_chinese_in_settings_retranslates_the_window_and_keeps_the_queue(qtbot, app, window, jfk):
    from desktop.ui.common.settings_dialog import SettingsDialog

    tab = window.transcribe_tab
    drop(tab, jfk)
    qtbot.waitUntil(lambda: len(tab.queue.items) == 1, timeout=JOB_TIMEOUT_MS)
    item = tab.queue.items[0]
    tab.prompt_edit.setText("会议记录")
    synthesize = window.tabs.widget(1)
    synthesize.editor.setPlainText("欢迎光临。")
    window.tabs.setCurrentIndex(1)

    window.settings_action.trigger()
    dialog = window.findChild(SettingsDialog)
    dialog.language_combo.setCurrentIndex(dialog.language_combo.findData("zh_CN"))
    dialog.accept()

    tabs = window.tabs
    qtbot.waitUntil(lambda: tabs.tabText(0) == "转写")  # Qt delivers LanguageChange through the event loop
    assert [tabs.tabText(i) for i in range(tabs.count())] == ["转写", "语音合成", "声音克隆"]
    assert [action.text() for action in window.menuBar().actions()] == ["文件(&F)", "编辑(&E)", "设置(&S)", "工具(&T)", "帮助(&H)"]
    assert window.add_action.text() == "添加文件(&A)…"
    assert tab.add_button.text() == "添加文件…" and tab.export_all_button.text() == "全部导出"
    assert synthesize.speak_button.text() == "朗读"
    assert tab.queue_model.headerData(0, Qt.Orientation.Horizontal) == "文件"
    # Nothing the user had is lost: the queued file, what was typed, the open tab.
    assert tab.queue.items == [item]
    assert tab.prompt_edit.text() == "会议记录"
    assert synthesize.editor.toPlainText() == "欢迎光临。"
    assert tabs.currentIndex() == 1
    assert "下次启动" not in window.statusBar().currentMessage()  # no "restart VoxDesk" notice

    window.settings_action.trigger()
    dialog = window.findChild(SettingsDialog)
    assert dialog.windowTitle() == "设置"
    dialog.language_combo.setCurrentIndex(dialog.language_combo.findData("en"))
    dialog.accept()
    qtbot.waitUntil(lambda: tabs.tabText(0) == "Transcribe")
    assert [tabs.tabText(i) for i in range(tabs.count())] == ["Transcribe", "Synthesize", "Clone"]
    assert tab.queue.items == [item]


def test_a_core_error_sentence_is_shown_in_chinese_in_the_transcribe_tab_row(qtbot, app, window, tmp_path):
    from desktop.ui.transcribe.queue_model import QueueModel
    from desktop.workers.transcription_queue import ItemState

    chinese(app)
    empty = tmp_path / "空白.wav"
    empty.write_bytes(b"")
    tab = window.transcribe_tab
    drop(tab, empty)
    qtbot.waitUntil(lambda: bool(tab.queue.items) and tab.queue.items[0].state is ItemState.FAILED,
                    timeout=JOB_TIMEOUT_MS)
    status = tab.queue_model.index(0, QueueModel.STATUS)
    assert status.data() == "文件“空白.wav”是空的（0 字节），没有可转写的内容。"
    tab.queue_view.selectRow(0)
    assert tab.result_title.text() == status.data()

    # The sentence came from the core in English and is translated where it is shown, so it follows
    # the interface when the language changes again.
    apply_language(app, "en")
    assert status.data() == "The file “空白.wav” is empty (0 bytes), so there is nothing to transcribe."
    qtbot.waitUntil(lambda: tab.result_title.text() == status.data())  # on Qt's LanguageChange event


def test_a_chinese_interface_starts_voice_recording_with_the_chinese_passage_and_consent_sentence(
        qtbot, app, settings, tiny_model):
    from desktop.app import create_app
    from desktop.ui.clone.clone_tab import reading_passage

    settings.set("ui/language", "zh_CN")
    _app, window = create_app([], settings=settings)
    qtbot.addWidget(window)
    clone = window.tabs.widget(2)
    assert clone.add_language == "zh"
    assert clone.recorder.script.toPlainText() == reading_passage("zh")
    assert clone.recorder.script_title.text() == "请朗读："
    clone.speaker_name_edit.setText("张伟")
    clone.show_consent_step()
    sentence = clone.recorder.script.toPlainText()
    assert sentence.startswith("我是张伟，今天是") and "我同意使用我的声音生成语音" in sentence
    assert clone.step_label.text() == "第 2 步（共 2 步）：授权。请张伟朗读下面这句话，包括验证码。"
    window.close()


def test_the_doctor_shows_its_findings_and_fixes_in_chinese(qtbot, app, settings, tmp_path):
    from desktop.core.gpu.doctor import run_doctor
    from desktop.ui.gpu.doctor_dialog import DoctorDialog
    from desktop.workers.job import JobRunner
    from tests.fixtures.rocm.fakes import doctor_probes, machine, smoke_fails_in_conv1d

    chinese(app)
    result = run_doctor(probes=doctor_probes(tmp_path, machine(smoke=smoke_fails_in_conv1d())))
    runner = JobRunner()
    dialog = DoctorDialog(settings=settings, runner=runner, doctor=lambda **_: result)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.doctor_result() is not None and not dialog.is_running(), timeout=JOB_TIMEOUT_MS)
    assert dialog.windowTitle() == "诊断：检查这台电脑"
    assert dialog.state_label.text() == "需要修复的问题：2 个。警告：0 个。"
    row = dialog.rows["gfx_target"]
    assert row.title.text() == "GPU 架构（gfx）"
    assert row.finding.text().startswith("已安装的 PyTorch 不支持 gfx1031")
    assert "这一系列的显卡需要设置 HSA_OVERRIDE_GFX_VERSION=10.3.0 才能运行" in row.finding.text()
    assert row.override.text() == "下次启动时应用 HSA_OVERRIDE_GFX_VERSION=10.3.0"
    assert dialog.rows["audio_decode"].title.text() == "音频解码"
    assert dialog.summary_label.text().startswith("GPU AMD Radeon RX 6700 XT 未通过测试")
    if os.environ.get("VOXDESK_SCREENSHOTS"):
        dialog.grab().save(str(Path(os.environ["VOXDESK_SCREENSHOTS"]) / "zh_CN-DoctorDialog.png"))
    dialog.close()
    assert runner.shutdown(30_000)


# -- layout ----------------------------------------------------------------------------------------


def clipped(root: QWidget) -> list[str]:
    """Visible labels, buttons and check boxes narrower than their text (word-wrapped labels aside)."""
    found = []
    for widget in root.findChildren(QWidget):
        if not widget.isVisibleTo(root) or widget.width() <= 0:
            continue
        if isinstance(widget, QLabel) and not widget.wordWrap() and widget.text() and not widget.pixmap():
            needed = widget.sizeHint().width()
        elif isinstance(widget, QAbstractButton) and widget.text():
            needed = widget.sizeHint().width()
        else:
            continue
        if widget.width() + 1 < needed:
            found.append(f"{type(widget).__name__} “{widget.text()}”: {widget.width()} < {needed}")
    return found


def settled_clipping(qtbot, root: QWidget) -> list[str]:
    """What is still clipped once Qt has laid the window out again (a busy machine may take a while)."""
    found = clipped(root)
    for _ in range(20):
        if not found:
            break
        qtbot.wait(100)
        found = clipped(root)
    return found


@pytest.mark.parametrize("size", [(1100, 760), (760, 540)], ids=["default size", "smallest size"])
@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_no_label_or_button_is_clipped_on_any_tab_or_in_settings(qtbot, app, window, language, size):
    from desktop.ui.common.about import AboutDialog
    from desktop.ui.common.settings_dialog import SettingsDialog

    # The status bar's text changes once the device is known: measure the window as it then stays.
    qtbot.waitUntil(lambda: window.device_status.report() is not None, timeout=JOB_TIMEOUT_MS)
    apply_language(app, language)
    window.resize(*size)
    assert window.size().toTuple() == size
    keep = os.environ.get("VOXDESK_SCREENSHOTS")
    problems = []
    for index in range(window.tabs.count()):
        window.tabs.setCurrentIndex(index)
        pages = getattr(window.tabs.widget(index), "pages", None)
        for page in range(pages.count() if pages is not None else 1):
            if pages is not None:
                pages.setCurrentIndex(page)
            problems += [f"tab {index}.{page}: {problem}" for problem in settled_clipping(qtbot, window)]
            if keep:
                Path(keep).mkdir(parents=True, exist_ok=True)
                window.grab().save(str(Path(keep) / f"{language}-{size[0]}-tab{index}-{page}.png"))
    for dialog in (SettingsDialog(window._settings, window), AboutDialog(window)):
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        problems += [f"{type(dialog).__name__}: {problem}" for problem in clipped(dialog)]
        if keep:
            dialog.grab().save(str(Path(keep) / f"{language}-{type(dialog).__name__}.png"))
        dialog.close()
    assert not problems, problems
