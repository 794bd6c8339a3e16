"""Settings → Transcription server: address, model, API key, when to use it, and a connection test.

The key is kept by ServerKeyStore (keyring or a private file), never in QSettings. Reading the key,
listing models and the test transcription run off the GUI thread.
"""
from __future__ import annotations

import shiboken6
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from desktop.core.common.errors import UserFacingError
from desktop.core.transcription.server_config import MAX_CONCURRENCY, ServerConfig, ServerKeyStore, server_url
from desktop.settings import Settings
from desktop.ui.common.i18n import translated
from desktop.ui.common.styles import ERROR_STYLE, OK_STYLE
from desktop.ui.common.tab_jobs import TabJobs
from desktop.workers.job import JobReport, JobRunner, application_runner

TEST_TIMEOUT = 30.0  # seconds: a test that takes longer is a failed test


def configured_server(settings: Settings) -> ServerConfig | None:
    """The server Settings ask for, or None when none is set up (or its address is unusable)."""
    if not settings.get("server/enabled"):
        return None
    try:
        url = server_url(settings.get("server/url"))
    except UserFacingError:
        return None
    concurrency = min(MAX_CONCURRENCY, max(1, settings.get("server/concurrency")))
    return ServerConfig(url, model=settings.get("server/model"), use=settings.get("server/use"),
                        concurrency=concurrency)


class ServerSettingsBox(QGroupBox):
    """A checkable group: checked means VoxDesk uses the server."""

    def __init__(self, parent: QWidget | None = None, *, runner: JobRunner | None = None,
                 key_store: ServerKeyStore | None = None):
        super().__init__(parent)
        self.setCheckable(True)
        self._keys = key_store or ServerKeyStore()
        self._jobs = TabJobs(runner or application_runner(), self)
        self._loaded_key = ""
        self._build()
        self.retranslate()

    def _build(self) -> None:
        self.url_edit = QLineEdit()
        self.url_edit.setPlaceholderText("http://gpu-server:8000")
        self.model_combo = QComboBox()
        self.model_combo.setEditable(True)
        self.key_edit = QLineEdit()
        self.key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.all_files = QRadioButton()
        self.without_gpu = QRadioButton()
        self._use = QButtonGroup(self)
        self._use.addButton(self.all_files)
        self._use.addButton(self.without_gpu)
        self.concurrency_spin = QSpinBox()
        self.concurrency_spin.setRange(1, MAX_CONCURRENCY)
        self.test_button = QPushButton()
        self.test_button.clicked.connect(self.test_connection)
        self.result_label = QLabel()
        self.result_label.setWordWrap(True)

        self.url_label, self.model_label, self.key_label, self.use_label = QLabel(), QLabel(), QLabel(), QLabel()
        form = QFormLayout()
        form.addRow(self.url_label, self.url_edit)
        form.addRow(self.model_label, self.model_combo)
        form.addRow(self.key_label, self.key_edit)
        use = QVBoxLayout()
        use.addWidget(self.all_files)
        use.addWidget(self.without_gpu)
        form.addRow(self.use_label, use)
        self.concurrency_label = QLabel()
        form.addRow(self.concurrency_label, self.concurrency_spin)
        test = QHBoxLayout()
        test.addWidget(self.test_button)
        test.addWidget(self.result_label, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(test)

    def retranslate(self) -> None:
        self.setTitle(self.tr("Transcription server"))
        self.setToolTip(self.tr("Send recordings to the office's Whisper server (for example vLLM on a GPU "
                                "machine) instead of transcribing them on this computer."))
        self.url_label.setText(self.tr("Address:"))
        self.model_label.setText(self.tr("Model:"))
        self.model_combo.lineEdit().setPlaceholderText(self.tr("The server's own (leave empty)"))
        self.key_label.setText(self.tr("API key:"))
        self.key_edit.setPlaceholderText(self.tr("Empty: the server needs none"))
        self.use_label.setText(self.tr("Use it:"))
        self.all_files.setText(self.tr("For all files"))
        self.without_gpu.setText(self.tr("Only when this computer has no working GPU"))
        self.concurrency_label.setText(self.tr("Pieces sent at once:"))
        self.concurrency_spin.setToolTip(self.tr("How many pieces of a recording are on the server at the same "
                                                 "time; more is faster on a server with a big GPU."))
        self.test_button.setText(self.tr("Test connection"))
        self.test_button.setToolTip(self.tr("Sends one second of speech to the server and times the answer."))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    # -- settings ------------------------------------------------------------------------------

    def load(self, settings: Settings) -> None:
        self.setChecked(settings.get("server/enabled"))
        self.url_edit.setText(settings.get("server/url"))
        self.model_combo.setEditText(settings.get("server/model"))
        (self.all_files if settings.get("server/use") == "always" else self.without_gpu).setChecked(True)
        self.concurrency_spin.setValue(settings.get("server/concurrency"))
        self._read_key()

    def fields(self) -> dict[str, object]:
        """The settings this box edits, as the dialog saves them (the key is saved by save_key)."""
        url = self.url_edit.text().strip()
        try:
            url = server_url(url) if url else ""
        except UserFacingError:
            pass  # valid() said so before OK
        return {
            "server/enabled": self.isChecked(),
            "server/url": url,
            "server/model": self.model_combo.currentText().strip(),
            "server/use": "always" if self.all_files.isChecked() else "no_gpu",
            "server/concurrency": self.concurrency_spin.value(),
        }

    def valid(self) -> bool:
        """Whether OK may save: a server in use needs an address that is one (else the box says why)."""
        if not self.isChecked():
            return True
        try:
            server_url(self.url_edit.text())
        except UserFacingError as error:
            self._show(translated(error.message), error=True)
            self.url_edit.setFocus()
            return False
        return True

    def save_key(self) -> None:
        """Keep the key in the keyring (or the private file) when it was changed."""
        key = self.key_edit.text().strip()
        url = self.fields()["server/url"]
        if url and key != self._loaded_key:
            try:
                self._keys.save(url, key)
            except UserFacingError as error:
                self._show(translated(error.message), error=True)

    def _read_key(self) -> None:
        try:
            url = server_url(self.url_edit.text())
        except UserFacingError:
            return
        keys = self._keys

        def work(report: JobReport) -> str:
            return keys.load(url)

        self._jobs.start("read key", work, on_result=self._on_key)

    def _on_key(self, key: str) -> None:
        if shiboken6.isValid(self) and not self.key_edit.text():
            self._loaded_key = key
            self.key_edit.setText(key)

    # -- the connection test -------------------------------------------------------------------

    def test_connection(self) -> None:
        try:
            url = server_url(self.url_edit.text())
        except UserFacingError as error:
            self._show(translated(error.message), error=True)
            return
        config = ServerConfig(url, model=self.model_combo.currentText().strip(), timeout=TEST_TIMEOUT)
        key = self.key_edit.text().strip()

        def work(report: JobReport):
            from desktop.engines.transcription.server.engine import check_connection

            return check_connection(config, key)

        self.test_button.setEnabled(False)
        self._show(self.tr("Sending one second of speech to {host}…").format(host=config.host))
        self._jobs.start("test", work, on_result=self._on_tested, on_failed=self._on_test_failed)

    def _on_tested(self, check) -> None:
        self.test_button.setEnabled(True)
        if check.models:
            current = self.model_combo.currentText()
            self.model_combo.clear()
            self.model_combo.addItems(check.models)
            self.model_combo.setEditText(current or check.models[0])
        heard = check.text or self.tr("(nothing)")
        self._show(self.tr("Connected: the server transcribed one second of speech in {ms} ms (round trip) and "
                           "heard “{heard}”.").format(ms=round(check.seconds * 1000), heard=heard), ok=True)

    def _on_test_failed(self, message: str) -> None:
        self.test_button.setEnabled(True)
        self._show(translated(message), error=True)

    def _show(self, text: str, *, error: bool = False, ok: bool = False) -> None:
        self.result_label.setStyleSheet(ERROR_STYLE if error else OK_STYLE if ok else "")
        self.result_label.setText(text)
