"""Settings… turns the watermark on synthesized speech on and off, and the Synthesize tab follows it."""
from desktop.ui.common.settings_dialog import SettingsDialog
from desktop.ui.speech.synthesize_tab import SynthesizeTab


def test_the_watermark_is_on_until_turned_off_and_the_choice_is_written_on_ok(qtbot, settings):
    dialog = SettingsDialog(settings)
    qtbot.addWidget(dialog)
    assert dialog.watermark_box.isChecked()
    assert dialog.watermark_box.text() == "Mark synthesized speech with an inaudible watermark"

    dialog.watermark_box.setChecked(False)
    dialog.accept()

    assert dialog.changed() == {"synthesize/watermark"}
    assert settings.get("synthesize/watermark") is False
    again = SettingsDialog(settings)
    qtbot.addWidget(again)
    assert not again.watermark_box.isChecked()


def test_the_synthesize_tab_marks_speech_as_settings_say(qtbot, settings, window):
    tab = window.findChild(SynthesizeTab)
    assert tab.synthesis_settings().watermark

    dialog = SettingsDialog(settings)  # the window's own settings
    qtbot.addWidget(dialog)
    dialog.watermark_box.setChecked(False)
    dialog.accept()

    assert not tab.synthesis_settings().watermark
