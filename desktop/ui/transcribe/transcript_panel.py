"""The transcript of the file selected in the queue: its segments to search, hear and correct."""
from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, Qt, Signal, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.common.audio_player import AudioPlayer
from desktop.ui.common.i18n import translated
from desktop.ui.common.icons import icon
from desktop.ui.transcribe.segments_model import SegmentSearchModel, SegmentsModel
from desktop.ui.transcribe.speaker_delegate import SpeakerDelegate
from desktop.ui.transcribe.speakers_bar import SpeakersBar
from desktop.workers.job import JobRunner
from desktop.workers.transcription_queue import ItemState, QueueItem


class TranscriptPanel(QWidget):
    status_message = Signal(str)  # a sentence for the window's status bar
    segment_edited = Signal(object, int, bool)  # (QueueItem, segment row, its text rather than its times)
    speakers_edited = Signal(object)  # QueueItem whose speakers were renamed or changed

    def __init__(self, runner: JobRunner, parent: QWidget | None = None):
        super().__init__(parent)
        self._shown: QueueItem | None = None
        self.player = AudioPlayer(runner, self)
        self._build()
        self._connect()
        self.retranslate()

    def _build(self) -> None:
        self.title = QLabel()
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.title.setWordWrap(True)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.search_edit = QLineEdit()
        self.search_edit.setClearButtonEnabled(True)
        self.search_edit.setMinimumWidth(200)
        self.search_count = QLabel()
        self.stop_button = QToolButton()
        self.stop_button.setIcon(icon("stop"))
        self.stop_button.setEnabled(False)
        self.segments_model = SegmentsModel(self)
        self.search_model = SegmentSearchModel(self)
        self.search_model.setSourceModel(self.segments_model)
        self.view = self._build_view()
        self.speakers_bar = SpeakersBar(self.segments_model)

        title_row = QHBoxLayout()
        title_row.addWidget(self.title, 1)
        title_row.addWidget(self.stop_button)
        title_row.addWidget(self.search_edit)
        title_row.addWidget(self.search_count)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(title_row)
        layout.addWidget(self.speakers_bar)
        layout.addWidget(self.view, 1)

    def _build_view(self) -> QTableView:
        view = QTableView()
        view.setModel(self.search_model)
        view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        view.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                             | QAbstractItemView.EditTrigger.EditKeyPressed
                             | QAbstractItemView.EditTrigger.AnyKeyPressed)
        view.setWordWrap(True)
        view.setMinimumHeight(160)
        header = view.horizontalHeader()
        header.setSectionResizeMode(SegmentsModel.START, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(SegmentsModel.END, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(SegmentsModel.SPEAKER, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(SegmentsModel.TEXT, QHeaderView.ResizeMode.Stretch)
        view.setItemDelegateForColumn(SegmentsModel.SPEAKER, SpeakerDelegate(self.segments_model, view))
        view.setColumnHidden(SegmentsModel.SPEAKER, True)
        view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        return view

    def _connect(self) -> None:
        self.search_edit.textChanged.connect(self._on_search)
        self.view.clicked.connect(self._on_segment_clicked)
        self.segments_model.edit_rejected.connect(self.status_message)
        self.segments_model.edited.connect(self._on_edited)
        self.segments_model.speakers_changed.connect(self._on_speakers_changed)
        self.segments_model.modelReset.connect(self._show_speaker_column)
        self.stop_button.clicked.connect(self.player.stop)
        self.player.playing_changed.connect(self.stop_button.setEnabled)
        self.player.error.connect(self.status_message)

    def retranslate(self) -> None:
        """Set every text; called at start and when the interface language changes."""
        self.search_edit.setPlaceholderText(self.tr("Search the transcript"))
        self.stop_button.setToolTip(self.tr("Stop playing"))
        self.view.setToolTip(self.tr("Click a line to hear it; double-click to correct it."))
        self.segments_model.retranslate()
        self._update_title()
        self._update_search_count()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    # -- the file shown ------------------------------------------------------------------------

    @property
    def shown_item(self) -> QueueItem | None:
        return self._shown

    def show_item(self, item: QueueItem | None, *, reload: bool = False) -> None:
        """Put an item's transcript (or its segments so far) in the table; reload: even if it is shown."""
        if item is self._shown and not reload:
            return
        self._shown = item
        if item is not None and item.state is ItemState.DONE and item.transcript is not None:
            self.segments_model.show_transcript(item.transcript)
        elif item is not None and item.state is ItemState.RUNNING:
            self.segments_model.show_live(item.segments)
        else:
            self.segments_model.show_live([])
        self._update_title()
        self._update_search_count()

    @Slot(object)
    def on_item_changed(self, item: QueueItem) -> None:
        if item is self._shown:
            self._update_title()

    @Slot(object)
    def on_segment_added(self, item: QueueItem) -> None:
        if item is self._shown and not self.segments_model.editable:
            self.segments_model.segment_added()
            if not self.search_edit.text():
                self.view.scrollToBottom()
            self._update_search_count()

    @Slot(object)
    def on_item_finished(self, item: QueueItem) -> None:
        if item is self._shown:
            self.show_item(item, reload=True)

    def _update_title(self) -> None:
        item = self._shown
        if item is None:
            self.title.setText(self.tr("Select a file in the list to see its transcript."))
        elif item.state is ItemState.DONE and item.transcript is not None and item.transcript.is_empty:
            self.title.setText(
                self.tr("No speech was found in “{name}”, so there is nothing to show or export.").format(
                    name=item.path.name))
        elif item.state is ItemState.DONE:
            self.title.setText(self.tr("Transcript of “{name}”").format(name=item.path.name))
        elif item.state is ItemState.RUNNING:
            self.title.setText(self.tr("Transcribing “{name}”…").format(name=item.path.name))
        elif item.state is ItemState.FAILED:
            self.title.setText(translated(item.status))
        else:
            self.title.setText(self.tr("“{name}” has not been transcribed yet.").format(name=item.path.name))

    @Slot()
    def _show_speaker_column(self) -> None:
        self.view.setColumnHidden(SegmentsModel.SPEAKER, not self.segments_model.has_speakers)

    @Slot()
    def _on_speakers_changed(self) -> None:
        self._show_speaker_column()
        self.status_message.emit(self.tr("Change saved in the transcript."))
        if self._shown is not None:
            self.speakers_edited.emit(self._shown)

    @Slot(int, int)
    def _on_edited(self, row: int, column: int) -> None:
        if column == SegmentsModel.SPEAKER:
            return  # saved as a change of speakers
        self.status_message.emit(self.tr("Change saved in the transcript."))
        if self._shown is not None:
            self.segment_edited.emit(self._shown, row, column == SegmentsModel.TEXT)

    # -- searching and playing -----------------------------------------------------------------

    @Slot(str)
    def _on_search(self, text: str) -> None:
        self.search_model.search(text)
        self._update_search_count()

    def _update_search_count(self) -> None:
        if self.search_edit.text().strip():
            self.search_count.setText(self.tr("{found} of {total}").format(
                found=self.search_model.rowCount(), total=self.segments_model.rowCount()))
        else:
            self.search_count.setText("")

    @Slot(QModelIndex)
    def _on_segment_clicked(self, index: QModelIndex) -> None:
        if self._shown is None or not index.isValid():
            return
        segment = self.segments_model.segment(self.search_model.mapToSource(index).row())
        self.player.play(self._shown.path, segment.start, segment.end)
