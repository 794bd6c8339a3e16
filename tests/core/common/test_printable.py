"""File names and other outside text shown with their control characters as visible escapes."""
from pathlib import Path

from desktop.core.common.i18n import N_
from desktop.core.common.printable import printable


def test_escape_sequences_line_breaks_and_overrides_become_visible_escapes():
    assert printable("a\x1b[31mred\nline\ttab\r.wav") == "a\\x1b[31mred\\nline\\ttab\\r.wav"
    assert printable("photo\u202egpj.exe") == "photo\\u202egpj.exe"
    assert printable("x\u2028y\x7f\x9b") == "x\\u2028y\\x7f\\x9b"


def test_bytes_that_are_not_utf8_are_shown_as_the_bytes_they_were():
    name = Path(b"caf\xe9.wav".decode("utf-8", "surrogateescape"))
    assert printable(name) == "caf\\xe9.wav"


def test_ordinary_names_in_any_script_are_left_as_they_are():
    for name in ("会议 录音 2024.wav", "Réunion – été.mp3", "👩‍💻 notes.flac", "a\u00adb.wav"):
        assert printable(name) == name


def test_a_file_name_put_into_a_sentence_cannot_break_it():
    message = N_("Audio", "“{name}” has no sound track.").format(name="x\x1b[2J\nFAKE.wav")
    assert message == "“x\\x1b[2J\\nFAKE.wav” has no sound track."
    assert message.localized(lambda _context, template: template) == message
