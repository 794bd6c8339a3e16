"""A transcription server that is silent, or whose address is wrong in a way the user can correct
(http:// and https:// mixed up, redirects in a loop): the job waits once, the sentence names the
mistake and the wait, and the file is finished on this computer."""
from __future__ import annotations

import pytest

from desktop.core.gpu.fallback import FallbackLog
from desktop.core.transcription.server_config import ServerConfig
from desktop.core.transcription.whisper_models import ModelStore
from desktop.engines.transcription.server.client import ServerClient, ServerError
from desktop.engines.transcription.server.fallback import SERVER_STAGE
from desktop.engines.transcription.transcriber import TranscribeSettings, Transcriber
from tests.helpers.http_server import NGINX_PLAIN_ON_TLS, FileServer, RedirectLoopServer, SilentServer
from tests.helpers.misbehaving_http import Behaviour, MisbehavingServer
from tests.helpers.tls import make_authority
from tests.helpers.weights import DATA_DIR, normalize_english, reference, tiny_en_dir


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    store = ModelStore(tmp_path_factory.mktemp("models"))
    store.import_model(tiny_en_dir(), "tiny-test")
    return store


def transcribe(client: ServerClient):
    return client.transcribe(b"RIFF", "x.wav", model="m", task="transcribe", language=None, prompt=None,
                             temperature=None)


def test_a_silent_server_costs_the_job_one_wait_and_the_sentence_names_it(store):
    """The model list is asked first (no model is configured): when it gets no answer, the server is
    not asked again for the transcription, and the file is finished here."""
    fallbacks = FallbackLog()
    transcriber = Transcriber(store, fallbacks, gpu_available=lambda: False)
    timeout = 1.0
    with SilentServer() as server:
        host = server.url.removeprefix("http://")
        settings = TranscribeSettings(model="tiny-test", engine="server", language="en",
                                      server=ServerConfig(server.url, timeout=timeout))
        transcript = transcriber.transcribe_file(DATA_DIR / "jfk.flac", settings)
        waits = server.connections
    assert waits == 1
    (event,) = fallbacks.events()
    assert event.stage == SERVER_STAGE
    assert event.error == f"The transcription server at {host} did not answer within {timeout:g} seconds."
    words = normalize_english(" ".join(s.text for s in transcript.segments)).split()
    assert words[:6] == normalize_english(reference("jfk.flac")).split()[:6]


def test_https_to_a_plain_http_port_says_to_use_http():
    with FileServer({}) as plain:
        port = plain.port
        client = ServerClient(plain.base_url.replace("http://", "https://"), timeout=5.0, backoff=0.01)
        with pytest.raises(ServerError) as raised:
            transcribe(client)
    assert raised.value.message == (f"The server at 127.0.0.1:{port} answers without encryption: its address "
                                    "must start with http:// instead of https://.")
    assert "Settings → Transcription server" in raised.value.fix


def test_http_to_a_tls_port_says_to_use_https(tmp_path):
    authority = make_authority(tmp_path / "ca")
    with FileServer({}, tls=authority.server_context()) as encrypted:
        port = encrypted.port
        client = ServerClient(encrypted.base_url.replace("https://", "http://"), timeout=5.0, backoff=0.01)
        with pytest.raises(ServerError) as raised:
            client.models()
    assert raised.value.message == (f"The server at 127.0.0.1:{port} expects an encrypted connection: its "
                                    "address must start with https:// instead of http://.")


def test_redirects_in_a_loop_are_named_as_a_loop_and_the_key_goes_nowhere_else():
    with RedirectLoopServer() as looping:
        host = looping.base_url.removeprefix("http://")
        client = ServerClient(looping.base_url, api_key="secret", timeout=5.0)
        with pytest.raises(ServerError) as raised:
            transcribe(client)
        authorizations = list(looping.authorizations)
    assert raised.value.message == (f"The server at {host} sends VoxDesk "
                                    "round in a loop of redirects, so nothing can be fetched from it.")
    # The POST, then the hop to the other address, which sends VoxDesk back to the first: a loop;
    # only the POST carried the key.
    assert authorizations == ["Bearer secret", None]


def test_a_connection_that_is_never_accepted_names_the_connection_wait_not_the_answer_wait(monkeypatch):
    """A listening socket whose queue is full: Linux drops the connection attempts beyond it (as a
    firewall that drops packets does), so connecting waits its own, shorter limit."""
    import socket

    from desktop.engines.transcription.server import client as client_module

    monkeypatch.setattr(client_module, "CONNECT_SECONDS", 1.0)
    with socket.create_server(("127.0.0.1", 0), backlog=0) as full:
        port = full.getsockname()[1]
        waiting = []
        for _ in range(3):  # fill the queue: nothing here ever accepts
            queued = socket.socket()
            queued.setblocking(False)
            queued.connect_ex(("127.0.0.1", port))
            waiting.append(queued)
        try:
            client = ServerClient(f"http://127.0.0.1:{port}", timeout=30.0, backoff=0.01)
            with pytest.raises(ServerError) as raised:
                client.models()
        finally:
            for queued in waiting:
                queued.close()
    assert raised.value.message == f"The transcription server at 127.0.0.1:{port} did not answer within 1 seconds."


def test_a_web_servers_page_saying_it_wanted_tls_is_named_like_any_tls_port(store):
    """A proxy in front of the Whisper server, on its TLS port, asked with http://: the file is
    finished here after that one answer, with the sentence to use https://."""
    fallbacks = FallbackLog()
    transcriber = Transcriber(store, fallbacks, gpu_available=lambda: False)
    with MisbehavingServer(Behaviour.fixed(NGINX_PLAIN_ON_TLS, status=400, content_type="text/html")) as proxy:
        host = proxy.base_url.removeprefix("http://")
        settings = TranscribeSettings(model="tiny-test", engine="server", language="en",
                                      server=ServerConfig(proxy.base_url, timeout=5.0))
        transcriber.transcribe_file(DATA_DIR / "jfk.flac", settings)
    (event,) = fallbacks.events()
    assert event.error == (f"The server at {host} expects an encrypted connection: its address must start with "
                           "https:// instead of http://.")
