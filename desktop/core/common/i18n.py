"""Sentences the window can show in the user's language, written in plain English here.

The core and the engines have no Qt, so they cannot translate. A sentence a user will read is marked
with ``N_(context, template)`` instead: lupdate finds it (the translation build tells lupdate that
``N_`` is spelled like ``QT_TRANSLATE_NOOP``), and the result is a :class:`Message` — an ordinary
``str`` holding the English text that also remembers its context, its template and the values put
into it. The window shows it with :func:`localized`; logs, the command line and tests simply use
the English string.

    raise AudioError(N_("Audio", "“{name}” has no sound track.").format(name=path.name))

Rules that keep a sentence translatable: the template is one string literal (implicit
concatenation is fine, f-strings are not), values go in through ``.format(name=value)`` with
keywords only, and a value that is a phrase of its own is a Message too, so it is translated
before it is put in. Other text put in (a file name) has its control characters shown as escapes
(desktop.core.common.printable), so it cannot break the sentence or the terminal. Joining
Messages with ``+`` or an f-string gives a plain, English-only str.
"""
from __future__ import annotations

import os
from typing import Any, Callable

Translate = Callable[[str, str], str]  # (context, English template) -> template in the user's language


class Message(str):
    """English text that carries what its translation needs: context, template and values."""

    context: str
    template: str
    values: dict[str, Any] | None  # None: the template is the whole text (nothing was put in)

    def __new__(cls, context: str, template: str, values: dict[str, Any] | None = None) -> "Message":
        if values is not None:
            # A file name (or anything else from outside) put into a sentence cannot carry a terminal
            # escape sequence, a line break or a bidirectional override into it; a Message put in is
            # VoxDesk's own sentence and was made safe the same way.
            values = {key: value if isinstance(value, Message) else _shown(value) for key, value in values.items()}
        self = super().__new__(cls, template if values is None else template.format(**values))
        self.context = context
        self.template = template
        self.values = values
        return self

    def format(self, /, **values: Any) -> "Message":  # type: ignore[override]
        """The template with these values put in; still translatable."""
        return Message(self.context, self.template, values)

    def __getnewargs__(self) -> tuple:  # type: ignore[override]
        # copy, deepcopy (dataclasses.asdict) and pickle rebuild a Message from these.
        return self.context, self.template, self.values

    def localized(self, translate: Translate) -> str:
        """The text in the language translate() speaks; English where a translation is missing or broken."""
        translation = translate(self.context, self.template) or self.template
        if self.values is None:
            return translation
        values = {key: localized(value, translate) for key, value in self.values.items()}
        try:
            return translation.format(**values)
        except (KeyError, IndexError, ValueError):
            # A translation whose {fields} do not match the English must not hide the message.
            return self.template.format(**values)


def _shown(value: Any) -> Any:
    from desktop.core.common.printable import printable

    return printable(value) if isinstance(value, (str, os.PathLike)) else value


def N_(context: str, template: str) -> Message:  # noqa: N802 - the usual name of a translation mark
    """Mark an English sentence for translation; returns it as a Message (use .format to fill it in)."""
    return Message(context, template)


def localized(text: Any, translate: Translate) -> Any:
    """A Message in the language translate() speaks; anything else as it is."""
    return text.localized(translate) if isinstance(text, Message) else text
