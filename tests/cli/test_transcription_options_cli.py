"""The command line's transcription flags come from the options' declarations: their choices,
defaults and help."""
import argparse
import dataclasses

import pytest

from desktop.__main__ import build_parser
from desktop.cli.transcription_options import add_option
from desktop.core.transcription import options

TRANSCRIBE_FLAGS = {"model": "--model", "engine": "--engine", "device": "--device", "language": "--language",
                    "task": "--task", "initial_prompt": "--initial-prompt", "beam_size": "--beam-size",
                    "batch_size": "--batch-size", "chinese_script": "--chinese-script", "speakers": "--speakers"}


def _subcommand(name: str) -> argparse.ArgumentParser:
    (commands,) = [action for action in build_parser()._actions if isinstance(action, argparse._SubParsersAction)]
    return commands.choices[name]


def _help(name: str) -> str:
    return " ".join(_subcommand(name).format_help().split())  # one line, as the terminal's width would not


@pytest.mark.parametrize("name", sorted(TRANSCRIBE_FLAGS))
def test_transcribe_takes_the_declared_default_and_help(name):
    option = options.BY_NAME[name]
    args = build_parser().parse_args(["transcribe", "a.wav"])
    assert getattr(args, name) == option.default
    assert " ".join(str(option.help).rstrip(".").split()) in _help("transcribe")


def test_help_lists_the_declared_defaults():
    text = _help("transcribe")
    assert f"(default: {options.BEAM_SIZE.default})" in text
    assert f"(default: {options.CHINESE_SCRIPT.default})" in text
    assert f"{options.BEAM_SIZE.low} to {options.BEAM_SIZE.high}" in text
    assert f"{options.BATCH_SIZE.low} to {options.BATCH_SIZE.high} (default: auto)" in text


@pytest.mark.parametrize("flag, option", [("--task", options.TASK), ("--chinese-script", options.CHINESE_SCRIPT),
                                          ("--engine", options.ENGINE), ("--device", options.DEVICE)])
def test_a_value_outside_the_declared_choices_is_refused_with_argparses_message(capsys, flag, option):
    with pytest.raises(SystemExit) as stopped:
        build_parser().parse_args(["transcribe", "a.wav", flag, "nonsense"])
    assert stopped.value.code == 2
    error = capsys.readouterr().err
    assert f"argument {flag}: invalid choice: 'nonsense'" in error
    assert all(f"'{choice}'" in error for choice in option.choices)


def test_a_number_outside_the_declared_range_is_refused(capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["transcribe", "a.wav", "--beam-size", str(options.BEAM_SIZE.high + 1)])
    assert f"at most {options.BEAM_SIZE.high}" in capsys.readouterr().err
    top = build_parser().parse_args(["transcribe", "a.wav", "--beam-size", str(options.BEAM_SIZE.high)])
    assert top.beam_size == options.BEAM_SIZE.high


def test_live_offers_the_engines_of_this_computer_and_the_declared_defaults():
    args = build_parser().parse_args(["live"])
    assert args.language == options.LANGUAGE.default and args.model == options.MODEL.default
    assert args.compute_device == options.DEVICE.default and args.engine == options.ENGINE.default
    engine = next(a for a in _subcommand("live")._actions if "--engine" in a.option_strings)
    assert tuple(engine.choices) == options.LOCAL_ENGINES


def test_a_declaration_with_another_default_and_range_changes_the_flag():
    changed = dataclasses.replace(options.BEAM_SIZE, default=3, high=4)
    parser = argparse.ArgumentParser(prog="voxdesk")
    add_option(parser, changed)
    assert parser.parse_args([]).beam_size == 3
    assert "1 to 4 (default: 3)" in " ".join(parser.format_help().split())
    with pytest.raises(SystemExit):
        parser.parse_args(["--beam-size", "5"])
