"""*Transcribe again…* as a Job: a stretch of a recording decoded by the same Transcriber, engine
processes and fallbacks as the queue's files, waiting its turn when a file is being transcribed."""
from __future__ import annotations

from pathlib import Path

from desktop.core.transcription.region_rerun import Region
from desktop.core.transcription.transcript import Transcript
from desktop.workers.job import Job, JobReport


def transcribe_again_job(transcriber, path: Path, region: Region, settings) -> Job:
    """A job whose result is the Transcript of region's stretch of path, on the stretch's own timeline.

    transcriber: a desktop.engines.transcription.transcriber.Transcriber; settings: its TranscribeSettings."""

    def work(report: JobReport) -> Transcript:
        return transcriber.transcribe_file(path, settings, stretch=(region.start, region.end),
                                           on_progress=report.progress, on_status=report.message,
                                           cancelled=report.cancelled)

    return Job(work, name=f"transcribe again {path.name}")
