"""The window's widgets for the transcription options offer exactly the declared values, and a
new user's settings start at the declared defaults."""
from desktop.core.transcription import options
from desktop.core.transcription.whisper_models import ModelStore
from desktop.settings import Settings
from desktop.ui.common.settings_dialog import SettingsDialog
from desktop.ui.transcribe.options_bar import OptionsBar
from desktop.workers.job import JobRunner
from PySide6.QtCore import QSettings


def _data(combo) -> tuple:
    return tuple(combo.itemData(i) for i in range(combo.count()) if combo.itemData(i) is not None)


def _new_user(tmp_path) -> Settings:
    return Settings(QSettings(str(tmp_path / "voxdesk.ini"), QSettings.Format.IniFormat))


def test_the_settings_dialog_offers_the_declared_values_and_starts_at_the_defaults(qtbot, tmp_path):
    dialog = SettingsDialog(_new_user(tmp_path))
    qtbot.addWidget(dialog)
    assert _data(dialog.engine_combo) == options.LOCAL_ENGINES
    assert _data(dialog.device_combo) == options.DEVICE.choices
    assert _data(dialog.script_combo) == options.CHINESE_SCRIPT.choices
    assert dialog.engine_combo.currentData() == options.ENGINE.default
    assert dialog.device_combo.currentData() == options.DEVICE.default
    assert dialog.script_combo.currentData() == options.CHINESE_SCRIPT.default
    assert (dialog.batch_spin.minimum(), dialog.batch_spin.maximum()) == (0, options.BATCH_SIZE.high)  # 0: automatic
    assert dialog.script_combo.toolTip() == options.CHINESE_SCRIPT.help


def test_the_options_bar_offers_the_declared_values_and_gives_a_job_the_defaults(qtbot, tmp_path):
    bar = OptionsBar(_new_user(tmp_path), ModelStore(tmp_path / "models"), JobRunner())
    qtbot.addWidget(bar)
    assert _data(bar.task_combo) == options.TASK.choices
    assert _data(bar.speakers_combo) == options.SPEAKERS.choices
    assert bar.task_combo.toolTip() == options.TASK.help
    job = bar.transcribe_settings()
    for option in options.ALL:
        if option.settings_key is not None:
            assert getattr(job, option.name) == option.default, option.name
