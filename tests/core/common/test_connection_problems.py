"""Model downloads from a source whose address is wrong in a way the user can correct: http:// and
https:// mixed up, or redirects in a loop, each named as such instead of "could not reach"."""
from __future__ import annotations

import pytest

from desktop.core.common.download import ServerUnreachable, download_file, fetch_json, part_path
from tests.helpers.http_server import FileServer, RedirectLoopServer
from tests.helpers.tls import make_authority

FIX = " Check the download source's address in Settings → Downloads, or choose another download source there."


def test_a_download_over_https_from_a_plain_http_mirror_says_to_use_http(tmp_path):
    with FileServer({"/model.bin": b"x" * 10}) as plain:
        host = f"127.0.0.1:{plain.port}"
        with pytest.raises(ServerUnreachable) as raised:
            download_file(plain.url("/model.bin").replace("http://", "https://"), tmp_path / "model.bin", size=10)
    assert raised.value.message == (f"The server at {host} answers without encryption: its address must start with "
                                    "http:// instead of https://." + FIX)
    assert not (tmp_path / "model.bin").exists() and not part_path(tmp_path / "model.bin").exists()


def test_a_model_list_over_http_from_a_tls_mirror_says_to_use_https(tmp_path):
    authority = make_authority(tmp_path / "ca")
    with FileServer({"/api/models": b"[]"}, tls=authority.server_context()) as encrypted:
        host = f"127.0.0.1:{encrypted.port}"
        with pytest.raises(ServerUnreachable) as raised:
            fetch_json(encrypted.url("/api/models").replace("https://", "http://"), timeout=5)
    assert raised.value.message == (f"The server at {host} expects an encrypted connection: its address must start "
                                    "with https:// instead of http://." + FIX)


def test_a_mirror_that_redirects_in_a_loop_is_named_as_a_loop_after_the_first_repeat(tmp_path):
    with RedirectLoopServer(status=302) as looping:
        host = looping.base_url.removeprefix("http://")
        with pytest.raises(ServerUnreachable) as raised:
            download_file(looping.url("/model.bin"), tmp_path / "model.bin", size=10)
        requests = looping.requests
    assert raised.value.message == (f"The server at {host} sends VoxDesk round in a loop of redirects, so nothing can "
                                    "be fetched from it." + FIX)
    assert requests == 2  # /model.bin, /model.bin/, which sends VoxDesk back where it started
    assert not (tmp_path / "model.bin").exists() and not part_path(tmp_path / "model.bin").exists()


def test_a_model_list_answered_with_a_web_servers_page_saying_it_wanted_tls_says_to_use_https():
    from tests.helpers.http_server import NGINX_PLAIN_ON_TLS
    from tests.helpers.misbehaving_http import Behaviour, MisbehavingServer

    with MisbehavingServer(Behaviour.fixed(NGINX_PLAIN_ON_TLS, status=400, content_type="text/html")) as proxy:
        host = proxy.base_url.removeprefix("http://")
        with pytest.raises(ServerUnreachable) as raised:
            fetch_json(proxy.url("/api/models"), timeout=5)
    assert raised.value.message == (f"The server at {host} expects an encrypted connection: its address must start "
                                    "with https:// instead of http://." + FIX)
