"""Transcript.snapshot, the one way a transcript is copied for another thread (autosave, export): the
copy keeps what the transcript was while the editor goes on changing the original."""
from desktop.core.transcription import edits
from desktop.core.transcription.transcript import Segment, Transcript, Word


def test_a_snapshot_keeps_the_lines_names_and_gaps_as_they_were_when_the_original_is_edited():
    original = Transcript(segments=[Segment(0.0, 2.0, " One line.", words=[Word(0.0, 1.0, " One")], speaker=1),
                                    Segment(2.5, 4.0, " Another line.", speaker=2)],
                          language="en", duration=4.0, speaker_names={1: "Anna"}, glossaries=["Finance"])
    snapshot = original.snapshot()
    assert snapshot == original and snapshot is not original
    for change in (edits.edit_text(original, 0, " Corrected."), edits.split(original, 1, 8),
                   edits.rename_speaker(original, 1, "Bea"), edits.delete(original, [0])):
        change.apply(original)
    original.glossaries.append("Legal")
    assert [segment.text for segment in snapshot.segments] == [" One line.", " Another line."]
    assert snapshot.segments[0].words == [Word(0.0, 1.0, " One")]
    assert snapshot.speaker_names == {1: "Anna"} and snapshot.glossaries == ["Finance"]
