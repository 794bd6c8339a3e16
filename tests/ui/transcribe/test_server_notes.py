"""The notes about a server's answers in a finished file's row, in English and in Chinese."""
from __future__ import annotations

import pytest

from desktop.core.transcription import speech_limits
from desktop.core.transcription.speech_limits import AnswerNote
from desktop.core.transcription.transcript import Segment, Transcript


@pytest.fixture
def app(qapp):
    from desktop.ui.common.i18n import apply_language

    yield qapp
    apply_language(qapp, "en")


def status_of(transcript: Transcript, tmp_path) -> str:
    from desktop.ui.transcribe.queue_model import QueueModel
    from desktop.workers.job import JobRunner
    from desktop.workers.transcription_queue import ItemState, QueueItem, TranscriptionQueue

    queue = TranscriptionQueue(transcriber=None, runner=JobRunner(), next_settings=lambda: None)
    model = QueueModel(queue)
    queue.restore(QueueItem(tmp_path / "meeting.wav", duration=95.0, state=ItemState.DONE, progress=1.0,
                            transcript=transcript))
    return model.data(model.index(0, QueueModel.STATUS))


def noted_transcript() -> Transcript:
    notes = [AnswerNote(speech_limits.TOO_MUCH, 61.2), AnswerNote(speech_limits.TOO_MUCH, 30.0),
             AnswerNote(speech_limits.TIMES_MOVED, 90.5)]
    return Transcript(segments=[Segment(0.0, 2.0, " Hello.")], language="en", duration=95.0,
                      warnings=speech_limits.sentences(notes))


def test_a_finished_row_says_what_was_left_out_and_what_was_moved(app, tmp_path):
    status = status_of(noted_transcript(), tmp_path)
    assert status.startswith("Done — The transcription server sent more text than anyone can say in that time")
    assert "(parts of the recording: 2, the first at 0:30)" in status
    assert "impossible times" in status and "(parts of the recording: 1, the first at 1:30)" in status


def test_the_notes_are_shown_in_chinese_in_a_chinese_interface(app, tmp_path):
    from desktop.ui.common.i18n import apply_language

    assert apply_language(app, "zh_CN") == "zh_CN"
    status = status_of(noted_transcript(), tmp_path)
    assert "转写服务器发来的文字超过了" in status and "第一段在 0:30" in status
    assert "转写服务器发来了不可能的时间" in status and "第一段在 1:30" in status
