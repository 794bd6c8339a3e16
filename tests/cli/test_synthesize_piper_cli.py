"""`voxdesk synthesize --model VOICE.onnx`: a Piper voice used where it lies, its .onnx.json beside it."""
import av
import pytest

from tests.helpers.cli import voxdesk
from tests.helpers.piper_voice import JOE_KEY, copy_of_joe
from tests.helpers.tools import require_tool

pytestmark = pytest.mark.usefixtures("no_stdin")


def test_a_piper_voice_reads_text_into_a_file_in_place(tmp_path, capsys):
    require_tool("espeak-ng")
    voice = copy_of_joe(tmp_path / "voice") / f"{JOE_KEY}.onnx"
    out = tmp_path / "notice.wav"
    assert voxdesk("synthesize", "--text", "The office opens at nine. Please be on time.", "--model", str(voice),
                   "--output", str(out)) == 0
    with av.open(str(out)) as container:
        stream = container.streams.audio[0]
        seconds = sum(frame.samples for frame in container.decode(stream)) / stream.rate
    assert stream.rate == 22050 and seconds > 2.0
    assert "2 sentences" in capsys.readouterr().err
    assert sorted(p.name for p in voice.parent.iterdir()) == ["MODEL_CARD", f"{JOE_KEY}.onnx",
                                                              f"{JOE_KEY}.onnx.json"]  # nothing added there


def test_a_piper_voice_without_its_config_is_refused_in_a_sentence(tmp_path, capsys):
    voice = copy_of_joe(tmp_path / "voice") / f"{JOE_KEY}.onnx"
    voice.with_name(voice.name + ".json").unlink()
    assert voxdesk("synthesize", "--text", "Hello.", "--model", str(voice), "--output", str(tmp_path / "x.wav")) != 0
    err = capsys.readouterr().err
    assert ".onnx.json" in err and "Traceback" not in err
    assert not (tmp_path / "x.wav").exists()


def test_a_damaged_piper_voice_is_refused_with_exit_2_and_what_is_wrong(tmp_path, capsys):
    import json

    voice = copy_of_joe(tmp_path / "voice") / f"{JOE_KEY}.onnx"
    config_path = voice.with_name(voice.name + ".json")
    config = json.loads(config_path.read_text(encoding="utf-8"))
    config["phoneme_id_map"]["_"] = [0] * 100_000
    config_path.write_text(json.dumps(config), encoding="utf-8")
    assert voxdesk("synthesize", "--text", "Hello.", "--model", str(voice), "--output", str(tmp_path / "x.wav")) == 2
    err = capsys.readouterr().err
    assert "voxdesk: The Piper voice “en_US-joe-medium” is damaged: the sound “_” stands for 100000 symbols" in err
    assert "Traceback" not in err and not (tmp_path / "x.wav").exists()


def test_without_a_model_the_command_line_reads_with_the_voice_the_window_would_choose():
    from desktop.cli.common import voice_model_store
    from desktop.cli.synthesize import _default_voice

    store = voice_model_store()
    assert _default_voice(store, None, "The office opens at nine.") == "piper/en_US-joe-medium"
    assert _default_voice(store, None, "办公室九点开门。") == "piper/zh_CN-huayan-medium"
    assert _default_voice(store, "zh", "VoxDesk") == "piper/zh_CN-huayan-medium"
