"""`voxdesk transcribe --engine server --server URL`: a real server process, the key from
VOXDESK_SERVER_KEY, and a refused key that ends in a sentence and a file transcribed here."""
from __future__ import annotations

import os
import subprocess
import sys

import srt

from tests.helpers.weights import DATA_DIR, normalize_english, reference, tiny_en_dir
from tests.helpers.whisper_server import HostileServer, RealWhisperServer


def voxdesk(*args, key: str | None = None):
    env = {k: v for k, v in os.environ.items() if k != "VOXDESK_SERVER_KEY"}
    if key is not None:
        env["VOXDESK_SERVER_KEY"] = key
    return subprocess.run([sys.executable, "-m", "desktop", *map(str, args)], capture_output=True, text=True,
                          env=env, timeout=600)


def spoken(path) -> str:
    return " ".join(cue.content.replace("\n", " ") for cue in srt.parse(path.read_text(encoding="utf-8")))


def test_a_file_is_transcribed_on_the_server(tmp_path):
    with RealWhisperServer(tiny_en_dir()) as server:
        result = voxdesk("transcribe", DATA_DIR / "jfk.flac", "--engine", "server", "--server", server.url + "/v1",
                         "--server-model", "whisper-1", "--language", "en", "--output-dir", tmp_path, key="s3cret")
    assert result.returncode == 0, result.stderr
    assert "Warning" not in result.stderr and "Traceback" not in result.stderr
    assert normalize_english(spoken(tmp_path / "jfk.srt")) == normalize_english(reference("jfk.flac"))


def test_a_refused_key_is_said_in_a_sentence_and_the_file_is_transcribed_here(tmp_path):
    with HostileServer(status=401, body={"error": {"message": "bad key"}}) as server:
        result = voxdesk("transcribe", DATA_DIR / "jfk.flac", "--server", server.url, "--model", tiny_en_dir(),
                         "--language", "en", "--output-dir", tmp_path, key="wrong-key")
    assert result.returncode == 0, result.stderr
    host = server.url.removeprefix("http://")
    assert (f"Warning: jfk.flac: The transcription server at {host} refused the API key. Continuing on this "
            "computer. Enter the API key IT gave you") in result.stderr
    assert "GPU" not in result.stderr  # the server failed, not a GPU
    assert "The transcription server failed on jfk.flac, so this computer finished it" in result.stderr
    assert "Traceback" not in result.stderr
    assert server.authorizations == ["Bearer wrong-key"]
    assert normalize_english(spoken(tmp_path / "jfk.srt")) == normalize_english(reference("jfk.flac"))


def test_the_server_engine_without_an_address_or_with_a_wrong_one_is_refused_in_one_line(tmp_path):
    missing = voxdesk("transcribe", DATA_DIR / "jfk.flac", "--engine", "server")
    assert missing.returncode == 2
    assert missing.stderr.strip() == "voxdesk: --engine server needs the server's address: --server URL."
    wrong = voxdesk("transcribe", DATA_DIR / "jfk.flac", "--server", "ftp://gpu-box")
    assert wrong.returncode == 2 and "Traceback" not in wrong.stderr
    assert "“ftp://gpu-box” is not a server address" in wrong.stderr
