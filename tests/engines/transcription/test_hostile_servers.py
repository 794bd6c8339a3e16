"""Servers that refuse the key, fail, hang or answer with a web page: each gives one plain sentence
and a fix, the job finishes on this computer, and no traceback reaches the user."""
from __future__ import annotations

import pytest

from desktop.core.gpu.fallback import FallbackLog
from desktop.core.transcription.server_config import ServerConfig
from desktop.core.transcription.whisper_models import ModelStore
from desktop.engines.transcription.engine import TranscribeOptions
from desktop.engines.transcription.server.client import ServerClient
from desktop.engines.transcription.server.fallback import SERVER_STAGE
from desktop.engines.transcription.transcriber import TranscribeSettings, Transcriber
from desktop.engines.transcription.server.engine import ServerStopped, ServerWhisperEngine
from tests.helpers.weights import DATA_DIR, normalize_english, recording, reference, tiny_en_dir
from tests.helpers.whisper_server import HostileServer

HTML = "<html><body><h1>Welcome to nginx!</h1></body></html>"

HOSTILE = {
    "wrong key": (dict(status=401, body={"error": {"message": "Invalid API key", "type": "auth"}}),
                  "The transcription server at {host} refused the API key.", "API key"),
    "500s": (dict(status=500, body="Internal Server Error", content_type="text/plain"),
             "The transcription server at {host} is failing or overloaded (error 500).", "tell IT"),
    "slow": (dict(delay=3.0, body={"text": "late"}),
             "The transcription server at {host} did not answer within 1 seconds.", "overloaded"),
    "not JSON": (dict(body=HTML, content_type="text/html"),
                 "The server at {host} answered with something that is not a transcription.", "Whisper server"),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    store = ModelStore(tmp_path_factory.mktemp("models"))
    store.import_model(tiny_en_dir(), "tiny-test")
    return store


def host(server: HostileServer) -> str:
    return server.url.removeprefix("http://")


@pytest.mark.parametrize("kind", HOSTILE)
def test_a_hostile_server_gives_a_sentence_and_the_file_is_transcribed_here(store, kind):
    behaviour, sentence, fix_words = HOSTILE[kind]
    fallbacks = FallbackLog()
    transcriber = Transcriber(store, fallbacks, gpu_available=lambda: False)
    with HostileServer(**behaviour) as server:
        settings = TranscribeSettings(model="tiny-test", engine="server", language="en",
                                      server=ServerConfig(server.url, timeout=1.0, api_key="wrong"))
        transcript = transcriber.transcribe_file(DATA_DIR / "jfk.flac", settings)
    (event,) = fallbacks.events()
    assert event.stage == SERVER_STAGE and event.job == "jfk.flac"
    assert event.error == sentence.format(host=host(server))
    assert fix_words in event.fix and "Traceback" not in event.error + event.fix
    words = normalize_english(" ".join(s.text for s in transcript.segments)).split()
    assert words[:6] == normalize_english(reference("jfk.flac")).split()[:6]
    assert server.authorizations[0] == "Bearer wrong"


def test_500s_and_429s_are_tried_again_with_backoff_before_giving_up():
    with HostileServer(status=503, body={"error": "busy"}) as server:
        client = ServerClient(server.url, timeout=5.0, attempts=4, backoff=0.01)
        with pytest.raises(Exception) as raised:
            client.transcribe(b"RIFF", "x.wav", model="m", task="transcribe", language=None, prompt=None,
                              temperature=None)
        assert server.posts == 4
        assert str(raised.value) == f"The transcription server at {host(server)} is failing or overloaded (error 503)."


def test_a_refused_request_says_what_the_server_said():
    body = {"detail": {"error": {"message": "unknown model: large-v9", "type": "invalid_request_error"}}}
    with HostileServer(status=400, body=body) as server:
        engine = ServerWhisperEngine(ServerConfig(server.url, model="large-v9"))
        with pytest.raises(ServerStopped) as raised:
            engine.transcribe(recording("jfk.flac"), TranscribeOptions(language="en"))
    assert raised.value.message == (f"The transcription server at {host(server)} refused the request: "
                                    "unknown model: large-v9")
    assert raised.value.resume_at == 0.0 and raised.value.finished.segments == []


def test_a_server_that_cannot_be_reached_says_so():
    from tests.helpers.http_server import closed_port_url

    url = closed_port_url("").rstrip("/")
    engine = ServerWhisperEngine(ServerConfig(url), backoff=0.01)
    with pytest.raises(ServerStopped) as raised:
        engine.transcribe(recording("jfk.flac"), TranscribeOptions(language="en"))
    assert raised.value.message == f"The transcription server at {url[7:]} cannot be reached."


def test_the_model_list_comes_from_the_server_and_is_empty_where_it_has_none():
    with HostileServer(models=["openai/whisper-large-v3", "whisper-small"]) as listing:
        assert ServerClient(listing.url).models() == ["openai/whisper-large-v3", "whisper-small"]
    with HostileServer() as single_model:
        assert ServerClient(single_model.url).models() == []



def test_a_server_without_verbose_json_still_gives_the_text_of_each_piece():
    refusal = {"error": {"message": "Currently only support response_format `text` or `json`", "code": 400}}
    with HostileServer(answers=[(400, refusal), (200, {"text": " And so, my fellow Americans."})]) as older_vllm:
        client = ServerClient(older_vllm.url)
        answer = client.transcribe(b"RIFF", "x.wav", model="m", task="transcribe", language="en", prompt=None,
                                   temperature=None)
    assert answer.text == " And so, my fellow Americans." and answer.segments == []
    assert older_vllm.posts == 2


def test_a_redirect_is_not_followed_but_named():
    with HostileServer(status=308, body=b"") as server:
        server.content_type = "text/plain"
        client = ServerClient(server.url)
        with pytest.raises(Exception) as raised:
            client.transcribe(b"RIFF", "x.wav", model="m", task="transcribe", language=None, prompt=None,
                              temperature=None)
    assert str(raised.value) == f"The server at {host(server)} sends VoxDesk to another address."
    assert raised.value.fix == ("Ask IT for the address of the transcription server and check it in Settings → "
                                "Transcription server.")


def test_a_server_that_fails_when_asked_again_for_missed_speech_hands_that_part_to_this_computer(store):
    """The first answer leaves most of the speech without text; the second look at it fails."""
    partial = {"text": " And so my fellow Americans,", "language": "english", "duration": 11.0,
               "segments": [{"id": 0, "start": 0.0, "end": 2.6, "text": " And so my fellow Americans,"}]}
    refusal = {"error": {"message": "Invalid API key", "type": "auth"}}
    fallbacks = FallbackLog()
    transcriber = Transcriber(store, fallbacks, gpu_available=lambda: False)
    with HostileServer(answers=[(200, partial), (401, refusal)]) as server:
        settings = TranscribeSettings(model="tiny-test", engine="server", language="en",
                                      server=ServerConfig(server.url, timeout=5.0))
        transcript = transcriber.transcribe_file(DATA_DIR / "jfk.flac", settings)
    (event,) = fallbacks.events()
    assert event.stage == SERVER_STAGE and event.error == f"The transcription server at {host(server)} refused the API key."
    words = normalize_english(" ".join(s.text for s in transcript.segments)).split()
    assert words[:5] == ["and", "so", "my", "fellow", "americans"]
    assert "country" in words[5:] and words.count("americans") == 1  # the rest here, nothing twice
