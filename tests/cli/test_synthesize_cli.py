"""`voxdesk synthesize`: the same path as the window, headless, with tiny random Coqui models."""
import os
import signal
import subprocess
import sys
from pathlib import Path

import av
import pytest

from desktop.settings import open_model_stores
from tests.helpers.cli import voxdesk as run_voxdesk
from tests.helpers.tiny_tts import SAMPLE_RATE

pytestmark = pytest.mark.usefixtures("no_stdin")

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def models(tiny_folders):
    """The tiny models imported into this test's own data folder, as a user would import them."""
    store = open_model_stores().voices
    return {key: store.import_folder(folder).name for key, folder in tiny_folders.items()}


def voxdesk(*argv: str) -> int:
    return run_voxdesk("synthesize", *argv)


def decoded(path: Path) -> tuple[int, float]:
    with av.open(str(path)) as container:
        stream = container.streams.audio[0]
        samples = sum(frame.samples for frame in container.decode(stream))
        return stream.rate, samples / stream.rate


def test_text_is_read_aloud_into_a_wav_file(tmp_path, models, capsys):
    out = tmp_path / "hello.wav"
    assert voxdesk("--text", "Hello everyone. The office opens at nine.", "--model", models["single"],
                   "--output", str(out)) == 0
    rate, seconds = decoded(out)
    assert rate == SAMPLE_RATE and seconds > 1.0
    assert "2 sentences" in capsys.readouterr().err


def test_a_text_file_is_read_into_an_mp3_with_a_model_folder_given_by_path(tmp_path, tiny_folders):
    text = tmp_path / "notice.txt"
    text.write_text("Please keep the kitchen tidy.\nThank you!\n", encoding="utf-8")
    out = tmp_path / "notice.mp3"
    assert voxdesk("--text-file", str(text), "--model", str(tiny_folders["single"]), "--output", str(out),
                   "--normalize") == 0
    rate, seconds = decoded(out)
    assert rate == SAMPLE_RATE and seconds > 1.0


def test_a_longer_text_makes_a_longer_file(tmp_path, models):
    short, long = tmp_path / "short.wav", tmp_path / "long.wav"
    voxdesk("--text", "Good morning.", "--model", models["single"], "--output", str(short))
    voxdesk("--text", "Good morning, everyone, and welcome to the quarterly staff meeting.",
            "--model", models["single"], "--output", str(long))
    assert decoded(long)[1] > 2 * decoded(short)[1]


def test_a_named_voice_of_a_multi_speaker_model_can_be_chosen(tmp_path, models):
    out = tmp_path / "bob.wav"
    assert voxdesk("--text", "Hello.", "--model", models["multi"], "--speaker", "bob", "--output", str(out)) == 0
    assert out.exists()


def test_an_unknown_voice_is_refused_with_the_choices_and_nothing_is_written(tmp_path, models, capsys):
    out = tmp_path / "dave.wav"
    assert voxdesk("--text", "Hello.", "--model", models["multi"], "--speaker", "dave", "--output", str(out)) == 1
    assert "alice, bob, chen" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize("text, expected", [
    ("   ", "There is no text to read"),
    ("!!! 🙂🙂 ???", "nothing to read aloud"),
])
def test_text_with_nothing_to_say_is_refused_plainly(tmp_path, models, capsys, text, expected):
    out = tmp_path / "nothing.wav"
    assert voxdesk("--text", text, "--model", models["single"], "--output", str(out)) == 1
    assert expected in capsys.readouterr().err
    assert not out.exists()


def test_chinese_text_for_an_english_model_suggests_a_chinese_model(tmp_path, models, capsys):
    out = tmp_path / "zh.wav"
    assert voxdesk("--text", "大家好，今天下午三点开会。", "--model", models["single"], "--output", str(out)) == 1
    error = capsys.readouterr().err
    assert "cannot read the Chinese" in error and "XTTS v2" in error
    assert not out.exists()


def test_an_existing_file_is_kept_unless_overwrite_is_given(tmp_path, models, capsys):
    out = tmp_path / "keep.wav"
    out.write_bytes(b"precious")
    assert voxdesk("--text", "Hello.", "--model", models["single"], "--output", str(out)) == 2
    assert "--overwrite" in capsys.readouterr().err
    assert out.read_bytes() == b"precious"
    assert voxdesk("--text", "Hello.", "--model", models["single"], "--output", str(out), "--overwrite") == 0
    assert decoded(out)[0] == SAMPLE_RATE


def test_an_unsupported_output_type_is_refused_before_any_work(tmp_path, models, capsys):
    assert voxdesk("--text", "Hello.", "--model", models["single"], "--output", str(tmp_path / "a.ogg")) == 2
    assert ".wav" in capsys.readouterr().err


def test_a_model_folder_without_config_is_a_plain_error(tmp_path, tiny_folders, capsys):
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "model.pth").write_bytes((tiny_folders["single"] / "model.pth").read_bytes())
    assert voxdesk("--text", "Hello.", "--model", str(folder), "--output", str(tmp_path / "x.wav")) == 1
    assert "no config.json" in capsys.readouterr().err


def test_a_licensed_model_shows_its_terms_and_waits_for_the_flag_not_for_stdin(tmp_path, capsys):
    out = tmp_path / "xtts.wav"
    code = voxdesk("--text", "Hello.", "--model", "tts_models/multilingual/multi-dataset/xtts_v2",
                   "--output", str(out))
    error = capsys.readouterr().err
    assert code == 2
    assert "non-commercial CPML" in error and "--accept-licence" in error
    assert not open_model_stores().voices.licence_accepted("tts_models/multilingual/multi-dataset/xtts_v2")
    assert not out.exists()


def test_the_model_list_shows_the_recommended_voices_first_with_size_and_licence(capsys, models):
    assert voxdesk("--list-models") == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("piper/en_US-joe-medium") and "63 MB" in lines[0] and "CC0" in lines[0]
    assert any(line.startswith("tts_models/en/ljspeech/vits") and "apache" in line for line in lines)
    assert any(line.startswith(models["single"]) and "downloaded" in line for line in lines)


def test_ctrl_c_stops_after_the_current_sentence_and_writes_nothing(tmp_path, tiny_folders):
    out = tmp_path / "long.wav"
    script = (
        "import argparse, sys\n"
        "from desktop.cli import synthesize\n"
        "parser = argparse.ArgumentParser(prog='voxdesk')\n"
        "synthesize.add_parser(parser.add_subparsers(dest='command'))\n"
        "args = parser.parse_args(sys.argv[1:])\n"
        "sys.exit(args.run(args))\n"
    )
    text = " ".join(f"This is sentence number {n} of a long announcement." for n in range(400))
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    process = subprocess.Popen(
        [sys.executable, "-c", script, "synthesize", "--text", text, "--model", str(tiny_folders["single"]),
         "--output", str(out)],
        cwd=REPO, env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
    )
    # The first progress line says speaking has begun.
    line = process.stderr.readline()
    while line and "Speaking" not in line:
        line = process.stderr.readline()
    process.send_signal(signal.SIGINT)
    _, rest = process.communicate(timeout=300)
    assert process.returncode == 130
    assert "nothing was written" in rest
    assert not out.exists()
    assert not list(tmp_path.glob(".long.wav.*"))


def test_the_model_list_marks_a_voice_model_from_a_mirror_that_voxdesk_could_not_check(capsys, monkeypatch,
                                                                                      tiny_folders):
    """XTTS v2 comes from a Hugging Face repository; VoxDesk pins no checksums for voice models."""
    import hashlib
    import json

    from tests.helpers.http_server import FileServer

    name = "tts_models/multilingual/multi-dataset/xtts_v2"
    files = {p.name: p.read_bytes() for p in tiny_folders["multi"].iterdir()}
    served = {f"/tts-hub/XTTS-v2/resolve/main/{n}": data for n, data in files.items()}
    siblings = [{"rfilename": n, "size": len(data), "lfs": {"sha256": hashlib.sha256(data).hexdigest(),
                                                          "size": len(data)}} for n, data in files.items()]
    served["/api/models/tts-hub/XTTS-v2"] = json.dumps({"siblings": siblings}).encode()
    with FileServer(served) as mirror:
        address = mirror.base_url
        monkeypatch.setenv("HF_ENDPOINT", address)
        monkeypatch.setenv("no_proxy", "127.0.0.1")
        monkeypatch.setenv("NO_PROXY", "127.0.0.1")
        store = open_model_stores().voices
        store.accept_licence(name)
        store.download(name)
    assert voxdesk("--list-models") == 0
    out = capsys.readouterr().out
    [line] = [line for line in out.splitlines() if line.startswith(name)]
    assert f"not verified: from {address}" in line
    assert "no official checksum" in out and "IT department" in out
