"""The main window: quick to show, its menus, and a clean exit even in the middle of a job."""
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from PySide6.QtWidgets import QLabel, QPushButton

from desktop.workers.transcription_queue import ItemState
from tests.ui.conftest import JOB_TIMEOUT_MS
from tests.ui.transcribe.test_transcribe_tab import drop

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


def test_the_window_is_on_screen_before_torch_or_whisper_is_imported(tmp_path):
    """Run in a fresh interpreter: this test process may have imported torch already."""
    script = textwrap.dedent("""
        import sys
        from desktop.app import create_app
        app, window = create_app(sys.argv[:1])
        window.show()
        heavy = sorted(m for m in ("torch", "whisper", "faster_whisper", "ctranslate2", "TTS", "resemblyzer", "torchaudio") if m in sys.modules)
        print("visible" if window.isVisible() else "hidden", ",".join(heavy) or "none")
        window.close()
    """)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path / "config"))
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["visible", "none"]


def test_the_window_has_the_three_tabs_and_no_empty_ones(window):
    tabs = window.tabs
    assert [tabs.tabText(i) for i in range(tabs.count())] == ["Transcribe", "Synthesize", "Clone"]
    for i in range(tabs.count()):
        assert len(tabs.widget(i).findChildren(QPushButton)) >= 3, tabs.tabText(i)


def test_the_status_bar_says_where_the_work_runs_once_the_device_is_known(qtbot, window):
    label = window.device_status.device_label
    qtbot.waitUntil(lambda: window.device_status.report() is not None, timeout=JOB_TIMEOUT_MS)
    assert label.text() == window.device_status.report().summary()
    assert "GPU" in label.text() or "CPU" in label.text()


def test_the_menus_offer_files_models_export_quit_settings_and_about(window):
    menus = {
        action.text().replace("&", ""): [a.text().replace("&", "") for a in action.menu().actions() if a.text()]
        for action in window.menuBar().actions()
    }
    assert menus["File"] == ["Add files…", "Open subtitles…", "Recent transcripts", "Import model…", "Revert to the transcription",
                             "Export…", "Export all",
                             "Export video with subtitles…", "Quit"]
    assert menus["Settings"] == ["Settings…"]
    assert menus["Help"][-1] == "About VoxDesk"
    # Nothing to export until a file is done.
    assert not window.export_action.isEnabled() and not window.export_all_action.isEnabled()
    assert not window.export_video_action.isEnabled()


def test_export_actions_become_available_once_a_file_is_done(qtbot, window, jfk):
    drop(window.transcribe_tab, jfk)
    qtbot.waitUntil(lambda: window.export_all_action.isEnabled(), timeout=JOB_TIMEOUT_MS)
    window.transcribe_tab.queue_view.selectRow(0)
    assert window.export_action.isEnabled() and window.export_video_action.isEnabled()


def test_about_names_the_product_and_its_version(qtbot, window):
    from desktop import __version__
    from desktop.ui.common.about import AboutDialog

    window.about_action.trigger()
    dialog = window.findChild(AboutDialog)
    assert dialog is not None and dialog.isVisible()
    assert any(f"VoxDesk {__version__}" in label.text() for label in dialog.findChildren(QLabel))
    dialog.close()


def test_closing_the_window_during_a_job_stops_it_and_leaves_no_thread_running(qtbot, window, long_recording):
    tab = window.transcribe_tab
    drop(tab, long_recording)
    # Closed while the file is being worked on (batched decoding shows its lines only at the end).
    qtbot.waitUntil(lambda: bool(tab.queue.items) and tab.queue.items[0].state is ItemState.RUNNING,
                    timeout=JOB_TIMEOUT_MS)
    item = tab.queue.items[0]

    window.close()

    assert not window.isVisible()
    assert window.stopped_cleanly, "the job stopped within the bounded wait"
    # The threads' last signals arrive through the event loop; then nothing is left running.
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=10_000)
    assert item.state is ItemState.CANCELLED
    assert item.transcript is None


def test_the_app_exits_with_status_zero_when_closed_during_a_job(tmp_path, long_recording):
    """The real launcher path in its own process: no crash, no abort from a running QThread."""
    script = textwrap.dedent(f"""
        import sys
        from PySide6.QtCore import QTimer
        from desktop.app import create_app
        from desktop.core.transcription.whisper_models import ModelStore
        from desktop.core.common.paths import models_dir
        from tests.helpers.weights import tiny_en_dir
        from desktop.settings import Settings
        from PySide6.QtCore import QSettings

        name = ModelStore(models_dir()).import_model(tiny_en_dir(), name="tiny-en-test").name
        settings = Settings(QSettings({str(tmp_path / 'settings.ini')!r}, QSettings.Format.IniFormat))
        settings.set("transcribe/model", name)
        settings.set("device/choice", "cpu")
        app, window = create_app(sys.argv[:1], settings=settings)
        window.show()
        tab = window.transcribe_tab
        tab.add_paths([{str(long_recording)!r}])

        def close_when_running():
            items = tab.queue.items
            if items and items[0].state.name == "RUNNING":
                window.close()
            else:
                QTimer.singleShot(20, close_when_running)

        close_when_running()
        status = app.exec()
        print("stopped cleanly" if window.stopped_cleanly else "still running")
        sys.exit(status)
    """)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", VOXDESK_DATA_DIR=str(tmp_path / "data"),
               XDG_CONFIG_HOME=str(tmp_path / "config"))
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["stopped", "cleanly"]
    assert "QThread: Destroyed while thread" not in done.stderr


def test_the_app_exits_with_status_zero_when_a_job_outlives_the_wait_at_closing(tmp_path):
    """The launcher's path when a job cannot stop in time (a library call that does not look at the cancel):
    the log says so and the app ends with its status and its settings written, instead of Qt aborting the
    process as Python's exit destroys the job's running thread."""
    script = textwrap.dedent("""
        import sys, threading
        from PySide6.QtCore import QTimer
        from PySide6.QtWidgets import QApplication
        import desktop.app, desktop.ui.main_window, desktop.workers.device_probe

        desktop.ui.main_window.SHUTDOWN_WAIT_MS = 100
        detecting = threading.Event()
        never = threading.Event()

        def detection_that_cannot_stop(**options):
            detecting.set()
            never.wait(20)  # longer than the wait at closing, whatever it is asked
        desktop.workers.device_probe.detect = detection_that_cannot_stop

        app = QApplication(sys.argv[:1])

        def close_once_detecting():
            if not detecting.is_set():
                QTimer.singleShot(20, close_once_detecting)
                return
            for window in app.topLevelWidgets():
                if window.objectName() == "main-window":
                    window.close()
        QTimer.singleShot(0, close_once_detecting)
        sys.exit(desktop.app.run_gui(sys.argv[:1]))
    """)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", VOXDESK_DATA_DIR=str(tmp_path / "data"),
               XDG_CONFIG_HOME=str(tmp_path / "config"))
    done = subprocess.run([sys.executable, "-X", "faulthandler", "-c", script], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "exiting with a job still running" in (tmp_path / "data" / "logs" / "voxdesk.log").read_text()
    assert any("main-window" in conf.read_text(errors="replace") for conf in (tmp_path / "config").rglob("*.conf"))

def test_import_model_copies_a_ctranslate2_folder_in_and_chooses_it(qtbot, window, tmp_path):
    from desktop.ui.transcribe.model_dialogs import ImportModelDialog
    from tests.helpers.weights import tiny_en_dir

    window.import_action.trigger()
    dialog = window.findChild(ImportModelDialog)
    assert dialog is not None and dialog.isVisible()

    # A folder that is not a model: the dialog says why and stays open.
    not_a_model = tmp_path / "holiday photos"
    not_a_model.mkdir()
    dialog.set_source(not_a_model)
    dialog.import_button.click()
    qtbot.waitUntil(lambda: "not a complete CTranslate2 Whisper model" in dialog.note.text(), timeout=30_000)
    assert dialog.isVisible()

    dialog.set_source(tiny_en_dir())
    dialog.name_edit.setText("office tiny")
    with qtbot.waitSignal(dialog.imported, timeout=60_000):
        dialog.import_button.click()
    combo = window.transcribe_tab.model_combo
    qtbot.waitUntil(lambda: combo.currentData() == "office tiny", timeout=10_000)
    assert combo.currentText() == "✓ office tiny (imported)"


def test_importing_a_copy_of_an_official_model_proposes_its_official_name(qtbot, window, tmp_path):
    import shutil

    from desktop.ui.transcribe.model_dialogs import ImportModelDialog
    from tests.helpers.weights import tiny_en_dir

    copy = shutil.copytree(tiny_en_dir(), tmp_path / "tiny-ct2 from IT")  # as IT names folders
    window.import_action.trigger()
    dialog = window.findChild(ImportModelDialog)
    dialog.set_source(copy)
    qtbot.waitUntil(lambda: dialog.name_edit.text() == "tiny.en", timeout=30_000)
    assert "copy of the official “tiny.en” model" in dialog.note.text()
    assert "stands in for the download" in dialog.note.text()
    with qtbot.waitSignal(dialog.imported, timeout=60_000):
        dialog.import_button.click()
    combo = window.transcribe_tab.model_combo
    qtbot.waitUntil(lambda: combo.currentData() == "tiny.en", timeout=10_000)

    # A folder that is no official model keeps the name it was given.
    dialog = ImportModelDialog(window._store, window.runner, window)
    not_a_model = tmp_path / "holiday photos"
    not_a_model.mkdir()
    dialog.set_source(not_a_model)
    qtbot.wait(500)
    assert dialog.name_edit.text() == "holiday photos" and "official" not in dialog.note.text()


def test_help_opens_the_doctor_which_checks_this_computer(qtbot, window):
    from desktop.ui.gpu.doctor_dialog import DoctorDialog

    assert window.doctor_action.text().replace("&", "") == "Doctor: check this computer…"
    window.doctor_action.trigger()
    dialog = window.findChild(DoctorDialog)
    assert dialog is not None and dialog.isVisible()
    qtbot.waitUntil(lambda: dialog.doctor_result() is not None, timeout=JOB_TIMEOUT_MS)
    summary = dialog.summary_label.text()
    assert "GPU" in summary or "CPU" in summary
    dialog.close()
