"""Help → Doctor: one sentence for the person, then the doctor's rows for IT (✓ / ⚠ / ✗, what was
found, the whole fix to copy).

The checks run on a worker thread (they import torch and run the GPU smoke test in a child process);
the dialog stays responsive and can run them again. The gfx-target row carries the switch that makes
the launcher apply HSA_OVERRIDE_GFX_VERSION at the next start.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from PySide6.QtCore import QCoreApplication, QEvent, Qt, Signal, Slot
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from desktop.core.gpu.doctor import Check, DoctorResult, Status, format_table, run_doctor
from desktop.core.gpu.environment import OVERRIDE_VARIABLE
from desktop.core.gpu.verdict import plain_verdict
from desktop.settings import Settings
from desktop.ui.common.i18n import translated
from desktop.workers.job import Job, JobReport, JobRunner, application_runner

OVERRIDE_KEY = "gpu/hsa_override_gfx_version"
_COLORS = {Status.OK: "#2e7d32", Status.WARNING: "#b26a00", Status.ERROR: "#c62828", Status.INFO: "#1565c0"}


@dataclass
class CheckRow:
    """The widgets of one row, kept for updates (and tests)."""

    check: Check
    symbol: QLabel
    title: QLabel
    finding: QLabel
    fix: QLabel | None = None  # the whole fix, wrapped
    copy: QPushButton | None = None
    override: QCheckBox | None = None


class DoctorDialog(QDialog):
    checks_finished = Signal(object)  # the DoctorResult, once it is shown

    def __init__(
        self,
        parent: QWidget | None = None,
        *,
        settings: Settings | None = None,
        runner: JobRunner | None = None,
        doctor: Callable[..., DoctorResult] | None = None,
    ):
        """`doctor(progress=..., cancelled=...)` replaces the real checks in tests."""
        super().__init__(parent)
        if settings is None:
            from desktop.settings import open_settings

            settings = open_settings()
        self._settings = settings
        self._runner = runner or application_runner()
        self._doctor = doctor  # None: the real checks, with the choices in Settings at each run
        self._job: Job | None = None
        self._result: DoctorResult | None = None
        self._step: str | None = None  # the check running now, as the doctor named it
        self._failure: str | None = None  # why the last run could not finish
        self._note: tuple[str, str] | None = None  # (variable, value) of an override the user just set
        self.rows: dict[str, CheckRow] = {}

        self.resize(860, 640)
        self._build_labels()
        self._scroll = QScrollArea(self)
        self._scroll.setWidgetResizable(True)
        self._grid = self._new_rows_widget()
        self._lay_out(self._build_buttons())

        self.run_checks()
        self.retranslate()

    def _build_labels(self) -> None:
        self.verdict_label = QLabel(self)  # the sentence for the person, above everything for IT
        self.verdict_label.setWordWrap(True)
        self.verdict_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        font = self.verdict_label.font()
        font.setPointSizeF(font.pointSizeF() * 1.25)
        font.setBold(True)
        self.verdict_label.setFont(font)
        self.summary_label = QLabel(self)
        self.summary_label.setWordWrap(True)
        self.summary_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        font = self.summary_label.font()
        font.setBold(True)
        self.summary_label.setFont(font)
        self.state_label = QLabel(self)
        self.state_label.setWordWrap(True)

    def _build_buttons(self) -> QDialogButtonBox:
        self.run_again_button = QPushButton(self)
        self.run_again_button.clicked.connect(self.run_checks)
        self.copy_report_button = QPushButton(self)
        self.copy_report_button.setEnabled(False)
        self.copy_report_button.clicked.connect(self.copy_report)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.addButton(self.run_again_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.copy_report_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        return buttons

    def _lay_out(self, buttons: QDialogButtonBox) -> None:
        layout = QVBoxLayout(self)
        layout.addWidget(self.verdict_label)
        layout.addWidget(self.summary_label)
        layout.addWidget(self.state_label)
        layout.addWidget(self._scroll, 1)
        layout.addWidget(buttons)

    def retranslate(self) -> None:
        """Set every text, the rows included; called at start and when the interface language changes."""
        self.setWindowTitle(self.tr("Doctor: check this computer"))
        self.run_again_button.setText(self.tr("Run again"))
        self.copy_report_button.setText(self.tr("Copy report"))
        self._show_state()
        if self._result is not None:
            self.verdict_label.setText(translated(plain_verdict(self._result)))
            self.summary_label.setText(translated(self._result.report.summary()))
            self._show_checks(self._result.checks)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def _show_state(self) -> None:
        """The line under the summary: what runs now, how the last run went, or what to restart for."""
        if self._job is not None:
            if self._step is None:
                text = self.tr("Checking this computer… This can take a minute.")
            else:
                text = self.tr("Checking this computer… ({step})").format(step=translated(self._step))
        elif self._failure is not None:
            text = self.tr("The checks could not finish: {message}").format(message=translated(self._failure))
        elif self._note is not None:
            variable, value = self._note
            if value:
                text = self.tr("Restart VoxDesk to apply {variable}={value}.").format(variable=variable, value=value)
            else:
                text = self.tr("Restart VoxDesk to start without {variable}.").format(variable=variable)
        elif self._result is not None:
            errors = sum(check.status is Status.ERROR for check in self._result.checks)
            warnings = sum(check.status is Status.WARNING for check in self._result.checks)
            if errors:
                text = self.tr("Problems to fix: {errors}. Warnings: {warnings}.")
            elif warnings:
                text = self.tr("Nothing is broken. Warnings: {warnings}.")
            else:
                text = self.tr("Everything is in order.")
            text = text.format(errors=errors, warnings=warnings)
        else:
            text = ""
        self.state_label.setText(text)

    # -- running -------------------------------------------------------------------------------

    def is_running(self) -> bool:
        return self._job is not None

    def doctor_result(self) -> DoctorResult | None:
        """The last result shown (QDialog.result() is the dialog's exit code)."""
        return self._result

    @Slot()
    def run_checks(self) -> None:
        if self._job is not None:
            return
        doctor = self._doctor or self._real_checks()

        def work(report: JobReport) -> DoctorResult:
            return doctor(progress=report.message, cancelled=report.cancelled)

        self._job = Job(work, name="doctor")
        self._job.message.connect(self._on_progress)
        self._job.result.connect(self._on_result)
        self._job.failed.connect(self._on_failed)
        self._job.finished.connect(self._on_job_finished)
        self.run_again_button.setEnabled(False)
        self._step = self._failure = self._note = None
        self._show_state()
        self._runner.start(self._job)

    def _real_checks(self) -> Callable[..., DoctorResult]:
        """run_doctor with the model and download sources chosen in Settings, read here on the GUI thread."""
        model = str(self._settings.get("transcribe/model"))
        sources = self._settings.model_sources()

        from desktop.settings import open_model_stores

        store = open_model_stores(self._settings).whisper

        def gpu_answers() -> list:
            from desktop.engines.transcription.known_answer import doctor_check

            return doctor_check(store, model)

        def doctor(**kw) -> DoctorResult:
            kw.setdefault("gpu_answers", gpu_answers)
            return run_doctor(model=model, downloads=sources.downloads, shared_folders=len(sources.shared_dirs), **kw)

        return doctor

    @Slot(object)
    def _on_progress(self, title: str) -> None:
        self._step = title
        self._show_state()

    @Slot(object)
    def _on_result(self, result: DoctorResult) -> None:
        self._result = result
        self.verdict_label.setText(translated(plain_verdict(result)))
        self.summary_label.setText(translated(result.report.summary()))
        self._show_checks(result.checks)
        self.copy_report_button.setEnabled(True)
        self.checks_finished.emit(result)

    @Slot(object)
    def _on_failed(self, message: str) -> None:
        self._failure = message

    @Slot()
    def _on_job_finished(self) -> None:
        self._job = None
        self.run_again_button.setEnabled(True)
        self._show_state()

    def done(self, code: int) -> None:
        if self._job is not None:
            self._job.cancel()  # stops at the next check; its thread belongs to the runner
        super().done(code)

    # -- rows ----------------------------------------------------------------------------------

    def _new_rows_widget(self) -> QGridLayout:
        """A fresh container for the rows; the scroll area deletes the previous one with its rows."""
        container = QWidget()
        grid = QGridLayout(container)
        grid.setColumnStretch(2, 1)
        grid.setAlignment(Qt.AlignmentFlag.AlignTop)
        self._scroll.setWidget(container)
        return grid

    def _show_checks(self, checks: list[Check]) -> None:
        self.rows.clear()
        self._grid = self._new_rows_widget()
        line = 0
        for check in checks:
            symbol = QLabel(check.symbol)
            symbol.setStyleSheet(f"color: {_COLORS[check.status]}; font-weight: bold;")
            symbol.setAlignment(Qt.AlignmentFlag.AlignTop)
            title = QLabel(translated(check.title))
            title.setAlignment(Qt.AlignmentFlag.AlignTop)
            font = title.font()
            font.setBold(True)
            title.setFont(font)
            finding = QLabel(translated(check.finding))
            finding.setWordWrap(True)
            finding.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self._grid.addWidget(symbol, line, 0)
            self._grid.addWidget(title, line, 1)
            self._grid.addWidget(finding, line, 2)
            row = CheckRow(check, symbol, title, finding)
            line += 1
            if check.fix and check.status is not Status.OK:
                row.fix, row.copy = self._fix_widgets(check.fix)
                fix_line = QHBoxLayout()
                fix_title = QLabel(self.tr("Fix:"))
                fix_title.setAlignment(Qt.AlignmentFlag.AlignTop)
                fix_line.addWidget(fix_title)
                fix_line.addWidget(row.fix, 1)
                fix_line.addWidget(row.copy, 0, Qt.AlignmentFlag.AlignTop)
                self._grid.addLayout(fix_line, line, 2)
                line += 1
            override = self._override_checkbox(check)
            if override is not None:
                row.override = override
                self._grid.addWidget(override, line, 2)
                line += 1
            self.rows[check.id] = row

    def _fix_widgets(self, fix: str) -> tuple[QLabel, QPushButton]:
        """The whole fix, wrapped and selectable (a command can be longer than the dialog is wide)."""
        fix = translated(fix)
        text = QLabel(fix)
        text.setTextFormat(Qt.TextFormat.PlainText)
        text.setWordWrap(True)
        text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        text.setStyleSheet("font-family: monospace;")
        copy = QPushButton(self.tr("Copy"))
        copy.clicked.connect(lambda: QGuiApplication.clipboard().setText(fix))
        return text, copy

    def _override_checkbox(self, check: Check) -> QCheckBox | None:
        """On the gfx row: the proposed override, or the one already set so it can be turned off."""
        if check.id != "gfx_target":
            return None
        current = str(self._settings.get(OVERRIDE_KEY) or "")
        value = check.setting[1] if check.setting and check.setting[0] == OVERRIDE_KEY else current
        if not value:
            return None
        box = QCheckBox(self.tr("Apply {variable}={value} at next start").format(variable=OVERRIDE_VARIABLE,
                                                                                  value=value))
        box.setChecked(current == value)
        box.setToolTip(self.tr("VoxDesk sets this before the GPU runtime starts. Restart VoxDesk for it to take "
                               "effect."))
        box.toggled.connect(lambda checked: self._apply_override(value if checked else ""))
        return box

    def _apply_override(self, value: str) -> None:
        self._settings.set(OVERRIDE_KEY, value)
        self._settings.sync()
        self._note = (OVERRIDE_VARIABLE, value)
        self._show_state()

    def copy_report(self) -> None:
        """The report as plain text in the interface language, to paste into a message."""
        if self._result is not None:
            QGuiApplication.clipboard().setText(format_table(self._result, translate=QCoreApplication.translate))
