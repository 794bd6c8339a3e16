"""The few colours and style sheets the widgets share, in one place."""

ERROR_COLOR = "#b3261e"  # something went wrong
WARNING_COLOR = "#8a5300"  # usable, but the user should look at it
OK_COLOR = "#1e7b34"  # something worked

ERROR_STYLE = f"color: {ERROR_COLOR};"
WARNING_STYLE = f"color: {WARNING_COLOR};"
OK_STYLE = f"color: {OK_COLOR};"
