"""Fetch CTranslate2's ROCm wheel for this card, checked, for packaging/install.sh.

The release archive (``wheels.CT2_ROCM_ARCHIVE``) is downloaded through ``core/common/download.py``
(a bounded, resumable download with a deadline), its SHA-256 compared with the expected one, and the
one wheel for this Python taken out of it. The expected checksum is, in this order: the
``VOXDESK_CT2_ROCM_SHA256`` variable; for a company mirror (``VOXDESK_CT2_ROCM_BASE``) the
``<archive>.sha256`` file beside the archive; for CTranslate2's own releases the digest GitHub lists
for the release asset. Without one the wheel is not installed.

Run as ``python -m desktop.core.gpu.ct2_rocm_wheel --dest DIR``: prints the wheel's path and exits 0,
or prints a sentence naming the command to run by hand and exits 3 (the CPU wheel stays installed).
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import zipfile
from pathlib import Path, PurePosixPath
from typing import Mapping

from desktop.core.common.errors import UserFacingError
from desktop.core.common.i18n import N_
from desktop.core.gpu.this_machine import this_machine
from desktop.core.gpu.wheels import CT2_RELEASES, CT2_ROCM_ARCHIVE, Ct2Choice, ct2_wheel

BASE_VARIABLE = "VOXDESK_CT2_ROCM_BASE"
CHECKSUM_VARIABLE = "VOXDESK_CT2_ROCM_SHA256"
GITHUB_RELEASE_API = "https://api.github.com/repos/OpenNMT/CTranslate2/releases/tags/v{version}"
ARCHIVE_LIMIT = 1024**3  # the archive was about 270 MB in 2026
WHEEL_LIMIT = 512 * 1024**2
NOT_INSTALLED_EXIT = 3

_SHA256 = re.compile(r"^[0-9a-f]{64}$")


class WheelNotFetched(UserFacingError):
    """The ROCm wheel could not be fetched or checked; the CPU wheel stays."""


def manual_command(url: str) -> str:
    """What a person can run to do the same by hand (from the folder holding install.sh)."""
    return f"{BASE_VARIABLE}={url.rsplit('/v', 1)[0]} {CHECKSUM_VARIABLE}=<sha256> packaging/install.sh"


def _not_fetched(url: str, why: str) -> WheelNotFetched:
    return WheelNotFetched(N_(
        "Wheels", "CTranslate2's ROCm wheel could not be installed ({why}), so faster-whisper keeps running on the "
                  "processor. To try again, possibly from your company's mirror: {command}").format(
        why=why, command=manual_command(url)))


def digest_from_release(release: object, asset: str = CT2_ROCM_ARCHIVE) -> str | None:
    """The SHA-256 GitHub lists for one asset of a release (its "digest": "sha256:..."), or None."""
    if not isinstance(release, dict) or not isinstance(release.get("assets"), list):
        return None
    for entry in release["assets"]:
        if isinstance(entry, dict) and entry.get("name") == asset and isinstance(entry.get("digest"), str):
            kind, _, value = entry["digest"].partition(":")
            if kind == "sha256" and _SHA256.match(value.lower()):
                return value.lower()
    return None


def expected_checksum(archive_url: str, version: str, environ: Mapping[str, str], *, timeout: float) -> str:
    """The SHA-256 the archive must have. Raises WheelNotFetched when none can be had."""
    from desktop.core.common import bounded_http, download

    given = (environ.get(CHECKSUM_VARIABLE) or "").strip().lower()
    if given:
        if not _SHA256.match(given):
            raise _not_fetched(archive_url, N_("Wheels", "{variable} is not a SHA-256 checksum").format(
                variable=CHECKSUM_VARIABLE))
        return given
    try:
        if archive_url.startswith(CT2_RELEASES + "/"):
            digest = digest_from_release(download.fetch_json(GITHUB_RELEASE_API.format(version=version),
                                                             timeout=timeout))
        else:
            with bounded_http.fetch(archive_url + ".sha256", deadline=bounded_http.Deadline(timeout),
                                    connect_seconds=timeout, read_seconds=timeout) as response:
                if response.status_code != 200:
                    raise _not_fetched(archive_url, N_("Wheels", "the mirror has no checksum file for it"))
                words = bounded_http.read_body(response, 4096).decode("ascii", "replace").split()
            digest = words[0].lower() if words and _SHA256.match(words[0].lower()) else None
    except WheelNotFetched:
        raise
    except UserFacingError as exc:
        raise _not_fetched(archive_url, exc.message) from exc
    except Exception as exc:  # noqa: BLE001 - the network, however it fails, is the finding
        raise _not_fetched(archive_url, N_("Wheels", "the checksum could not be read")) from exc
    if digest is None:
        raise _not_fetched(archive_url, N_("Wheels", "no checksum is published for it"))
    return digest


def extract_wheel(archive: Path, prefix: str, dest: Path) -> Path | None:
    """The one wheel whose file name starts with ``prefix``, copied out of the archive into ``dest``;
    None when there is not exactly one, it is larger than any wheel can be, or the archive is damaged."""
    try:
        with zipfile.ZipFile(archive) as bundle:
            members = [info for info in bundle.infolist() if not info.is_dir()
                       and PurePosixPath(info.filename).name.startswith(prefix)
                       and PurePosixPath(info.filename).name.endswith(".whl")]
            if len(members) != 1 or members[0].file_size > WHEEL_LIMIT:
                return None
            target = dest / PurePosixPath(members[0].filename).name  # the name only: no path from the archive
            partial = target.with_name(target.name + ".part")
            try:
                with bundle.open(members[0]) as source, open(partial, "wb") as out:
                    while chunk := source.read(1 << 20):
                        out.write(chunk)
                os.replace(partial, target)
            finally:
                partial.unlink(missing_ok=True)  # never half a wheel left behind
            return target
    except (zipfile.BadZipFile, OSError):
        return None


def fetch_wheel(choice: Ct2Choice, version: str, dest: Path, *, environ: Mapping[str, str] | None = None,
                timeout: float = 30.0) -> Path:
    """Download and check the archive of ``choice``, and return its wheel for this Python in ``dest``.

    Raises WheelNotFetched with a sentence naming the command to run by hand.
    """
    from desktop.core.common import download

    environ = os.environ if environ is None else environ
    if choice.archive_url is None or choice.wheel_prefix is None:
        raise ValueError("this choice keeps the CPU wheel; there is nothing to fetch")
    url = choice.archive_url
    checksum = expected_checksum(url, version, environ, timeout=timeout)
    archive = dest / f"ctranslate2-{version}-{CT2_ROCM_ARCHIVE}"
    try:
        download.download_file(url, archive, sha256=checksum, max_size=ARCHIVE_LIMIT, timeout=timeout,
                               label=CT2_ROCM_ARCHIVE)
    except UserFacingError as exc:
        raise _not_fetched(url, exc.message) from exc
    try:
        wheel = extract_wheel(archive, choice.wheel_prefix, dest)
    finally:
        archive.unlink(missing_ok=True)
    if wheel is None:
        raise _not_fetched(url, N_("Wheels", "the archive has no wheel for this Python"))
    return wheel


def main(argv: list[str] | None = None) -> int:
    from importlib import metadata

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dest", type=Path, required=True, help="folder for the wheel")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds the server may stay silent")
    parser.add_argument("--gfx", help="the card's gfx target (default: from rocminfo)")
    parser.add_argument("--rocm", help="the installed ROCm release (default: detected)")
    args = parser.parse_args(argv)
    environ = os.environ
    machine = this_machine(environ) if args.gfx is None or args.rocm is None else None
    gfx = args.gfx or (machine.gfx if machine else None)
    rocm = args.rocm or (machine.rocm_release if machine else None)
    try:
        version = metadata.version("ctranslate2")
    except metadata.PackageNotFoundError:
        print(N_("Wheels", "CTranslate2 is not installed; install VoxDesk first."), file=sys.stderr)
        return NOT_INSTALLED_EXIT
    tag = f"cp{sys.version_info.major}{sys.version_info.minor}"
    choice = ct2_wheel(gfx, rocm, version, tag, hsa_override=environ.get("HSA_OVERRIDE_GFX_VERSION"),
                       base=environ.get(BASE_VARIABLE) or CT2_RELEASES)
    print(choice.reason, file=sys.stderr)
    if choice.archive_url is None:
        return NOT_INSTALLED_EXIT
    try:
        args.dest.mkdir(parents=True, exist_ok=True)
        wheel = fetch_wheel(choice, version, args.dest, environ=environ, timeout=args.timeout)
    except (WheelNotFetched, OSError) as error:
        print(getattr(error, "message", None) or _not_fetched(choice.archive_url, str(error)).message,
              file=sys.stderr)
        return NOT_INSTALLED_EXIT
    print(wheel)
    return 0


if __name__ == "__main__":
    sys.exit(main())
