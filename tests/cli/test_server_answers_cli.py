"""`voxdesk transcribe` of several files on a server whose answers hold a lone surrogate, control
characters and far more text than the speech: every file is written, the notes are printed, and
no traceback reaches the terminal."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys

import srt

from tests.helpers.weights import DATA_DIR
from tests.helpers.whisper_server import HostileServer

SURROGATE = {"text": " And so my fellow\ud800 Americans", "language": "en", "duration": 11.0,
             "segments": [{"start": 0.0, "end": 11.0, "text": " And so my fellow\ud800 Americans,\x1b[2J ask not\u202e"}]}
RUNAWAY = {"text": "", "language": "en", "duration": 11.0,
           "segments": [{"start": n * 0.001, "end": n * 0.001 + 0.001, "text": " again and again"}
                        for n in range(5_000)]}


def test_every_file_of_a_run_is_written_whatever_the_server_answers(tmp_path):
    recordings = []
    for name in ("first.flac", "second.flac"):
        recordings.append(tmp_path / name)
        shutil.copy(DATA_DIR / "jfk.flac", recordings[-1])
    # The first file's piece gets the surrogate, every later request (the second file's too) the runaway.
    with HostileServer(answers=[(200, SURROGATE), (200, RUNAWAY)]) as server:
        done = subprocess.run(
            [sys.executable, "-m", "desktop", "transcribe", *map(str, recordings), "--engine", "server",
             "--server", server.url, "--language", "en", "--format", "srt,json,txt", "--output-dir", str(tmp_path)],
            capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    for stem in ("first", "second"):
        for fmt in ("srt", "json", "txt"):
            assert (tmp_path / f"{stem}.{fmt}").read_bytes().decode("utf-8")  # strict UTF-8
    first = list(srt.parse((tmp_path / "first.srt").read_text(encoding="utf-8")))
    assert first[0].content.startswith("And so my fellow\ufffd Americans, ask not")
    assert "\x1b" not in done.stderr + done.stdout
    assert "Warning: second.flac: The transcription server sent more text than anyone can say" in done.stderr
    assert json.loads((tmp_path / "second.json").read_text(encoding="utf-8"))["warnings"]
