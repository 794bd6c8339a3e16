"""The batch size in Settings reaches the transcription, and the status bar says which one ran."""
from desktop.core.gpu.fallback import FallbackLog
from desktop.ui.common.settings_dialog import SettingsDialog
from desktop.ui.gpu.status_bar import DeviceStatusWidget
from desktop.workers.transcription_queue import ItemState
from tests.ui.conftest import JOB_TIMEOUT_MS
from tests.ui.gpu.test_status_bar import rx7900xtx_report
from tests.ui.transcribe.test_transcribe_tab import drop


def test_the_batch_size_is_automatic_until_settings_say_otherwise(qtbot, window):
    settings = window.transcribe_tab._settings
    dialog = SettingsDialog(settings)
    qtbot.addWidget(dialog)
    assert dialog.batch_spin.value() == 0 and dialog.batch_spin.text() == "Automatic"
    assert window.transcribe_tab.transcribe_settings().batch_size is None
    dialog.batch_spin.setValue(1)
    dialog.accept()
    assert "engine/batch_size" in dialog.changed()
    assert window.transcribe_tab.transcribe_settings().batch_size == 1
    assert window.transcribe_tab.transcribe_settings().options().batch_size == 1


def test_the_status_bar_tooltip_names_the_batch_size_of_the_last_file(qtbot, window, jfk):
    status = window.device_status
    status.set_report(rx7900xtx_report())
    assert "window" not in status.device_label.toolTip()
    queue = window.transcribe_tab.queue
    drop(window.transcribe_tab, jfk)
    qtbot.waitUntil(lambda: bool(queue.items) and queue.items[0].state is ItemState.DONE, timeout=JOB_TIMEOUT_MS)
    # jfk.flac is a single window of speech: decoded as one, whatever the automatic size would be.
    qtbot.waitUntil(lambda: "Transcription: one 30-second window at a time" in status.device_label.toolTip())


def test_the_tooltip_counts_the_windows_decoded_at_once(qtbot):
    status = DeviceStatusWidget(FallbackLog())
    qtbot.addWidget(status)
    status.set_report(rx7900xtx_report())
    details = status.device_label.toolTip()
    status.set_transcription_batch(12)
    assert status.device_label.toolTip() == details + "\nTranscription: 12 30-second windows at once"
    status.set_transcription_batch(None)
    assert status.device_label.toolTip() == details


def test_the_tooltip_says_when_the_processors_bfloat16_instructions_encoded_the_audio(qtbot):
    status = DeviceStatusWidget(FallbackLog())
    qtbot.addWidget(status)
    status.set_report(rx7900xtx_report())
    details = status.device_label.toolTip()
    status.set_transcription_batch(2, bf16_encoder=True)
    assert status.device_label.toolTip() == details + (
        "\nTranscription: 2 30-second windows at once"
        "\nThe processor's bfloat16 instructions encode the audio: faster on this computer")
    status.set_transcription_batch(2)
    assert "bfloat16" not in status.device_label.toolTip()
