"""Which system package brings a missing shared library, and the one sentence that says so.

The list is resources/system-packages.txt, the same file packaging/system-packages.sh installs from,
so the app and the installer never disagree about package names.
"""
from __future__ import annotations

import ctypes
import re
import shutil
import subprocess
from pathlib import Path

from desktop.core.common.errors import UserFacingError
from desktop.core.common.i18n import N_, Message
from desktop.resources import resource_path

# Qt 6.5+ opens these with dlopen at start-up rather than linking them, so ldd cannot see them.
_QT_XCB_LOADED_AT_RUN_TIME = ("libxcb-cursor.so.0",)
_NOT_FOUND = re.compile(r"^\s*(\S+)\s*=>\s*not found", re.M)
_DLOPEN_MISSING = re.compile(r"^(\S+?\.so[.\d]*): cannot open shared object file")


def listed_packages() -> list[tuple[str, str, str | None]]:
    """(role, Debian package, shared library or None) for each line of the list."""
    rows = []
    for line in resource_path("system-packages.txt").read_text(encoding="utf-8").splitlines():
        fields = line.split()
        if len(fields) >= 3 and not fields[0].startswith("#"):
            rows.append((fields[0], fields[1], None if fields[2] == "-" else fields[2]))
    return rows


def package_for_library(soname: str) -> str | None:
    for _role, package, library in listed_packages():
        if library == soname:
            return package
    return None


def install_command(packages: list[str]) -> str:
    return "sudo apt-get install " + " ".join(packages)


def packages_for_libraries(sonames: list[str]) -> list[str]:
    """The packages to install for these libraries; a library the list does not know is named as is."""
    packages: list[str] = []
    for soname in sonames:
        package = package_for_library(soname) or soname
        if package not in packages:
            packages.append(package)
    return packages


def unresolved_libraries(library: Path, ldd: str | None = None) -> list[str]:
    """The shared libraries `library` needs that the dynamic linker cannot find."""
    ldd = ldd or shutil.which("ldd")
    if ldd is not None:
        try:
            out = subprocess.run([ldd, str(library)], capture_output=True, text=True, timeout=20).stdout
        except (OSError, subprocess.SubprocessError):
            out = ""
        return list(dict.fromkeys(_NOT_FOUND.findall(out)))
    try:  # no ldd: loading it names the first missing library, which is better than nothing
        ctypes.CDLL(str(library))
    except OSError as error:
        found = _DLOPEN_MISSING.match(str(error))
        return [found.group(1)] if found else []
    return []


def library_loads(soname: str) -> bool:
    try:
        ctypes.CDLL(soname)
    except OSError:
        return False
    return True


def missing_qt_xcb_libraries(plugin: Path) -> list[str]:
    """What Qt's X11 platform plugin (libqxcb.so) needs and this system lacks."""
    missing = unresolved_libraries(plugin)
    missing += [name for name in _QT_XCB_LOADED_AT_RUN_TIME if name not in missing and not library_loads(name)]
    return missing


# -- sound ----------------------------------------------------------------------------------------

PORTAUDIO_LIBRARY = "libportaudio.so.2"


class SoundUnavailable(UserFacingError):
    """The PortAudio library is missing: no recording and no playing, whatever the sound card."""


def sound_unavailable() -> Message:
    """The one sentence the recorder, the player and the doctor say when PortAudio is missing."""
    package = package_for_library(PORTAUDIO_LIBRARY) or "libportaudio2"
    return N_("Sound", "Sound is unavailable because the PortAudio library is missing. Install the package "
                       "“{package}” ({command}), then start VoxDesk again.").format(
        package=package, command=install_command([package]))


def import_sounddevice():
    """The sounddevice module; SoundUnavailable when the PortAudio library it loads is missing."""
    from desktop.core.common.portaudio_quiet import install_alsa_handler

    try:
        import sounddevice
    except OSError as exc:  # sounddevice raises OSError when it cannot find the PortAudio library
        raise SoundUnavailable(sound_unavailable(), detail=str(exc)) from exc
    install_alsa_handler()  # ALSA's own error lines go to the log, not the terminal
    return sounddevice
