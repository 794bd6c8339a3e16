"""The transcription server's address as people type it, and its API key kept out of plain settings."""
from __future__ import annotations

import os
import stat

import pytest

from desktop.core.transcription.server_config import (
    KEY_FILE,
    KEYRING_SERVICE,
    ServerConfig,
    ServerKeyStore,
    ServerSettingsError,
    server_url,
)


class MemoryKeyring:
    """A keyring backend that keeps its passwords in a dict (no desktop keyring runs headless)."""

    def __init__(self):
        self.passwords: dict[tuple[str, str], str] = {}

    def get_password(self, service, account):
        return self.passwords.get((service, account))

    def set_password(self, service, account, password):
        self.passwords[(service, account)] = password

    def delete_password(self, service, account):
        del self.passwords[(service, account)]


@pytest.mark.parametrize("typed, url", [
    ("gpu-box:8000", "http://gpu-box:8000"),
    ("  http://gpu-box:8000/ ", "http://gpu-box:8000"),
    ("https://asr.example.org/v1", "https://asr.example.org"),
    ("https://asr.example.org/whisper/v1/", "https://asr.example.org/whisper"),
    ("http://[::1]:9000", "http://[::1]:9000"),
])
def test_an_address_is_taken_the_way_people_write_it(typed, url):
    assert server_url(typed) == url


@pytest.mark.parametrize("typed", ["", "ftp://gpu-box", "http://", "http://gpu-box:99999", "http://gpu-box/?a=1",
                                   "gpu box with spaces:80x"])
def test_an_address_that_is_no_server_is_refused_with_a_sentence(typed):
    with pytest.raises(ServerSettingsError) as raised:
        server_url(typed)
    assert raised.value.message.endswith(".") and "http://gpu-server:8000" in raised.value.message


def test_the_status_bar_label_names_host_and_model():
    assert ServerConfig("https://asr.example.org:8443", model="openai/whisper-large-v3").label() == (
        "asr.example.org:8443 · openai/whisper-large-v3")
    assert ServerConfig("http://gpu-box:8000").label() == "gpu-box:8000"
    with pytest.raises(ValueError):
        ServerConfig("http://gpu-box:8000", use="sometimes")
    with pytest.raises(ValueError):
        ServerConfig("http://gpu-box:8000", concurrency=0)


def test_without_a_keyring_keys_are_in_a_file_only_its_owner_can_read(tmp_path):
    store = ServerKeyStore(tmp_path / "config")
    store.save("http://gpu-box:8000", "sk-office-1")
    store.save("https://asr.example.org", "sk-other")

    assert stat.S_IMODE((tmp_path / "config" / KEY_FILE).stat().st_mode) == 0o600
    again = ServerKeyStore(tmp_path / "config")
    assert again.load("http://gpu-box:8000") == "sk-office-1" and again.load("https://asr.example.org") == "sk-other"
    assert again.load("http://elsewhere") == ""
    again.save("http://gpu-box:8000", "")
    assert ServerKeyStore(tmp_path / "config").load("http://gpu-box:8000") == ""
    assert [p.name for p in (tmp_path / "config").iterdir()] == [KEY_FILE]  # no temporary file left


def test_a_key_file_others_could_read_is_made_private_again(tmp_path):
    store = ServerKeyStore(tmp_path)
    store.save("http://gpu-box:8000", "sk-1")
    os.chmod(tmp_path / KEY_FILE, 0o644)
    assert store.load("http://gpu-box:8000") == "sk-1"
    assert stat.S_IMODE((tmp_path / KEY_FILE).stat().st_mode) == 0o600


def test_a_usable_keyring_keeps_the_key_and_no_file_is_written(tmp_path):
    keyring = MemoryKeyring()
    store = ServerKeyStore(tmp_path / "config", keyring=keyring)
    store.save("http://gpu-box:8000", "sk-office-1")

    assert keyring.passwords == {(KEYRING_SERVICE, "http://gpu-box:8000"): "sk-office-1"}
    assert ServerKeyStore(tmp_path / "config", keyring=keyring).load("http://gpu-box:8000") == "sk-office-1"
    assert not (tmp_path / "config" / KEY_FILE).exists()
    store.save("http://gpu-box:8000", "")
    assert keyring.passwords == {}


@pytest.mark.parametrize("hostile", ["link", "fifo", "garbage"])
def test_a_key_file_that_is_a_link_a_pipe_or_garbage_is_never_followed_or_trusted(tmp_path, hostile):
    target = tmp_path / "elsewhere.json"
    target.write_text('{"http://gpu-box:8000": "stolen"}')
    path = tmp_path / KEY_FILE
    if hostile == "link":
        path.symlink_to(target)
    elif hostile == "fifo":
        os.mkfifo(path)
    else:
        path.write_bytes(b"\xff\x00 not json")
    store = ServerKeyStore(tmp_path)
    if hostile == "garbage":
        assert store.load("http://gpu-box:8000") == ""
        return
    with pytest.raises(ServerSettingsError) as raised:
        store.load("http://gpu-box:8000")
    assert "cannot read or save the server's API key" in raised.value.message
