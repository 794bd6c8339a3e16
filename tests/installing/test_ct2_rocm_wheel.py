"""CTranslate2's ROCm wheel, fetched from real HTTP servers on 127.0.0.1 the way packaging/install.sh
fetches it: a checked archive gives the wheel; a wrong checksum, a missing file or a stalled server
give a sentence naming the command, and nothing half-written is left."""
import hashlib
import io
import subprocess
import sys
import zipfile
from pathlib import Path

from desktop.core.gpu.ct2_rocm_wheel import NOT_INSTALLED_EXIT, WheelNotFetched, digest_from_release, fetch_wheel
from desktop.core.gpu.wheels import ct2_wheel
from tests.helpers.http_server import FileServer
from tests.helpers.misbehaving_http import Behaviour, MisbehavingServer

import pytest

ROOT = Path(__file__).resolve().parents[2]
VERSION = "4.8.5"
WHEEL_NAME = f"ctranslate2-{VERSION}-cp312-cp312-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl"


def archive() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as bundle:
        bundle.writestr(f"temp-linux/{WHEEL_NAME}", b"the wheel for 3.12")
        bundle.writestr(f"temp-linux/ctranslate2-{VERSION}-cp311-cp311-manylinux_2_28_x86_64.whl", b"for 3.11")
    return buffer.getvalue()


def mirror_files(body: bytes, checksum: str | None = None) -> dict[str, bytes]:
    path = f"/ct2/v{VERSION}/rocm-python-wheels-Linux.zip"
    return {path: body, path + ".sha256": f"{checksum or hashlib.sha256(body).hexdigest()}  x.zip\n".encode()}


def choice_from(base: str):
    return ct2_wheel("gfx1100", "7.2.1", VERSION, "cp312", base=base)


def test_a_checked_archive_gives_the_wheel_for_this_python(tmp_path):
    with FileServer(mirror_files(archive())) as server:
        wheel = fetch_wheel(choice_from(server.url("/ct2")), VERSION, tmp_path, environ={}, timeout=5)
    assert wheel.name == WHEEL_NAME and wheel.read_bytes() == b"the wheel for 3.12"
    assert sorted(p.name for p in tmp_path.iterdir()) == [WHEEL_NAME]  # the archive is gone


def test_a_wrong_checksum_installs_nothing_and_names_the_command(tmp_path):
    with FileServer(mirror_files(archive(), checksum="0" * 64)) as server:
        with pytest.raises(WheelNotFetched) as raised:
            fetch_wheel(choice_from(server.url("/ct2")), VERSION, tmp_path, environ={}, timeout=5)
    assert "packaging/install.sh" in raised.value.message and "VOXDESK_CT2_ROCM_BASE" in raised.value.message
    assert not any(p.suffix == ".whl" for p in tmp_path.iterdir())


def test_a_checksum_given_by_the_variable_wins_over_the_mirrors(tmp_path):
    body = archive()
    with FileServer(mirror_files(body, checksum="0" * 64)) as server:
        wheel = fetch_wheel(choice_from(server.url("/ct2")), VERSION, tmp_path, timeout=5,
                            environ={"VOXDESK_CT2_ROCM_SHA256": hashlib.sha256(body).hexdigest()})
    assert wheel.name == WHEEL_NAME


def test_a_missing_archive_is_a_sentence(tmp_path):
    files = mirror_files(archive())
    files.pop(f"/ct2/v{VERSION}/rocm-python-wheels-Linux.zip")
    with FileServer(files) as server:
        with pytest.raises(WheelNotFetched) as raised:
            fetch_wheel(choice_from(server.url("/ct2")), VERSION, tmp_path, environ={}, timeout=5)
    assert "could not be installed" in raised.value.message


def test_a_mirror_without_a_checksum_file_installs_nothing(tmp_path):
    files = {f"/ct2/v{VERSION}/rocm-python-wheels-Linux.zip": archive()}
    with FileServer(files) as server:
        with pytest.raises(WheelNotFetched) as raised:
            fetch_wheel(choice_from(server.url("/ct2")), VERSION, tmp_path, environ={}, timeout=5)
    assert "checksum" in raised.value.message


def test_a_stalled_server_is_given_up_on_within_its_timeout(tmp_path):
    body = archive()
    stalled = Behaviour.trickle(body, interval=3.0, stop_after_seconds=10.0)
    with MisbehavingServer(stalled, files={f"/ct2/v{VERSION}/rocm-python-wheels-Linux.zip.sha256":
                                           hashlib.sha256(body).hexdigest().encode()}) as server:
        with pytest.raises(WheelNotFetched) as raised:
            fetch_wheel(choice_from(server.url("/ct2")), VERSION, tmp_path, environ={}, timeout=1)
    assert "could not be installed" in raised.value.message
    assert not any(p.suffix == ".whl" for p in tmp_path.iterdir())


def test_the_command_install_sh_runs_prints_the_wheel_or_a_sentence_and_keeps_the_cpu_wheel(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    with FileServer({}) as server:
        env["VOXDESK_CT2_ROCM_BASE"] = server.url("/ct2")
        missing = subprocess.run([sys.executable, "-m", "desktop.core.gpu.ct2_rocm_wheel", "--dest", str(tmp_path),
                                  "--gfx", "gfx1100", "--rocm", "7.2.1", "--timeout", "5"],
                                 capture_output=True, text=True, timeout=120, env=env, cwd=ROOT)
    assert missing.returncode == NOT_INSTALLED_EXIT and missing.stdout == ""
    assert "packaging/install.sh" in missing.stderr and "Traceback" not in missing.stderr
    unlisted = subprocess.run([sys.executable, "-m", "desktop.core.gpu.ct2_rocm_wheel", "--dest", str(tmp_path),
                               "--gfx", "gfx1031", "--rocm", "7.2.1"],
                              capture_output=True, text=True, timeout=120, env=env, cwd=ROOT)
    assert unlisted.returncode == NOT_INSTALLED_EXIT and "no ROCm build for gfx1031" in unlisted.stderr


def test_githubs_digest_of_the_release_asset_is_the_checksum():
    release = {"assets": [{"name": "rocm-python-wheels-Windows.zip", "digest": "sha256:" + "a" * 64},
                          {"name": "rocm-python-wheels-Linux.zip", "digest": "sha256:" + "B" * 64}]}
    assert digest_from_release(release) == "b" * 64
    assert digest_from_release({"assets": [{"name": "rocm-python-wheels-Linux.zip", "digest": "md5:x"}]}) is None
    assert digest_from_release(["not", "a", "release"]) is None


def test_a_damaged_archive_with_the_published_checksum_leaves_nothing_behind(tmp_path):
    body = archive()[:-200]  # cut short: its central directory is gone
    with FileServer(mirror_files(body)) as server:
        with pytest.raises(WheelNotFetched) as raised:
            fetch_wheel(choice_from(server.url("/ct2")), VERSION, tmp_path, environ={}, timeout=5)
    assert "no wheel for this Python" in raised.value.message
    assert list(tmp_path.iterdir()) == []
