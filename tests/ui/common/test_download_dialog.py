"""The one download dialog: progress, Cancel, a failure's sentence, and a language change."""
import threading

import pytest
from PySide6.QtCore import QCoreApplication, QTranslator
from PySide6.QtWidgets import QDialog

from desktop.core.common.errors import Cancelled, UserFacingError
from desktop.core.common.i18n import N_
from desktop.ui.common.download_dialog import DownloadDialog
from desktop.workers.job import JobRunner

TITLE = N_("DownloadDialog", "Downloading a voice model")
EXPLANATION = N_("DownloadDialog", "VoxDesk needs the voice model “{title}”. It is downloaded once and then kept on "
                 "this computer.").format(title="Tiny")
MB = 1_000_000


@pytest.fixture
def runner():
    runner = JobRunner()
    yield runner
    assert runner.shutdown(30_000)


def dialog_for(qtbot, runner, download) -> DownloadDialog:
    dialog = DownloadDialog(runner, download, title=TITLE, explanation=EXPLANATION)
    qtbot.addWidget(dialog)
    return dialog


def test_progress_is_shown_and_the_dialog_closes_accepted_when_done(qtbot, runner):
    def download(progress, cancelled):
        for done in range(0, 41 * MB, MB):
            progress(done, 40 * MB)

    dialog = dialog_for(qtbot, runner, download)
    values, results = [], []
    dialog.bar.valueChanged.connect(values.append)
    dialog.finished.connect(results.append)
    assert dialog.bytes_label.text() == "Connecting…"
    with qtbot.waitSignal(dialog.downloaded, timeout=10_000):
        dialog.open()
    qtbot.waitUntil(lambda: results == [QDialog.DialogCode.Accepted], timeout=10_000)
    assert values[-1] == 1000 and dialog.bytes_label.text() == "40 of 40 MB"


def test_cancel_stops_the_download_and_says_cancelled(qtbot, runner):
    started = threading.Event()

    def download(progress, cancelled):
        progress(MB, None)
        started.set()
        while not cancelled():
            threading.Event().wait(0.01)
        raise Cancelled()  # what a store raises when it notices the cancel

    dialog = dialog_for(qtbot, runner, download)
    outcomes = []
    dialog.downloaded.connect(lambda: outcomes.append("downloaded"))
    dialog.failed.connect(lambda m: outcomes.append("failed"))
    dialog.cancelled.connect(lambda: outcomes.append("cancelled"))
    dialog.open()
    assert started.wait(10)
    dialog.reject()  # the Cancel button
    assert dialog.bytes_label.text() == "Cancelling…" and not dialog.buttons.isEnabled()
    qtbot.waitUntil(lambda: bool(outcomes), timeout=10_000)
    assert outcomes == ["cancelled"]
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=10_000)


def test_a_failure_gives_its_sentence_and_closes_the_dialog(qtbot, runner):
    def download(progress, cancelled):
        raise UserFacingError(N_("Models", "VoxDesk could not reach the download server."))

    dialog = dialog_for(qtbot, runner, download)
    with qtbot.waitSignal(dialog.failed, timeout=10_000) as failed:
        dialog.open()
    assert failed.args == ["VoxDesk could not reach the download server."]
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=10_000)


class Marked(QTranslator):
    """A stand-in language: every DownloadDialog sentence with a mark in front."""

    def translate(self, context, source, disambiguation=None, n=-1):
        return "» " + source if context == "DownloadDialog" else None

    def isEmpty(self):  # noqa: N802 - Qt naming
        return False


def test_the_dialog_follows_a_change_of_the_interface_language(qtbot):
    dialog = DownloadDialog(JobRunner(), lambda progress, cancelled: None, title=TITLE, explanation=EXPLANATION)
    qtbot.addWidget(dialog)
    assert dialog.windowTitle() == "Downloading a voice model"
    translator = Marked()
    QCoreApplication.installTranslator(translator)
    try:
        qtbot.waitUntil(lambda: dialog.windowTitle() == "» Downloading a voice model", timeout=5_000)
        assert dialog.explanation.text().startswith("» VoxDesk needs the voice model “Tiny”.")
        assert dialog.bytes_label.text() == "» Connecting…"
    finally:
        QCoreApplication.removeTranslator(translator)
    qtbot.waitUntil(lambda: dialog.windowTitle() == "Downloading a voice model", timeout=5_000)
