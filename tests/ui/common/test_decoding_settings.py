"""Every decoding option of the declaration is in Settings → Transcription (the advanced ones folded),
and what the user sets there is how the window's jobs decode (they used to take the defaults always)."""
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QCheckBox, QComboBox, QSpinBox

from desktop.core.transcription import options
from desktop.engines.transcription.process.isolated import IsolatedEngine
from desktop.settings import Settings
from desktop.ui.common.settings_dialog import SettingsDialog
from desktop.workers.transcription_queue import ItemState
from tests.ui.conftest import JOB_TIMEOUT_MS
from tests.ui.transcribe.test_transcribe_tab import drop


def test_each_decoding_option_has_a_widget_made_from_its_declaration_the_advanced_ones_folded(qtbot, tmp_path):
    dialog = SettingsDialog(Settings(QSettings(str(tmp_path / "voxdesk.ini"), QSettings.Format.IniFormat)))
    qtbot.addWidget(dialog)
    dialog.show()
    box = dialog.decoding_box
    assert dialog.pages.currentWidget() is dialog.transcription_page
    assert box.isVisibleTo(dialog.transcription_page)
    assert set(box.editors) == {option.settings_key for option in options.DECODING}
    for option in options.DECODING:
        editor = box.editors[option.settings_key]
        assert editor.toolTip() == option.help
        assert editor.isVisible() == (not option.advanced), option.name
    beam = box.editors[options.BEAM_SIZE.settings_key]
    assert isinstance(beam, QSpinBox) and (beam.minimum(), beam.maximum()) == (1, 10) and beam.value() == 5
    assert isinstance(box.editors[options.VAD.settings_key], QCheckBox)
    temperature = box.editors[options.TEMPERATURE.settings_key]
    assert isinstance(temperature, QComboBox) and temperature.currentText() == "Automatic"
    box.more_button.click()
    assert all(editor.isVisible() for editor in box.editors.values())
    assert box.fields() == {option.settings_key: option.stored_default() for option in options.DECODING}


def test_decoding_options_changed_in_settings_reach_the_decoder_of_a_window_job(qtbot, window, jfk, monkeypatch):
    decoded_with = []
    transcribe = IsolatedEngine.transcribe

    def recorded(self, audio, decoding, **kwargs):
        decoded_with.append(decoding)
        return transcribe(self, audio, decoding, **kwargs)

    monkeypatch.setattr(IsolatedEngine, "transcribe", recorded)
    dialog = SettingsDialog(window.transcribe_tab.options.app_settings)
    qtbot.addWidget(dialog)
    editors = dialog.decoding_box.editors
    editors["transcribe/beam_size"].setValue(2)
    editors["transcribe/vad"].setChecked(False)
    editors["transcribe/word_timestamps"].setChecked(False)
    editors["transcribe/temperature"].setCurrentIndex(editors["transcribe/temperature"].findData("0.2"))
    editors["transcribe/condition_on_previous_text"].setChecked(False)
    dialog.accept()
    assert {"transcribe/beam_size", "transcribe/vad", "transcribe/temperature"} <= dialog.changed()

    queue = window.transcribe_tab.queue
    drop(window.transcribe_tab, jfk)
    qtbot.waitUntil(lambda: bool(queue.items) and queue.items[0].state is ItemState.DONE, timeout=JOB_TIMEOUT_MS)

    first = decoded_with[0]
    assert (first.beam_size, first.vad, first.word_timestamps, first.temperature,
            first.condition_on_previous_text) == (2, False, False, 0.2, False)
    assert "country" in " ".join(segment.text for segment in queue.items[0].transcript.segments)


def test_a_new_user_decodes_with_the_declared_defaults(tab):
    job = tab.transcribe_settings().options()
    assert (job.beam_size, job.vad, job.word_timestamps, job.temperature, job.condition_on_previous_text) == (
        options.BEAM_SIZE.default, options.VAD.default, options.WORD_TIMESTAMPS.default, options.TEMPERATURE.default,
        options.CONDITION_ON_PREVIOUS_TEXT.default)
