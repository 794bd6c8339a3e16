"""Errors that carry a sentence a non-technical person can act on."""


class UserFacingError(Exception):
    """An error whose message is shown to the user as it is.

    The message must say what went wrong in plain words and, where there is one, what to do.
    """

    def __init__(self, message: str, *, detail: str | None = None):
        super().__init__(message)
        self.message = message
        self.detail = detail  # technical detail for the log and the "Details" box


class AudioError(UserFacingError):
    """The file could not be read as audio."""


class ExportError(UserFacingError):
    """A transcript could not be written."""


class ModelError(UserFacingError):
    """A model could not be found, downloaded, imported or loaded."""


class Cancelled(Exception):
    """The user cancelled the job; not an error."""
