"""`voxdesk` on a machine that cannot show its window says why in one sentence, and the menu entry."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import desktop.__main__ as launcher
from desktop.core.common import system_packages

ROOT = Path(__file__).resolve().parents[1]


def voxdesk(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "desktop", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)


def desktop_less_environment(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")
    return env


def test_without_any_display_the_window_command_says_so_and_exits_1_instead_of_aborting(tmp_path):
    result = voxdesk(env=desktop_less_environment(tmp_path))
    assert result.returncode == 1, result.stderr
    assert result.stderr.strip() == launcher.NO_DISPLAY


def test_the_command_line_still_works_without_a_display(tmp_path):
    result = voxdesk("--help", env=desktop_less_environment(tmp_path))
    assert result.returncode == 0 and "transcribe" in result.stdout


def fake_ldd(tmp_path: Path, missing: list[str]) -> Path:
    ldd = tmp_path / "ldd"
    lines = "".join(f"\\t{name} => not found\\n" for name in missing)
    ldd.write_text(f"#!{shutil.which('bash')}\nprintf '\\tlibc.so.6 => /lib/libc.so.6\\n{lines}'\n")
    ldd.chmod(0o755)
    return ldd


def test_missing_qt_x11_libraries_are_named_with_the_packages_that_bring_them(tmp_path, monkeypatch):
    ldd = fake_ldd(tmp_path, ["libxcb-icccm.so.4", "libxcb-keysyms.so.1"])
    real = system_packages.unresolved_libraries
    monkeypatch.setattr(system_packages, "unresolved_libraries", lambda library: real(library, ldd=str(ldd)))
    monkeypatch.setattr(system_packages, "library_loads", lambda soname: soname != "libxcb-cursor.so.0")

    problem = launcher.window_problem({"DISPLAY": ":0"})

    assert problem == launcher.MISSING_QT_LIBRARIES.format(
        command="sudo apt-get install libxcb-icccm4 libxcb-keysyms1 libxcb-cursor0")


def test_the_window_is_not_started_when_qt_would_abort(monkeypatch, capsys):
    monkeypatch.setattr(launcher, "window_problem", lambda environ: "the reason")
    import desktop.app

    monkeypatch.setattr(desktop.app, "run_gui", lambda argv: pytest.fail("the window was started"))
    assert launcher.main([]) == 1
    assert capsys.readouterr().err.strip() == "the reason"


def test_on_this_machine_qt_finds_every_x11_library_it_needs():
    plugin = launcher._qt_platform_plugin("xcb")
    assert plugin is not None
    assert system_packages.missing_qt_xcb_libraries(plugin) == []


def test_a_chosen_platform_such_as_offscreen_or_a_wayland_session_is_not_second_guessed():
    assert launcher.window_problem({"QT_QPA_PLATFORM": "offscreen"}) is None
    assert launcher.window_problem({"WAYLAND_DISPLAY": "wayland-0"}) is None


def test_the_menu_entry_starts_this_installation_and_is_removed_again(tmp_path):
    env = {**desktop_less_environment(tmp_path), "XDG_DATA_HOME": str(tmp_path / "share")}
    installed = voxdesk("--install-desktop-entry", env=env)
    assert installed.returncode == 0, installed.stderr
    entry = tmp_path / "share" / "applications" / "voxdesk.desktop"
    icon = tmp_path / "share" / "icons" / "hicolor" / "scalable" / "apps" / "voxdesk.svg"
    fields = dict(line.split("=", 1) for line in entry.read_text().splitlines() if "=" in line)
    assert fields["Exec"].split()[0] == sys.executable and fields["Exec"].endswith("-m desktop")
    assert fields["Icon"] == "voxdesk" and fields["Name[zh_CN]"].startswith("VoxDesk")
    assert b"<svg" in icon.read_bytes()

    removed = voxdesk("--uninstall-desktop-entry", env=env)
    assert removed.returncode == 0 and not entry.exists() and not icon.exists()
    assert "no longer" in removed.stdout
