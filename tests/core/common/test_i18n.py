"""Core sentences stay plain English strings, and carry what the window needs to translate them."""
import copy
import dataclasses
import json
import pickle

from desktop.core.common.errors import AudioError
from desktop.core.common.i18n import N_, Message, localized

CHINESE = {
    ("Audio", "“{name}” has no sound track."): "“{name}”没有音轨。",
    ("Audio", "Check {what}."): "请检查{what}。",
    ("Audio", "the speakers"): "扬声器",
    ("Audio", "Broken {name}."): "坏了 {other}。",
}


def chinese(context: str, text: str) -> str:
    return CHINESE.get((context, text), text)


def test_a_marked_sentence_is_its_english_text_everywhere_a_string_is_used():
    message = N_("Audio", "“{name}” has no sound track.").format(name="a.wav")
    assert message == "“a.wav” has no sound track."
    assert isinstance(message, str)
    assert json.dumps({"error": message}, ensure_ascii=False) == '{"error": "“a.wav” has no sound track."}'
    assert AudioError(message).message == "“a.wav” has no sound track."


def test_a_marked_sentence_is_shown_in_the_language_the_translate_function_speaks():
    message = N_("Audio", "“{name}” has no sound track.").format(name="a.wav")
    assert localized(message, chinese) == "“a.wav”没有音轨。"


def test_a_phrase_put_into_a_sentence_is_translated_with_it():
    message = N_("Audio", "Check {what}.").format(what=N_("Audio", "the speakers"))
    assert message == "Check the speakers."
    assert localized(message, chinese) == "请检查扬声器。"


def test_text_that_was_never_marked_is_shown_as_it_is():
    assert localized("plain words", chinese) == "plain words"
    assert localized(N_("Audio", "No translation for this.") + " Joined.", chinese) == "No translation for this. Joined."


def test_a_translation_with_wrong_placeholders_falls_back_to_english_instead_of_failing():
    message = N_("Audio", "Broken {name}.").format(name="x")
    assert localized(message, chinese) == "Broken x."


def test_a_sentence_keeps_its_translation_key_when_copied_or_pickled():
    @dataclasses.dataclass
    class Finding:
        text: str

    message = N_("Audio", "Check {what}.").format(what=N_("Audio", "the speakers"))
    for copied in (copy.copy(message), copy.deepcopy(message), pickle.loads(pickle.dumps(message)),
                   dataclasses.asdict(Finding(message))["text"]):
        assert isinstance(copied, Message)
        assert localized(copied, chinese) == "请检查扬声器。"


def test_the_doctor_report_comes_out_in_chinese_and_wraps_by_display_width(tmp_path):
    """The shipped translation, read from the .ts file, applied to the doctor of a broken ROCm machine."""
    import xml.etree.ElementTree as ET
    from pathlib import Path

    from desktop.core.gpu.doctor import _display_width, format_table, run_doctor
    from tests.fixtures.rocm.fakes import doctor_probes, machine, smoke_fails_in_conv1d

    ts_file = Path(__file__).resolve().parents[3] / "resources" / "translations" / "voxdesk_zh_CN.ts"
    table = {}
    for context in ET.parse(ts_file).getroot().iter("context"):
        for message in context.iter("message"):
            table[(context.findtext("name"), message.findtext("source"))] = message.findtext("translation")

    def translate(context: str, text: str) -> str:
        return table.get((context, text)) or text

    result = run_doctor(probes=doctor_probes(tmp_path, machine(smoke=smoke_fails_in_conv1d())))
    report = format_table(result, width=100, translate=translate)
    assert "VoxDesk 诊断：" in report and "解决办法：" in report and "2 个问题，0 个警告。" in report
    assert "GPU 架构（gfx）" in report and "已安装的 PyTorch 不支持 gfx1031" in report
    for english in ("is installed", "Fix:", "not among", "problems", "matches PyTorch"):
        assert english not in report
    assert max(_display_width(line) for line in report.splitlines()) <= 100
