"""HTTP to an OpenAI-compatible Whisper server (vLLM, faster-whisper servers): one piece of audio in,
its verbose_json answer out, with retries with backoff on 429/5xx and a plain sentence for every way a
server can fail. Every answer is read through core's bounded reader: at most a few MB after
decompression, all of it within the timeout, its JSON nested only a few levels, so a hostile or broken
server costs a sentence and the local fallback, never the memory or a hang. httpx is imported inside
functions, like every heavy library here.
"""
from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import Any

from desktop.core.common import bounded_http, connection_problems
from desktop.core.common.errors import UserFacingError
from desktop.core.common.i18n import N_
from desktop.core.transcription.languages import WHISPER_LANGUAGES
from desktop.core.transcription.server_config import host_of

log = logging.getLogger(__name__)

RETRY_STATUSES = (429, 500, 502, 503, 504)
CONNECT_SECONDS = 5.0
MAX_RETRY_AFTER = 10.0  # seconds; a longer Retry-After counts as a failure, not a wait
# The verbose_json answer for 30 seconds of speech, with word times, is some 20 kB; a model list a few.
ANSWER_LIMIT = 4 * 1024 * 1024
_LANGUAGE_CODES = {str(name).lower(): code for code, name in WHISPER_LANGUAGES.items()}


class ServerError(UserFacingError):
    """The server could not transcribe; ``fix`` says what the user (or IT) can do about it; ``status``
    is the HTTP status of a refusal (None when the server gave no HTTP answer)."""

    def __init__(self, message: str, *, fix: str, detail: str | None = None, status: int | None = None):
        super().__init__(message, detail=detail)
        self.fix = fix
        self.status = status


@dataclass(frozen=True)
class Answer:
    """A server's verbose_json answer, checked: segments as dicts with numbers where numbers belong."""

    segments: list[dict[str, Any]]
    words: list[dict[str, Any]]
    language: str | None  # a Whisper code, whatever the server wrote ("en" or "english")
    text: str


class ServerClient:
    """One server, one connection pool; safe to share between threads."""

    def __init__(self, url: str, api_key: str = "", *, timeout: float = 120.0, attempts: int = 4,
                 backoff: float = 0.5, answer_limit: int = ANSWER_LIMIT):
        self.url = url
        self.host = host_of(url)
        self.timeout = timeout  # seconds for one whole exchange: the request sent, the answer read
        self.answer_limit = answer_limit
        self._attempts = max(1, attempts)
        self._backoff = backoff
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        # Redirects are never followed: a POST redirected (http to https, another path) may lose its
        # body or its key on the way.
        self._http = bounded_http.client(url, base_url=url, headers=headers, follow_redirects=False,
                                         connect_seconds=CONNECT_SECONDS, read_seconds=timeout, max_connections=32)
        self._words_refused = False  # the server said no to word timestamps once: stop asking
        self._verbose_refused = False  # older vLLM answers json only: the text of each piece, no times
        self._lock = threading.Lock()

    def close(self) -> None:
        self._http.close()

    # -- requests ------------------------------------------------------------------------------

    def models(self) -> list[str]:
        """The model names the server lists at GET /v1/models; empty when it lists none."""
        response = self._request("GET", "/v1/models")
        if response.status_code == 404:
            return []  # servers that serve one model often have no list
        self._raise_for(response, "/v1/models")
        body = _json(response, self.host)
        data = body.get("data") if isinstance(body, dict) else None
        if not isinstance(data, list):
            raise _garbage(self.host, "no data list in /v1/models")
        return [item["id"] for item in data if isinstance(item, dict) and isinstance(item.get("id"), str)]

    def transcribe(self, audio: bytes, filename: str, *, model: str, task: str, language: str | None,
                   prompt: str | None, temperature: float | None) -> Answer:
        """POST one piece of audio to /v1/audio/transcriptions (or /translations) and read its segments."""
        path = "/v1/audio/translations" if task == "translate" else "/v1/audio/transcriptions"
        fields: dict[str, str | list[str]] = {
            "model": model, "response_format": "json" if self._verbose_refused else "verbose_json"}
        if prompt:
            fields["prompt"] = prompt
        if temperature is not None:
            fields["temperature"] = str(temperature)
        if task != "translate":
            if language:
                fields["language"] = language
            if not self._verbose_refused:
                fields["timestamp_granularities[]"] = ["segment"] if self._words_refused else ["segment", "word"]
        mime = "audio/flac" if filename.endswith(".flac") else "audio/wav"
        response = self._request("POST", path, data=fields, files={"file": (filename, audio, mime)})
        if response.status_code == 400 and self._refused_a_wish(response.text.lower()):
            return self.transcribe(audio, filename, model=model, task=task, language=language, prompt=prompt,
                                   temperature=temperature)
        self._raise_for(response, path)
        return _answer(_json(response, self.host), self.host)

    def _refused_a_wish(self, refusal: str) -> bool:
        """Whether a 400 was about word timestamps or verbose_json, which are then no longer asked for."""
        with self._lock:
            if not self._verbose_refused and ("verbose_json" in refusal or "response_format" in refusal):
                self._verbose_refused = True
                return True
            if not self._words_refused and ("word" in refusal or "granularit" in refusal):
                self._words_refused = True  # e.g. a server with segment timestamps only
                return True
        return False

    def _request(self, method: str, path: str, **kwargs: Any) -> bounded_http.Reply:
        """The server's answer, read within its limits, retried with backoff on 429/5xx and on a
        refused connection."""
        import httpx

        for attempt in range(self._attempts):
            last = attempt == self._attempts - 1
            try:
                response = self._exchange(method, path, **kwargs)
            except bounded_http.TooSlow as exc:
                raise _timed_out(self.host, self.timeout, exc) from exc
            except httpx.ConnectTimeout as exc:  # the connection itself has the shorter wait
                raise _timed_out(self.host, min(CONNECT_SECONDS, self.timeout), exc) from exc
            except bounded_http.TooLarge as exc:
                raise _too_large(self.host, self.answer_limit, exc) from exc
            except bounded_http.Undecodable as exc:
                raise _garbage(self.host, exc.detail) from exc
            except httpx.TimeoutException as exc:
                raise _timed_out(self.host, self.timeout, exc) from exc
            except (httpx.ConnectError, httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError) as exc:
                if bounded_http.untrusted_certificate(exc):
                    raise _untrusted(self.host, exc) from exc
                problem = connection_problems.problem_of(exc, self.url, probe_seconds=CONNECT_SECONDS)
                if problem is not None:
                    raise _wrong_address(problem, self.url, exc) from exc
                if last or attempt >= 1:  # one more try: the server may just be restarting
                    raise _unreachable(self.host, exc) from exc
                self._sleep(attempt, None)
                continue
            except httpx.HTTPError as exc:
                raise _unreachable(self.host, exc) from exc
            if response.status_code not in RETRY_STATUSES or last:
                return response
            wait = _retry_after(response.headers.get("Retry-After"))
            if wait is not None and wait > MAX_RETRY_AFTER:
                return response
            log.info("%s answered %s; trying again", self.host, response.status_code)
            self._sleep(attempt, wait)
        raise AssertionError("unreachable")  # the loop always returns or raises

    def _exchange(self, method: str, path: str, **kwargs: Any) -> bounded_http.Reply:
        """One request and its whole answer, within the timeout and the answer limit."""
        deadline = bounded_http.Deadline(self.timeout)
        with bounded_http.exchange(self._http, method, path, deadline=deadline, **kwargs) as response:
            body = bounded_http.read_body(response, self.answer_limit, f"{self.host}{path}")
            return bounded_http.Reply(response.status_code, response.headers, body)

    def _sleep(self, attempt: int, retry_after: float | None) -> None:
        time.sleep(retry_after if retry_after is not None else self._backoff * 2 ** attempt)

    def _raise_for(self, response, path: str) -> None:
        status = response.status_code
        host = self.host
        if 300 <= status < 400:
            # Never followed: a POST redirected (http to https, another path) may lose its body or key.
            # The address it names is the server's word, not IT's: it is not offered to the user.
            location = response.headers.get("Location", "")
            if location and connection_problems.redirects_in_a_loop(
                    self.url.rstrip("/") + path, location, seconds=min(CONNECT_SECONDS, self.timeout)):
                raise ServerError(connection_problems.sentence(connection_problems.REDIRECT_LOOP, host),
                                  fix=_ADDRESS_FIX, detail=f"HTTP {status} to {location[:300]!r}", status=status)
            raise ServerError(
                N_("Server", "The server at {host} sends VoxDesk to another address.").format(host=host),
                fix=_ADDRESS_FIX, detail=f"HTTP {status} to {location[:300]!r}", status=status)
        if status < 400:
            return
        detail = f"HTTP {status}: {response.text[:300]}"
        if connection_problems.problem_of_answer(self.url, status, response.content) is not None:
            raise ServerError(connection_problems.sentence(connection_problems.PLAIN_TO_TLS_PORT, host),
                              fix=_CORRECT_ADDRESS, detail=detail, status=None)  # not the server's own refusal
        if status in (401, 403):
            raise ServerError(
                N_("Server", "The transcription server at {host} refused the API key.").format(host=host),
                fix=N_("Server", "Enter the API key IT gave you in Settings → Transcription server (on the command "
                                 "line: VOXDESK_SERVER_KEY)."), detail=detail, status=status)
        if status == 404:
            raise ServerError(
                N_("Server", "There is no Whisper server (OpenAI audio API) at {host}.").format(host=host),
                fix=N_("Server", "Check the server address in Settings → Transcription server; ask IT for it."),
                detail=detail, status=status)
        if status == 429 or status >= 500:
            raise ServerError(
                N_("Server", "The transcription server at {host} is failing or overloaded (error {status}).").format(
                    host=host, status=status),
                fix=N_("Server", "Try again later, or tell IT: the server's log says why."), detail=detail,
                status=status)
        raise ServerError(
            N_("Server", "The transcription server at {host} refused the request: {reason}").format(
                host=host, reason=_error_text(response)),
            fix=N_("Server", "Check the model name in Settings → Transcription server; Test connection shows "
                             "the models the server has."), detail=detail, status=status)


def _json(response, host: str) -> Any:
    try:
        return response.json()
    except ValueError as exc:
        raise _garbage(host, f"not JSON: {response.text[:200]!r}") from exc


def _answer(body: Any, host: str) -> Answer:
    if not isinstance(body, dict) or not isinstance(body.get("text", ""), str):
        raise _garbage(host, f"unexpected answer: {str(body)[:200]!r}")
    segments = body.get("segments")
    if segments is None:
        segments = []  # a server that ignored verbose_json: the text alone is all there is
    if not isinstance(segments, list) or not all(_timed(item, "text") for item in segments):
        raise _garbage(host, "segments without times or text")
    words = body.get("words") or []
    if not isinstance(words, list):
        words = []
    words = [word for word in words if _timed(word, "word")]
    language = body.get("language")
    if isinstance(language, str):
        language = language.strip().lower()
        language = language if language in WHISPER_LANGUAGES else _LANGUAGE_CODES.get(language)
    else:
        language = None
    return Answer(segments=segments, words=words, language=language, text=str(body.get("text", "")))


def _timed(item: Any, text_key: str) -> bool:
    """Whether ``item`` has text and two numbers for its times. NaN and infinity count as numbers: they
    cost only their own times, which answers.answer_segments places (clamped into the piece, or
    after the segment before), not the server's whole answer."""
    if not isinstance(item, dict) or not isinstance(item.get(text_key), str):
        return False
    times = (item.get("start"), item.get("end"))
    return all(isinstance(t, (int, float)) and not isinstance(t, bool) for t in times)


def _retry_after(value: str | None) -> float | None:
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None  # an HTTP date: the usual backoff is close enough


def _error_text(response) -> str:
    """The server's own words for a refusal, shortened: OpenAI's {"error": {"message": …}} shape, or
    FastAPI's {"detail": …}."""
    try:
        body = response.json()
    except ValueError:
        return response.text.strip()[:200] or str(response.status_code)
    if isinstance(body, dict):
        for found in (body.get("detail"), body):
            error = found.get("error") if isinstance(found, dict) else found
            if isinstance(error, dict) and error.get("message"):
                return str(error["message"])[:200]
            if isinstance(error, str) and error:
                return error[:200]
    return str(body)[:200]


def _unreachable(host: str, exc: BaseException) -> ServerError:
    return ServerError(
        N_("Server", "The transcription server at {host} cannot be reached.").format(host=host),
        fix=N_("Server", "Check that the server is running and that this computer can reach it (network, VPN); "
                         "the address is in Settings → Transcription server."),
        detail=f"{type(exc).__name__}: {exc}")


_ADDRESS_FIX = N_("Server", "Ask IT for the address of the transcription server and check it in Settings → "
                             "Transcription server.")


_CORRECT_ADDRESS = N_("Server", "Correct the address in Settings → Transcription server, or ask IT for it.")


def _wrong_address(problem: str, url: str, exc: BaseException) -> ServerError:
    """http:// and https:// mixed up, or redirects in a loop: the address in Settings needs changing."""
    return ServerError(connection_problems.sentence(problem, host_of(url)), fix=_CORRECT_ADDRESS,
                       detail=f"{type(exc).__name__}: {exc}")


def _untrusted(host: str, exc: BaseException) -> ServerError:
    return ServerError(
        N_("Server", "The certificate of the transcription server at {host} is not trusted by this computer, so "
                     "VoxDesk did not send anything to it.").format(host=host),
        fix=N_("Server", "If your company uses its own certificates, ask your IT department to install its root "
                         "certificate on this computer."),
        detail=f"{type(exc).__name__}: {exc}")


def _too_large(host: str, limit: int, exc: bounded_http.TooLarge) -> ServerError:
    return ServerError(
        N_("Server", "The server at {host} sent a far longer answer than any transcription of this piece, so "
                     "VoxDesk stopped reading it.").format(host=host),
        fix=N_("Server", "Check that the address in Settings → Transcription server points to a Whisper server "
                         "(OpenAI audio API); if it does, tell IT."),
        detail=f"more than {limit} bytes: {exc.detail}")


def _timed_out(host: str, seconds: float, exc: BaseException) -> ServerError:
    return ServerError(
        N_("Server", "The transcription server at {host} did not answer within {seconds} seconds.").format(
            host=host, seconds=f"{seconds:g}"),
        fix=N_("Server", "The server may be overloaded; try again later, or tell IT."),
        detail=f"{type(exc).__name__}: {exc}")


def _garbage(host: str, detail: str) -> ServerError:
    return ServerError(
        N_("Server", "The server at {host} answered with something that is not a transcription.").format(host=host),
        fix=N_("Server", "Check that the address in Settings → Transcription server points to a Whisper server "
                         "(OpenAI audio API), not a web page or proxy."), detail=detail,
        status=200)  # an answer came: what it held was not one

