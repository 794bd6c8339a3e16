"""Running a `voxdesk` subcommand inside the test process, through the real command-line parser."""
from __future__ import annotations


def voxdesk(*argv: str) -> int:
    """The exit status of `voxdesk ARGV...`, run in this process (so fixtures and monkeypatching apply)."""
    from desktop.__main__ import build_parser

    args = build_parser().parse_args(list(argv))
    return args.run(args)
