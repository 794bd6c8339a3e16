"""`voxdesk synthesize` reading mixed Chinese and English with two tiny random VITS voices."""
import pytest

from desktop.settings import open_model_stores
from tests.cli.test_synthesize_cli import decoded, voxdesk
from tests.engines.speech.test_two_voices import CHINESE_CHARACTERS, CHINESE_RATE
from tests.helpers.tiny_tts import SAMPLE_RATE, build_single_speaker_vits

pytestmark = pytest.mark.usefixtures("no_stdin")


def test_mixed_text_is_read_by_a_voice_of_each_language_and_a_note_says_so(tmp_path, tiny_folders, capsys):
    store = open_model_stores().voices
    english = store.import_folder(tiny_folders["single"]).name
    store.import_folder(build_single_speaker_vits(tmp_path / "tiny-chinese", characters=CHINESE_CHARACTERS,
                                                  language="zh", sample_rate=CHINESE_RATE))
    out = tmp_path / "mixed.wav"

    assert voxdesk("--text", "Good morning. 各位同事，明天上午九点开会。", "--model", english, "--output", str(out)) == 0

    rate, seconds = decoded(out)
    assert rate == SAMPLE_RATE and seconds > 1.0
    error = capsys.readouterr().err
    assert "2 sentences" in error and "“tiny-chinese” the Chinese" in error
