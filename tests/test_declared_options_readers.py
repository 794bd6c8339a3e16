"""A default changed in the transcription options' declaration is changed for every reader: a job's
settings, one decoding, live captions, the stored settings, the Settings dialog and both commands.

The declaration is edited as a developer would edit it, in a copy of the package, and the readers
are asked in a process of their own."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

DESKTOP = Path(__file__).resolve().parents[1] / "desktop"

READERS = r"""
import json, sys
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
app = QApplication([])
from desktop.__main__ import build_parser
from desktop.engines.transcription.engine import TranscribeOptions
from desktop.engines.transcription.live.captioner import LiveOptions
from desktop.engines.transcription.plan import TranscribeSettings
from desktop.settings import Settings
from desktop.ui.common.settings_dialog import SettingsDialog
settings = Settings(QSettings(sys.argv[1], QSettings.Format.IniFormat))
dialog = SettingsDialog(settings)
transcribe = build_parser().parse_args(["transcribe", "a.wav"])
json.dump({
    "beam_size": [TranscribeSettings().beam_size, TranscribeOptions().beam_size, LiveOptions().beam_size,
                  transcribe.beam_size],
    "chinese_script": [TranscribeSettings().chinese_script, LiveOptions().chinese_script, transcribe.chinese_script,
                       settings.get("transcribe/chinese_script"), dialog.script_combo.currentData()],
    "device": [TranscribeSettings().device, transcribe.device, build_parser().parse_args(["live"]).compute_device,
               settings.get("device/choice"), dialog.device_combo.currentData()],
}, sys.stdout)
"""


def _readers_with(tmp_path: Path, *edits: tuple[str, str]) -> dict:
    copy = tmp_path / "package"
    shutil.copytree(DESKTOP, copy / "desktop", ignore=shutil.ignore_patterns("__pycache__"))
    declaration = copy / "desktop" / "core" / "transcription" / "options.py"
    text = declaration.read_text(encoding="utf-8")
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    declaration.write_text(text, encoding="utf-8")
    environment = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(copy)}
    result = subprocess.run([sys.executable, "-c", READERS, str(tmp_path / "voxdesk.ini")], cwd=copy,
                            env=environment, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_every_reader_follows_a_default_changed_in_the_declaration(tmp_path):
    readers = _readers_with(
        tmp_path,
        ('"beam_size", 5,', '"beam_size", 3,'),
        ('"chinese_script", "simplified",', '"chinese_script", "traditional",'),
        ('"device", "auto",', '"device", "cpu",'),
    )
    assert readers == {"beam_size": [3] * 4, "chinese_script": ["traditional"] * 5, "device": ["cpu"] * 5}


def test_unchanged_the_readers_give_the_declared_defaults(tmp_path):
    assert _readers_with(tmp_path) == {"beam_size": [5] * 4, "chinese_script": ["simplified"] * 5,
                                       "device": ["auto"] * 5}
