"""In the window, Mandarin transcribed with an English-only model on Auto-detect is marked in its queue
row and above its transcript; English is not. Real tiny.en, real speech, the real window."""
from __future__ import annotations

import shutil

from desktop.core.transcription.english_only import OTHER_LANGUAGE_WARNING
from desktop.workers.transcription_queue import ItemState
from tests.helpers.weights import DATA_DIR
from tests.ui.conftest import JOB_TIMEOUT_MS
from tests.ui.transcribe.test_transcribe_tab import drop


def test_mandarin_is_marked_in_its_row_and_transcript_and_english_is_not(qtbot, window, settings, tmp_path):
    settings.set("transcribe/language", "auto")
    mandarin = shutil.copy(DATA_DIR / "BAC009S0764W0122.wav", tmp_path / "meeting.wav")
    english = shutil.copy(DATA_DIR / "jfk.flac", tmp_path / "jfk.flac")
    tab = window.transcribe_tab
    tab.options._load_choices()  # the language as Settings now have it, as at the window's next start
    drop(tab, mandarin, english)
    queue = tab.queue
    qtbot.waitUntil(lambda: len(queue.items) == 2 and all(i.state is ItemState.DONE for i in queue.items),
                    timeout=2 * JOB_TIMEOUT_MS)
    warned, plain = queue.items

    assert OTHER_LANGUAGE_WARNING in tab.queue_model.status_text(warned)
    assert "only English" not in tab.queue_model.status_text(plain)
    panel = tab.transcript_panel
    panel.show_item(warned)
    assert panel.recording_warnings.isVisible() and panel.recording_warnings.text() == OTHER_LANGUAGE_WARNING
    panel.show_item(plain)
    assert not panel.recording_warnings.isVisible()
