"""File → Export video with subtitles…: a copy of the video with transcripts of this recording as subtitle
tracks, or one burned into the picture, with a live preview of the burned text on a frame.

The dialog only chooses: reading the video, drawing the preview and writing the copy are jobs on their
own threads (workers/video_export.py), so the window never waits on the file. Containers the video's
picture or sound cannot go into are greyed, with the reason beside them.
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, Qt, QTimer, Slot
from PySide6.QtGui import QPixmap, QStandardItemModel
from PySide6.QtWidgets import (
    QButtonGroup, QComboBox, QDialog, QFileDialog, QFormLayout, QGroupBox, QHBoxLayout, QLabel, QListWidget,
    QListWidgetItem, QProgressBar, QPushButton, QRadioButton, QVBoxLayout, QWidget)

from desktop.core.transcription.subtitles import Cue
from desktop.core.video.burn_style import BurnStyle
from desktop.core.video.containers import CONTAINERS, why_not
from desktop.ui.common.i18n import translated
from desktop.workers.job import Job, JobRunner
from desktop.workers.video_export import TranscriptChoice, VideoOverview, export_work, overview_work, preview_work

_PREVIEW_WIDTH = 480
_QUALITIES = ((18, "same"), (23, "smaller"), (14, "best"))
_SOFT_SUFFIXES = (".mkv", ".mp4", ".webm")
_BURN_SUFFIXES = (".mp4", ".mkv")


class VideoExportDialog(QDialog):
    def __init__(self, video: Path, open_transcript: TranscriptChoice | None, runner: JobRunner,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.video = video
        self._runner = runner
        self._choices: list[TranscriptChoice] = [open_transcript] if open_transcript else []
        self._overview: VideoOverview | None = None
        self._export_job: Job | None = None
        self._preview_job: Job | None = None
        self._preview_again = False
        self._preview_timer = QTimer(self, singleShot=True, interval=150)
        self._preview_timer.timeout.connect(self._draw_preview)
        self._build()
        self.retranslate()
        self._refresh_list()
        self._update_choices()
        job = Job(overview_work(video), "video overview")
        job.result.connect(self._on_overview)
        job.failed.connect(self._on_overview_failed)
        runner.start(job)

    # -- building ------------------------------------------------------------------------------

    def _build(self) -> None:
        self.video_label = QLabel()
        self.video_label.setWordWrap(True)
        self.transcripts = QListWidget()
        self.transcripts.setMaximumHeight(110)
        self.transcripts.itemChanged.connect(self._update_choices)
        self.add_file_button = QPushButton()
        self.add_file_button.clicked.connect(self._add_file)

        self.soft_button, self.burn_button = QRadioButton(), QRadioButton()
        self.soft_button.setChecked(True)
        self.mode = QButtonGroup(self)
        for button in (self.soft_button, self.burn_button):
            self.mode.addButton(button)
            button.toggled.connect(self._update_choices)
        self.container = QComboBox()
        self.container.currentIndexChanged.connect(self._update_choices)
        self.container_note = QLabel()
        self.container_note.setWordWrap(True)

        self.size, self.colour, self.background = QComboBox(), QComboBox(), QComboBox()
        self.position, self.margin, self.quality = QComboBox(), QComboBox(), QComboBox()
        for combo, values in ((self.size, ("small", "medium", "large")), (self.colour, ("white", "yellow", "cyan")),
                              (self.background, ("outline", "box")), (self.position, ("bottom", "top")),
                              (self.margin, ("narrow", "normal", "wide")), (self.quality, [q for q, _ in _QUALITIES])):
            for value in values:
                combo.addItem("", value)
            combo.currentIndexChanged.connect(self._style_changed)
        self.size.setCurrentIndex(1)
        self.margin.setCurrentIndex(1)
        self.style_box = QGroupBox()
        style_form = QFormLayout(self.style_box)
        self._style_labels = [QLabel() for _ in range(6)]
        for label, combo in zip(self._style_labels, (self.size, self.colour, self.background, self.position,
                                                     self.margin, self.quality)):
            style_form.addRow(label, combo)
        self.preview = QLabel()
        self.preview.setFixedSize(_PREVIEW_WIDTH, _PREVIEW_WIDTH * 9 // 16)
        self.preview.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.preview.setStyleSheet("background: #202020; color: #d0d0d0;")
        self.preview.setWordWrap(True)

        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.hide()
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.export_button, self.cancel_button, self.close_button = QPushButton(), QPushButton(), QPushButton()
        self.export_button.setDefault(True)
        self.export_button.clicked.connect(self._export)
        self.cancel_button.clicked.connect(self._cancel)
        self.cancel_button.hide()
        self.close_button.clicked.connect(self.reject)

        self.mode_box = QGroupBox()
        mode_layout = QVBoxLayout(self.mode_box)
        mode_layout.addWidget(self.soft_button)
        mode_layout.addWidget(self.burn_button)
        container_row = QHBoxLayout()
        self.container_label = QLabel()
        container_row.addWidget(self.container_label)
        container_row.addWidget(self.container, 1)
        mode_layout.addLayout(container_row)
        mode_layout.addWidget(self.container_note)

        self.transcripts_label = QLabel()
        left = QVBoxLayout()
        left.addWidget(self.video_label)
        left.addWidget(self.transcripts_label)
        left.addWidget(self.transcripts)
        left.addWidget(self.add_file_button, 0, Qt.AlignmentFlag.AlignLeft)
        left.addWidget(self.mode_box)
        left.addStretch(1)
        right = QVBoxLayout()
        right.addWidget(self.style_box)
        right.addWidget(self.preview)
        right.addStretch(1)
        columns = QHBoxLayout()
        columns.addLayout(left, 1)
        columns.addLayout(right)
        buttons = QHBoxLayout()
        buttons.addWidget(self.status, 1)
        for button in (self.cancel_button, self.export_button, self.close_button):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addLayout(columns)
        layout.addWidget(self.progress)
        layout.addLayout(buttons)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Export video with subtitles"))
        self.video_label.setText(self.tr("Video: {name}").format(name=self.video.name))
        self.transcripts_label.setText(self.tr("Transcripts of this recording (each ticked one becomes a track; "
                                               "the first is the default):"))
        self.add_file_button.setText(self.tr("Add a subtitle file…"))
        self.mode_box.setTitle(self.tr("How the subtitles go in"))
        self.soft_button.setText(self.tr("As subtitle tracks viewers can switch on and off (fast; the picture is "
                                         "copied as it is)"))
        self.burn_button.setText(self.tr("Burned into the picture, for players and sites that show no tracks "
                                         "(the picture is re-encoded)"))
        self.container_label.setText(self.tr("Save as:"))
        self.style_box.setTitle(self.tr("How burned-in text looks"))
        for label, text in zip(self._style_labels, (self.tr("Size:"), self.tr("Colour:"), self.tr("Background:"),
                                                    self.tr("Position:"), self.tr("Margin:"), self.tr("Quality:"))):
            label.setText(text)
        names = {
            self.size: (self.tr("Small"), self.tr("Medium"), self.tr("Large")),
            self.colour: (self.tr("White"), self.tr("Yellow"), self.tr("Cyan")),
            self.background: (self.tr("Dark outline"), self.tr("Dark box")),
            self.position: (self.tr("Bottom"), self.tr("Top")),
            self.margin: (self.tr("Narrow"), self.tr("Normal"), self.tr("Wide")),
            self.quality: (self.tr("Looks like the source"), self.tr("Smaller file"), self.tr("Best, larger file")),
        }
        for combo, texts in names.items():
            for index, text in enumerate(texts):
                combo.setItemText(index, text)
        self.export_button.setText(self.tr("Export…"))
        self.cancel_button.setText(self.tr("Cancel"))
        self.close_button.setText(self.tr("Close"))
        if self._overview is None and not self.preview.pixmap():
            self.preview.setText(self.tr("Reading the video…"))
        self._fill_containers()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    # -- choices -------------------------------------------------------------------------------

    def _refresh_list(self) -> None:
        self.transcripts.blockSignals(True)
        self.transcripts.clear()
        for number, choice in enumerate(self._choices):
            language = f" ({choice.language})" if choice.language else ""
            item = QListWidgetItem(choice.label + language)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if number == 0 else Qt.CheckState.Unchecked)
            self.transcripts.addItem(item)
        self.transcripts.blockSignals(False)

    def chosen(self) -> list[TranscriptChoice]:
        return [choice for number, choice in enumerate(self._choices)
                if self.transcripts.item(number).checkState() == Qt.CheckState.Checked]

    def burning(self) -> bool:
        return self.burn_button.isChecked()

    def style(self) -> BurnStyle:
        return BurnStyle(size=self.size.currentData(), colour=self.colour.currentData(),
                         background=self.background.currentData(), position=self.position.currentData(),
                         margin=self.margin.currentData())

    def _fill_containers(self, keep_choice: bool = True) -> None:
        """The containers of the chosen way, each greyed with its reason where the video cannot go in; the
        first that can hold it is chosen unless the one chosen before still can."""
        suffixes = _BURN_SUFFIXES if self.burning() else _SOFT_SUFFIXES
        current = self.container.currentData() if keep_choice else None
        self.container.blockSignals(True)
        self.container.clear()
        model: QStandardItemModel = self.container.model()
        self._reasons: dict[str, str] = {}
        for suffix in suffixes:
            container = CONTAINERS[suffix]
            codec = {"mov_text": "mov_text", "subrip": "SRT", "webvtt": "WebVTT"}[container.subtitle_codec]
            text = (self.tr("{container} (picture re-encoded as H.264)").format(container=container.label)
                    if self.burning() else self.tr("{container} (subtitles as {codec})").format(
                        container=container.label, codec=codec))
            self.container.addItem(text, suffix)
            reason = None
            if self._overview is not None and not self.burning():
                problem = why_not(container, self._overview.facts)
                reason = translated(problem) if problem else None
            elif self._overview is not None and self.burning() and suffix == ".mp4":
                from desktop.core.video.containers import holds

                if not all(holds(container, codec) for codec in self._overview.facts.audio_codecs):
                    reason = self.tr("MP4 cannot hold this video's sound as it is.")
            if reason:
                item = model.item(self.container.count() - 1)
                item.setEnabled(False)
                item.setToolTip(reason)
                self._reasons[suffix] = reason
        usable = [i for i in range(self.container.count()) if self.container.itemData(i) not in self._reasons]
        index = self.container.findData(current)
        self.container.setCurrentIndex(index if index in usable else (usable[0] if usable else -1))
        self.container.blockSignals(False)
        notes = list(self._reasons.values())
        self.container_note.setText("\n".join(notes))
        self.container_note.setVisible(bool(notes))

    @Slot()
    def _update_choices(self) -> None:
        if self.sender() in (self.soft_button, self.burn_button):
            self._fill_containers(keep_choice=False)
        busy = self._export_job is not None
        chosen = self.chosen() if self.transcripts.count() else []
        self.style_box.setEnabled(self.burning() and not busy)
        ready = self._overview is not None and bool(chosen) and self.container.currentIndex() >= 0
        self.export_button.setEnabled(ready and not busy)
        if self._overview is not None and not busy:
            if not chosen:
                self.status.setText(self.tr("Tick at least one transcript."))
            elif self.burning() and len(chosen) > 1:
                self.status.setText(self.tr("Only the first ticked transcript is burned in."))
            else:
                self.status.setText("")
        self._style_changed()

    @Slot()
    def _add_file(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, self.tr("Add a subtitle file"), str(self.video.parent),
                                                self.tr("Subtitles (*.srt *.vtt)"))
        for path in paths:
            self._choices.append(TranscriptChoice(Path(path).name, None, path=Path(path)))
        if paths:
            checked = [self.transcripts.item(i).checkState() for i in range(self.transcripts.count())]
            self._refresh_list()
            for i, state in enumerate(checked):
                self.transcripts.item(i).setCheckState(state)
            for i in range(len(checked), self.transcripts.count()):
                self.transcripts.item(i).setCheckState(Qt.CheckState.Checked)
            self._update_choices()

    # -- the video and the preview -------------------------------------------------------------

    @Slot(object)
    def _on_overview(self, overview: VideoOverview) -> None:
        self._overview = overview
        known = {c.path for c in self._choices if c.path is not None}
        self._choices += [c for c in overview.nearby if c.path not in known]
        checked = [self.transcripts.item(i).checkState() for i in range(self.transcripts.count())]
        self._refresh_list()
        for i, state in enumerate(checked):
            self.transcripts.item(i).setCheckState(state)
        facts = overview.facts
        width, height = facts.shown_size
        self.video_label.setText(self.tr("Video: {name} ({width}×{height}, {minutes} min {seconds} s)").format(
            name=self.video.name, width=width, height=height, minutes=int(facts.duration) // 60,
            seconds=int(facts.duration) % 60))
        self._fill_containers()
        self._update_choices()

    @Slot(object)
    def _on_overview_failed(self, sentence) -> None:
        self.preview.setText(translated(sentence))
        self.status.setText(translated(sentence))
        self.export_button.setEnabled(False)

    def _preview_cue(self) -> Cue | None:
        for choice in self.chosen() if self.transcripts.count() else []:
            if choice.cues:
                return choice.cues[0]
        return Cue(0.0, 1.0, [self.tr("Subtitles look like this 字幕效果")])

    @Slot()
    def _style_changed(self) -> None:
        if self._overview is not None:
            self._preview_timer.start()

    @Slot()
    def _draw_preview(self) -> None:
        if self._preview_job is not None:
            self._preview_again = True  # one drawing at a time; the latest choice is drawn next
            return
        cue = self._preview_cue() if self.burning() else None
        job = Job(preview_work(self.video, self._overview.facts, cue, self.style(), _PREVIEW_WIDTH), "video preview")
        job.result.connect(self._on_preview)
        job.failed.connect(self._on_overview_failed)
        job.finished.connect(self._on_preview_finished)
        self._preview_job = self._runner.start(job)

    @Slot(object)
    def _on_preview(self, image) -> None:
        pixmap = QPixmap.fromImage(image)
        self.preview.setPixmap(pixmap.scaled(self.preview.size(), Qt.AspectRatioMode.KeepAspectRatio,
                                             Qt.TransformationMode.SmoothTransformation))

    @Slot()
    def _on_preview_finished(self) -> None:
        self._preview_job = None
        if self._preview_again:
            self._preview_again = False
            self._draw_preview()

    # -- exporting -----------------------------------------------------------------------------

    def _suggested_name(self, suffix: str) -> str:
        return f"{self.video.stem}.{'burned' if self.burning() else 'subtitled'}{suffix}"

    @Slot()
    def _export(self) -> None:
        suffix = self.container.currentData()
        label = CONTAINERS[suffix].label
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Save the video with subtitles as"),
                                              str(self.video.parent / self._suggested_name(suffix)),
                                              f"{label} (*{suffix})")
        if not path:
            return
        output = Path(path)
        if output.suffix.lower() != suffix:
            output = output.with_name(output.name + suffix)
        # The file chooser asked before choosing an existing name: replacing it is what the person chose.
        self.start_export(output, overwrite=Path(path) == output)

    def start_export(self, output: Path, *, overwrite: bool) -> None:
        crf = self.quality.currentData()
        work = export_work(self.video, self.chosen(), output, burn_style=self.style() if self.burning() else None,
                           crf=crf, overwrite=overwrite)
        job = Job(work, "video export")
        job.progress.connect(self._on_progress)  # bound slots: called on the window's thread
        job.message.connect(self._on_export_failed)
        job.result.connect(self._on_exported)
        job.failed.connect(self._on_export_failed)
        job.was_cancelled.connect(self._on_export_cancelled)
        job.finished.connect(self._on_export_finished)
        self._export_job = self._runner.start(job)
        self.progress.setValue(0)
        self.progress.show()
        self.cancel_button.show()
        self.cancel_button.setEnabled(True)
        self.status.setText(self.tr("Saving “{name}”…").format(name=output.name))
        self._update_choices()

    @Slot(float)
    def _on_progress(self, fraction: float) -> None:
        self.progress.setValue(int(fraction * 1000))

    @Slot()
    def _cancel(self) -> None:
        if self._export_job is not None:
            self._export_job.cancel()
            self.cancel_button.setEnabled(False)
            self.status.setText(self.tr("Stopping…"))

    @Slot(object)
    def _on_exported(self, report) -> None:
        lines = [self.tr("Saved “{name}”.").format(name=report.path.name), *(translated(n) for n in report.notes)]
        self.status.setText(" ".join(lines))

    @Slot(object)
    def _on_export_failed(self, sentence) -> None:
        """A failure's sentence, or a message on the way (time left): shown in the status line."""
        self.status.setText(translated(sentence))

    @Slot()
    def _on_export_cancelled(self) -> None:
        self.status.setText(self.tr("Stopped; nothing was saved."))

    @Slot()
    def _on_export_finished(self) -> None:
        self._export_job = None
        self.progress.hide()
        self.cancel_button.hide()
        self._update_choices_keeping_status()

    def _update_choices_keeping_status(self) -> None:
        status = self.status.text()
        self._update_choices()
        self.status.setText(status)

    def reject(self) -> None:
        if self._export_job is not None:
            self._export_job.cancel()  # closing the dialog stops the export; nothing half-written stays
        super().reject()


def choice_from_transcript(transcript, recording: Path) -> TranscriptChoice:
    """The transcript open in the editor, as the dialog offers it: its cues as the subtitle export makes them."""
    from desktop.core.transcription.subtitles import build_cues

    return TranscriptChoice(_open_label(recording), transcript.language, cues=tuple(build_cues(transcript)))


def _open_label(recording: Path) -> str:
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate("VideoExportDialog", "The transcript open in the editor")
