"""Data files that ship inside the package (icons, translations, reading passages)."""
from importlib.resources import files


def resource_path(*parts: str):
    """A Traversable for a file under resources/, e.g. resource_path("icons", "app.svg")."""
    node = files(__name__)
    for part in parts:
        node = node / part
    return node
