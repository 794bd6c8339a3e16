"""The Speaker column, the speakers row and the per-line list, on a transcript written out by hand."""
from __future__ import annotations

from PySide6.QtCore import Qt

from desktop.core.transcription.transcript import Segment, Transcript
from desktop.ui.transcribe.editor.segments_model import SegmentsModel
from desktop.ui.transcribe.editor.speakers_bar import SpeakersBar


def meeting() -> Transcript:
    lines = [(0.0, 2.0, " Shall we start?", 1), (2.5, 4.0, " Yes.", 2), (4.5, 6.0, " Budget first.", 2),
             (6.5, 8.0, " Agreed.", 1)]
    return Transcript(segments=[Segment(a, b, text, speaker=n) for a, b, text, n in lines], language="en",
                      duration=8.0)


def names(model: SegmentsModel) -> list[str]:
    return [model.index(row, SegmentsModel.SPEAKER).data() for row in range(model.rowCount())]


def test_renaming_in_the_speakers_row_renames_every_line_and_a_taken_name_joins_the_two(qtbot):
    model = SegmentsModel()
    bar = SpeakersBar(model)
    qtbot.addWidget(bar)
    model.show_transcript(meeting())
    assert set(bar.name_edits) == {1, 2}
    changes = []
    model.speakers_changed.connect(lambda: changes.append(True))

    bar.name_edits[2].setText("Bob")
    bar.name_edits[2].editingFinished.emit()
    assert names(model) == ["Speaker 1", "Bob", "Bob", "Speaker 1"] and changes

    bar.name_edits[1].setText("Bob")
    bar.name_edits[1].editingFinished.emit()
    assert names(model) == ["Bob"] * 4
    assert list(bar.name_edits) == [2], "the speakers row shows the joined speaker once"


def test_a_line_can_go_to_another_speaker_or_to_a_new_one(qtbot):
    model = SegmentsModel()
    model.show_transcript(meeting())
    edited = []
    model.edited.connect(lambda row, column: edited.append((row, column)))
    assert model.setData(model.index(1, SegmentsModel.SPEAKER), 1)
    assert model.setData(model.index(2, SegmentsModel.SPEAKER), SegmentsModel.NEW_SPEAKER)
    assert names(model) == ["Speaker 1", "Speaker 1", "Speaker 3", "Speaker 1"]
    assert not model.setData(model.index(0, SegmentsModel.SPEAKER), 1), "no change, nothing to save"
    assert edited == [(1, SegmentsModel.SPEAKER), (2, SegmentsModel.SPEAKER)]
    colours = {model.index(r, SegmentsModel.SPEAKER).data(Qt.ItemDataRole.BackgroundRole).color().name()
               for r in range(4)}
    assert len(colours) == 2


def test_a_transcript_without_speakers_has_no_speaker_cells_to_edit(qtbot):
    model = SegmentsModel()
    bar = SpeakersBar(model)
    qtbot.addWidget(bar)
    plain = meeting()
    for segment in plain.segments:
        segment.speaker = None
    model.show_transcript(plain)
    assert names(model) == [None] * 4
    assert not model.flags(model.index(0, SegmentsModel.SPEAKER)) & Qt.ItemFlag.ItemIsEditable
    assert bar.isHidden()
