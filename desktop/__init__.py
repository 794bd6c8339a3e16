"""VoxDesk: transcribe, synthesize and clone speech on the desktop."""

__version__ = "0.1.0"
APP_NAME = "VoxDesk"
ORG_NAME = "VoxDesk"
