"""The install's key and the seals made with it."""
from __future__ import annotations

import stat

import pytest

from desktop.core.voices.seal import KEY_FILE, KEYRING_SERVICE, KeyStore, SealKeyError, is_sealed, seal


class MemoryKeyring:
    """A keyring backend that keeps its passwords in a dict."""

    def __init__(self):
        self.passwords: dict[tuple[str, str], str] = {}

    def get_password(self, service, account):
        return self.passwords.get((service, account))

    def set_password(self, service, account, password):
        self.passwords[(service, account)] = password


def test_without_a_keyring_the_key_is_a_file_only_its_owner_can_read(tmp_path):
    store = KeyStore(tmp_path / "config")

    key = store.load()

    assert len(key) == 32
    assert stat.S_IMODE((tmp_path / "config" / KEY_FILE).stat().st_mode) == 0o600
    assert KeyStore(tmp_path / "config").load() == key  # the same key next time
    assert [p.name for p in (tmp_path / "config").iterdir()] == [KEY_FILE]  # no temporary file left


def test_a_usable_keyring_keeps_the_key_and_no_file_is_written(tmp_path):
    keyring = MemoryKeyring()

    key = KeyStore(tmp_path / "config", keyring=keyring).load()

    assert KeyStore(tmp_path / "config", keyring=keyring).load() == key
    assert bytes.fromhex(keyring.passwords[(KEYRING_SERVICE, str(tmp_path / "config"))]) == key
    assert not (tmp_path / "config" / KEY_FILE).exists()


def test_an_existing_key_file_stays_in_use_when_a_keyring_appears(tmp_path):
    key = KeyStore(tmp_path / "config").load()

    assert KeyStore(tmp_path / "config", keyring=MemoryKeyring()).load() == key


def test_a_key_file_opened_to_others_is_closed_again(tmp_path):
    store = KeyStore(tmp_path / "config")
    key = store.load()
    store.key_file.chmod(0o644)

    assert KeyStore(tmp_path / "config").load() == key
    assert stat.S_IMODE(store.key_file.stat().st_mode) == 0o600


def test_a_damaged_key_file_is_reported_not_replaced(tmp_path):
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / KEY_FILE).write_text("not a key")

    with pytest.raises(SealKeyError, match="consent key is damaged"):
        KeyStore(tmp_path / "config").load()
    assert (tmp_path / "config" / KEY_FILE).read_text() == "not a key"


def test_a_seal_fits_only_its_payload_its_purpose_and_its_key():
    key, other = b"k" * 32, b"o" * 32
    payload = {"name": "John", "similarity": 0.91, "files": {"a.wav": "00"}}
    mark = seal(key, "voice", payload)

    assert is_sealed(key, "voice", {"files": {"a.wav": "00"}, "similarity": 0.91, "name": "John"}, mark)
    assert not is_sealed(key, "voice", {**payload, "similarity": 0.92}, mark)
    assert not is_sealed(key, "codes", payload, mark)
    assert not is_sealed(other, "voice", payload, mark)
    assert not is_sealed(key, "voice", payload, None)
