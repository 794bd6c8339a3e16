"""The window with a transcription server set up: "Server: host · model" in the status bar, and a
server that refuses the key ends in a sentence, a fallback in the list, and the file done here."""
from __future__ import annotations

import pytest

from desktop.workers.transcription_queue import ItemState
from tests.helpers.whisper_server import HostileServer
from tests.ui.transcribe.test_transcribe_tab import drop, wait_until_settled


@pytest.fixture
def refusing_server(settings):
    with HostileServer(status=401, body={"error": {"message": "Invalid API key"}}) as server:
        settings.set("server/enabled", True)
        settings.set("server/url", server.url)
        settings.set("server/model", "openai/whisper-large-v3")
        settings.set("server/use", "always")
        yield server


def test_a_server_that_refuses_the_key_is_a_fallback_and_the_file_is_done_here(qtbot, refusing_server, window, jfk):
    status = window.device_status
    host = refusing_server.url.removeprefix("http://")
    assert status.server_label.text() == f"Server: {host} · openai/whisper-large-v3"

    tab = window.transcribe_tab
    drop(tab, jfk)
    wait_until_settled(qtbot, tab, 1)

    item = tab.queue.items[0]
    assert item.state is ItemState.DONE
    assert "ask not what your country can do for you" in item.transcript.text.lower()
    assert refusing_server.posts >= 1
    qtbot.waitUntil(lambda: status.fallback_button.isVisible(), timeout=10_000)
    (event,) = window._fallback_log.events()
    assert event.error == f"The transcription server at {host} refused the API key."
    # The server failed, not a GPU: the warning and the list say so.
    assert status.fallback_button.text() == "⚠ 1 server fallback"
    tip = status.fallback_button.toolTip()
    assert "GPU" not in tip and "this computer finished" in tip
    dialog = status.show_fallbacks()
    qtbot.addWidget(dialog)
    assert any("refused the API key" in dialog.table.item(0, column).text()
               for column in range(dialog.table.columnCount()))
    assert dialog.windowTitle() == "Server fallbacks"
    assert dialog.intro.text() == ("The transcription server failed on these jobs, so VoxDesk finished them on this "
                                   "computer.")
