"""download_file against a real HTTP server on 127.0.0.1: progress, checksum, cancel, resume."""
from __future__ import annotations

import hashlib
import os

import pytest

from desktop.core.common.download import NETWORK_MESSAGE, download_file, part_path
from desktop.core.common.errors import Cancelled, ModelError
from tests.helpers.http_server import FileServer, closed_port_url

PAYLOAD = os.urandom(1024 * 1024 + 12345)  # a little over 16 chunks
PAYLOAD_SHA = hashlib.sha256(PAYLOAD).hexdigest()


@pytest.fixture
def server():
    with FileServer({"/model.bin": PAYLOAD}) as srv:
        yield srv


class CancelAfter:
    """A cancel check that says yes once ``limit`` bytes have arrived."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.done = 0

    def progress(self, done: int, total: int | None) -> None:
        self.done = done

    def __call__(self) -> bool:
        return self.done >= self.limit


def test_a_download_reports_progress_up_to_the_total_and_lands_complete(server, tmp_path):
    dest = tmp_path / "model.bin"
    seen: list[tuple[int, int | None]] = []

    result = download_file(
        server.url("/model.bin"), dest, sha256=PAYLOAD_SHA, size=len(PAYLOAD),
        progress=lambda done, total: seen.append((done, total)),
    )

    assert result == dest
    assert dest.read_bytes() == PAYLOAD
    assert not part_path(dest).exists()
    assert seen[-1] == (len(PAYLOAD), len(PAYLOAD))
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_a_checksum_mismatch_leaves_no_file_and_says_the_download_was_damaged(server, tmp_path):
    dest = tmp_path / "model.bin"

    with pytest.raises(ModelError) as err:
        download_file(server.url("/model.bin"), dest, sha256="0" * 64, label="the tiny model")

    assert "damaged" in err.value.message and "the tiny model" in err.value.message
    assert list(tmp_path.iterdir()) == []


def test_a_wrong_size_is_treated_as_damage_too(server, tmp_path):
    dest = tmp_path / "model.bin"
    with pytest.raises(ModelError):
        download_file(server.url("/model.bin"), dest, size=len(PAYLOAD) + 1)
    assert list(tmp_path.iterdir()) == []


def test_cancel_midway_keeps_only_the_part_file_and_a_resume_fetches_just_the_missing_bytes(server, tmp_path):
    dest = tmp_path / "model.bin"
    stop = CancelAfter(300 * 1024)

    with pytest.raises(Cancelled):
        download_file(
            server.url("/model.bin"), dest, sha256=PAYLOAD_SHA, progress=stop.progress, cancelled=stop
        )

    assert not dest.exists()
    kept = part_path(dest).stat().st_size
    assert 300 * 1024 <= kept < len(PAYLOAD)

    seen: list[int] = []
    download_file(server.url("/model.bin"), dest, sha256=PAYLOAD_SHA, progress=lambda d, t: seen.append(d))

    assert dest.read_bytes() == PAYLOAD
    assert not part_path(dest).exists()
    resumed = server.requests_for("/model.bin")[-1]
    assert resumed.range == f"bytes={kept}-"
    assert resumed.status == 206
    assert resumed.bytes_sent == len(PAYLOAD) - kept
    assert seen[0] == kept and seen[-1] == len(PAYLOAD)


def test_a_dropped_connection_says_so_and_the_next_try_continues(server, tmp_path):
    dest = tmp_path / "model.bin"
    server.drop_after = 200 * 1024

    with pytest.raises(ModelError) as err:
        download_file(server.url("/model.bin"), dest, sha256=PAYLOAD_SHA)

    assert "stopped before it was complete" in err.value.message
    assert not dest.exists()
    assert part_path(dest).stat().st_size == 200 * 1024

    server.drop_after = None
    download_file(server.url("/model.bin"), dest, sha256=PAYLOAD_SHA)
    assert dest.read_bytes() == PAYLOAD
    assert server.requests_for("/model.bin")[-1].range == f"bytes={200 * 1024}-"


def test_a_server_without_range_support_restarts_the_download_cleanly(tmp_path):
    dest = tmp_path / "model.bin"
    with FileServer({"/model.bin": PAYLOAD}, range_support=False) as server:
        stop = CancelAfter(300 * 1024)
        with pytest.raises(Cancelled):
            download_file(server.url("/model.bin"), dest, progress=stop.progress, cancelled=stop)
        assert part_path(dest).exists()

        download_file(server.url("/model.bin"), dest, sha256=PAYLOAD_SHA)

        assert dest.read_bytes() == PAYLOAD
        last = server.requests_for("/model.bin")[-1]
        assert last.range is not None and last.status == 200
        assert last.bytes_sent == len(PAYLOAD)


def test_a_stale_part_file_that_the_server_cannot_continue_is_replaced(server, tmp_path):
    dest = tmp_path / "model.bin"
    part_path(dest).write_bytes(os.urandom(len(PAYLOAD) + 10))  # longer than the real file

    download_file(server.url("/model.bin"), dest, sha256=PAYLOAD_SHA)

    assert dest.read_bytes() == PAYLOAD
    assert not part_path(dest).exists()


def test_a_part_file_of_the_known_size_is_finished_without_asking_the_server(server, tmp_path):
    dest = tmp_path / "model.bin"
    part_path(dest).write_bytes(PAYLOAD)

    download_file(server.url("/model.bin"), dest, sha256=PAYLOAD_SHA, size=len(PAYLOAD))

    assert dest.read_bytes() == PAYLOAD
    assert server.request_count("/model.bin") == 0


def test_a_complete_part_file_of_unknown_size_is_finished_without_fetching_it_again(server, tmp_path):
    dest = tmp_path / "model.bin"
    part_path(dest).write_bytes(PAYLOAD)

    download_file(server.url("/model.bin"), dest, sha256=PAYLOAD_SHA)

    assert dest.read_bytes() == PAYLOAD
    assert [r.status for r in server.requests_for("/model.bin")] == [416]
    assert server.bytes_sent("/model.bin") == 0


def test_a_download_follows_a_redirect_and_keeps_its_range(tmp_path):
    dest = tmp_path / "model.bin"
    with FileServer({"/cdn/model.bin": PAYLOAD}) as server:
        server.redirects["/hub/model.bin"] = server.url("/cdn/model.bin")
        part_path(dest).write_bytes(PAYLOAD[:1000])

        download_file(server.url("/hub/model.bin"), dest, sha256=PAYLOAD_SHA)

        assert dest.read_bytes() == PAYLOAD
        assert server.requests_for("/cdn/model.bin")[-1].range == "bytes=1000-"


def test_an_unreachable_server_gives_the_plain_internet_sentence(tmp_path):
    dest = tmp_path / "model.bin"

    with pytest.raises(ModelError) as err:
        download_file(closed_port_url("/model.bin"), dest)

    assert err.value.message == NETWORK_MESSAGE
    assert err.value.detail  # the technical reason goes to the log
    assert list(tmp_path.iterdir()) == []


def test_a_missing_file_on_the_server_is_explained_without_http_jargon(server, tmp_path):
    with pytest.raises(ModelError) as err:
        download_file(server.url("/gone.bin"), tmp_path / "gone.bin", label="the tiny model")
    assert "no longer offers the tiny model" in err.value.message
    assert "404" not in err.value.message
    assert list(tmp_path.iterdir()) == []


def test_an_existing_file_is_only_replaced_by_a_complete_verified_download(server, tmp_path):
    dest = tmp_path / "model.bin"
    dest.write_bytes(b"the old file")

    with pytest.raises(ModelError):
        download_file(server.url("/model.bin"), dest, sha256="0" * 64)
    assert dest.read_bytes() == b"the old file"

    download_file(server.url("/model.bin"), dest, sha256=PAYLOAD_SHA)
    assert dest.read_bytes() == PAYLOAD
