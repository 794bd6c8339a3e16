"""The composition root: the one place that builds the settings, services and the main window.

Nothing here imports torch or whisper: the window must be on screen at once. The heavy libraries
load on a worker thread when the first file is transcribed.
"""
from __future__ import annotations

import logging
import logging.handlers
import os
import sys

from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from desktop import APP_NAME, ORG_NAME, __version__
from desktop.resources import resource_path
from desktop.settings import Settings

log = logging.getLogger(__name__)


def _install_log_file() -> None:
    """Errors and their tracebacks go to a log file the user can send; the window shows a sentence."""
    from desktop.core.common.paths import log_dir

    try:
        folder = log_dir()
        folder.mkdir(parents=True, exist_ok=True)
        handler = logging.handlers.RotatingFileHandler(folder / "voxdesk.log", maxBytes=2_000_000,
                                                       backupCount=3, encoding="utf-8")
    except OSError:
        return  # no log file is no reason not to start
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    if root.level > logging.INFO or root.level == logging.NOTSET:
        root.setLevel(logging.INFO)

    def log_uncaught(kind, value, trace) -> None:
        # An exception escaping a slot must be recorded, not shown as a crash dialog.
        logging.getLogger("desktop").error("uncaught exception", exc_info=(kind, value, trace))

    sys.excepthook = log_uncaught


def create_app(argv: list[str], *, settings: Settings | None = None):
    """The QApplication and the main window, wired to their services; the window is not shown yet.

    settings: tests pass a Settings over their own QSettings file; the app uses the user's.
    """
    from desktop.core.gpu.fallback import FallbackLog
    from desktop.core.transcription.autosave import AutosaveStore
    from desktop.engines.transcription.known_answer import GpuProof
    from desktop.engines.transcription.transcriber import Transcriber
    from desktop.ui.main_window import MainWindow
    from desktop.workers.job import JobRunner

    app = QApplication.instance() or QApplication(argv)
    app.setOrganizationName(ORG_NAME)
    app.setApplicationName(APP_NAME)
    app.setApplicationVersion(__version__)
    app.setDesktopFileName("voxdesk")
    app.setWindowIcon(QIcon(str(resource_path("icons", "app.svg"))))

    if settings is None:
        from desktop.settings import open_settings

        settings = open_settings()
    from desktop.ui.common.i18n import apply_language

    apply_language(app, settings.get("ui/language"))

    from desktop.settings import open_model_stores

    stores = open_model_stores(settings)  # they share one LiveSources; Settings… replaces it
    store = stores.whisper
    fallback_log = FallbackLog()
    transcriber = Transcriber(store, fallback_log, gpu_proof=GpuProof())
    runner = JobRunner(app)
    from desktop.ui.common.window_places import WindowPlaces

    window = MainWindow(settings, store, transcriber, runner, fallback_log, autosave=AutosaveStore(),
                        more_tabs=_speech_tabs(settings, stores, fallback_log, runner))
    WindowPlaces(settings, window).install(app)  # every window inside the screen, main ones where left
    return app, window


def _speech_tabs(settings: Settings, stores, fallback_log, runner) -> tuple:
    """The Synthesize and Clone tabs and the services behind them (no model is loaded here)."""
    from desktop.core.common.i18n import N_
    from desktop.core.voices.library import VoiceLibrary
    from desktop.engines.voices.cloning import VoiceCloner, VoiceEnrollment
    from desktop.engines.voices.speaker import SpeakerEncoder
    from desktop.engines.transcription.transcriber import Transcriber
    from desktop.engines.speech.tts import SpeechSynthesizer
    from desktop.ui.clone.clone_tab import CloneTab
    from desktop.ui.speech.synthesize_tab import SynthesizeTab

    whisper_store, tts_store = stores.whisper, stores.voices
    synthesizer = SpeechSynthesizer(tts_store, fallback_log)
    encoder = SpeakerEncoder()
    library = VoiceLibrary()
    # The consent check has its own Transcriber, so it never unloads the Transcribe tab's model.
    enrollment = VoiceEnrollment(library, Transcriber(whisper_store, fallback_log), encoder)
    cloner = VoiceCloner(tts_store, SpeechSynthesizer(tts_store, fallback_log), encoder)
    synthesize = SynthesizeTab(settings, synthesizer, runner, fallback_log)
    clone = CloneTab(settings, library, enrollment, cloner, runner)
    # Titles as Messages: the window shows them in the interface language, and again after a switch.
    return (
        (synthesize, N_("MainWindow", "Synthesize"), "synthesize"),
        (clone, N_("MainWindow", "Clone"), "clone"),
    )


def run_gui(argv: list[str]) -> int:
    """Open the window and run until it is closed; the exit status."""
    _install_log_file()
    app, window = create_app(argv)
    window.show()
    status = app.exec()
    # Transcription runs in an engine process that closing kills within a second, so no job thread
    # is left inside a library call here; the log says so if one ever is.
    if not window.stopped_cleanly:
        log.warning("exiting with a job still running")
        # Python's exit would destroy that job's thread while it runs, which Qt answers by aborting the
        # process: the settings and the log are written now, and the process ends without that teardown.
        window.save_settings()
        logging.shutdown()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
    return status
