"""The few style sheets the widgets share, in one place."""

ERROR_STYLE = "color: #b3261e;"  # a sentence about something that went wrong
OK_STYLE = "color: #1e7b34;"  # a sentence confirming something worked
HINT_STYLE = "color: palette(placeholder-text);"  # quiet advice under a field
