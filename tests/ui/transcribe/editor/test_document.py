"""TranscriptDocument without a window: every edit goes through it, its commit counter says whether the
transcript changed since the export, Undo brings back the selection of the edit, and the documents of
the window open one per finished transcript and forget it when the row goes or is transcribed anew."""
from pathlib import Path

from desktop.core.transcription import edits
from desktop.core.transcription.transcript import Segment, Transcript
from desktop.ui.transcribe.editor.document import Selection, TranscriptDocument, TranscriptDocuments
from desktop.workers.transcription_queue import ItemState, QueueItem


def finished(name: str = "talk.wav") -> QueueItem:
    transcript = Transcript(segments=[Segment(0.0, 2.0, " One line."), Segment(2.5, 4.0, " Another line."),
                                      Segment(4.5, 6.0, " The last line.")], language="en", duration=6.0)
    return QueueItem(path=Path(name), state=ItemState.DONE, transcript=transcript)


def texts(document: TranscriptDocument) -> list[str]:
    return [segment.text for segment in document.transcript.segments]


def test_an_edit_goes_onto_the_documents_undo_stack_and_undo_and_redo_change_the_transcript(qapp):
    document = TranscriptDocument(finished())
    told = []
    document.listen(told.append)
    document.apply(edits.edit_text(document.transcript, 1, " Corrected."))
    assert texts(document)[1] == " Corrected." and document.undo_stack.canUndo()
    document.undo_stack.undo()
    assert texts(document)[1] == " Another line."
    document.undo_stack.redo()
    assert texts(document)[1] == " Corrected."
    assert [applied.undone for applied in told] == [False, True, False]


def test_undoing_back_to_the_exported_state_is_not_a_change_since_export(qapp):
    document = TranscriptDocument(finished())
    states = []
    document.on_export_state_changed = lambda changed: states.append(changed.changed_since_export)
    assert not document.changed_since_export  # as Whisper wrote it
    document.apply(edits.edit_text(document.transcript, 0, " First."))
    assert document.changed_since_export
    document.export_started()
    document.export_written(Path("/exports"))
    assert not document.changed_since_export and document.exported_to == Path("/exports")
    document.apply(edits.edit_text(document.transcript, 0, " Second."))
    assert document.changed_since_export
    document.undo_stack.undo()
    assert not document.changed_since_export  # the exported text again
    document.undo_stack.undo()
    assert document.changed_since_export  # before the export's state
    assert states == [True, False, True, False, True]


def test_an_edit_made_while_an_export_is_written_still_counts_as_a_change_since_that_export(qapp):
    document = TranscriptDocument(finished())
    document.apply(edits.edit_text(document.transcript, 0, " Exported."))
    document.export_started()
    document.apply(edits.edit_text(document.transcript, 0, " Typed while the files were written."))
    document.export_written(None)
    assert document.changed_since_export
    document.undo_stack.undo()
    assert not document.changed_since_export


def test_a_transcript_brought_back_with_unexported_edits_is_changed_since_export_until_exported(qapp):
    document = TranscriptDocument(finished())
    document.restored_with_unexported_edits()
    assert document.changed_since_export
    document.export_started()
    document.export_written(None)
    assert not document.changed_since_export


def test_undo_puts_the_cursor_back_where_the_edit_was_and_redo_on_the_line_it_made(qapp):
    document = TranscriptDocument(finished())
    document.where_the_cursor_is = lambda: Selection((2,), caret=4)
    told = []
    document.listen(told.append)
    document.apply(edits.split(document.transcript, 2, 4))
    assert told[-1].selection is None  # the edit itself: whoever made it places the cursor
    document.where_the_cursor_is = lambda: Selection((0,))  # the user moved away meanwhile
    document.undo_stack.undo()
    assert told[-1].selection == Selection((2,), caret=4)
    document.undo_stack.redo()
    assert told[-1].selection == Selection((2,))


def test_the_documents_open_one_per_finished_transcript_and_only_for_finished_ones(qapp):
    documents = TranscriptDocuments()
    item = finished()
    assert documents.for_item(item) is documents.for_item(item)
    running = QueueItem(path=Path("running.wav"), state=ItemState.RUNNING)
    assert documents.for_item(running) is None and documents.for_item(None) is None


def test_a_new_transcription_of_the_row_opens_a_new_document_with_a_history_of_its_own(qapp):
    documents = TranscriptDocuments()
    item = finished()
    first = documents.for_item(item)
    first.apply(edits.edit_text(first.transcript, 0, " Edited."))
    documents.show(first)
    assert documents.histories.canUndo()
    item.transcript = finished().transcript  # transcribed again
    second = documents.for_item(item)
    assert second is not first and not second.undo_stack.canUndo()
    assert first.undo_stack not in documents.histories.stacks()
    assert documents.changed_since_export() == []


def test_forgetting_a_row_takes_its_history_out_of_the_edit_menus_group(qapp):
    documents = TranscriptDocuments()
    kept, removed = finished("kept.wav"), finished("removed.wav")
    for item in (kept, removed):
        document = documents.for_item(item)
        document.apply(edits.edit_text(document.transcript, 0, " Edited."))
    assert {document.name for document in documents.changed_since_export()} == {"kept.wav", "removed.wav"}
    stack = documents.for_item(removed).undo_stack
    documents.forget(removed)
    assert stack not in documents.histories.stacks()
    assert [document.name for document in documents.changed_since_export()] == ["kept.wav"]


def test_every_edit_of_any_document_is_told_once_for_the_saved_work(qapp):
    documents = TranscriptDocuments()
    shown, other = documents.for_item(finished("a.wav")), documents.for_item(finished("b.wav"))
    edited = []
    documents.on_edited = edited.append
    other.apply(edits.edit_text(other.transcript, 0, " B."))
    shown.apply(edits.edit_text(shown.transcript, 0, " A."))
    other.undo_stack.undo()
    assert [applied.document.name for applied in edited] == ["b.wav", "a.wav", "b.wav"]


def test_revert_puts_back_what_whisper_wrote_as_one_edit_that_undo_takes_back(qapp):
    document = TranscriptDocument(finished())
    assert not document.revert_to_transcription()  # nothing kept to revert to
    document.keep_as_transcribed()
    whisper = texts(document)
    assert not document.can_revert  # nothing changed yet
    document.apply(edits.edit_text(document.transcript, 0, " Corrected."))
    document.apply(edits.split(document.transcript, 1, 8))
    corrected = texts(document)
    assert document.can_revert
    assert document.revert_to_transcription()
    assert texts(document) == whisper
    assert document.changed_since_export  # another state than the one exported, though the same words
    document.undo_stack.undo()
    assert texts(document) == corrected


def test_a_transcript_opened_with_edits_from_an_earlier_session_has_nothing_to_revert_to(qapp):
    document = TranscriptDocument(finished())
    document.apply(edits.edit_text(document.transcript, 0, " Corrected."))
    document.keep_as_transcribed()  # too late: the lines are not Whisper's any more
    assert not document.can_revert
