"""Settings → Transcription server: what is saved where (never the key in the settings file), the
connection test against a real server and a hostile one, and "Server: host · model" in the status bar."""
from __future__ import annotations

import stat

import pytest

from desktop.core.gpu.fallback import FallbackLog
from desktop.core.transcription.server_config import KEY_FILE, ServerConfig, ServerKeyStore
from desktop.core.common.secrets_place import config_folder
from desktop.ui.common.settings_dialog import SettingsDialog
from desktop.ui.gpu.status_bar import DeviceStatusWidget
from desktop.ui.transcribe.server_box import configured_server
from desktop.workers.job import JobRunner
from tests.helpers.weights import tiny_en_dir
from tests.helpers.whisper_server import HostileServer, RealWhisperServer

WAIT_MS = 120_000


@pytest.fixture
def runner():
    runner = JobRunner()
    yield runner
    assert runner.shutdown(30_000)


def dialog_with_runner(qtbot, settings, runner) -> SettingsDialog:
    dialog = SettingsDialog(settings, runner=runner)  # the test's own runner, shut down when the test ends
    qtbot.addWidget(dialog)
    return dialog


def test_the_server_choices_are_saved_on_ok_and_the_key_stays_out_of_the_settings_file(
        qtbot, settings, settings_path, runner):
    dialog = dialog_with_runner(qtbot, settings, runner)
    box = dialog.server_box
    assert not box.isChecked() and configured_server(settings) is None
    box.setChecked(True)
    box.url_edit.setText("gpu-server:8000/v1")
    box.model_combo.setEditText("openai/whisper-large-v3")
    box.key_edit.setText("sk-office-secret")
    box.without_gpu.setChecked(True)
    box.concurrency_spin.setValue(8)
    dialog.accept()
    settings.sync()

    assert dialog.changed() >= {"server/enabled", "server/url", "server/model", "server/use"}
    assert configured_server(settings) == ServerConfig("http://gpu-server:8000", model="openai/whisper-large-v3",
                                                       use="no_gpu", concurrency=8)
    assert "sk-office-secret" not in settings_path.read_text(encoding="utf-8")
    key_file = config_folder() / KEY_FILE
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert ServerKeyStore().load("http://gpu-server:8000") == "sk-office-secret"

    again = dialog_with_runner(qtbot, settings, runner)
    qtbot.waitUntil(lambda: again.server_box.key_edit.text() == "sk-office-secret", timeout=10_000)
    assert again.server_box.isChecked() and again.server_box.without_gpu.isChecked()


def test_ok_with_an_address_that_is_no_server_is_refused_with_a_sentence(qtbot, settings, runner):
    dialog = dialog_with_runner(qtbot, settings, runner)
    dialog.show()
    dialog.server_box.setChecked(True)
    dialog.server_box.url_edit.setText("ftp://gpu-server")
    dialog.accept()
    assert dialog.isVisible() and not settings.get("server/enabled")
    assert "is not a server address" in dialog.server_box.result_label.text()


def test_test_connection_transcribes_one_second_on_a_real_server_and_reports_the_round_trip(qtbot, settings, runner):
    dialog = dialog_with_runner(qtbot, settings, runner)
    box = dialog.server_box
    box.setChecked(True)  # unchecked, the box's fields are disabled
    with RealWhisperServer(tiny_en_dir()) as server:
        box.url_edit.setText(server.url)
        box.test_button.click()
        assert not box.test_button.isEnabled()
        qtbot.waitUntil(lambda: box.test_button.isEnabled(), timeout=WAIT_MS)
    text = box.result_label.text()
    assert text.startswith("Connected: the server transcribed one second of speech in ") and " ms " in text
    assert "“and so”" in text.lower()


def test_test_connection_lists_the_servers_models_and_says_when_the_key_is_refused(qtbot, settings, runner):
    dialog = dialog_with_runner(qtbot, settings, runner)
    box = dialog.server_box
    box.setChecked(True)
    answer = {"text": " And so", "language": "english", "segments": [{"start": 0, "end": 1, "text": " And so"}]}
    with HostileServer(body=answer, models=["openai/whisper-large-v3", "openai/whisper-small"]) as server:
        box.url_edit.setText(server.url)
        box.test_button.click()
        qtbot.waitUntil(lambda: box.test_button.isEnabled(), timeout=WAIT_MS)
    assert [box.model_combo.itemText(i) for i in range(box.model_combo.count())] == [
        "openai/whisper-large-v3", "openai/whisper-small"]
    assert box.model_combo.currentText() == "openai/whisper-large-v3"

    with HostileServer(status=401, body={"error": {"message": "no"}}) as refusing:
        box.url_edit.setText(refusing.url)
        box.key_edit.setText("wrong")
        box.test_button.click()
        qtbot.waitUntil(lambda: box.test_button.isEnabled(), timeout=WAIT_MS)
    host = refusing.url.removeprefix("http://")
    assert box.result_label.text() == (
        f"The transcription server at {host} refused the API key. Enter the API key IT gave you in Settings → "
        "Transcription server (on the command line: VOXDESK_SERVER_KEY).")
    assert refusing.authorizations == ["Bearer wrong"]


def test_the_status_bar_names_the_server_in_use(qtbot):
    widget = DeviceStatusWidget(FallbackLog())
    qtbot.addWidget(widget)
    widget.show()
    assert not widget.server_label.isVisible()
    widget.set_server(ServerConfig("https://asr.example.org", model="openai/whisper-large-v3", use="no_gpu"))
    assert widget.server_label.isVisible()
    assert widget.server_label.text() == "Server: asr.example.org · openai/whisper-large-v3"
    assert "no working GPU" in widget.server_label.toolTip()
    widget.set_server(None)
    assert not widget.server_label.isVisible()
