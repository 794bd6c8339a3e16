"""A waveform no longer wanted (another file picked while it was drawn) is a cancelling, not a failure:
the window must not say "Something went wrong" for it."""
from __future__ import annotations

from desktop.core.transcription import waveform
from desktop.ui.common.tab_jobs import TabJobs
from desktop.workers.job import JobRunner
from tests.helpers.weights import DATA_DIR


def test_drawing_a_waveform_stopped_half_way_is_cancelled_and_reports_no_failure(qtbot):
    runner = JobRunner()
    jobs = TabJobs(runner)
    failed, cancelled = [], []

    def work(report):
        # The job is cancelled while the outline is computed, as when the user picks another file.
        def no_longer_wanted() -> bool:
            jobs.cancel("peaks")  # sets the job's flag, safe from its thread
            return report.cancelled()

        return waveform.compute_peaks(DATA_DIR / "jfk.flac", cancelled=no_longer_wanted)

    jobs.start("peaks", work, on_failed=failed.append, on_cancelled=lambda *_: cancelled.append(True))
    qtbot.waitUntil(lambda: not jobs.running("peaks"), timeout=30_000)
    runner.shutdown()
    assert failed == []
    assert cancelled == [True]
