"""Qt calls made by the thousand must not wear away Python's own None, True and False.

PySide6 6.12.0 built for Python 3.11 loses one reference to None on every Qt call that returns
nothing and one to True on every signal emitted: after some tens of thousands of calls (a few minutes
of playback, a long session) Python aborts with "deallocating None". pyproject.toml keeps that
release out; this test says so on any PySide6 the install brings.
"""
import sys

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QLabel

CALLS = 2_000  # well under the references a fresh interpreter holds, so a leak shows before it crashes


class _Ticker(QObject):
    ticked = Signal(int)


def test_setting_a_label_s_text_many_times_keeps_none_alive(qtbot):
    label = QLabel()
    qtbot.addWidget(label)
    before = sys.getrefcount(None)
    for _ in range(CALLS):
        label.setText("00:00:01")
    assert sys.getrefcount(None) - before > -CALLS // 2


def test_emitting_a_signal_many_times_keeps_true_alive(qtbot):
    ticker = _Ticker()
    heard = []
    ticker.ticked.connect(heard.append)
    before = sys.getrefcount(True)
    for second in range(CALLS):
        ticker.ticked.emit(second)
    assert len(heard) == CALLS
    assert sys.getrefcount(True) - before > -CALLS // 2
