"""Speech no decoding could transcribe is an empty, highlighted row the user can fill in."""
from PySide6.QtCore import Qt

from desktop.core.transcription.transcript import Gap, Segment, Transcript
from desktop.ui.transcribe.editor.segments_model import SegmentsModel


def transcript_with_a_gap() -> Transcript:
    # As the transcriber delivers it: the gap is also an empty segment in its place.
    return Transcript(
        segments=[Segment(0.0, 2.5, " A thin stripe runs down the middle."), Segment(2.6, 4.4, ""),
                  Segment(4.5, 8.7, "甚至出现交易几乎停滞的情况")],
        language="en", duration=8.7, gaps=[Gap(2.6, 4.4)])


def test_the_gap_row_says_what_is_missing_and_is_highlighted(qtbot):
    model = SegmentsModel()
    model.show_transcript(transcript_with_a_gap())
    text = model.index(1, SegmentsModel.TEXT)

    assert model.data(text) == "0:02–0:04: speech that could not be transcribed — type what was said"
    assert model.data(text, Qt.ItemDataRole.EditRole) == ""  # the editor opens empty
    assert model.data(text, Qt.ItemDataRole.BackgroundRole) is not None
    assert model.data(model.index(0, SegmentsModel.TEXT), Qt.ItemDataRole.BackgroundRole) is None


def test_what_the_user_types_into_the_gap_becomes_part_of_the_transcript(qtbot):
    model = SegmentsModel()
    transcript = transcript_with_a_gap()
    model.show_transcript(transcript)

    assert model.setData(model.index(1, SegmentsModel.TEXT), "Jump the fence and hurry up the bank.")

    assert transcript.segments[1].text == "Jump the fence and hurry up the bank."
    assert transcript.gap_at(transcript.segments[1]) is None  # an ordinary row now
    assert model.data(model.index(1, SegmentsModel.TEXT), Qt.ItemDataRole.BackgroundRole) is None


def test_the_file_row_says_how_much_speech_is_missing_and_what_was_wrong_with_the_recording(qtbot, tmp_path):
    from desktop.ui.transcribe.queue_model import QueueModel
    from desktop.workers.job import JobRunner
    from desktop.workers.transcription_queue import ItemState, QueueItem, TranscriptionQueue

    transcript = transcript_with_a_gap()
    transcript.warnings = ["2 samples of the recording were not numbers; they were replaced with silence."]
    queue = TranscriptionQueue(transcriber=None, runner=JobRunner(), next_settings=lambda: None)
    model = QueueModel(queue)
    queue.restore(QueueItem(tmp_path / "meeting.wav", duration=8.7, state=ItemState.DONE, progress=1.0,
                            transcript=transcript))

    status = model.data(model.index(0, QueueModel.STATUS))

    assert status.startswith("Done — 2 samples of the recording were not numbers")
    assert status.endswith("1 stretch of speech could not be transcribed: fill it in below.")
