"""What went wrong on a connection that a person can put right, told apart in one place, so the
transcription server, the model downloads and the doctor name each mistake with the same sentence
instead of "cannot be reached":

- ``https://`` to a port that speaks plain HTTP: the TLS handshake reads an HTTP answer instead
  (OpenSSL's WRONG_VERSION_NUMBER and its kin);
- ``http://`` to a port that speaks TLS: the server hangs up or resets without an HTTP answer, and a
  TLS handshake with the same port, made to tell it apart from a server that merely broke off, works;
  or it answers 400 with its own words for it (nginx, Go, Apache: :func:`problem_of_answer`);
- redirects round in a loop (:func:`bounded_http.fetch` stops at an address it has already been sent
  to, or after more hops than any real server uses).

A certificate this computer does not trust keeps its own sentences, which differ by caller
(:func:`bounded_http.untrusted_certificate`). httpx is imported inside functions.
"""
from __future__ import annotations

import socket
import ssl
import urllib.parse

from desktop.core.common import bounded_http
from desktop.core.common.i18n import N_, Message

TLS_TO_PLAIN_PORT = "tls-to-plain-port"
PLAIN_TO_TLS_PORT = "plain-to-tls-port"
REDIRECT_LOOP = "redirect-loop"

# OpenSSL's reasons when the first bytes back are not TLS (an HTTP answer to the handshake).
_NOT_TLS_REASONS = {"WRONG_VERSION_NUMBER", "UNKNOWN_PROTOCOL", "PACKET_LENGTH_TOO_LONG", "RECORD_LAYER_FAILURE",
                    "HTTPS_PROXY_REQUEST"}
TLS_PROBE_SECONDS = 3.0  # the most the handshake that tells a TLS port from a broken one may take

SENTENCES: dict[str, Message] = {
    TLS_TO_PLAIN_PORT: N_("Connection", "The server at {host} answers without encryption: its address must start "
                                        "with http:// instead of https://."),
    PLAIN_TO_TLS_PORT: N_("Connection", "The server at {host} expects an encrypted connection: its address must "
                                        "start with https:// instead of http://."),
    REDIRECT_LOOP: N_("Connection", "The server at {host} sends VoxDesk round in a loop of redirects, so nothing "
                                    "can be fetched from it."),
}


def host_of(url: str) -> str:
    """The host (and port) of ``url`` as the sentences name it."""
    return urllib.parse.urlsplit(url).netloc.rpartition("@")[2] or url[:200]


def problem_of(exc: BaseException, url: str, *, probe_seconds: float = TLS_PROBE_SECONDS) -> str | None:
    """Which of the mistakes above ``exc`` (an httpx error from an exchange with ``url``) is, or None.

    For a plain ``http://`` exchange that ended without an answer, this makes one TLS handshake with
    the same port, within ``probe_seconds``; nothing is sent over it."""
    import httpx

    chain = _chain(exc)
    if any(isinstance(e, httpx.TooManyRedirects) for e in chain):
        return REDIRECT_LOOP
    if any(isinstance(e, ssl.SSLError) and getattr(e, "reason", None) in _NOT_TLS_REASONS for e in chain):
        return TLS_TO_PLAIN_PORT
    parts = urllib.parse.urlsplit(url)
    no_answer = isinstance(exc, (httpx.ReadError, httpx.RemoteProtocolError, httpx.WriteError))
    if no_answer and parts.scheme == "http" and parts.hostname and bounded_http.proxy_for(url) is None:
        if speaks_tls(parts.hostname, parts.port or 80, probe_seconds):
            return PLAIN_TO_TLS_PORT
    return None


# What web servers answer, in plain HTTP, to a plain request on their TLS port (lower case).
_PLAIN_TO_TLS_ANSWERS = (
    b"plain http request was sent to https port",  # nginx
    b"client sent an http request to an https server",  # Go's net/http (Caddy, Traefik)
    b"speaking plain http to an ssl-enabled server port",  # Apache
)


def problem_of_answer(url: str, status: int, body: bytes) -> str | None:
    """PLAIN_TO_TLS_PORT when the answer to a plain ``http://`` request is a web server's 400 saying it
    wanted TLS (``body``: the start of the answer's body is enough), else None."""
    if status != 400 or urllib.parse.urlsplit(url).scheme != "http":
        return None
    text = body[:4096].lower()
    return PLAIN_TO_TLS_PORT if any(words in text for words in _PLAIN_TO_TLS_ANSWERS) else None


def sentence(problem: str, host: str) -> Message:
    """The sentence for a problem :func:`problem_of` found, naming ``host`` (see :func:`host_of`)."""
    return SENTENCES[problem].format(host=host)


def redirects_in_a_loop(requested: str, location: str, *, seconds: float) -> bool:
    """Whether the redirect ``location``, the answer to ``requested``, leads round in a loop. For a
    caller that does not follow redirects (the transcription server's key and audio go nowhere else):
    the hops are followed with GET requests whose bodies are not read, without the caller's headers,
    within ``seconds``."""
    import httpx

    target = urllib.parse.urljoin(requested, location)
    if urllib.parse.urlsplit(target).scheme not in ("http", "https"):
        return False
    try:
        with bounded_http.fetch(target, deadline=bounded_http.Deadline(seconds),
                                connect_seconds=seconds, read_seconds=seconds, came_from=(requested,)):
            return False
    except httpx.TooManyRedirects:
        return True
    except (httpx.HTTPError, httpx.InvalidURL, bounded_http.LimitExceeded):
        return False  # what lies beyond the redirect is not this server's answer


def speaks_tls(host: str, port: int, seconds: float) -> bool:
    """Whether the server at ``host:port`` completes a TLS handshake (its certificate is not looked at:
    only the language the port speaks is asked)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    try:
        with socket.create_connection((host, port), timeout=seconds) as raw:
            with context.wrap_socket(raw, server_hostname=host):
                return True
    except ssl.SSLError as exc:
        # A TLS server that refuses this handshake (an alert) still speaks TLS.
        return "ALERT" in str(getattr(exc, "reason", "") or "")
    except (OSError, ValueError):
        return False


def _chain(exc: BaseException) -> list[BaseException]:
    """``exc`` and what caused it."""
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and all(current is not e for e in seen):
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen
