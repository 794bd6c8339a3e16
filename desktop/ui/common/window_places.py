"""Every window and dialog opens inside the usable area of its screen (without the panels and docks:
Qt's available geometry), and the main windows where the user last left them on that screen.

One event filter on the application does it for all windows and dialogs (not menus or tooltips): a
dialog made anywhere needs nothing of its own. Windows with an object name in ``REMEMBERED``, and
VoxDesk's own dialogs (by their class), keep their size, place and maximised state per screen (its name
and resolution), so a laptop remembers one place on its own screen and another on the office monitor.
Qt's standard boxes (messages, file choosers) open where Qt puts them, fitted to the screen.
"""
from __future__ import annotations

import atexit
import weakref

import shiboken6
from PySide6.QtCore import QByteArray, QCoreApplication, QEvent, QObject, QRect, QSize, Qt
from PySide6.QtGui import QGuiApplication, QScreen
from PySide6.QtWidgets import QApplication, QDialog, QFileDialog, QInputDialog, QMessageBox, QWidget

# The windows whose place is remembered, by object name (set where each is made).
REMEMBERED = ("main-window", "live-panel", "live-captions")
# Before a window manager has framed a window its frame is unknown: room for a title bar and borders.
FRAME_ALLOWANCE = QSize(8, 34)
_PLACED = "voxdesk-placed"  # a window's property: placed since it was last shown
BOTTOM_EDGE = "voxdesk-bottom-edge"  # a window's property: first opens at the bottom of the screen


def fitted(window: QRect, minimum: QSize, available: QRect, frame: QSize = FRAME_ALLOWANCE) -> QRect:
    """``window`` made to fit inside ``available`` with its frame: shrunk where it is larger (never below
    ``minimum``, unless the screen itself is smaller), and moved in, centred where it did not fit."""
    room = QSize(max(1, available.width() - frame.width()), max(1, available.height() - frame.height()))
    width = min(window.width(), room.width())
    height = min(window.height(), room.height())
    width = max(width, min(minimum.width(), room.width()))
    height = max(height, min(minimum.height(), room.height()))
    placed = QRect(window.topLeft(), QSize(width, height))
    inside = available.adjusted(frame.width() // 2, frame.height() - frame.width() // 2,
                                -(frame.width() // 2), -(frame.width() // 2))
    if not inside.contains(placed):
        placed.moveCenter(available.center())
        placed.moveTop(max(placed.top(), inside.top()))
        placed.moveLeft(max(placed.left(), inside.left()))
    return placed


def remembered_name(window: QWidget) -> str | None:
    """What a window's place is kept under, or None for one whose place is not kept."""
    if window.objectName() in REMEMBERED:
        return window.objectName()
    if isinstance(window, QDialog) and not isinstance(window, (QMessageBox, QFileDialog, QInputDialog)):
        return type(window).__name__
    return None


def screen_key(screen: QScreen) -> str:
    size = screen.size()
    return f"{screen.name() or 'screen'} {size.width()}x{size.height()}"


class WindowPlaces(QObject):
    """Installed once on the application by the composition root."""

    def __init__(self, settings, owner: QObject) -> None:
        """settings: desktop.settings.Settings, where remembered places are kept; owner: the main window,
        whose end ends this filter too (Qt drops a deleted filter)."""
        super().__init__(owner)
        self.settings = settings

    def install(self, app: QApplication) -> None:
        """Watch every window of ``app`` until the program exits. Where two main windows are open (as in
        tests), the newer window's filter sees each window first, and the first to see one places it."""
        app.installEventFilter(self)
        global _stop_registered
        if not _stop_registered:  # registered after PySide's own exit handler, so it runs before it
            atexit.register(_stop_watching)
            _stop_registered = True
        _watching.add(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt naming
        kind = event.type()
        # show() and hide() by the program; the window system's own (minimising, restoring) change nothing.
        if (kind in (QEvent.Type.Show, QEvent.Type.Hide) and not event.spontaneous()
                and isinstance(watched, QWidget) and watched.isWindow()
                and watched.windowType() in (Qt.WindowType.Window, Qt.WindowType.Dialog)):
            placed = bool(watched.property(_PLACED))
            if kind == QEvent.Type.Show and not placed:
                watched.setProperty(_PLACED, True)
                self._place(watched)
            elif kind == QEvent.Type.Hide and placed:
                watched.setProperty(_PLACED, False)
                self.remember(watched)
        return False

    def remember(self, window: QWidget) -> None:
        """Keep the place of a remembered window on its screen."""
        name = remembered_name(window)
        screen = window.screen()
        if name and screen is not None:
            self.settings.remember_place(f"{name}/{screen_key(screen)}", window.saveGeometry())

    def _place(self, window: QWidget) -> None:
        screen = window.screen() or QGuiApplication.primaryScreen()
        if screen is None:
            return
        name = remembered_name(window)
        saved = self.settings.remembered_place(f"{name}/{screen_key(screen)}") if name else None
        if isinstance(saved, QByteArray) and not saved.isEmpty():
            window.restoreGeometry(saved)
            if window.isMaximized() or window.isFullScreen():
                return
        available = screen.availableGeometry()
        placed = fitted(window.geometry(), window.minimumSize(), available)
        if saved is None and window.property(BOTTOM_EDGE):
            placed.moveBottom(available.bottom() - FRAME_ALLOWANCE.width() // 2)
        window.setGeometry(placed)


# The installed filters, until the program exits (weak: a filter ends with its main window).
_watching: weakref.WeakSet[WindowPlaces] = weakref.WeakSet()
_stop_registered = False


def _stop_watching() -> None:
    """At exit PySide destroys the objects Python still holds in no particular order, with the windows
    still open among them: a window closed there sends its Hide through this filter, whose settings may
    be gone by then, and the error that raises inside Qt's teardown crashes the process (at random, with
    that order). So the filters stop first; a window's place is remembered when it is hidden before."""
    app = QCoreApplication.instance()
    for places in list(_watching):
        if app is not None and shiboken6.isValid(places):
            app.removeEventFilter(places)
    _watching.clear()


def make_room_above(window: QWidget, below: QWidget) -> None:
    """Move ``window`` up, and shorten it if it must, so that ``below`` (shown over it, such as the large
    captions) no longer covers its lower part, where a status line is. Left as it is where the screen
    has no room for both."""
    if not window.frameGeometry().intersects(below.frameGeometry()) or window.screen() is None:
        return
    available = window.screen().availableGeometry()
    frame = window.frameGeometry().height() - window.height() or FRAME_ALLOWANCE.height()
    top = available.top() + frame
    height = min(window.height(), below.frameGeometry().top() - top - FRAME_ALLOWANCE.width())
    if height >= window.minimumSizeHint().height():
        window.setGeometry(window.x(), top, window.width(), height)
