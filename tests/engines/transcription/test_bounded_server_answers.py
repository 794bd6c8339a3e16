"""A transcription server's answer is read within limits: a few MB after decompression, all of it
before the timeout, JSON nested a few levels at most. Past any limit the user gets a sentence and the
file is finished on this computer. Real misbehaving servers on 127.0.0.1; memory peaks are measured
in a child process."""
from __future__ import annotations

import json

import pytest

from tests.helpers.misbehaving_http import Behaviour, MisbehavingServer, run_in_child

PEAK_LIMIT_MB = 150  # the child's whole resident set; the answers sent decompress to 256 MB or more
ANSWER = json.dumps({"text": " And so, my fellow Americans.", "language": "en",
                     "segments": [{"id": 0, "start": 0.0, "end": 2.5, "text": " And so, my fellow Americans."}]})


def ask_server(url: str, timeout: float) -> str:
    from desktop.engines.transcription.server.client import ServerClient

    client = ServerClient(url, timeout=timeout, attempts=1)
    try:
        return client.transcribe(b"RIFF", "x.wav", model="m", task="transcribe", language=None, prompt=None,
                                 temperature=None).text
    finally:
        client.close()


def host(server: MisbehavingServer) -> str:
    return server.base_url.removeprefix("http://")


# --- 2: the answer is counted as it arrives, after decompression -----------------------------------


@pytest.mark.parametrize("behaviour", [
    pytest.param(lambda: Behaviour.endless(), id="endless chunked body"),
    pytest.param(lambda: Behaviour.bomb("gzip", 256), id="gzip bomb"),
    pytest.param(lambda: Behaviour.bomb("deflate", 256), id="deflate bomb"),
])
def test_an_answer_far_longer_than_any_transcription_is_refused_with_bounded_memory(behaviour):
    with MisbehavingServer(behaviour()) as server:
        outcome = run_in_child(ask_server, server.base_url, 60.0)
    assert outcome.error_type == "ServerError", outcome
    assert outcome.error == (f"The server at {host(server)} sent a far longer answer than any transcription of this "
                             "piece, so VoxDesk stopped reading it.")
    assert outcome.peak_rss_mb < PEAK_LIMIT_MB


# --- 3: a deadline for the whole exchange ----------------------------------------------------------


@pytest.mark.parametrize("headers_too", [True, False], ids=["headers", "body"])
def test_an_answer_trickled_one_byte_at_a_time_ends_at_the_timeout(headers_too):
    from desktop.engines.transcription.server.client import ServerClient, ServerError

    # Each byte comes well within the 1-second timeout; the whole answer would take over 20 seconds.
    with MisbehavingServer(Behaviour.trickle(ANSWER.encode(), interval=0.2, headers_too=headers_too)) as slow:
        client = ServerClient(slow.base_url, timeout=1.0, attempts=1)
        with pytest.raises(ServerError) as raised:
            client.transcribe(b"RIFF", "x.wav", model="m", task="transcribe", language=None, prompt=None,
                              temperature=None)
        client.close()
    assert raised.value.message == f"The transcription server at {host(slow)} did not answer within 1 seconds."


# --- 2, 3, 4: each ends in a sentence and the file is transcribed here -----------------------------


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    from desktop.core.transcription.whisper_models import ModelStore
    from tests.helpers.weights import tiny_en_dir

    store = ModelStore(tmp_path_factory.mktemp("models"))
    store.import_model(tiny_en_dir(), "tiny-test")
    return store


FALLBACKS = {
    "nested JSON": (Behaviour.fixed(b"[" * 200_000), "The server at {host} answered with something that is not a "
                                                     "transcription."),
    "trickle": (Behaviour.trickle(ANSWER.encode(), interval=0.2, headers_too=True),
                "The transcription server at {host} did not answer within 1 seconds."),
    "endless": (Behaviour.endless(stop_after_bytes=64 * 1024 * 1024),
                "The server at {host} sent a far longer answer than any transcription of this piece, so VoxDesk "
                "stopped reading it."),
}


@pytest.mark.parametrize("kind", FALLBACKS)
def test_a_server_past_a_limit_is_a_sentence_and_the_file_is_finished_on_this_computer(store, kind):
    from desktop.core.gpu.fallback import FallbackLog
    from desktop.core.transcription.server_config import ServerConfig
    from desktop.engines.transcription.server.fallback import SERVER_STAGE
    from desktop.engines.transcription.transcriber import TranscribeSettings, Transcriber
    from tests.helpers.weights import DATA_DIR, normalize_english, reference

    behaviour, sentence = FALLBACKS[kind]
    fallbacks = FallbackLog()
    transcriber = Transcriber(store, fallbacks, gpu_available=lambda: False)
    with MisbehavingServer(behaviour) as server:
        settings = TranscribeSettings(model="tiny-test", engine="server", language="en",
                                      server=ServerConfig(server.base_url, timeout=1.0))
        transcript = transcriber.transcribe_file(DATA_DIR / "jfk.flac", settings)
    (event,) = fallbacks.events()
    assert event.stage == SERVER_STAGE and event.error == sentence.format(host=host(server))
    words = normalize_english(" ".join(s.text for s in transcript.segments)).split()
    assert words[:6] == normalize_english(reference("jfk.flac")).split()[:6]


# --- 11: the right sentences ------------------------------------------------------------------------


def test_a_server_whose_certificate_is_not_trusted_says_so_not_that_it_cannot_be_reached(tmp_path):
    from desktop.engines.transcription.server.client import ServerClient, ServerError
    from tests.helpers.http_server import FileServer
    from tests.helpers.tls import make_authority

    authority = make_authority(tmp_path / "ca")  # its root is installed nowhere
    with FileServer({}, tls=authority.server_context()) as server:
        address = server.base_url.removeprefix("https://")
        client = ServerClient(server.base_url, timeout=5.0, backoff=0.01)
        with pytest.raises(ServerError) as raised:
            client.transcribe(b"RIFF", "x.wav", model="m", task="transcribe", language=None, prompt=None,
                              temperature=None)
        client.close()
    assert raised.value.message == (f"The certificate of the transcription server at {address} is not trusted by "
                                    "this computer, so VoxDesk did not send anything to it.")
    assert "root certificate" in raised.value.fix


def test_a_redirect_is_not_followed_and_its_address_is_not_offered_to_the_user():
    from desktop.engines.transcription.server.client import ServerClient, ServerError

    redirect = Behaviour.fixed(b"", status=308, content_type="text/plain",
                               headers=(("Location", "file:///etc/passwd"),))
    with MisbehavingServer(redirect) as server:
        client = ServerClient(server.base_url, timeout=5.0)
        with pytest.raises(ServerError) as raised:
            client.transcribe(b"RIFF", "x.wav", model="m", task="transcribe", language=None, prompt=None,
                              temperature=None)
        client.close()
        assert server.requests == 1
    assert raised.value.message == f"The server at {host(server)} sends VoxDesk to another address."
    assert "file:" not in raised.value.fix and "passwd" not in raised.value.fix
    assert raised.value.fix == ("Ask IT for the address of the transcription server and check it in Settings → "
                                "Transcription server.")
