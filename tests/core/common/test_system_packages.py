"""The app and the installer read one list of system packages."""
from desktop.core.common import system_packages


def test_each_library_the_app_looks_for_maps_to_its_debian_package():
    assert system_packages.package_for_library("libportaudio.so.2") == "libportaudio2"
    assert system_packages.package_for_library("libxcb-cursor.so.0") == "libxcb-cursor0"
    assert system_packages.package_for_library("libnothing.so.9") is None


def test_an_unknown_library_is_named_as_it_is_and_packages_are_not_repeated():
    assert system_packages.packages_for_libraries(
        ["libxcb-icccm.so.4", "libxcb-icccm.so.4", "libodd.so.1"]) == ["libxcb-icccm4", "libodd.so.1"]
    assert system_packages.install_command(["a", "b"]) == "sudo apt-get install a b"


def test_the_test_tools_are_listed_apart_from_what_the_app_needs():
    roles = {package: role for role, package, _library in system_packages.listed_packages()}
    # espeak-ng makes the Piper voices' phonemes, so the app needs it too.
    assert roles["libportaudio2"] == "app" and roles["fonts-noto-cjk"] == "app" and roles["espeak-ng"] == "app"
    assert {roles[p] for p in ("pulseaudio", "pulseaudio-utils", "sox")} == {"test"}
