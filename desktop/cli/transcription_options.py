"""Command-line flags for the transcription options, made from their declarations
(``core.transcription.options``): each flag's choices, default and help are the declaration's."""
from __future__ import annotations

import argparse
from typing import Callable

from desktop.core.transcription.options import TranscriptionOption


def add_option(parser: argparse.ArgumentParser, option: TranscriptionOption, *, flag: str | None = None,
               dest: str | None = None, choices: tuple | None = None, metavar: str | None = None,
               parse: Callable[[str], object] | None = None, more_help: str = "") -> None:
    """Add ``option`` as ``--its-name`` (or ``flag``): argparse refuses a value outside its declared
    choices or range in one line (exit 2), and --help shows its sentence and its default.

    choices: a part of the declared ones (a command that offers fewer); parse: how the text becomes a
    value where that is more than the type (speakers written "Auto"); more_help: what this command adds."""
    choices = option.choices if choices is None else choices
    arguments: dict = {"default": option.default, "help": _help(option, more_help)}
    if dest is not None:
        arguments["dest"] = dest
    if parse is not None:
        arguments["type"] = parse
        arguments["metavar"] = metavar or "|".join(str(choice) for choice in choices or ())
    elif option.low is not None and option.high is not None:
        arguments["type"] = whole_number(option.low, option.high, automatic=option.automatic)
        arguments["metavar"] = metavar or "N"
    elif option.automatic is not None:
        arguments["type"] = _or_automatic(option.automatic)
    if choices is not None and parse is None:
        arguments["choices"] = choices
    if metavar is not None:
        arguments["metavar"] = metavar
    parser.add_argument(flag or "--" + option.name.replace("_", "-"), **arguments)


def shown_default(option: TranscriptionOption) -> str | None:
    """The default as it is written on the command line: the automatic word for None."""
    if option.default is None:
        return option.automatic
    return str(option.default)


def _help(option: TranscriptionOption, more_help: str) -> str:
    parts = [str(option.help).rstrip(".")]
    if option.low is not None and option.high is not None:
        parts.append(f"{option.low} to {option.high}")
    if more_help:
        parts.append(more_help)
    text = "; ".join(parts)
    default = shown_default(option)
    return (f"{text} (default: {default})" if default is not None else text).replace("%", "%%")


def _or_automatic(automatic: str) -> Callable[[str], str | None]:
    """An argparse type: the automatic word (or nothing) is None, VoxDesk's to decide; other text as given."""
    def parse(text: str) -> str | None:
        return None if text.strip().lower() in (automatic, "") else text

    return parse


def whole_number(low: int, high: int, *, automatic: str | None = None) -> Callable[[str], int | None]:
    """An argparse type: a whole number from low to high (or the automatic word, for None); anything
    else is refused in one line (exit 2)."""
    def parse(text: str) -> int | None:
        if automatic is not None and text.strip().lower() in (automatic, "automatic"):
            return None
        try:
            value = int(text)
        except ValueError:
            value = low - 1
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"expected a whole number of at least {low} and at most {high}, not {text!r}")
        return value

    return parse
