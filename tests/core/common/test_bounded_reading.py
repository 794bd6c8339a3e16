"""Everything VoxDesk reads from another computer has a byte limit, a deadline and a JSON depth limit,
and running out of disk is a sentence: against real misbehaving servers on 127.0.0.1, with the client
in a child process where its memory peak and a file-size limit (RLIMIT_FSIZE) can be set and read."""
from __future__ import annotations

import hashlib
import os
import json
from pathlib import Path

import pytest

from tests.helpers.http_server import FileServer
from tests.helpers.misbehaving_http import MB, Behaviour, MisbehavingServer, run_in_child
from tests.helpers.weights import tiny_en_dir

TINY_EN_REPO = "Systran/faster-whisper-tiny.en"

# The child's whole resident set, interpreter and libraries included; the bodies sent are 1 GB.
PEAK_LIMIT_MB = 150


# --- what the child processes run ---------------------------------------------------------------


def download_into(url: str, dest: str, size: int | None, sha256: str | None) -> str:
    from desktop.core.common.download import download_file

    return str(download_file(url, Path(dest), size=size, sha256=sha256, timeout=5))


def fetch_listing(url: str, timeout: float) -> str:
    from desktop.core.common.download import fetch_json

    return type(fetch_json(url, timeout=timeout)).__name__


# --- 1: a download never writes more than the file it expects -----------------------------------


def test_a_download_that_never_ends_stops_at_the_size_the_listing_gave_and_leaves_nothing(tmp_path):
    dest = tmp_path / "model.bin"
    with MisbehavingServer(Behaviour.endless()) as mirror:
        # The file-size limit only keeps a failing run from filling this machine's disk.
        outcome = run_in_child(download_into, mirror.url("/model.bin"), str(dest), 1000, None,
                               file_size_limit=256 * MB)
        sent = mirror.bytes_sent
    assert outcome.error_type == "ModelError", outcome
    assert outcome.error == ("The download server sent more than model.bin can hold, so VoxDesk stopped and deleted "
                             "the download; please try again later, or choose another download source in "
                             "Settings → Downloads.")
    assert not dest.exists() and not (tmp_path / "model.bin.part").exists()
    assert outcome.peak_rss_mb < PEAK_LIMIT_MB
    assert sent < 1024 * MB  # the client hung up long before the server's own limit


def download_model_from(mirror_url: str, models: str) -> str:
    from desktop.core.common.download_sources import DownloadSources
    from desktop.core.common.shared_models import ModelSources
    from desktop.core.transcription.whisper_models import ModelStore

    store = ModelStore(Path(models), sources=ModelSources((), DownloadSources.fixed(mirror_url)))
    return str(store.download("tiny", "ct2").path)


def test_a_mirror_that_lists_model_bin_as_1000_bytes_and_sends_without_end_costs_1000_bytes(tmp_path):
    from desktop.core.transcription.official_checksums import CT2_CHECKSUMS

    pins = CT2_CHECKSUMS["tiny"]
    tree = [{"type": "file", "path": name, "size": 1000, "oid": "3" * 40, "lfs": {"oid": sha, "size": 1000}}
            for name, sha in pins.items()]
    listing = {"/api/models/Systran/faster-whisper-tiny/tree/main": json.dumps(tree).encode()}
    with MisbehavingServer(Behaviour.endless(), files=listing) as mirror:
        outcome = run_in_child(download_model_from, mirror.base_url, str(tmp_path / "models"),
                               file_size_limit=256 * MB)
    assert outcome.error_type == "ModelError", outcome
    assert outcome.error == ('The download server sent more than the "tiny" model can hold, so VoxDesk stopped and '
                             "deleted the download; please try again later, or choose another download source in "
                             "Settings → Downloads.")
    written = sum(p.stat().st_size for p in (tmp_path / "models").rglob("*") if p.is_file())
    assert written <= 4 * 1000  # at most the listed sizes of the files before the one that never ended
    assert outcome.peak_rss_mb < PEAK_LIMIT_MB


def test_running_out_of_disk_during_a_download_is_a_sentence_and_removes_the_part_file(tmp_path):
    data = bytes(range(256)) * (12 * 1024)  # 3 MB
    dest = tmp_path / "model.bin"
    with FileServer({"/model.bin": data}) as server:
        outcome = run_in_child(download_into, server.url("/model.bin"), str(dest), len(data),
                               hashlib.sha256(data).hexdigest(), file_size_limit=1 * MB)
    assert outcome.error_type == "ModelError", outcome
    assert outcome.error == ("This disk cannot hold a file as large as model.bin, so it could not be saved. Free "
                             "some space or ask your IT department for room on another disk, then try again.")
    assert not dest.exists() and not (tmp_path / "model.bin.part").exists()


# --- 3: a deadline for the whole answer, not only between two reads ------------------------------


@pytest.mark.parametrize("headers_too", [True, False], ids=["headers", "body"])
def test_a_listing_trickled_one_byte_at_a_time_is_given_up_on_at_its_deadline(headers_too):
    from desktop.core.common.download import ServerUnreachable, fetch_json

    listing = json.dumps([{"type": "file", "path": "config.json", "size": 2}]).encode()
    with MisbehavingServer(Behaviour.trickle(listing, interval=0.2, headers_too=headers_too)) as slow:
        with pytest.raises(ServerUnreachable) as raised:
            fetch_json(slow.url("/api/models/x/tree/main"), timeout=1.0)
    assert raised.value.message == ("The download server did not answer within 1 seconds. Check the internet "
                                    "connection and try again, or choose another download source in Settings → "
                                    "Downloads.")


# --- a download body that trickles is cut once it is slower than the minimum rate ----------------

# Small and generous limits for these tests: at least 1,000 bytes a second over each half second.
# The trickling server sends at most 20 bytes a second, the paced one at least 2,000 (its pauses
# only grow on a busy computer), so neither is near the line whatever the processor.
TEST_FLOOR = dict(bytes_per_second=1000, seconds=0.5)


def test_a_download_body_that_trickles_forever_is_cut_with_a_sentence_and_kept_for_a_resume(tmp_path):
    from desktop.core.common.bounded_http import MinimumRate
    from desktop.core.common.download import ServerUnreachable, download_file

    body = b"\1" * 10_000
    dest = tmp_path / "model.bin"
    with MisbehavingServer(Behaviour.trickle(body, interval=0.05)) as slow:
        with pytest.raises(ServerUnreachable) as raised:
            download_file(slow.url("/model.bin"), dest, size=len(body), timeout=5,
                          minimum_rate=MinimumRate(**TEST_FLOOR), label="the test model")
        sent = slow.bytes_sent
    assert sent < 1000  # cut after about half a second of a body that would take over eight minutes
    assert raised.value.message == (
        "The download of the test model stayed slower than 1 KB a second, so VoxDesk stopped it; what "
        "arrived is kept, and the next try continues from there. Check the internet connection, or choose "
        "another download source in Settings → Downloads.")
    assert not dest.exists()
    assert 0 < (tmp_path / "model.bin.part").stat().st_size < 1000


def test_a_slow_download_that_keeps_moving_above_the_minimum_rate_finishes(tmp_path):
    from desktop.core.common.bounded_http import MinimumRate
    from desktop.core.common.download import download_file

    body = os.urandom(40_000)
    dest = tmp_path / "model.bin"
    # 2,000 bytes each 0.05 s: at least a second in all, so the rate is looked at more than once.
    with MisbehavingServer(Behaviour.paced(body, piece=2_000, interval=0.05)) as paced:
        download_file(paced.url("/model.bin"), dest, size=len(body), sha256=hashlib.sha256(body).hexdigest(),
                      timeout=5, minimum_rate=MinimumRate(**TEST_FLOOR))
    assert dest.read_bytes() == body


def test_the_minimum_rate_looks_at_each_period_after_the_first(tmp_path):
    """A download that was fast and then trickles is cut too: the rate is not an average since the start."""
    from desktop.core.common.bounded_http import MinimumRate, RateTooLow

    now = [0.0]
    meter = MinimumRate(bytes_per_second=1000, seconds=1.0).start(clock=lambda: now[0])
    meter.received(1_000_000)  # a fast first second (the grace period)
    now[0] = 1.0
    meter.received(0)
    for step in range(1, 10):
        now[0] = 1.0 + step / 10
        meter.received(10)  # then 100 bytes a second
    now[0] = 2.05
    with pytest.raises(RateTooLow):
        meter.received(10)


# --- 4 and 9: listings are small, shallow and name plain files -----------------------------------


def test_a_listing_larger_than_any_real_one_is_refused_without_reading_it_whole():
    with MisbehavingServer(Behaviour.endless()) as mirror:
        outcome = run_in_child(fetch_listing, mirror.url("/api/models/x/tree/main"), 30.0)
    assert outcome.error_type == "ModelError", outcome
    assert outcome.error == "The download server sent an answer VoxDesk does not understand; please try again later."
    assert outcome.peak_rss_mb < PEAK_LIMIT_MB


@pytest.mark.parametrize("encoding", ["gzip", "deflate"])
def test_a_compressed_listing_is_counted_after_decompression(encoding):
    with MisbehavingServer(Behaviour.bomb(encoding, 256)) as mirror:
        outcome = run_in_child(fetch_listing, mirror.url("/api/models/x/tree/main"), 30.0)
    assert outcome.error == "The download server sent an answer VoxDesk does not understand; please try again later."
    assert outcome.peak_rss_mb < PEAK_LIMIT_MB


def test_a_deeply_nested_listing_is_a_sentence_not_a_recursion_error():
    from desktop.core.common.download import fetch_json
    from desktop.core.common.errors import ModelError

    with FileServer({"/api/models/x/tree/main": b"[" * 200_000}) as mirror:
        with pytest.raises(ModelError) as raised:
            fetch_json(mirror.url("/api/models/x/tree/main"))
    assert raised.value.message == ("The download server sent an answer VoxDesk does not understand; please try "
                                    "again later.")


@pytest.mark.parametrize("name", ["vocabulary.\0txt", "vocabulary.\u202etxt", "../vocabulary.txt",
                                  "vocabulary.\ntxt"])
def test_a_listed_name_with_a_nul_byte_or_another_bad_character_is_refused_with_a_sentence(tmp_path, name):
    from desktop.core.common.download_sources import DownloadSources
    from desktop.core.common.errors import ModelError
    from desktop.core.common.shared_models import ModelSources
    from desktop.core.transcription.whisper_models import ModelStore

    # The real tiny.en files, and one more whose name no file here may have.
    files = {p.name: p.read_bytes() for p in sorted(tiny_en_dir().iterdir()) if p.is_file()}
    served = {f"/{TINY_EN_REPO}/resolve/main/{n}": d for n, d in files.items()}
    files[name] = b"{}"
    tree = [{"type": "file", "path": n, "size": len(d), "oid": "3" * 40,
             "lfs": {"oid": hashlib.sha256(d).hexdigest(), "size": len(d)}} for n, d in files.items()]
    served[f"/api/models/{TINY_EN_REPO}/tree/main"] = json.dumps(tree).encode()
    with FileServer(served) as mirror:
        sources = ModelSources((), DownloadSources(choice="custom", custom_url=mirror.base_url))
        store = ModelStore(tmp_path / "models", sources=sources)
        with pytest.raises(ModelError) as raised:
            store.download("tiny.en", "ct2")
    assert raised.value.message == ("The download server listed a file under a name VoxDesk does not accept, so "
                                    "VoxDesk did not download from it. Please try again later, or choose another "
                                    "download source in Settings → Downloads.")
    assert store.local("tiny.en") == []


# --- the depth-limited parser itself ------------------------------------------------------------


def test_json_nesting_is_limited_but_brackets_inside_strings_do_not_count():
    from desktop.core.common.bounded_http import JSON_DEPTH_LIMIT, TooDeep, parse_json

    deepest = b"[" * JSON_DEPTH_LIMIT + b"]" * JSON_DEPTH_LIMIT
    assert parse_json(deepest) == parse_json(deepest)  # accepted
    with pytest.raises(TooDeep):
        parse_json(b"[" * (JSON_DEPTH_LIMIT + 1) + b"]" * (JSON_DEPTH_LIMIT + 1))
    text = {"text": "[[[[" * 100 + '\\"{{{' + "\\" * 3, "segments": [{"text": "]]]}}}"}]}
    assert parse_json(json.dumps(text).encode()) == text
    with pytest.raises(ValueError):
        parse_json(b'"unterminated [[[[' + b"[" * 100_000)
    # Two million escaped quotes in a string that never ends: one pass, not one per quote.
    with pytest.raises(ValueError):
        parse_json(b'["' + b'\\"' * 2_000_000)


def test_the_doctors_probe_counts_a_source_that_trickles_its_headers_as_not_answering(tmp_path):
    from desktop.core.common.download_sources import DownloadSources, probe_all

    with MisbehavingServer(Behaviour.trickle(b"", interval=0.2, headers_too=True)) as slow, \
            FileServer({}) as quick:
        rows = probe_all(DownloadSources(official=slow.base_url, mirror=quick.base_url, probe_timeout=1.0))
    assert [(name, ok) for name, _url, ok, _why in rows] == [("huggingface", False), ("hf-mirror", True)]


def test_a_full_disk_during_a_download_is_a_sentence_not_a_traceback(tmp_path):
    """The unfinished download's file is /dev/full, where every write fails with ENOSPC, as on a full disk."""
    from desktop.core.common.download import download_file
    from desktop.core.common.errors import ModelError

    data = bytes(range(256)) * 800  # 200 kB: several chunks, and a last one shorter than the rest
    dest = tmp_path / "model.bin"
    (tmp_path / "model.bin.part").symlink_to("/dev/full")
    with FileServer({"/model.bin": data}) as server:
        with pytest.raises(ModelError) as raised:
            download_file(server.url("/model.bin"), dest, size=len(data), sha256=hashlib.sha256(data).hexdigest())
    assert raised.value.message == "The disk is full, so model.bin could not be saved. Free some space, then try again."
    assert not dest.exists() and not os.path.lexists(tmp_path / "model.bin.part")


def test_a_download_follows_redirects_only_to_http(tmp_path):
    """Not a new limit (urllib had it); kept now that redirects are followed hop by hop. A loop of
    redirects has its own sentence (test_connection_problems)."""
    from desktop.core.common.download import NETWORK_MESSAGE, ServerUnreachable, download_file

    with FileServer({}, redirects={"/model.bin": "file:///etc/passwd"}) as server:
        with pytest.raises(ServerUnreachable) as raised:
            download_file(server.url("/model.bin"), tmp_path / "model.bin", size=10)
        assert server.request_count() == 1
    assert raised.value.message == NETWORK_MESSAGE
