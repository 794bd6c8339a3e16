"""`voxdesk transcribe --glossary FILE`: the terms reach the transcript, a bad glossary is left out in a sentence."""
from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.helpers.weights import DATA_DIR, tiny_en_dir


def voxdesk(*args):
    return subprocess.run([sys.executable, "-m", "desktop", *map(str, args)], capture_output=True, text=True,
                          timeout=600)


def test_a_glossary_corrects_the_transcript_and_a_bad_one_is_left_out(tmp_path):
    good = tmp_path / "speeches.txt"
    good.write_text("# names in the speech\nFellow-Americans\tfellow Americans\n", encoding="utf-8")
    pipe = tmp_path / "pipe.txt"
    os.mkfifo(pipe)
    result = voxdesk("transcribe", DATA_DIR / "jfk.flac", "--model", tiny_en_dir(), "--language", "en",
                     "--glossary", good, "--glossary", pipe, "--format", "json", "--output-dir", tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert "“pipe.txt” is a named pipe (FIFO)" in result.stderr
    data = json.loads((tmp_path / "jfk.json").read_text(encoding="utf-8"))
    assert data["glossaries"] == ["speeches"]
    corrections = [c for s in data["segments"] for c in s.get("corrections", [])]
    # Whisper, told the term, may already write it with its hyphen; the case is the glossary's either way.
    assert [c["term"] for c in corrections] == ["Fellow-Americans"]
    assert corrections[0]["original"].lower().replace("-", " ") == "fellow americans"
    assert "my Fellow-Americans" in "".join(s["text"] for s in data["segments"])
