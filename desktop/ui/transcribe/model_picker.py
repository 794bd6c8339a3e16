"""The Whisper model list that advises: models under Fast, Balanced and Accurate, each with its languages,
its size and, once measured, how fast it runs on this computer.

A QComboBox, so choosing stays one click; the open list draws each model on one line, its name followed
by the advice in a quieter colour, and the groups as headings that cannot be chosen.

Models on this computer carry a ✓, the others say they need a download, as in the voice list. Once a
download found no connection, those are shown as download-only and cannot be chosen, until a download
works or a model arrives (``set_offline``).
"""
from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QModelIndex, QSize, Qt
from PySide6.QtGui import QFont, QPainter, QPalette, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QComboBox, QStyle, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from desktop.core.common.model_origin import unverified_note
from desktop.core.transcription.model_advice import GROUP_TITLES, advise
from desktop.ui.common.i18n import translated

ADVICE_ROLE = Qt.ItemDataRole.UserRole + 1  # the line after the name: languages · size · speed here
HEADING_ROLE = Qt.ItemDataRole.UserRole + 2  # True on a group heading
_GAP = 24  # pixels between the longest model name and the advice column
_INDENT = 12  # models sit a little to the right of their group's heading


class _ModelListDelegate(QStyledItemDelegate):
    """Draws a heading in bold, a model as its name then, in a column, its advice in a quieter colour."""

    name_column = 0  # the width of the longest model name, set by the picker after filling the list

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        advice = index.data(ADVICE_ROLE)
        option = QStyleOptionViewItem(option)
        if not index.data(HEADING_ROLE):
            option.rect = option.rect.adjusted(_INDENT, 0, 0, 0)
        super().paint(painter, option, index)
        if not advice:
            return
        rect = option.rect.adjusted(self.name_column + _GAP, 0, -6, 0)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.PlaceholderText
        painter.save()
        painter.setPen(option.palette.color(role))
        painter.drawText(rect, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, advice)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex) -> QSize:  # noqa: N802 - Qt naming
        size = super().sizeHint(option, index)
        advice = index.data(ADVICE_ROLE)
        if advice:
            size.setWidth(_INDENT + self.name_column + _GAP + option.fontMetrics.horizontalAdvance(advice) + 24)
            # A Chinese advice line is drawn with a taller fallback font than a Latin model name.
            size.setHeight(max(size.height(), option.fontMetrics.boundingRect(advice).height() + 6))
        return size


class ModelPicker(QComboBox):
    """The model list; ``show_models`` fills it from the store's catalog and the speeds measured here."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setModel(QStandardItemModel(self))
        self._delegate = _ModelListDelegate(self)
        self.setItemDelegate(self._delegate)
        self._listing: tuple[list, dict[str, float]] | None = None
        self._recommended: tuple[str, str] | None = None  # (model, why: a Message) for this computer
        self._offline = False  # a download found no connection: models to download cannot be chosen

    def show_models(self, entries: list, factors: dict[str, float], current: str) -> None:
        """entries: ``ModelStore.catalog()``; factors: model → real-time factor measured here; current: the
        model to keep chosen (added at the end when it is not in the list, e.g. a path)."""
        self._listing = (entries, factors)
        by_name = {entry.name: entry for entry in entries}
        model: QStandardItemModel = self.model()
        self.blockSignals(True)
        model.clear()
        group = None
        for advice in advise(entries, factors):
            if advice.group != group:
                group = advice.group
                model.appendRow(self._heading(translated(GROUP_TITLES[group])))
            parts = [advice.languages, advice.size, advice.speed]
            item = QStandardItem(self._label(by_name[advice.name]))
            item.setData(advice.name, Qt.ItemDataRole.UserRole)
            line = " · ".join(translated(part) for part in parts if part)
            tip = line
            if self._recommended is not None and self._recommended[0] == advice.name:
                line = " · ".join((line, self.tr("suggested here")))
                tip = "\n".join((line, translated(self._recommended[1])))
            source = by_name[advice.name].unverified_source
            if source:
                tip += "\n" + translated(unverified_note(source))
            if self._offline and not _on_this_computer(by_name[advice.name]):
                item.setEnabled(False)  # a choice that could only fail now
                tip += "\n" + QCoreApplication.translate(
                    "OptionsBar", "Not on this computer, and the download server cannot be reached now. "
                                  "File → Import model… brings in a copy.")
            item.setData(line, ADVICE_ROLE)
            item.setToolTip(tip)
            model.appendRow(item)
        index = self.findData(current)
        if index < 0:
            self.addItem(current, current)
            index = self.count() - 1
        self.setCurrentIndex(index)
        self.blockSignals(False)
        metrics = self.view().fontMetrics()
        self._delegate.name_column = max(metrics.horizontalAdvance(self.itemText(i)) for i in range(self.count()))
        self.view().setMinimumWidth(self.view().sizeHintForColumn(0) + 8)

    def set_recommended(self, model: str, reason: str) -> None:
        """Mark the model suggested for this computer; ``reason`` (a Message) says why, in its tooltip."""
        self._recommended = (model, reason)
        self.retranslate()

    def set_offline(self, offline: bool) -> None:
        """Whether the download server is out of reach: models that need a download cannot be chosen then."""
        if offline != self._offline:
            self._offline = offline
            self.retranslate()

    def is_offline(self) -> bool:
        return self._offline

    def retranslate(self) -> None:
        if self._listing is not None:
            self.show_models(*self._listing, self.currentData())

    def advice(self, name: str) -> str | None:
        """The advice line shown for a model (for the tests and the tooltip)."""
        index = self.findData(name)
        return self.itemData(index, ADVICE_ROLE) if index >= 0 else None

    def _label(self, entry) -> str:
        # In the options bar's context, where these texts were first written and translated.
        if not _on_this_computer(entry):
            if self._offline:
                return QCoreApplication.translate("OptionsBar", "{name} ({size} MB) — download only, no connection "
                                                                "now").format(name=entry.name, size=entry.size_mb)
            return QCoreApplication.translate("OptionsBar", "{name} ({size} MB download)").format(
                name=entry.name, size=entry.size_mb)
        if entry.imported:
            name = QCoreApplication.translate("OptionsBar", "{name} (imported)").format(name=entry.name)
        elif entry.shared:
            name = QCoreApplication.translate("OptionsBar", "{name} (shared folder)").format(name=entry.name)
        elif entry.unverified_source:
            name = QCoreApplication.translate("OptionsBar", "{name} (not verified)").format(name=entry.name)
        else:
            name = entry.name
        return QCoreApplication.translate("OptionsBar", "✓ {name}").format(name=name)

    @staticmethod
    def _heading(title: str) -> QStandardItem:
        item = QStandardItem(title)
        item.setFlags(Qt.ItemFlag.NoItemFlags)  # cannot be chosen, nor reached with the arrow keys
        item.setData(True, HEADING_ROLE)
        font = QFont()
        font.setBold(True)
        item.setFont(font)
        return item


def _on_this_computer(entry) -> bool:
    return any(entry.downloaded.values())
