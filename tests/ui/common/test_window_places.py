"""Windows on a laptop's screen: every window and dialog opens inside the screen's usable area, the main
windows where the user left them on that screen, and a long status message ends in "…" instead of
running under the device line.

The screens are the offscreen platform's, given the sizes of the most common office screens; each run
is a fresh process, as a start of the app is."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from PySide6.QtCore import QRect, QSize

from desktop.ui.common.window_places import FRAME_ALLOWANCE, fitted

ROOT = Path(__file__).resolve().parents[3]

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("screen", [QRect(0, 0, 1366, 768), QRect(0, 0, 1280, 720), QRect(1920, 0, 1280, 720)])
def test_a_window_larger_than_the_screen_is_made_to_fit_it_frame_and_all(screen):
    placed = fitted(QRect(0, 0, 1100, 760), QSize(760, 540), screen)
    framed = placed.adjusted(-FRAME_ALLOWANCE.width() // 2, -(FRAME_ALLOWANCE.height() - FRAME_ALLOWANCE.width() // 2),
                             FRAME_ALLOWANCE.width() // 2, FRAME_ALLOWANCE.width() // 2)
    assert screen.contains(framed)
    assert placed.width() == 1100 and placed.height() == screen.height() - FRAME_ALLOWANCE.height()


def test_a_window_that_fits_stays_where_it_is_and_one_off_the_screen_comes_back():
    screen = QRect(0, 0, 1366, 768)
    assert fitted(QRect(100, 80, 600, 400), QSize(300, 200), screen) == QRect(100, 80, 600, 400)
    back = fitted(QRect(1200, 700, 600, 400), QSize(300, 200), screen)
    assert back.size() == QSize(600, 400) and screen.contains(back)


def test_the_minimum_size_is_kept_unless_the_screen_is_smaller_still():
    assert fitted(QRect(0, 0, 900, 700), QSize(760, 540), QRect(0, 0, 800, 600)).size() == QSize(792, 566)
    assert fitted(QRect(0, 0, 400, 300), QSize(760, 540), QRect(0, 0, 1366, 768)).size() == QSize(760, 540)


def run_app(tmp_path: Path, screen: tuple[str, int, int], body: str, *, before: str = "") -> dict:
    """Start the app on a screen of that name and size, run ``body`` with the window shown, return what
    it put in ``out``. ``before`` runs before the app is made; the process must end well, exit and all."""
    done = start_app(tmp_path, screen, body, before=before)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def start_app(tmp_path: Path, screen: tuple[str, int, int], body: str, *,
              before: str = "") -> subprocess.CompletedProcess:
    """run_app's process as it ended, with faulthandler on, so a crash shows where it happened."""
    name, width, height = screen
    config = tmp_path / f"{name}.json"
    config.write_text(json.dumps({"screens": [{"name": name, "x": 0, "y": 0, "width": width, "height": height,
                                               "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}))
    script = textwrap.dedent("""
        import json, sys
        from PySide6.QtCore import QSettings
        from PySide6.QtWidgets import QApplication, QMessageBox
        from desktop.app import create_app
        from desktop.settings import Settings

        settings = Settings(QSettings(sys.argv[1], QSettings.Format.IniFormat))
    """) + textwrap.dedent(before) + textwrap.dedent("""
        app, window = create_app(sys.argv[:1], settings=settings)
        window.show()
        app.processEvents()
        out = {}
        def rect(widget):
            g = widget.frameGeometry()
            return [g.x(), g.y(), g.width(), g.height()]
    """) + textwrap.dedent(body) + textwrap.dedent("""
        window.close()
        settings.sync()
        print(json.dumps(out))
    """)
    env = dict(os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={config}", XDG_CONFIG_HOME=str(tmp_path / "config"))
    return subprocess.run([sys.executable, "-X", "faulthandler", "-c", script, str(tmp_path / "settings.ini")],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def inside(rect: list[int], width: int, height: int) -> bool:
    x, y, w, h = rect
    return x >= 0 and y >= 0 and x + w <= width and y + h <= height


@pytest.mark.parametrize("screen", [("laptop", 1366, 768), ("small", 1280, 720)])
def test_the_window_and_its_dialogs_open_inside_the_screen_status_bar_and_all(tmp_path, screen):
    _, width, height = screen
    out = run_app(tmp_path, screen, """
        out["window"] = rect(window)
        bar = window.statusBar()
        out["status_bar"] = [bar.mapTo(window, bar.rect().bottomLeft()).y() + window.geometry().y()]
        box = QMessageBox(window)
        box.setText("x" * 2000)  # a dialog wider than any screen
        box.show(); app.processEvents()
        out["dialog"] = rect(box)
        box.close()
    """)
    assert inside(out["window"], width, height) and out["status_bar"][0] < height
    assert inside(out["dialog"], width, height)


def test_size_place_and_maximised_state_are_remembered_per_screen(tmp_path):
    laptop, office = ("laptop", 1366, 768), ("office", 1280, 720)
    run_app(tmp_path, laptop, """
        window.setGeometry(120, 90, 900, 600)
        app.processEvents()
    """)
    again = run_app(tmp_path, laptop, """
        g = window.geometry()
        out["window"] = [g.x(), g.y(), g.width(), g.height()]
        window.showMaximized()
        app.processEvents()
    """)
    assert again["window"] == [120, 90, 900, 600]
    maximised = run_app(tmp_path, laptop, 'out["maximised"] = window.isMaximized()')
    assert maximised["maximised"] is True
    elsewhere = run_app(tmp_path, office, 'out["maximised"] = window.isMaximized(); out["window"] = rect(window)')
    assert elsewhere["maximised"] is False and inside(elsewhere["window"], 1280, 720)


def test_a_long_status_message_ends_before_the_device_line_with_all_of_it_in_the_tooltip(tmp_path):
    out = run_app(tmp_path, ("laptop", 1366, 768), """
        sentence = "The model is not on this computer; " * 12 + "use File, then Import model."
        window.show_message(sentence)
        app.processEvents()
        bar = window.statusBar()
        out["message"], out["shown"], out["tooltip"] = bar.currentMessage(), bar.message_room(), bar.toolTip()
        out["device_left"] = window.device_status.x()
        out["painted"] = bar.fontMetrics().horizontalAdvance(super(type(bar), bar).currentMessage())
        window.device_status.device_label.setText("AMD Radeon RX 7900 XTX · gfx1100 · ROCm 6.4 · 24 GB")
        from PySide6.QtTest import QTest
        QTest.qWait(200)
        out["device_left_later"] = window.device_status.x()
        out["painted_later"] = bar.fontMetrics().horizontalAdvance(super(type(bar), bar).currentMessage())
    """)
    assert out["message"] == out["tooltip"] and out["message"].endswith("Import model.")
    assert out["painted"] <= out["shown"] < out["device_left"]
    assert out["device_left_later"] < out["device_left"]  # the device line grew
    assert out["painted_later"] < out["device_left_later"]  # and the message gave way


def test_a_dialog_reopens_where_it_was_left(tmp_path):
    laptop = ("laptop", 1366, 768)
    body = """
        from desktop.ui.common.settings_dialog import SettingsDialog
        dialog = SettingsDialog(settings, window)
        dialog.show(); app.processEvents()
        g = dialog.geometry()
        out["dialog"] = [g.x(), g.y(), g.width(), g.height()]
        dialog.setGeometry(40, 60, g.width() + 50, g.height())
        app.processEvents()
        dialog.close()
    """
    first = run_app(tmp_path, laptop, body)
    again = run_app(tmp_path, laptop, body)
    assert again["dialog"] == [40, 60, first["dialog"][2] + 50, first["dialog"][3]]


def test_the_large_captions_open_at_the_bottom_of_the_screen_and_the_live_panel_makes_room_above_them(tmp_path):
    out = run_app(tmp_path, ("laptop", 1366, 768), """
        from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget
        from desktop.ui.common.window_places import make_room_above
        from desktop.ui.transcribe.live_caption_window import LiveCaptionWindow
        panel = QWidget()
        QVBoxLayout(panel).addWidget(QLabel("status line"))
        panel.resize(760, 560)
        panel.show(); app.processEvents()
        captions = LiveCaptionWindow(panel)
        captions.show(); app.processEvents()
        make_room_above(panel, captions); app.processEvents()
        out["panel"], out["captions"] = rect(panel), rect(captions)
    """)
    x, y, w, h = out["captions"]
    assert inside(out["captions"], 1366, 768) and y + h >= 768 - 10  # at the bottom, all of it on the screen
    px, py, pw, ph = out["panel"]
    assert inside(out["panel"], 1366, 768) and py + ph <= y  # the panel ends above the captions


def test_windows_still_open_when_the_program_exits_are_destroyed_without_crashing_it(tmp_path):
    """At exit PySide destroys what Python still holds, in an order of its own that changes from start to
    start. One order crashed the app (SIGSEGV): the settings' store first, then a window whose caption
    window closed with it, its Hide reaching the place-keeping filter with no settings left. Forced here."""
    done = start_app(tmp_path, ("laptop", 1366, 768), before="""
        import atexit, shiboken6
        store = QSettings(sys.argv[1], QSettings.Format.IniFormat)
        settings = Settings(store)

        def destroy_in_the_order_that_crashed():  # registered before the app's own, so it runs after them
            store.sync()
            shiboken6.delete(store)
            shiboken6.delete(panel)  # and its caption window with it
        atexit.register(destroy_in_the_order_that_crashed)
    """, body="""
        from PySide6.QtWidgets import QWidget
        from desktop.ui.transcribe.live_caption_window import LiveCaptionWindow
        panel = QWidget()
        panel.show(); app.processEvents()
        captions = LiveCaptionWindow(panel)
        captions.show(); app.processEvents()
    """)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Error calling Python override" not in done.stderr and "Traceback" not in done.stderr, done.stderr[-3000:]


def test_the_live_panel_and_its_captions_close_with_the_window_and_keep_their_places(tmp_path):
    """Open when the main window closes, they are closed with it, their places kept then, instead of being
    left on screen until the program's exit destroys them."""
    out = run_app(tmp_path, ("laptop", 1366, 768), """
        live = window.transcribe_tab.live
        live.open_panel(); app.processEvents()
        live.panel.show_caption_window(); app.processEvents()
        window.close()
        out["open"] = [live.panel.isVisible(), live.panel.caption_window.isVisible()]
        out["kept"] = [settings.remembered_place(f"{name}/laptop 1366x768") is not None
                       for name in ("live-panel", "live-captions")]
    """)
    assert out == {"open": [False, False], "kept": [True, True]}
