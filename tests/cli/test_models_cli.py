"""`voxdesk models` and `--model base` on a computer that cannot download: shared folders and imports."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from desktop.core.common.paths import data_dir
from tests.helpers.http_server import closed_port_url
from tests.helpers.weights import DATA_DIR, base_dir, normalize_english, reference, wer


def offline_env(**extra: str) -> dict[str, str]:
    """Every way out refused: Hugging Face, its mirror and any proxy lead to a closed port."""
    dead = closed_port_url().rstrip("/")
    env = {**os.environ, "HF_ENDPOINT": dead, "http_proxy": dead, "https_proxy": dead,
           "HTTP_PROXY": dead, "HTTPS_PROXY": dead, "no_proxy": "", "NO_PROXY": "", **extra}
    return env


def voxdesk(*args, env: dict[str, str]):
    return subprocess.run([sys.executable, "-m", "desktop", *map(str, args)],
                          capture_output=True, text=True, env=env, timeout=600)


def transcribed_text(srt_file: Path) -> str:
    import srt

    return " ".join(cue.content.replace("\n", " ") for cue in srt.parse(srt_file.read_text(encoding="utf-8")))


@pytest.fixture
def shared_base(tmp_path):
    """A read-only folder as IT would fill it: the official base model in faster-whisper's layout."""
    folder = tmp_path / "it-models" / "faster-whisper-base"
    shutil.copytree(base_dir(), folder)
    paths = [folder.parent, folder, *folder.iterdir()]
    for path in paths:
        path.chmod(0o555 if path.is_dir() else 0o444)
    yield folder.parent
    for path in paths:
        path.chmod(0o755 if path.is_dir() else 0o644)


def test_a_shared_folder_serves_model_base_with_no_network_at_all(tmp_path, shared_base):
    out = tmp_path / "out"
    out.mkdir()
    env = offline_env(VOXDESK_MODEL_DIRS=os.pathsep.join([str(tmp_path / "not-there"), str(shared_base)]))
    result = voxdesk("transcribe", DATA_DIR / "jfk.flac", "--model", "base", "--language", "en",
                     "--device", "cpu", "--output-dir", out, env=env)
    assert result.returncode == 0, result.stderr
    assert "Downloading" not in result.stderr
    spoken = normalize_english(transcribed_text(out / "jfk.srt"))
    assert wer(normalize_english(reference("jfk.flac")), spoken) < 0.15, spoken
    assert not (data_dir() / "models").exists()  # nothing was downloaded or copied

    listing = voxdesk("models", "list", env=env)
    base_line = next(line for line in listing.stdout.splitlines() if line.startswith("base "))
    assert "on this computer: ct2" in base_line and "from a shared folder" in base_line


def test_import_under_the_official_name_then_model_base_needs_no_download(tmp_path):
    env = offline_env()
    imported = voxdesk("models", "import", base_dir(), "--name", "base", env=env)
    assert imported.returncode == 0, imported.stderr
    assert "Imported base (ct2) as a copy of the official model." in imported.stdout

    listing = voxdesk("models", "list", env=env).stdout.splitlines()
    assert [line for line in listing if line.startswith("base ")][0].endswith("imported copy")
    assert sum(line.split()[0] == "base" for line in listing) == 1

    out = tmp_path / "out"
    out.mkdir()
    result = voxdesk("transcribe", DATA_DIR / "jfk.flac", "--model", "base", "--language", "en",
                     "--device", "cpu", "--output-dir", out, env=env)
    assert result.returncode == 0, result.stderr
    assert "Downloading" not in result.stderr
    assert wer(normalize_english(reference("jfk.flac")), normalize_english(transcribed_text(out / "jfk.srt"))) < 0.15


def test_another_model_is_refused_the_official_name_in_a_sentence(tmp_path):
    result = voxdesk("models", "import", base_dir(), "--name", "small", env=offline_env())
    assert result.returncode == 1
    assert 'is not a copy of the official "small" model' in result.stderr
    assert "Traceback" not in result.stderr


def test_a_failed_download_says_where_to_turn(tmp_path):
    result = voxdesk("models", "download", "tiny", env=offline_env())
    assert result.returncode == 1
    assert "another download source in Settings → Downloads" in result.stderr
    assert "Import model…" in result.stderr and "shared model folder" in result.stderr


def test_a_download_past_the_file_size_limit_is_said_and_leaves_no_partial_file(tmp_path):
    """`ulimit -f` below the size of model.bin: the write fails with EFBIG (Python ignores SIGXFSZ)."""
    import hashlib
    import json
    import resource

    from tests.helpers.http_server import FileServer
    from tests.helpers.weights import tiny_en_dir

    repo = "Systran/faster-whisper-tiny.en"
    files = {p.name: p.read_bytes() for p in sorted(tiny_en_dir().iterdir()) if p.is_file()}
    tree = [{"type": "file", "path": n, "size": len(d), "oid": "3" * 40,
             "lfs": {"oid": hashlib.sha256(d).hexdigest(), "size": len(d)}} for n, d in files.items()]
    served = {f"/{repo}/resolve/main/{n}": d for n, d in files.items()}
    served[f"/api/models/{repo}/tree/main"] = json.dumps(tree).encode()
    limit = 8 * 1024 * 1024  # model.bin has 75 MB

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    with FileServer(served) as mirror:
        env = {**offline_env(HF_ENDPOINT=mirror.base_url), "VOXDESK_DATA_DIR": str(tmp_path / "data")}
        env["no_proxy"] = env["NO_PROXY"] = "127.0.0.1"
        result = subprocess.run([sys.executable, "-m", "desktop", "models", "download", "tiny.en"], env=env,
                                capture_output=True, text=True, timeout=600, preexec_fn=limited)
    assert result.returncode == 1, result
    assert "This disk cannot hold a file as large as" in result.stderr and "Traceback" not in result.stderr
    assert not [p for p in (tmp_path / "data").rglob("*.part")]


@pytest.mark.parametrize("damage, said", [
    ("model.bin", "“model.bin” in it is empty"),  # a copy cut short
    ("config.json", "“config.json” in it is missing"),  # a copy not finished
])
def test_a_damaged_model_in_a_shared_folder_is_named_instead_of_asking_it_for_a_shared_folder(tmp_path, damage,
                                                                                              said):
    from tests.helpers.weights import tiny_en_dir

    shared = tmp_path / "it-models"
    copy = shutil.copytree(tiny_en_dir(), shared / "faster-whisper-tiny.en")
    if damage == "model.bin":
        (copy / "model.bin").write_bytes(b"")
    else:
        (copy / damage).unlink()
    out = tmp_path / "out"
    out.mkdir()

    result = voxdesk("transcribe", DATA_DIR / "jfk.flac", "--model", "tiny.en", "--language", "en",
                     "--output-dir", out, env=offline_env(VOXDESK_MODEL_DIRS=str(shared)))

    assert result.returncode == 1
    assert said in result.stderr and str(copy) in result.stderr
    assert "ask your IT department for the shared model folder" not in result.stderr
    assert "Traceback" not in result.stderr
    assert list(out.iterdir()) == []


def test_models_list_marks_a_model_from_a_mirror_that_voxdesk_could_not_check(tmp_path):
    """large-v1 has no pinned checksums: from a company mirror it is kept, and listed as not verified."""
    from tests.core.transcription.test_model_sources import zero_model_files
    from tests.helpers.http_server import FileServer

    with FileServer(zero_model_files("Systran/faster-whisper-large-v1")) as mirror:
        address = mirror.base_url
        env = {**offline_env(HF_ENDPOINT=address), "VOXDESK_DATA_DIR": str(tmp_path / "data")}
        env["no_proxy"] = env["NO_PROXY"] = "127.0.0.1"
        downloaded = voxdesk("models", "download", "large-v1", env=env)
    assert downloaded.returncode == 0, downloaded
    listed = voxdesk("models", "list", env=env)
    assert listed.returncode == 0, listed
    [line] = [line for line in listed.stdout.splitlines() if line.startswith("large-v1 ")]
    assert f"not verified: from {address}" in line
    assert not [line for line in listed.stdout.splitlines() if line.startswith("tiny ") and "verified" in line]
    assert "no official checksum" in listed.stdout and "IT department" in listed.stdout
