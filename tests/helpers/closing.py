"""Closing a main window the way a user who means it does: when the window asks about transcripts
changed since their export, answer "Close anyway", then wait for its jobs to stop."""
from PySide6.QtCore import Qt


def close_answering(window) -> None:
    """Close the window, answering "Close anyway" if it asks (also for qtbot.addWidget's
    before_close_func, so that a window a test leaves open still stops its jobs at teardown)."""
    window.close()
    question = getattr(window, "close_question", None)
    if question is not None:
        question.close_anyway.click()


def close_window(qtbot, window, *, timeout: int) -> None:
    window.close()
    question = getattr(window, "close_question", None)
    if question is not None:
        qtbot.mouseClick(question.close_anyway, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=timeout)
