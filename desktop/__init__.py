"""VoxDesk: transcribe, synthesize and clone speech on the desktop.

The map of the package (layers ui -> workers -> engines -> core, and where to add a feature) is
ARCHITECTURE.md at the top of the repository.
"""

__version__ = "0.1.0"
APP_NAME = "VoxDesk"
ORG_NAME = "VoxDesk"
