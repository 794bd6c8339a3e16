"""A file's job, one decoding and live captions start from the same declared defaults, and live
captions follow a job's choices as a whole."""
import json
from dataclasses import fields

import pytest

from desktop.core.transcription import options
from desktop.core.transcription.options import RecognitionChoices
from desktop.engines.transcription.engine import TranscribeOptions, check_task
from desktop.engines.transcription.live.captioner import LiveOptions
from desktop.engines.transcription.plan import TranscribeSettings, check_choices
from desktop.engines.transcription.process.protocol import decode_options, encode_options


@pytest.mark.parametrize("level", [TranscribeSettings, TranscribeOptions, LiveOptions], ids=lambda level: level.__name__)
def test_every_level_starts_from_the_declared_defaults(level):
    made = level()
    declared = [field.name for field in fields(level) if field.name in options.BY_NAME]
    assert declared, level
    for name in declared:
        assert getattr(made, name) == options.BY_NAME[name].default, name


def test_a_live_caption_session_gets_the_same_defaults_as_a_file_transcription():
    file_job = TranscribeSettings()
    live = LiveOptions()
    for field in fields(RecognitionChoices):
        assert getattr(live, field.name) == getattr(file_job, field.name), field.name
    assert LiveOptions.following(file_job) == live


def test_live_captions_follow_a_jobs_choices_as_one_object():
    job = TranscribeSettings(language="zh", task="translate", initial_prompt="会议", beam_size=2,
                             chinese_script="traditional", model="small", speakers="3")
    live = LiveOptions.following(job, tentative=False)
    assert (live.language, live.task, live.initial_prompt, live.beam_size, live.chinese_script) == (
        "zh", "translate", "会议", 2, "traditional")
    assert live.tentative is False and live.glossary == ()


def test_the_engine_process_gets_every_option_of_a_decoding():
    chosen = TranscribeOptions(language="en", beam_size=3, temperature=0.0, batch_size=4, glossary_terms=("VoxDesk",))
    sent = json.loads(json.dumps(encode_options(chosen)))
    assert set(sent) == {field.name for field in fields(TranscribeOptions)}
    assert decode_options(sent) == chosen


def test_a_choice_outside_the_declared_ones_is_refused():
    with pytest.raises(ValueError):
        check_choices(TranscribeSettings(engine="quantum"))
    with pytest.raises(ValueError):
        check_choices(TranscribeSettings(device="tpu"))
    with pytest.raises(ValueError):
        check_task(TranscribeOptions(task="summarise"), True, ["en"])
    check_choices(TranscribeSettings(engine=options.ENGINE.choices[-1], device=options.DEVICE.choices[-1]))
