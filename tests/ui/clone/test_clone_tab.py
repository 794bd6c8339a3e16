"""The Clone tab with its real services: a microphone through PortAudio and a private PulseAudio
server, Whisper base checking the consent, Resemblyzer comparing voices, and a tiny random XTTS."""
from __future__ import annotations

import secrets
import shutil
from pathlib import Path

import av
import numpy as np
import pytest
from PySide6.QtCore import Qt

from desktop.core.common.audio import decode
from desktop.core.gpu.fallback import FallbackLog
from desktop.core.transcription.whisper_models import ModelStore
from desktop.core.common.paths import voices_dir
from desktop.core.common.recorder import Recorder
from desktop.core.speech.tts_models import TtsModelStore
from desktop.core.voices.library import CONSENT_FILE, VoiceLibrary
from desktop.engines.voices.cloning import VoiceCloner, VoiceEnrollment
from desktop.engines.voices.speaker import SpeakerEncoder
from desktop.engines.speech.tts import SpeechSynthesizer
from desktop.ui.clone.clone_tab import CloneTab
from desktop.ui.clone.level_meter import CLIP_ZONE_DBFS, LevelMeter
from desktop.ui.clone.recorder_widget import RecorderWidget
from desktop.workers.job import JobRunner
from tests.core.common.test_recorder import feed, microphone
from tests.core.voices.test_library import consent_for, recorded
from tests.helpers.espeak import speak
from tests.helpers.pulseaudio import pulseaudio, pulseaudio_server  # noqa: F401 - fixtures
from tests.helpers.tiny_clone import build_tiny_xtts
from tests.helpers.weights import DATA_DIR, base_dir

JOB_TIMEOUT_MS = 240_000
SAMPLE_TEXT = ("On a bright Thursday morning, Joseph walked past the quiet harbour with a cup of warm coffee. "
               "A small boat was waiting by the pier, its yellow sail flapping in the breeze. "
               "Could you check the engine, shouted the captain.")


@pytest.fixture(scope="module")
def encoder() -> SpeakerEncoder:
    return SpeakerEncoder()


@pytest.fixture(scope="module")
def tiny_xtts(tmp_path_factory) -> Path:
    return build_tiny_xtts(tmp_path_factory.mktemp("xtts"))


@pytest.fixture
def tab(qtbot, tmp_path, settings, encoder):
    from desktop.engines.transcription.transcriber import Transcriber

    transcriber = Transcriber(ModelStore(tmp_path / "models"), FallbackLog(), gpu_available=lambda: False)
    library = VoiceLibrary(voices_dir())
    store = TtsModelStore(tmp_path / "tts")
    runner = JobRunner()
    widget = CloneTab(
        settings, library,
        VoiceEnrollment(library, transcriber, encoder, whisper_model=str(base_dir())),
        VoiceCloner(store, SpeechSynthesizer(store, FallbackLog()), encoder),
        runner,
        # The test microphone is a pipe source without a clock: small blocks keep it near real time.
        recorder_factory=lambda device: Recorder(device, latency=0.005),
    )
    qtbot.addWidget(widget)
    widget.show()
    yield widget
    widget.shutdown()
    qtbot.waitUntil(lambda: not runner.busy, timeout=JOB_TIMEOUT_MS)
    transcriber.release()


def wait_for_job(qtbot, tab, key: str) -> None:
    qtbot.waitUntil(lambda: key not in tab._jobs, timeout=JOB_TIMEOUT_MS)


def test_record_check_consent_save_speak_and_save_a_file(qtbot, tab, pulseaudio, tmp_path, monkeypatch,
                                                           tiny_xtts):
    tab.pages.setCurrentIndex(1)
    qtbot.keyClicks(tab.speaker_name_edit, "Alex Reader")
    qtbot.keyClicks(tab.voice_name_edit, "Alex")
    assert "Thursday morning" in tab.recorder.script.toPlainText()  # the passage to read

    # Record: the microphone hears a person (espeak-ng) reading part of the passage.
    rate = 48000
    reading = decode(speak(SAMPLE_TEXT, tmp_path / "reading.wav"), sample_rate=rate)
    spoken = np.concatenate([np.zeros(rate // 2, np.float32), reading, np.zeros(rate, np.float32)])
    fifo = tmp_path / "mic.fifo"
    with microphone(pulseaudio, "module-pipe-source", f"file={fifo}", "format=s16le", f"rate={rate}",
                    "channels=1"):
        tab.recorder.reload_devices()
        qtbot.mouseClick(tab.recorder.record_button, Qt.MouseButton.LeftButton)
        assert tab.recorder.is_recording and tab.recorder.record_button.text() == "Stop"
        feed(fifo, spoken, rate).join()
        qtbot.waitUntil(lambda: tab.recorder._recorder.elapsed >= len(spoken) / rate - 0.1, timeout=60_000)
        qtbot.mouseClick(tab.recorder.record_button, Qt.MouseButton.LeftButton)

    assert tab.sample is not None and tab.sample.report.accepted, tab.quality_label.text()
    assert "The sample is good" in tab.quality_label.text()
    assert tab.sample.sample_rate >= 44100  # the microphone's own rate, kept
    assert tab.consent_step_button.isEnabled()

    # Consent: the sentence with name, date and code; the speaker reads it (a recording is imported).
    monkeypatch.setattr(secrets, "randbelow", lambda _limit: 3821)  # code 4821, which espeak reads clearly
    qtbot.mouseClick(tab.consent_step_button, Qt.MouseButton.LeftButton)
    sentence = tab.recorder.script.toPlainText()
    assert sentence.startswith("My name is Alex Reader.") and "4821" in sentence
    tab.import_recording(speak(sentence, tmp_path / "consent.wav"))
    wait_for_job(qtbot, tab, "import")
    assert tab.save_voice_button.isEnabled()

    qtbot.mouseClick(tab.save_voice_button, Qt.MouseButton.LeftButton)
    wait_for_job(qtbot, tab, "enroll")
    assert "Saved the voice “Alex”" in tab.add_progress.text(), tab.add_progress.text()
    assert tab.voice_list.count() == 1 and tab.speak_voice_combo.currentText() == "Alex"

    # Speak in the voice with XTTS, after accepting its licence in the window.
    tab.pages.setCurrentIndex(0)
    tab.set_model_folder(str(tiny_xtts))
    assert "CPML" in tab.licence_label.text() and "non-commercial" in tab.licence_label.text()
    assert tab.licence_panel.isVisible()
    tab.editor.setPlainText("Good morning. The office opens at nine.")
    assert not tab.speak_button.isEnabled()
    tab.licence_box.setChecked(True)
    qtbot.mouseClick(tab.accept_licence_button, Qt.MouseButton.LeftButton)
    assert not tab.licence_panel.isVisible() and tab.speak_button.isEnabled()

    qtbot.mouseClick(tab.speak_button, Qt.MouseButton.LeftButton)
    wait_for_job(qtbot, tab, "speak")
    assert tab.result is not None and tab.result.speech.complete, tab.speak_message.text()
    assert len(tab._spoken) == 2
    assert tab.match_label.text().startswith("Voice match:")

    output = tmp_path / "announcement.wav"
    tab.save_to(output)
    wait_for_job(qtbot, tab, "save")
    with av.open(str(output)) as container:
        assert container.streams.audio[0].rate == 24000
    assert "Saved “announcement.wav”" in tab.speak_message.text()


def test_an_imported_sample_that_is_too_short_is_refused_and_consent_stays_closed(qtbot, tab):
    tab.pages.setCurrentIndex(1)
    tab.speaker_name_edit.setText("Li Wei")

    tab.import_recording(DATA_DIR / "BAC009S0764W0121.wav")
    wait_for_job(qtbot, tab, "import")

    assert "This sample cannot be used" in tab.quality_label.text()
    assert "at least 6 seconds" in tab.quality_label.text()
    assert not tab.consent_step_button.isEnabled()


def test_a_consent_read_by_someone_else_is_refused_and_nothing_is_saved(qtbot, tab, tmp_path, monkeypatch):
    tab.pages.setCurrentIndex(1)
    tab.speaker_name_edit.setText("Alex Reader")
    tab.voice_name_edit.setText("Kennedy")
    tab.import_recording(DATA_DIR / "jfk.flac")
    wait_for_job(qtbot, tab, "import")
    monkeypatch.setattr(secrets, "randbelow", lambda _limit: 3821)
    tab.show_consent_step()
    tab.import_recording(speak(tab.prompt.text, tmp_path / "consent.wav"))
    wait_for_job(qtbot, tab, "import")

    tab.save_voice()
    wait_for_job(qtbot, tab, "enroll")

    assert "do not sound like the same person" in tab.add_progress.text()
    assert tab.voice_list.count() == 0 and VoiceLibrary().list() == []


def test_voices_are_renamed_deleted_and_a_folder_removed_outside_is_reported(qtbot, tab, tmp_path):
    library = VoiceLibrary()
    for name, recording in (("Anna", "lj050-0131.wav"), ("John", "jfk.flac")):
        files = recorded(tmp_path, recording)
        library.add(name, "en", {"sample-1.wav": files["sample-1.wav"]}, files[CONSENT_FILE], consent_for(files))
    tab.refresh_voices()
    assert tab.voice_list.count() == 2

    tab.voice_list.setCurrentRow(0)
    assert tab.rename_voice(tab.selected_voice(), "Anna (reception)")
    assert tab.voice_list.item(0).text().startswith("Anna (reception) · English · added")

    tab.voice_list.setCurrentRow(1)
    john = tab.selected_voice()
    shutil.rmtree(john.folder)  # deleted in the file manager while VoxDesk is open
    tab.play_voice_sample()

    assert "deleted outside VoxDesk" in tab.voices_message.text()
    assert [tab.voice_list.item(i).text().split(" · ")[0] for i in range(tab.voice_list.count())] == \
        ["Anna (reception)"]

    tab.voice_list.setCurrentRow(0)
    tab.delete_voice(tab.selected_voice())
    assert tab.voice_list.count() == 0 and library.list() == []


def test_speaking_in_a_voice_deleted_behind_the_app_s_back_says_so(qtbot, tab, tmp_path):
    files = recorded(tmp_path)
    voice = VoiceLibrary().add("John", "en", {"sample-1.wav": files["sample-1.wav"]}, files[CONSENT_FILE],
                               consent_for(files))
    tab.refresh_voices()
    tab.engine_combo.setCurrentIndex(tab.engine_combo.findData("openvoice"))
    tab.editor.setPlainText("Hello there.")
    shutil.rmtree(voice.folder)

    tab.speak()

    assert "deleted outside VoxDesk" in tab.voices_message.text() or \
        "Choose a saved voice first" in tab.speak_message.text()
    assert tab.speak_voice_combo.count() == 0


def test_the_licence_of_the_selected_engine_is_shown_next_to_speak(tab):
    tab.engine_combo.setCurrentIndex(tab.engine_combo.findData("openvoice"))
    assert tab.licence_label.text() == "Licence: MIT (commercial use allowed)"
    assert not tab.licence_panel.isVisible()

    tab.engine_combo.setCurrentIndex(tab.engine_combo.findData("xtts"))
    assert tab.licence_label.text() == "Licence: CPML (non-commercial use only)"
    assert tab.licence_panel.isVisible() and not tab.accept_licence_button.isEnabled()


def test_without_a_microphone_the_recorder_says_what_to_do(qtbot):
    widget = RecorderWidget(devices=lambda: [], refresh=lambda: None)
    qtbot.addWidget(widget)

    assert "No microphone was found" in widget.message.text()
    assert not widget.record_button.isEnabled()


def test_the_level_meter_turns_its_clip_zone_red_when_the_voice_is_too_loud(qtbot):
    meter = LevelMeter()
    qtbot.addWidget(meter)
    meter.resize(300, 24)
    meter.set_levels(-20.0, -26.0, clipping=False)
    calm = meter.grab().toImage().pixelColor(296, 12)

    meter.set_levels(0.0, -2.0, clipping=True)
    loud = meter.grab().toImage().pixelColor(296, 12)

    assert meter.clip_seen
    assert loud.red() > calm.red() + 50 and loud.red() > 3 * loud.green()
    assert CLIP_ZONE_DBFS > -6
