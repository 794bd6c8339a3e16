"""The user's choices survive a restart; Settings… writes only on OK and frees the model when the
engine or device changes."""
import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QValidator
from PySide6.QtWidgets import QLabel

from desktop.settings import Settings
from desktop.ui.common.settings_dialog import SettingsDialog
from desktop.workers.transcription_queue import ItemState
from tests.ui.conftest import JOB_TIMEOUT_MS
from tests.ui.transcribe.test_transcribe_tab import drop


def choose(combo, value) -> None:
    """Pick an entry the way a user does (activated is what the tab listens to)."""
    index = combo.findData(value)
    assert index >= 0, value
    combo.setCurrentIndex(index)
    combo.activated.emit(index)


@pytest.mark.slow
def test_the_transcribe_choices_are_remembered_between_runs(qtbot, settings_path, settings, tiny_model, tmp_path):
    from desktop.app import create_app

    _app, first = create_app([], settings=settings)
    qtbot.addWidget(first)
    tab = first.transcribe_tab
    qtbot.waitUntil(lambda: tab.model_combo.count() > 1, timeout=10_000)
    choose(tab.language_combo, "zh")
    choose(tab.task_combo, "translate")
    tab.prompt_edit.setText("以下是普通话的句子。")
    tab.prompt_edit.editingFinished.emit()
    tab.format_boxes["vtt"].setChecked(True)
    tab.format_boxes["json"].setChecked(True)
    tab.set_export_folder(tmp_path)
    first.close()
    settings.sync()

    # A new start: a new Settings over the same file, a new window.
    _app, second = create_app([], settings=Settings(QSettings(str(settings_path), QSettings.Format.IniFormat)))
    qtbot.addWidget(second)
    tab = second.transcribe_tab
    qtbot.waitUntil(lambda: tab.model_combo.count() > 1, timeout=10_000)
    assert tab.model_combo.currentData() == tiny_model
    assert tab.language_combo.currentData() == "zh"
    assert tab.language_combo.currentText() == "中文"
    assert tab.task_combo.currentData() == "translate"
    assert tab.prompt_edit.text() == "以下是普通话的句子。"
    assert tab.export_formats() == ["srt", "vtt", "json"]
    assert tab.export_folder() == tmp_path
    chosen = tab.transcribe_settings()
    assert (chosen.model, chosen.language, chosen.task, chosen.initial_prompt, chosen.device) == (
        tiny_model, "zh", "translate", "以下是普通话的句子。", "cpu")
    second.close()


def test_settings_are_written_on_ok_and_not_on_cancel(qtbot, settings):
    dialog = SettingsDialog(settings)
    qtbot.addWidget(dialog)
    dialog.engine_combo.setCurrentIndex(dialog.engine_combo.findData("torch"))
    dialog.reject()
    assert settings.get("engine/choice") == "auto"
    assert dialog.changed() == set()

    dialog = SettingsDialog(settings)
    qtbot.addWidget(dialog)
    assert dialog.device_combo.currentData() == "cpu"  # shows what is stored
    dialog.engine_combo.setCurrentIndex(dialog.engine_combo.findData("torch"))
    dialog.language_combo.setCurrentIndex(dialog.language_combo.findData("zh_CN"))
    dialog.gfx_edit.setText("10.3.0")
    dialog.accept()
    assert dialog.changed() == {"engine/choice", "ui/language", "gpu/hsa_override_gfx_version"}
    assert settings.get("engine/choice") == "torch"
    assert settings.get("ui/language") == "zh_CN"
    assert settings.get("gpu/hsa_override_gfx_version") == "10.3.0"


def test_what_it_sets_up_is_on_the_advanced_page_and_the_everyday_pages_use_plain_words(qtbot, settings):
    dialog = SettingsDialog(settings)
    qtbot.addWidget(dialog)
    titles = [dialog.pages.tabText(i) for i in range(dialog.pages.count())]
    assert titles == ["Transcription", "Downloads", "General", "Advanced"]
    for widget in (dialog.engine_combo, dialog.batch_spin, dialog.gfx_edit, dialog.server_box):
        assert dialog.advanced_page.isAncestorOf(widget)
    for widget in (dialog.device_combo, dialog.script_combo, dialog.lines_spin):
        assert dialog.transcription_page.isAncestorOf(widget)
    everyday = " ".join(label.text() for page in (dialog.transcription_page, dialog.general_page)
                        for label in page.findChildren(QLabel))
    everyday += " ".join(combo.itemText(i) for combo in (dialog.device_combo, dialog.script_combo)
                         for i in range(combo.count()))
    for jargon in ("CTranslate2", "PyTorch", "GPU", "CPU", "decoded", "LUFS"):
        assert jargon not in everyday

    # The keys stay the same: an engine chosen on the Advanced page is stored where it always was.
    dialog.pages.setCurrentWidget(dialog.advanced_page)
    dialog.engine_combo.setCurrentIndex(dialog.engine_combo.findData("ct2"))
    dialog.batch_spin.setValue(4)
    dialog.accept()
    assert settings.get("engine/choice") == "ct2" and settings.get("engine/batch_size") == 4


@pytest.mark.parametrize("text, acceptable", [("10.3.0", True), ("11.0.0", True), ("", True), ("gfx1030", False)])
def test_the_gpu_compatibility_field_takes_only_a_version_number(qtbot, settings, text, acceptable):
    dialog = SettingsDialog(settings)
    qtbot.addWidget(dialog)
    state, _, _ = dialog.gfx_edit.validator().validate(text, 0)
    assert (state == QValidator.State.Acceptable) is acceptable


@pytest.mark.slow
def test_changing_the_engine_in_settings_frees_the_loaded_model(qtbot, window, jfk):
    tab = window.transcribe_tab
    drop(tab, jfk)
    qtbot.waitUntil(lambda: bool(tab.queue.items) and tab.queue.items[0].state is ItemState.DONE,
                    timeout=JOB_TIMEOUT_MS)
    transcriber = tab.queue._transcriber
    assert transcriber.loaded is not None

    window.settings_action.trigger()
    dialog = window.findChild(SettingsDialog)
    assert dialog is not None and dialog.isVisible()
    dialog.engine_combo.setCurrentIndex(dialog.engine_combo.findData("ct2"))
    with qtbot.waitSignal(tab.queue.model_released, timeout=JOB_TIMEOUT_MS):
        dialog.accept()
    assert transcriber.loaded is None
    assert tab.transcribe_settings().engine == "ct2"


def test_the_chinese_script_and_subtitle_line_limits_chosen_in_settings_reach_the_tab(qtbot, window):
    settings = window.transcribe_tab._settings
    dialog = SettingsDialog(settings)
    qtbot.addWidget(dialog)
    assert (dialog.script_combo.currentData(), dialog.lines_spin.value(), dialog.cjk_spin.value()) == (
        "simplified", 2, 18)
    dialog.script_combo.setCurrentIndex(dialog.script_combo.findData("traditional"))
    dialog.lines_spin.setValue(1)
    dialog.latin_spin.setValue(30)
    dialog.cjk_spin.setValue(12)
    dialog.accept()

    assert window.transcribe_tab.transcribe_settings().chinese_script == "traditional"
    limits = settings.line_limits()
    assert (limits.max_lines, limits.max_latin_chars, limits.max_cjk_chars) == (1, 30, 12)


@pytest.mark.slow
def test_exported_subtitles_follow_the_line_limits_from_settings(qtbot, window, jfk):
    import srt

    settings = window.transcribe_tab._settings
    settings.set("subtitles/max_lines", 1)
    settings.set("subtitles/max_latin_chars", 20)
    tab = window.transcribe_tab
    for fmt, box in tab.format_boxes.items():
        box.setChecked(fmt == "srt")
    drop(tab, jfk)
    qtbot.waitUntil(lambda: bool(tab.queue.items) and tab.queue.items[0].state is ItemState.DONE, timeout=JOB_TIMEOUT_MS)
    tab.export_all()
    target = jfk.with_suffix(".srt")
    qtbot.waitUntil(target.exists, timeout=JOB_TIMEOUT_MS)

    cues = list(srt.parse(target.read_text(encoding="utf-8")))
    assert cues and all(len(cue.content.splitlines()) == 1 for cue in cues)
    assert all(len(cue.content) <= 20 for cue in cues)
