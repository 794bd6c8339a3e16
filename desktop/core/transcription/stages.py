"""The stages a file goes through while it is transcribed, so the queue can say which one it is in.

A short recording gets no measured progress until its only window is decoded, so without the stage its
row would sit at 0 % and then jump to 100 %.
"""
from __future__ import annotations

from enum import Enum


class Stage(Enum):
    READING = "reading"  # the file is opened and its length read
    LOADING = "loading"  # the model is loaded (only when it is not loaded already)
    LISTENING = "listening"  # Whisper decodes the speech; measured progress comes with it
    WRITING = "writing"  # the transcript is put together: glossary corrections, speakers
