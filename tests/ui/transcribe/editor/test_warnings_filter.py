""""Only lines with warnings" never works out the warnings of many lines in one turn of the event loop,
whatever asks it to look at the lines again; the lines it had no time for come in as the idle work finds
them warn."""
import pytest

from desktop.core.transcription.transcript import Segment, Transcript
from desktop.ui.transcribe.editor import segments_model
from desktop.ui.transcribe.editor.segments_model import FILTER_LINES_A_TURN, SegmentSearchModel, SegmentsModel

LINES = 600
FAST = " so many words said in so very short a time that nobody could ever read them all"


@pytest.fixture
def judged(monkeypatch):
    """The lines whose warnings were worked out (cut into cues and judged), in order; the filter's share
    of CPU time made nil, so that only its first lines a turn count, however fast the machine."""
    lines: list[int] = []
    judge = segments_model.segment_warnings

    def counted(transcript, row, *args):
        lines.append(row)
        return judge(transcript, row, *args)
    monkeypatch.setattr(segments_model, "segment_warnings", counted)
    monkeypatch.setattr(segments_model, "FILTER_CPU_A_TURN", 0.0)
    return lines


def every_other_line_too_fast() -> Transcript:
    return Transcript(segments=[Segment(n * 3.0, n * 3 + (0.3 if n % 2 else 2.5), FAST if n % 2 else " fine")
                                for n in range(LINES)], language="en", duration=LINES * 3.0)


def test_a_change_to_every_line_works_out_few_warnings_at_once_and_the_rest_come_in_later(qtbot, judged):
    model = SegmentsModel()
    proxy = SegmentSearchModel()
    proxy.setSourceModel(model)
    proxy.show_only_warnings(True)
    model.show_transcript(every_other_line_too_fast())
    assert proxy.rowCount() < LINES // 2  # as a view asks at once: the filter looks at every line
    assert 0 < len(judged) <= FILTER_LINES_A_TURN
    qtbot.wait(1)  # a turn of the event loop: a slice of the idle work, perhaps
    before = len(judged)
    model.spelling_changed()  # the spell checker ready: every line painted again, and filtered again
    assert len(judged) - before <= FILTER_LINES_A_TURN, "the filter worked out the lines the idle work had not"

    qtbot.waitUntil(lambda: proxy.rowCount() == LINES // 2, timeout=60_000)
    assert [proxy.mapToSource(proxy.index(row, 0)).row() for row in range(proxy.rowCount())] == list(
        range(1, LINES, 2))
    assert sorted(judged) == list(range(LINES)), "each line cut into cues once"
