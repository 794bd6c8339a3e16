"""The Speak page names its real controls and explains its words: "Voice model", XTTS v2, OpenVoice v2
and the CPML; OpenVoice without its converter names the button to press, and the sentence goes when
the other engine is chosen."""
from __future__ import annotations

from PySide6.QtCore import Qt

from desktop.core.voices.library import CONSENT_FILE, VoiceLibrary
from tests.core.voices.test_library import consent_for, recorded
from tests.ui.clone.test_clone_tab import JOB_TIMEOUT_MS, encoder, tab  # noqa: F401 - fixtures


def test_openvoice_without_its_converter_names_the_model_folder_button_and_the_sentence_goes_on_switching(
        qtbot, tab, tmp_path):
    speaking = tab.speak_panel
    engines = speaking.engine_choice.engine_combo
    files = recorded(tmp_path)
    VoiceLibrary().add("John", "en", {"sample-1.wav": files["sample-1.wav"]}, files[CONSENT_FILE],
                       consent_for(files))
    tab.refresh_voices()
    engines.setCurrentIndex(engines.findData("openvoice"))
    speaking.editor.setPlainText("Hello there.")

    speaking.speak()
    qtbot.waitUntil(lambda: not tab.jobs.running("speak"), timeout=JOB_TIMEOUT_MS)

    message = speaking.speak_message.text()
    assert "Press “Model folder…” next to “Voice model”" in message, message
    assert "makes the speech sound like the saved voice" in message
    assert "Clone tab's settings" not in message
    engines.setCurrentIndex(engines.findData("xtts"))
    assert speaking.speak_message.text() == ""


def test_the_voice_model_row_explains_the_engines_and_their_licences_in_words(tab):
    speaking = tab.speak_panel
    engines = speaking.engine_choice.engine_combo

    assert speaking.engine_label.text() == "Voice model:"
    xtts = engines.itemData(engines.findData("xtts"), Qt.ItemDataRole.ToolTipRole)
    openvoice = engines.itemData(engines.findData("openvoice"), Qt.ItemDataRole.ToolTipRole)
    assert "voice model" in xtts and "CPML (Coqui Public Model License), is a non-commercial licence" in xtts
    assert "OpenVoice makes it sound like the saved voice" in openvoice and "commercial use" in openvoice
    engines.setCurrentIndex(engines.findData("xtts"))
    assert engines.toolTip() == xtts
    assert "non-commercial licence" in speaking.licence_label.toolTip()
    engines.setCurrentIndex(engines.findData("openvoice"))
    assert engines.toolTip() == openvoice
    assert "MIT allows commercial use" in speaking.licence_label.toolTip()
