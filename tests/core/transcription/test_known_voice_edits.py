"""What the known voices said of a transcript's speakers, as the editor changes and saves it: Accept
and Not NAME are changes that undo exactly, and the suggestions, refusals and recognised names are
kept by the autosave, also after an edit has saved the transcript again."""
from desktop.core.transcription import edits
from desktop.core.transcription.autosave import AutosaveStore
from desktop.core.transcription.transcript import Segment, Transcript


def meeting() -> Transcript:
    return Transcript(segments=[Segment(0.0, 1.0, " Hello.", speaker=1), Segment(1.2, 2.0, " Hi.", speaker=2),
                                Segment(2.2, 3.0, " Well.", speaker=1)], language="en",
                      speaker_names={2: "John"}, recognised={2: ("John", 0.91)}, suggested={1: ("Anna", 0.64)})


def test_accepting_a_suggestion_names_the_speaker_as_recognised_and_reverting_brings_the_suggestion_back():
    transcript = meeting()
    change = edits.accept_suggestion(transcript, 1)
    change.apply(transcript)
    assert transcript.speaker_name(1) == "Anna" and transcript.recognised_confidence(1) == 0.64
    assert transcript.suggested == {}
    change.revert(transcript)
    assert transcript == meeting()


def test_refusing_a_suggestion_keeps_the_name_refused_and_reverting_takes_it_back():
    transcript = meeting()
    change = edits.refuse_suggestion(transcript, 1)
    change.apply(transcript)
    assert transcript.suggested == {} and transcript.refused == {1: ["Anna"]}
    assert transcript.speaker_name(1) == "Speaker 1"
    change.revert(transcript)
    assert transcript == meeting()
    assert edits.refuse_suggestion(transcript, 2) is None, "no suggestion, nothing to refuse"


def test_suggestions_refusals_and_recognised_names_survive_the_autosave_after_an_edit(tmp_path):
    store = AutosaveStore(tmp_path / "autosave.db")
    item = store.add_item(tmp_path / "meeting.wav")
    transcript = meeting()
    store.save_transcript(item, transcript)
    assert store.transcript(item) == transcript
    edits.refuse_suggestion(transcript, 1).apply(transcript)
    transcript.suggested = {1: ("Bea", 0.55)}
    store.save_edited_transcript(item, transcript)  # what every edit in the window saves
    restored = store.transcript(item)
    store.close()
    assert restored.refused == {1: ["Anna"]} and restored.suggested == {1: ("Bea", 0.55)}
    assert restored.recognised_confidence(2) == 0.91
