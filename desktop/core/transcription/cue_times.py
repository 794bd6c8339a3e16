"""Whether a cue's times are ones a recording can have: checked once, where subtitles enter VoxDesk
(a subtitle file being read, a server's answer), so that nothing later meets a time that is not a
number, lies past any recording, or ends before it starts.

The bound is 100 hours (MAX_CUE_SECONDS): far longer than any recording, and as milliseconds
(360,000,000) well inside the 32-bit integers that widgets and timers hold.
"""
from __future__ import annotations

import math

from desktop.core.common.i18n import Message, N_

MAX_CUE_HOURS = 100
MAX_CUE_SECONDS = MAX_CUE_HOURS * 3600.0
MAX_CUE_MILLISECONDS = MAX_CUE_HOURS * 3_600_000
assert MAX_CUE_MILLISECONDS < 2**31 - 1  # what a 32-bit int of milliseconds holds

NOT_A_NUMBER = "not a number"
BEFORE_ZERO = "before zero"
TOO_LATE = "too late"
ENDS_BEFORE_START = "ends before start"


def is_time(seconds: object) -> bool:
    """A finite number of seconds from 0 to MAX_CUE_SECONDS (a bool is not a time)."""
    return (isinstance(seconds, (int, float)) and not isinstance(seconds, bool) and math.isfinite(seconds)
            and 0 <= seconds <= MAX_CUE_SECONDS)


def time_problem(start: object, end: object) -> str | None:
    """What is wrong with a cue's times (NOT_A_NUMBER, BEFORE_ZERO, TOO_LATE, ENDS_BEFORE_START), or None
    when they are fine. For callers that word it themselves (a server's answer) or only need to know."""
    for seconds in (start, end):
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not math.isfinite(seconds):
            return NOT_A_NUMBER
    if min(start, end) < 0:
        return BEFORE_ZERO
    if max(start, end) > MAX_CUE_SECONDS:
        return TOO_LATE
    if end < start:
        return ENDS_BEFORE_START
    return None


def time_problem_sentence(problem: str, number: int, line: int, name: str) -> Message:
    """The sentence for a problem time_problem found in cue `number` (from 1), whose times are on
    `line` of the file `name`."""
    if problem == ENDS_BEFORE_START:
        return N_("Subtitles", "Subtitle {number} (line {line} of “{name}”) ends before it starts: check its "
                               "times.").format(number=number, line=line, name=name)
    if problem == TOO_LATE:
        return N_("Subtitles", "Subtitle {number} (line {line} of “{name}”) is timed after {hours} hours, longer "
                               "than a recording can last: check its times.").format(
            number=number, line=line, name=name, hours=MAX_CUE_HOURS)
    if problem == BEFORE_ZERO:
        return N_("Subtitles", "Subtitle {number} (line {line} of “{name}”) is timed before the recording "
                               "starts: check its times.").format(number=number, line=line, name=name)
    return N_("Subtitles", "Subtitle {number} (line {line} of “{name}”) has a time that is not a number: check "
                           "its times.").format(number=number, line=line, name=name)


def table_time(seconds: float) -> str:
    """00:01:02.345: a time as the editor's table shows and accepts it, and as its sentences name it."""
    millis = int(round(max(0.0, seconds) * 1000))
    hours, rest = divmod(millis, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    secs, millis = divmod(rest, 1000)
    return f"{hours:02d}:{minutes:02d}:{secs:02d}.{millis:03d}"
