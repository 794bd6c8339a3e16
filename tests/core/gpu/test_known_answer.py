"""Judging the GPU's known-answer check, keeping its verdicts, and Automatic's engine on the GPU."""
import json

from desktop.core.gpu.engine_choice import automatic_gpu_engine
from desktop.core.gpu.known_answer import GpuVerdicts, check_key, verdict, word_error

KEY = "machine-now"


def test_word_error_counts_substituted_missing_and_extra_words_not_case_or_punctuation():
    assert word_error("And so, my fellow Americans.", "and so my fellow americans") == 0.0
    assert word_error("one two three four", "one too three") == 0.5
    assert word_error("one two", "one two three four") == 1.0
    assert word_error("", "") == 0.0 and word_error("", ",,,") == 0.0 and word_error("words", "") == 1.0


def test_chinese_is_compared_character_by_character():
    assert word_error("以下是普通话的句子", "以下是普通話的句子") == 1 / 9


def test_stray_commas_from_a_gpu_are_not_words_but_random_text_is():
    good = "ask not what your country can do for you"
    assert not verdict("ct2", "base", KEY, gpu_text=good.replace(" ", ", "), cpu_text=good, gpu_seconds=1,
                       cpu_seconds=4).wrong
    assert verdict("ct2", "base", KEY, gpu_text="Thank you.", cpu_text=good, gpu_seconds=1, cpu_seconds=4).wrong


def test_a_new_driver_rocm_or_library_is_a_new_key():
    assert check_key("m", "7.2.0", "6.8.0") != check_key("m", "7.2.1", "6.8.0")
    assert check_key("m", "7.2.0", "6.8.0") != check_key("m", "7.2.0", "6.11.0")
    assert check_key("m", "7.2.0", "6.8.0") != check_key("other libraries", "7.2.0", "6.8.0")


def test_verdicts_are_kept_per_engine_and_machine_state(tmp_path):
    verdicts = GpuVerdicts(tmp_path / "gpu-answers.json")
    verdicts.add(verdict("ct2", "base", KEY, gpu_text="a b", cpu_text="a b", gpu_seconds=1, cpu_seconds=2))
    verdicts.add(verdict("ct2", "base", KEY, gpu_text="x y", cpu_text="a b", gpu_seconds=1, cpu_seconds=2))
    assert verdicts.latest("ct2", KEY).wrong and len(verdicts.all()) == 1
    assert verdicts.latest("torch", KEY) is None and verdicts.latest("ct2", "after an upgrade") is None


def test_a_damaged_verdicts_file_counts_as_none_checked(tmp_path):
    path = tmp_path / "gpu-answers.json"
    path.write_text(json.dumps({"verdicts": [{"engine": "ct2", "model": "base", "key": KEY, "word_error": "none",
                                              "gpu_seconds": 1, "cpu_seconds": 2, "measured": "x"}, 7]}))
    assert GpuVerdicts(path).all() == []
    path.write_bytes(b"\xff\xfe not json")
    assert GpuVerdicts(path).all() == []


def passed(engine, gpu=1.0, cpu=4.0, same=True):
    return verdict(engine, "base", KEY, gpu_text="a b c", cpu_text="a b c" if same else "x y z",
                   gpu_seconds=gpu, cpu_seconds=cpu)


def test_ctranslate2_on_the_gpu_is_offered_only_where_it_counts_a_gpu():
    choice = automatic_gpu_engine(0, {"ct2": 90.0, "torch": 30.0}, {})
    assert choice.engine == "torch" and "sees no GPU" in choice.reason


def test_the_measured_faster_engine_wins_at_equal_words():
    assert automatic_gpu_engine(1, {"ct2": 90.0, "torch": 30.0}, {}).engine == "ct2"
    assert automatic_gpu_engine(1, {"ct2": 20.0, "torch": 30.0}, {}).engine == "torch"
    wrong_ct2 = {"ct2": passed("ct2", same=False), "torch": passed("torch")}
    assert automatic_gpu_engine(1, {"ct2": 90.0, "torch": 30.0}, wrong_ct2).engine == "torch"


def test_without_measurements_it_stays_openai_whisper():
    choice = automatic_gpu_engine(1, {"ct2": 90.0}, {})
    assert choice.engine == "torch" and "not been measured" in choice.reason


def test_a_gpu_slower_than_the_processor_with_every_engine_leaves_automatic_on_the_processor():
    slower = {"torch": passed("torch", gpu=9.0), "ct2": passed("ct2", gpu=9.0)}
    choice = automatic_gpu_engine(1, {"ct2": 90.0, "torch": 30.0}, slower)
    assert choice.engine is None and "slower than the processor" in choice.reason
