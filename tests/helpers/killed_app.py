"""The app killed while someone edits: a window in a process of its own, on the data folder of the test,
that makes a few edits to the first transcript of its saved queue, keeps typing, and is killed with
SIGKILL in the middle of it (no close, no chance to save)."""
from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import textwrap

from tests.helpers.weights import TESTS_DIR
from tests.ui.conftest import JOB_TIMEOUT_MS

_OPEN_THE_FIRST_TRANSCRIPT = """
import sys
import time
from PySide6.QtCore import QTimer
from desktop.app import create_app
from desktop.ui.transcribe.editor.segments_model import SegmentsModel

app, window = create_app(sys.argv[:1])
window.show()
tab = window.transcribe_tab
while not tab.saved_work.is_restored:  # the saved queue is read off the window's thread
    app.processEvents()
    time.sleep(0.01)
tab.queue_view.selectRow(0)
panel = tab.transcript_panel
"""

_KEEP_TYPING = """
print("edited", flush=True)
model = panel.view.model()
typed = []

def keep_typing():  # still editing when the kill comes
    typed.append("x")
    model.setData(model.index({row}, SegmentsModel.TEXT), "for your country" + "".join(typed))
    QTimer.singleShot(10, keep_typing)

keep_typing()
app.exec()
"""


def kill_while_typing(qtbot, tmp_path, edits: str, *, typing_row: int) -> None:
    """Run edits (Python, with `panel` the transcript panel showing the first transcript of the queue),
    then type on into the text of line typing_row, "for your countryx", "…xx" and on, until the app
    is killed. Returns once it is dead; its stderr is in tmp_path / "child stderr.txt"."""
    script = _OPEN_THE_FIRST_TRANSCRIPT + textwrap.dedent(edits) + _KEEP_TYPING.format(row=typing_row)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path / "child config"))
    errors = tmp_path / "child stderr.txt"
    with open(errors, "w", encoding="utf-8") as stderr:
        child = subprocess.Popen([sys.executable, "-c", script], cwd=TESTS_DIR.parent, env=env, text=True,
                                 stdout=subprocess.PIPE, stderr=stderr)
    try:
        ready, _, _ = select.select([child.stdout], [], [], JOB_TIMEOUT_MS / 1000)
        line = child.stdout.readline() if ready else ""
        assert line == "edited\n", errors.read_text(encoding="utf-8")[-3000:]
        qtbot.wait(300)
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == -signal.SIGKILL
