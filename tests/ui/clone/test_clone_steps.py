"""The states of the Clone tab's steps, driven through the real widgets: what each step shows, why
Next cannot be pressed yet, the recorder stopping at the longest length, what VoxDesk heard when
consent is refused, the saved list, and the Speak page's language."""
from __future__ import annotations

import secrets

import numpy as np
import pytest
from PySide6.QtCore import QLocale

from desktop.core.common.audio import decode
from desktop.core.common.recorder import Recorder
from desktop.core.voices.library import CONSENT_FILE, VoiceLibrary
from desktop.core.voices.quality import MIN_SECONDS, TakeLength
from desktop.ui.clone.recorder_widget import RecorderWidget
from tests.core.common.test_recorder import feed, microphone
from tests.core.voices.test_library import consent_for, recorded
from tests.helpers.espeak import speak
from tests.helpers.pulseaudio import pulseaudio, pulseaudio_server  # noqa: F401 - fixtures
from tests.helpers.weights import DATA_DIR
from tests.ui.clone.test_clone_tab import encoder, tab, wait_for_job  # noqa: F401 - fixtures


@pytest.fixture
def chinese_interface():
    saved = QLocale()
    QLocale.setDefault(QLocale(QLocale.Language.Chinese, QLocale.Country.China))
    yield
    QLocale.setDefault(saved)


def import_sample(qtbot, tab, name: str = "Alex Reader") -> None:
    page = tab.add_voice_page
    tab.pages.setCurrentIndex(1)
    page.speaker_name_edit.setText(name)
    page.import_recording(DATA_DIR / "jfk.flac")
    wait_for_job(qtbot, tab, "import")
    assert page.sample_step.ready, page.sample_step.quality_label.text()


def test_each_step_shows_only_its_own_lines_and_buttons(qtbot, tab, tmp_path):
    page = tab.add_voice_page
    tab.pages.setCurrentIndex(1)
    assert page.recorder.record_button.text() == "Record"
    import_sample(qtbot, tab)
    assert page.recorder.record_button.text() == "Record again"  # the imported sample is this step's take
    assert page.sample_step.quality_label.isVisible() and page.sample_step.quality_label.text()
    assert not page.save_voice_button.isVisible()

    page.consent_step_button.click()
    assert page.step_label.text().startswith("Step 2 of 2")
    assert page.recorder.record_button.text() == "Record"  # nothing recorded for this step yet
    assert not page.sample_step.quality_label.isVisible()  # "The sample is good…" belongs to step 1
    assert page.save_voice_button.isVisible() and not page.save_voice_button.isEnabled()
    assert "record the sentence above" in page.next_hint.text()

    page.import_recording(speak(page.consent_step.prompt.text, tmp_path / "consent.wav"))
    wait_for_job(qtbot, tab, "import")
    assert page.consent_step.consent_label.isVisible() and "Consent recording" in page.consent_step.consent_label.text()
    assert page.recorder.record_button.text() == "Record again"
    assert not page.save_voice_button.isEnabled() and "type a name for the voice" in page.next_hint.text()
    qtbot.keyClicks(page.voice_name_edit, "Alex")
    assert page.save_voice_button.isEnabled() and not page.next_hint.isVisible()

    page.sample_step_button.click()
    assert page.step_label.text().startswith("Step 1 of 2")
    assert not page.consent_step.consent_label.isVisible()
    assert not page.save_voice_button.isVisible()
    assert page.sample_step.quality_label.isVisible()
    assert page.recorder.record_button.text() == "Record again"

    page.consent_step_button.click()  # the consent recording is still there
    assert page.consent_step.consent_label.isVisible() and page.save_voice_button.isEnabled()


def test_next_says_what_is_missing_while_it_cannot_be_pressed(qtbot, tab):
    page = tab.add_voice_page
    tab.pages.setCurrentIndex(1)
    assert not page.consent_step_button.isEnabled()
    assert page.next_hint.isVisible() and "record the text above" in page.next_hint.text()

    import_sample(qtbot, tab, name="")
    assert not page.consent_step_button.isEnabled()
    assert "type the speaker's name" in page.next_hint.text()
    assert page.consent_step_button.toolTip() == page.next_hint.text()

    qtbot.keyClicks(page.speaker_name_edit, "Alex Reader")
    assert page.consent_step_button.isEnabled() and not page.next_hint.isVisible()


def test_a_refused_sample_asks_for_a_new_take_before_next(qtbot, tab):
    page = tab.add_voice_page
    tab.pages.setCurrentIndex(1)
    page.speaker_name_edit.setText("Li Wei")
    page.import_recording(DATA_DIR / "BAC009S0764W0121.wav")  # too short
    wait_for_job(qtbot, tab, "import")

    assert not page.consent_step_button.isEnabled()
    assert "record the text again" in page.next_hint.text()


def minutes(seconds: float) -> str:
    """A take's length as the recorder's time shows it: to the nearest second, as the quality check says it."""
    return f"{round(seconds) // 60}:{round(seconds) % 60:02d}"


def test_an_imported_sample_shows_its_length_against_the_shortest_one_the_step_accepts(qtbot, tab):
    page = tab.add_voice_page
    timer = page.recorder.elapsed_label
    tab.pages.setCurrentIndex(1)
    page.speaker_name_edit.setText("Li Wei")
    assert timer.text() == f"0:00 (at least {MIN_SECONDS:.0f} s, best 15–30 s)"

    page.import_recording(DATA_DIR / "BAC009S0764W0121.wav")  # a few seconds: shorter than the step says
    wait_for_job(qtbot, tab, "import")
    short = page.sample_step.sample.report.duration
    assert short < MIN_SECONDS and not page.sample_step.ready
    assert timer.text().startswith(minutes(short) + " ")
    assert f"at least {MIN_SECONDS:.0f} seconds of speech are needed" in page.sample_step.quality_label.text()

    import_sample(qtbot, tab, name="Li Wei")  # the 11 s of jfk.flac: longer than the step says, so taken
    seconds = page.sample_step.sample.report.duration
    assert MIN_SECONDS < seconds < 15
    assert timer.text() == f"{minutes(seconds)} (at least {MIN_SECONDS:.0f} s, best 15–30 s)"
    assert f"{seconds:.0f} seconds" in page.sample_step.quality_label.text()  # the time and the check agree
    assert page.consent_step_button.isEnabled()

    page.consent_step_button.click()
    assert timer.text().startswith("0:00")  # the consent sentence has no take yet
    page.sample_step_button.click()
    assert timer.text().startswith(minutes(seconds) + " ")


def test_the_recording_stops_by_itself_at_the_longest_length_and_says_so(qtbot, pulseaudio, tmp_path):
    widget = RecorderWidget(recorder_factory=lambda device: Recorder(device, latency=0.005))
    qtbot.addWidget(widget)
    widget.show()
    rate = 48000
    voice = decode(speak("Reading the passage aloud, slowly and clearly, for the sample.", tmp_path / "r.wav"),
                   sample_rate=rate)
    longest = 2.0
    # Half a second more than the longest take: what is left after the stop fits in the pipe's buffer.
    spoken = np.concatenate([voice, voice])[: int((longest + 0.5) * rate)]
    assert len(spoken) / rate > longest + 0.4
    fifo = tmp_path / "mic.fifo"
    with microphone(pulseaudio, "module-pipe-source", f"file={fifo}", "format=s16le", f"rate={rate}",
                    "channels=1"):
        widget.reload_devices()
        widget.set_script("", "Read this.", TakeLength(shortest=1.0, low=1.0, high=longest))
        with qtbot.waitSignal(widget.recorded, timeout=60_000) as take:
            widget.start()
            feeding = feed(fifo, spoken, rate)
        feeding.join(timeout=30)

    recording = take.args[0]
    assert not widget.is_recording
    assert longest <= recording.duration < longest + 0.5
    assert "stopped by itself at 2 seconds" in widget.message.text()
    assert widget.record_button.text() == "Record again"


def test_a_refused_consent_shows_what_voxdesk_heard(qtbot, tab, tmp_path, monkeypatch):
    page = tab.add_voice_page
    import_sample(qtbot, tab)
    page.voice_name_edit.setText("Kennedy")
    monkeypatch.setattr(secrets, "randbelow", lambda _limit: 3821)  # code 4821
    page.consent_step_button.click()
    misread = page.consent_step.prompt.text.replace("4821", "7395")
    page.import_recording(speak(misread, tmp_path / "consent.wav"))
    wait_for_job(qtbot, tab, "import")

    page.save_voice_button.click()
    wait_for_job(qtbot, tab, "enroll")

    shown = page.add_progress.text()
    assert "The code in the consent recording is not 4821" in shown
    heard = shown.split("VoxDesk heard: ", 1)[1]
    assert "7395" in heard.replace(",", "") and "My name is" in heard
    assert tab.voices.voice_list.count() == 0


def test_a_saved_voice_replaces_the_empty_list_line_and_fits_without_a_scrollbar(qtbot, tab, tmp_path):
    voices = tab.voices
    tab.resize(1366, 700)
    assert "No voices yet" in voices.voices_message.text()
    files = recorded(tmp_path)
    voice = VoiceLibrary().add("Reception announcements", "en", {"sample-1.wav": files["sample-1.wav"]},
                               files[CONSENT_FILE], consent_for(files))

    tab.add_voice_page.voice_saved.emit(voice)  # what the page says after saving
    qtbot.wait(50)  # let the layout settle

    assert voices.voice_list.count() == 1
    assert voices.voices_message.text() == ""
    assert not voices.voice_list.horizontalScrollBar().isVisible()
    entry = voices.voice_list.item(0).text()
    assert entry.startswith("Reception announcements · English · added")
    assert voices.voice_list.fontMetrics().horizontalAdvance(entry) < voices.voice_list.viewport().width()


def test_the_speak_page_follows_the_interface_language_then_the_voice_s_own(qtbot, chinese_interface, tab,
                                                                              tmp_path):
    speaking = tab.speak_panel
    assert speaking.speak_language_combo.currentData() == "zh"  # no voice yet: the interface's language
    assert tab.add_voice_page.add_language == "zh"

    files = recorded(tmp_path)
    english = VoiceLibrary().add("John", "en", {"sample-1.wav": files["sample-1.wav"]}, files[CONSENT_FILE],
                                 consent_for(files))
    tab.refresh_voices()
    speaking.select_voice(english.id)
    assert speaking.speak_language_combo.currentData() == "en"  # the voice's own language
