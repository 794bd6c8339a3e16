"""Download sources: Automatic falls back on the mirror, remembers it; TLS through the OS store; proxies."""
from __future__ import annotations

import hashlib
import time

import pytest

from desktop.core.common.download import NETWORK_MESSAGE, UNTRUSTED_MESSAGE, ServerUnreachable, download_file
from desktop.core.common.download_sources import (
    DownloadSources,
    normalized_custom_url,
    probe_all,
    reachable,
)
from desktop.core.common.errors import ModelError
from desktop.core.common.shared_models import ModelSources
from tests.helpers.http_server import FileServer, closed_port_url
from tests.helpers.tls import make_authority

DATA = bytes(range(256)) * 400


@pytest.fixture
def mirror():
    with FileServer({"/file.bin": DATA}) as server:
        yield server


def automatic(tmp_path, official: str, mirror: str) -> DownloadSources:
    return DownloadSources(memory_file=tmp_path / "download-source.json", official=official, mirror=mirror,
                           probe_timeout=3)


def test_automatic_takes_the_mirror_when_the_official_host_refuses_and_remembers_it(tmp_path, mirror):
    official = closed_port_url().rstrip("/")
    sources = automatic(tmp_path, official, mirror.base_url)
    assert sources.candidates() == [official, mirror.base_url]
    assert sources.hf_endpoint() == mirror.base_url
    assert sources.remembered() == mirror.base_url
    # The next download starts with the host that answered.
    again = automatic(tmp_path, official, mirror.base_url)
    assert again.candidates() == [mirror.base_url, official]


def test_automatic_keeps_the_official_host_while_it_answers(tmp_path, mirror):
    with FileServer({}) as official:
        sources = automatic(tmp_path, official.base_url, mirror.base_url)
        assert sources.hf_endpoint() == official.base_url
        assert mirror.request_count() == 0


def test_automatic_gives_up_on_a_host_that_does_not_answer_within_the_probe_time(tmp_path, mirror):
    import socket

    silent = socket.socket()  # accepts connections (backlog) but never answers
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    try:
        official = f"http://127.0.0.1:{silent.getsockname()[1]}"
        sources = DownloadSources(official=official, mirror=mirror.base_url, probe_timeout=1.5)
        started = time.monotonic()
        assert sources.hf_endpoint() == mirror.base_url
        assert time.monotonic() - started < 6
    finally:
        silent.close()


@pytest.mark.parametrize("choice, expected", [("huggingface", "O"), ("hf-mirror", "M"), ("custom", "C")])
def test_a_fixed_choice_is_used_without_probing(choice, expected):
    sources = DownloadSources(choice=choice, custom_url="https://models.example.com/hf/", official="O", mirror="M")
    want = {"O": "O", "M": "M", "C": "https://models.example.com/hf"}[expected]
    assert sources.hf_endpoint() == want


def test_hf_endpoint_in_the_environment_stands_for_a_company_mirror_under_automatic(monkeypatch, tmp_path):
    monkeypatch.setenv("VOXDESK_DATA_DIR", str(tmp_path))
    sources = ModelSources.from_choices(environ={"HF_ENDPOINT": "https://hf.corp.example/"})
    assert sources.downloads.candidates() == ["https://hf.corp.example"]
    chosen = ModelSources.from_choices(source="hf-mirror", environ={"HF_ENDPOINT": "https://hf.corp.example"})
    assert chosen.downloads.candidates() == ["https://hf-mirror.com"]


@pytest.mark.parametrize("text, expected", [
    ("https://mirror.corp.example/hf/", "https://mirror.corp.example/hf"),
    ("  http://10.0.0.5:8080 ", "http://10.0.0.5:8080"),
    ("ftp://mirror", None), ("mirror.corp.example", None), ("https://", None), ("https://a b", None),
])
def test_a_custom_url_must_be_http_or_https(text, expected):
    assert normalized_custom_url(text) == expected


def test_the_file_from_the_mirror_is_checked_against_its_checksum(tmp_path, mirror):
    sources = automatic(tmp_path, closed_port_url().rstrip("/"), mirror.base_url)
    url = sources.hf_endpoint() + "/file.bin"
    good = download_file(url, tmp_path / "good.bin", sha256=hashlib.sha256(DATA).hexdigest())
    assert good.read_bytes() == DATA
    with pytest.raises(ModelError) as err:
        download_file(url, tmp_path / "bad.bin", sha256="0" * 64)
    assert "damaged on the way" in err.value.message
    assert not (tmp_path / "bad.bin").exists()


def test_a_refused_connection_says_what_to_do_next(tmp_path):
    with pytest.raises(ServerUnreachable) as err:
        download_file(closed_port_url("/file.bin"), tmp_path / "f.bin")
    assert err.value.message == NETWORK_MESSAGE
    assert "another download source in Settings" in NETWORK_MESSAGE
    assert "Import model" in NETWORK_MESSAGE and "IT department" in NETWORK_MESSAGE


# --- TLS through the operating system's certificate store -----------------------------------------


@pytest.fixture
def company_server(tmp_path):
    authority = make_authority(tmp_path / "pki")
    with FileServer({"/file.bin": DATA}, tls=authority.server_context()) as server:
        yield server, authority


def test_a_server_signed_by_a_root_installed_in_the_os_store_is_trusted(tmp_path, monkeypatch, company_server):
    server, authority = company_server
    # OpenSSL's default verify paths are the OS store truststore uses on Linux.
    monkeypatch.setenv("SSL_CERT_FILE", str(authority.ca_file))
    monkeypatch.setenv("SSL_CERT_DIR", str(tmp_path / "no-such-dir"))
    got = download_file(server.url("/file.bin"), tmp_path / "f.bin", sha256=hashlib.sha256(DATA).hexdigest())
    assert got.read_bytes() == DATA
    assert reachable(server.base_url, 3)


def test_the_same_server_is_refused_while_its_root_is_not_installed(tmp_path, monkeypatch, company_server):
    server, _authority = company_server
    other = make_authority(tmp_path / "other", name="Some Other Root")
    monkeypatch.setenv("SSL_CERT_FILE", str(other.ca_file))
    monkeypatch.setenv("SSL_CERT_DIR", str(tmp_path / "no-such-dir"))
    with pytest.raises(ServerUnreachable) as err:
        download_file(server.url("/file.bin"), tmp_path / "f.bin")
    assert err.value.message == UNTRUSTED_MESSAGE
    assert "root certificate" in err.value.message
    assert not reachable(server.base_url, 3)
    assert not (tmp_path / "f.bin").exists()


# --- proxies from the environment ----------------------------------------------------------------


def test_downloads_go_through_the_proxy_named_in_the_environment(tmp_path, monkeypatch):
    # A proxy gets the whole URL in its request line; this host name does not exist anywhere else.
    target = "http://models.voxdesk-test.invalid/file.bin"
    with FileServer({target: DATA}) as proxy:
        monkeypatch.setenv("http_proxy", proxy.base_url)
        monkeypatch.delenv("no_proxy", raising=False)
        monkeypatch.delenv("NO_PROXY", raising=False)
        got = download_file(target, tmp_path / "f.bin", sha256=hashlib.sha256(DATA).hexdigest())
        assert got.read_bytes() == DATA
        assert proxy.request_count(target) == 1


def test_the_doctor_probe_reports_each_source(tmp_path, mirror):
    sources = DownloadSources(official=closed_port_url().rstrip("/"), mirror=mirror.base_url,
                              custom_url="not a url", probe_timeout=3)
    rows = probe_all(sources)
    assert [(name, ok) for name, _url, ok, _why in rows] == [("huggingface", False), ("hf-mirror", True)]
    with_custom = DownloadSources(official="http://127.0.0.1:9", mirror=mirror.base_url,
                                  custom_url=mirror.base_url + "/", probe_timeout=3)
    assert [(n, ok) for n, _u, ok, _why in probe_all(with_custom)][-1] == ("custom", True)


def test_a_pipe_where_the_remembered_source_is_kept_is_not_read(tmp_path, mirror):
    import os

    os.mkfifo(tmp_path / "download-source.json")  # reading it would block forever
    sources = automatic(tmp_path, closed_port_url().rstrip("/"), mirror.base_url)
    assert sources.remembered() is None
    assert sources.hf_endpoint() == mirror.base_url


def test_a_damaged_memory_file_is_ignored_and_replaced(tmp_path, mirror):
    (tmp_path / "download-source.json").write_text("{not json")
    sources = automatic(tmp_path, closed_port_url().rstrip("/"), mirror.base_url)
    assert sources.candidates()[0] != mirror.base_url
    assert sources.hf_endpoint() == mirror.base_url
    assert sources.remembered() == mirror.base_url
