"""Tools → Known voices…: the list with each agreement, Remove, Export/Import, and adding a person by the
agreement sentence read aloud (espeak-ng reads it; real Whisper tiny.en checks it), all off the GUI thread."""
from __future__ import annotations

import json

import numpy as np
import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from desktop.core.common.audio import decode
from desktop.core.common.recorder import Recorder
from desktop.core.speakers import agreement
from desktop.core.speakers.known_voices import KnownVoiceStore
from desktop.ui.speakers.known_voices_dialog import KnownVoicesDialog
from desktop.workers.job import JobRunner
from tests.helpers.espeak import speak
from tests.helpers.pulseaudio import pulseaudio, pulseaudio_server  # noqa: F401 - fixtures
from tests.helpers.speaking_microphone import RATE, SpeakingMicrophone
from tests.helpers.weights import tiny_en_dir
from tests.ui.conftest import JOB_TIMEOUT_MS


def embeddings(seed: int) -> np.ndarray:
    rows = np.random.default_rng(seed).normal(size=(10, 256)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


@pytest.fixture
def store(tmp_path):
    return KnownVoiceStore(tmp_path / "known", key=bytes(range(32)))


def tiny_whisper():
    from faster_whisper import WhisperModel

    model = WhisperModel(str(tiny_en_dir()), device="cpu", compute_type="int8")

    def transcribe(path, language):
        segments, _ = model.transcribe(str(path), language=language)
        return "".join(segment.text for segment in segments)

    return transcribe


def opened(qtbot, store, transcribe=lambda path, language: "", **recorder) -> KnownVoicesDialog:
    dialog = KnownVoicesDialog(store, JobRunner(), transcribe, **recorder)
    qtbot.addWidget(dialog)
    wait_idle(qtbot, dialog)
    return dialog


def wait_idle(qtbot, dialog) -> None:
    qtbot.waitUntil(lambda: not dialog._jobs.running(), timeout=JOB_TIMEOUT_MS)


def cells(dialog) -> list[list[str]]:
    return [[dialog.table.item(row, column).text() for column in range(4)] for row in range(dialog.table.rowCount())]


def test_the_list_shows_name_agreement_recordings_heard_in_and_speech(qtbot, store):
    store.add("Anna Li", embeddings(1), 7.4, agreement.confirmed("maria"))
    dialog = opened(qtbot, store)
    ((name, agreed, heard, speech),) = cells(dialog)
    assert name == "Anna Li" and "confirmed by maria" in agreed
    assert heard == "1 recording" and speech == "7 s"
    assert dialog.empty_label.isHidden()


def test_remove_deletes_the_voices_files_after_a_confirmation(qtbot, store, monkeypatch):
    anna = store.add("Anna", embeddings(1), 7.4, agreement.confirmed("maria"))
    dialog = opened(qtbot, store)
    dialog.table.selectRow(0)
    monkeypatch.setattr(QMessageBox, "question", lambda *args, **kwargs: QMessageBox.StandardButton.Yes)
    dialog.remove_button.click()
    wait_idle(qtbot, dialog)
    qtbot.waitUntil(lambda: dialog.table.rowCount() == 0, timeout=JOB_TIMEOUT_MS)
    assert not (store.root / anna.id).exists() and list(store.root.iterdir()) == []


def test_a_damaged_entry_is_shown_with_a_sentence_and_the_others_still_listed(qtbot, store):
    anna = store.add("Anna", embeddings(1), 7.4, agreement.confirmed("maria"))
    store.add("Ben", embeddings(2), 8.0, agreement.confirmed("maria"))
    entry = store.root / anna.id / "voice.json"
    entry.write_text(entry.read_text("utf-8").replace('"Anna"', '"Carla"'), "utf-8")
    dialog = opened(qtbot, store)
    assert [row[0] for row in cells(dialog)] == ["Ben"]
    assert "damaged" in dialog.damaged_label.text() and not dialog.remove_damaged_button.isHidden()


def test_export_then_import_on_another_computer_brings_the_voice_and_agreement(qtbot, store, tmp_path, monkeypatch):
    store.add("Anna", embeddings(1), 7.4, agreement.confirmed("maria"))
    dialog = opened(qtbot, store)
    dialog.table.selectRow(0)
    target = tmp_path / "anna.voxvoice"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *args, **kwargs: (str(target), ""))
    dialog.export_button.click()
    wait_idle(qtbot, dialog)
    assert json.loads(target.read_text("utf-8"))["agreement"]["confirmed_by"] == "maria"

    other = KnownVoiceStore(tmp_path / "other", key=bytes(32))
    second = opened(qtbot, other)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args, **kwargs: (str(target), ""))
    second.import_button.click()
    wait_idle(qtbot, second)
    qtbot.waitUntil(lambda: second.table.rowCount() == 1, timeout=JOB_TIMEOUT_MS)
    assert "confirmed by maria" in cells(second)[0][1]


def test_an_altered_export_is_refused_with_a_sentence_and_nothing_is_added(qtbot, store, tmp_path, monkeypatch):
    altered = tmp_path / "anna.voxvoice"
    altered.write_text('{"format": "voxdesk-known-voice", "name": "Anna"}', "utf-8")
    dialog = opened(qtbot, store)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args, **kwargs: (str(altered), ""))
    dialog.import_button.click()
    wait_idle(qtbot, dialog)
    assert "changed after it was exported" in dialog.status_label.text()
    assert dialog.table.rowCount() == 0 and not store.root.exists()


def fixed_sentence(monkeypatch) -> None:
    """One date and code, so that what espeak-ng reads and Whisper hears is the same on every run (a fresh
    random code each time would make the test depend on how well tiny.en hears that code)."""
    from desktop.core.speakers.agreement import RecognitionPrompt
    from desktop.ui.speakers import known_voices_dialog

    monkeypatch.setattr(known_voices_dialog, "recognition_prompt",
                        lambda name, language: RecognitionPrompt(" ".join(name.split()), language, "2026-12-02",
                                                                 "1151"))


@pytest.mark.slow
def test_a_person_is_added_by_reading_the_agreement_sentence_checked_by_whisper(qtbot, store, tmp_path, monkeypatch):
    fixed_sentence(monkeypatch)
    dialog = opened(qtbot, store, tiny_whisper())
    dialog.name_edit.setText("Anna Smith")
    dialog.sentence_button.click()
    assert "my voice may be recognized" in dialog.sentence_label.text()
    recording = speak(dialog._prompt.text, tmp_path / "agreement.wav")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args, **kwargs: (str(recording), ""))
    dialog.agreement_button.click()
    assert dialog.add_button.isEnabled()
    dialog.add_button.click()
    wait_idle(qtbot, dialog)
    assert dialog.table.rowCount() == 1, dialog.status_label.text()
    assert cells(dialog)[0][0] == "Anna Smith" and "Read the agreement sentence" in cells(dialog)[0][1]
    (voice,) = store.list()
    assert voice.agreement.how == agreement.RECORDED and voice.agreement.code in voice.agreement.sentence


@pytest.mark.slow
def test_a_recording_that_does_not_say_the_sentence_is_refused_and_nothing_is_kept(qtbot, store, tmp_path,
                                                                                   monkeypatch):
    fixed_sentence(monkeypatch)
    dialog = opened(qtbot, store, tiny_whisper())
    dialog.name_edit.setText("Anna Smith")
    dialog.sentence_button.click()
    recording = speak("The weather is fine today and we will meet at the station at nine.",
                      tmp_path / "other.wav")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args, **kwargs: (str(recording), ""))
    dialog.agreement_button.click()
    dialog.add_button.click()
    wait_idle(qtbot, dialog)
    assert "does not match the sentence" in dialog.status_label.text()
    assert store.list() == [] and not store.root.exists()


@pytest.mark.slow
def test_a_person_is_added_by_reading_the_agreement_sentence_into_the_microphone(qtbot, store, pulseaudio, tmp_path,
                                                                                monkeypatch):
    fixed_sentence(monkeypatch)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr("tempfile.tempdir", str(scratch))
    heard_files = []
    whisper = tiny_whisper()

    def transcribe(path, language):
        heard_files.append(path)
        return whisper(path, language)

    with SpeakingMicrophone(pulseaudio, tmp_path) as microphone:
        dialog = opened(qtbot, store, transcribe, recorder_factory=lambda device: Recorder(device, latency=0.005))
        dialog.show()
        assert not dialog.recorder.isEnabled()  # nothing to read yet
        dialog.name_edit.setText("Anna Smith")
        dialog.sentence_button.click()
        dialog.recorder.select_device(microphone.name)
        spoken = decode(speak(dialog._prompt.text, tmp_path / "agreement.wav"), sample_rate=RATE)
        dialog.recorder.record_button.click()
        assert dialog.recorder.is_recording and not dialog.add_button.isEnabled()
        microphone.say(spoken, then_silence=0.5)
        with qtbot.waitSignal(dialog.recorder.recorded, timeout=JOB_TIMEOUT_MS):
            dialog.recorder.record_button.click()
    assert dialog.agreement_label.text().startswith("Recorded: ")
    assert dialog.add_button.isEnabled()
    dialog.add_button.click()
    wait_idle(qtbot, dialog)
    assert dialog.table.rowCount() == 1, dialog.status_label.text()
    assert cells(dialog)[0][0] == "Anna Smith" and "Read the agreement sentence" in cells(dialog)[0][1]
    (voice,) = store.list()
    assert voice.agreement.how == agreement.RECORDED and voice.agreement.code in voice.agreement.sentence
    # Whisper heard the take from a temporary file, which is gone afterwards.
    assert len(heard_files) == 1 and heard_files[0].parent == scratch
    assert list(scratch.iterdir()) == []


def test_without_a_microphone_the_page_says_so_and_a_file_can_still_be_chosen(qtbot, store, tmp_path, monkeypatch):
    dialog = opened(qtbot, store, devices=lambda: [])
    dialog.name_edit.setText("Anna Smith")
    dialog.sentence_button.click()
    assert "No microphone was found" in dialog.recorder.message.text()
    assert not dialog.recorder.record_button.isEnabled()
    recording = tmp_path / "agreement.wav"
    recording.write_bytes(b"")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args, **kwargs: (str(recording), ""))
    dialog.agreement_button.click()
    assert dialog.add_button.isEnabled()
