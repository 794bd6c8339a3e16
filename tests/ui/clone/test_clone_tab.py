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
    qtbot.waitUntil(lambda: not tab.jobs.running(key), timeout=JOB_TIMEOUT_MS)


def test_record_check_consent_save_speak_and_save_a_file(qtbot, tab, pulseaudio, tmp_path, monkeypatch,
                                                           tiny_xtts):
    page = tab.add_voice_page
    speaking = tab.speak_panel
    voices = tab.voices
    tab.pages.setCurrentIndex(1)
    qtbot.keyClicks(page.speaker_name_edit, "Alex Reader")
    qtbot.keyClicks(page.voice_name_edit, "Alex")
    assert "Thursday morning" in page.recorder.script.toPlainText()  # the passage to read

    # Record: the microphone hears a person (espeak-ng) reading part of the passage.
    rate = 48000
    reading = decode(speak(SAMPLE_TEXT, tmp_path / "reading.wav"), sample_rate=rate)
    spoken = np.concatenate([np.zeros(rate // 2, np.float32), reading, np.zeros(rate, np.float32)])
    fifo = tmp_path / "mic.fifo"
    with microphone(pulseaudio, "module-pipe-source", f"file={fifo}", "format=s16le", f"rate={rate}",
                    "channels=1"):
        page.recorder.reload_devices()
        qtbot.mouseClick(page.recorder.record_button, Qt.MouseButton.LeftButton)
        assert page.recorder.is_recording and page.recorder.record_button.text() == "Stop"
        feed(fifo, spoken, rate).join()
        qtbot.waitUntil(lambda: page.recorder._recorder.elapsed >= len(spoken) / rate - 0.1, timeout=60_000)
        qtbot.mouseClick(page.recorder.record_button, Qt.MouseButton.LeftButton)

    assert page.sample_step.ready, page.sample_step.quality_label.text()
    assert "The sample is good" in page.sample_step.quality_label.text()
    assert page.sample_step.sample.sample_rate >= 44100  # the microphone's own rate, kept
    assert page.consent_step_button.isEnabled()

    # Consent: the sentence with name, date and code; the speaker reads it (a recording is imported).
    monkeypatch.setattr(secrets, "randbelow", lambda _limit: 3821)  # code 4821, which espeak reads clearly
    qtbot.mouseClick(page.consent_step_button, Qt.MouseButton.LeftButton)
    sentence = page.recorder.script.toPlainText()
    assert sentence.startswith("My name is Alex Reader.") and "4821" in sentence
    page.import_recording(speak(sentence, tmp_path / "consent.wav"))
    wait_for_job(qtbot, tab, "import")
    assert page.save_voice_button.isEnabled()

    qtbot.mouseClick(page.save_voice_button, Qt.MouseButton.LeftButton)
    wait_for_job(qtbot, tab, "enroll")
    assert "Saved the voice “Alex”" in page.add_progress.text(), page.add_progress.text()
    assert voices.voice_list.count() == 1 and speaking.speak_voice_combo.currentText() == "Alex"
    assert "No voices yet" not in voices.voices_message.text()
    assert page.step_label.text().startswith("Step 1 of 2") and page.recorder.record_button.text() == "Record"

    # Speak in the voice with XTTS, after accepting its licence in the window.
    tab.pages.setCurrentIndex(0)
    speaking.engine_choice.set_model_folder(str(tiny_xtts))
    assert "CPML" in speaking.licence_label.text() and "non-commercial" in speaking.licence_label.text()
    assert speaking.licence_panel.isVisible()
    speaking.editor.setPlainText("Good morning. The office opens at nine.")
    assert not speaking.speak_button.isEnabled()
    speaking.licence_panel.licence_box.setChecked(True)
    qtbot.mouseClick(speaking.licence_panel.accept_licence_button, Qt.MouseButton.LeftButton)
    assert not speaking.licence_panel.isVisible() and speaking.speak_button.isEnabled()

    qtbot.mouseClick(speaking.speak_button, Qt.MouseButton.LeftButton)
    wait_for_job(qtbot, tab, "speak")
    assert speaking.result is not None and speaking.result.speech.complete, speaking.speak_message.text()
    assert len(speaking.spoken) == 2
    assert speaking.match_label.text().startswith("Voice match:")

    output = tmp_path / "announcement.wav"
    speaking.save_to(output)
    wait_for_job(qtbot, tab, "save")
    with av.open(str(output)) as container:
        assert container.streams.audio[0].rate == 24000
    assert "Saved “announcement.wav”" in speaking.speak_message.text()


def test_an_imported_sample_that_is_too_short_is_refused_and_consent_stays_closed(qtbot, tab):
    page = tab.add_voice_page
    tab.pages.setCurrentIndex(1)
    page.speaker_name_edit.setText("Li Wei")

    page.import_recording(DATA_DIR / "BAC009S0764W0121.wav")
    wait_for_job(qtbot, tab, "import")

    assert "This sample cannot be used" in page.sample_step.quality_label.text()
    assert "at least 6 seconds" in page.sample_step.quality_label.text()
    assert not page.consent_step_button.isEnabled()


def test_a_consent_read_by_someone_else_is_refused_and_nothing_is_saved(qtbot, tab, tmp_path, monkeypatch):
    page = tab.add_voice_page
    voices = tab.voices
    tab.pages.setCurrentIndex(1)
    page.speaker_name_edit.setText("Alex Reader")
    page.voice_name_edit.setText("Kennedy")
    page.import_recording(DATA_DIR / "jfk.flac")
    wait_for_job(qtbot, tab, "import")
    monkeypatch.setattr(secrets, "randbelow", lambda _limit: 3821)
    page.show_consent_step()
    page.import_recording(speak(page.consent_step.prompt.text, tmp_path / "consent.wav"))
    wait_for_job(qtbot, tab, "import")

    page.save_voice()
    wait_for_job(qtbot, tab, "enroll")

    assert "do not sound like the same person" in page.add_progress.text()
    assert voices.voice_list.count() == 0 and VoiceLibrary().list() == []


def test_voices_are_renamed_deleted_and_a_folder_removed_outside_is_reported(qtbot, tab, tmp_path):
    voices = tab.voices
    library = VoiceLibrary()
    for name, recording in (("Anna", "lj050-0131.wav"), ("John", "jfk.flac")):
        files = recorded(tmp_path, recording)
        library.add(name, "en", {"sample-1.wav": files["sample-1.wav"]}, files[CONSENT_FILE], consent_for(files))
    tab.refresh_voices()
    assert voices.voice_list.count() == 2

    voices.voice_list.setCurrentRow(0)
    assert voices.rename_voice(voices.selected_voice(), "Anna (reception)")
    assert voices.voice_list.item(0).text().startswith("Anna (reception) · English · added")

    voices.voice_list.setCurrentRow(1)
    john = voices.selected_voice()
    shutil.rmtree(john.folder)  # deleted in the file manager while VoxDesk is open
    voices.play_voice_sample()

    assert "deleted outside VoxDesk" in voices.voices_message.text()
    assert [voices.voice_list.item(i).text().split(" · ")[0] for i in range(voices.voice_list.count())] == \
        ["Anna (reception)"]

    voices.voice_list.setCurrentRow(0)
    voices.delete_voice(voices.selected_voice())
    assert voices.voice_list.count() == 0 and library.list() == []


def test_speaking_in_a_voice_deleted_behind_the_app_s_back_says_so(qtbot, tab, tmp_path):
    speaking = tab.speak_panel
    voices = tab.voices
    engines = speaking.engine_choice.engine_combo
    files = recorded(tmp_path)
    voice = VoiceLibrary().add("John", "en", {"sample-1.wav": files["sample-1.wav"]}, files[CONSENT_FILE],
                               consent_for(files))
    tab.refresh_voices()
    engines.setCurrentIndex(engines.findData("openvoice"))
    speaking.editor.setPlainText("Hello there.")
    shutil.rmtree(voice.folder)

    speaking.speak()

    assert "deleted outside VoxDesk" in voices.voices_message.text() or \
        "Choose a saved voice first" in speaking.speak_message.text()
    assert speaking.speak_voice_combo.count() == 0


def test_the_licence_of_the_selected_engine_is_shown_next_to_speak(tab):
    speaking = tab.speak_panel
    engines = speaking.engine_choice.engine_combo
    engines.setCurrentIndex(engines.findData("openvoice"))
    assert speaking.licence_label.text() == "Licence: MIT (commercial use allowed)"
    assert not speaking.licence_panel.isVisible()

    engines.setCurrentIndex(engines.findData("xtts"))
    assert speaking.licence_label.text() == "Licence: CPML (non-commercial use only)"
    assert speaking.licence_panel.isVisible() and not speaking.licence_panel.accept_licence_button.isEnabled()


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


def test_a_genuine_voice_folder_edited_by_hand_is_refused_in_the_window(qtbot, tab, tmp_path):
    import json

    from desktop.core.voices.consent import sha256_file

    speaking = tab.speak_panel
    engines = speaking.engine_choice.engine_combo
    files = recorded(tmp_path)
    voice = VoiceLibrary().add("John", "en", {"sample-1.wav": files["sample-1.wav"]}, files[CONSENT_FILE],
                               consent_for(files))
    # Someone swaps in another person's sample and "fixes" its hash in voice.json.
    other = recorded(tmp_path, "lj050-0131.wav")["sample-1.wav"]
    shutil.copyfile(other, voice.sample_paths[0])
    metadata = json.loads((voice.folder / "voice.json").read_text(encoding="utf-8"))
    metadata["consent"]["audio_sha256"]["sample-1.wav"] = sha256_file(other)
    (voice.folder / "voice.json").write_text(json.dumps(metadata), encoding="utf-8")
    tab.refresh_voices()
    engines.setCurrentIndex(engines.findData("openvoice"))
    speaking.editor.setPlainText("Hello there.")

    speaking.speak()
    qtbot.waitUntil(lambda: not tab.jobs.running("speak"), timeout=JOB_TIMEOUT_MS)

    assert "no valid consent record" in speaking.speak_message.text()
    assert not speaking.play_button.isEnabled()  # nothing was spoken in the forged voice
