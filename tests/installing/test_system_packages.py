"""packaging/system-packages.sh: installs what is missing, as root or through sudo, or says what to do."""
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from tests.helpers.tools import require_tool

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "packaging" / "system-packages.sh"
LIST = ROOT / "resources" / "system-packages.txt"


def packages(role: str) -> list[str]:
    wanted = []
    for line in LIST.read_text().splitlines():
        fields = line.split()
        if fields and not fields[0].startswith("#") and (fields[0] == "app" or role == "test"):
            wanted.append(fields[1])
    return wanted


class FakeSystem:
    """A PATH holding only the few real tools the script needs, and fake dpkg-query, apt-get, id, sudo."""

    def __init__(self, root: Path, *, installed: list[str], uid: int = 1000, sudo: bool = False, apt: bool = True):
        self.bin = root / "bin"
        self.bin.mkdir()
        self.log = root / "calls.log"
        for tool in ("dirname", "awk", "tr", "cat", "grep"):
            (self.bin / tool).symlink_to(shutil.which(tool))
        status = "\n".join(f"installed {name}" for name in installed)
        self._script("id", f'echo {uid}')
        if apt:
            # Like the real one, it exits 1 when it has never heard of one of the packages asked about.
            complete = set(packages("test")) <= set(installed)
            self._script("dpkg-query", f"cat <<'END'\n{status}\nEND\nexit {0 if complete else 1}")
            self._script("apt-get", f'echo "apt-get $*" >> {self.log}')
        if sudo:
            self._script("sudo", f'echo "sudo $*" >> {self.log}')

    def _script(self, name: str, body: str) -> None:
        path = self.bin / name
        path.write_text(f"#!{shutil.which('bash')}\n{body}\n")
        path.chmod(0o755)

    def run(self, role: str) -> subprocess.CompletedProcess:
        env = {"PATH": str(self.bin), "HOME": os.environ.get("HOME", "/")}
        return subprocess.run([shutil.which("bash"), str(SCRIPT), role], env=env, capture_output=True,
                              text=True, timeout=60)

    def calls(self) -> list[str]:
        return self.log.read_text().splitlines() if self.log.exists() else []


def test_nothing_is_installed_when_everything_is_there(tmp_path):
    system = FakeSystem(tmp_path, installed=packages("test"), uid=0)
    result = system.run("test")
    assert result.returncode == 0, result.stderr
    assert system.calls() == []


def test_as_root_the_missing_packages_are_installed_with_apt_get(tmp_path):
    everything = packages("test")
    system = FakeSystem(tmp_path, installed=[p for p in everything if p not in ("sox", "libportaudio2")], uid=0)
    result = system.run("test")
    assert result.returncode == 0, result.stderr
    install = [call for call in system.calls() if " install " in call]
    assert len(install) == 1 and install[0].startswith("apt-get install")
    assert install[0].split()[-2:] == ["libportaudio2", "sox"]


def test_the_app_role_leaves_out_what_only_the_tests_need(tmp_path):
    system = FakeSystem(tmp_path, installed=packages("app"), uid=0)
    assert system.run("app").returncode == 0
    assert system.calls() == []
    assert "sox" in packages("test") and "sox" not in packages("app")
    assert "espeak-ng" in packages("app")  # Piper voices read text through it


def test_a_user_with_sudo_is_told_and_sudo_apt_get_installs(tmp_path):
    system = FakeSystem(tmp_path, installed=[p for p in packages("app") if p != "libxcb-cursor0"], sudo=True)
    result = system.run("app")
    assert result.returncode == 0, result.stderr
    assert "libxcb-cursor0" in result.stdout and "sudo" in result.stdout
    assert system.calls()[-1].startswith("sudo apt-get install") and system.calls()[-1].endswith("libxcb-cursor0")


def test_without_root_or_sudo_it_stops_with_the_exact_command(tmp_path):
    system = FakeSystem(tmp_path, installed=[p for p in packages("test") if p != "espeak-ng"])
    result = system.run("test")
    assert result.returncode == 1
    assert "sudo apt-get install espeak-ng" in result.stderr
    assert result.stderr.count("\n") == 1  # one sentence
    assert system.calls() == []


def test_a_system_without_apt_is_told_which_packages_to_find(tmp_path):
    system = FakeSystem(tmp_path, installed=[], uid=0, apt=False)
    result = system.run("app")
    assert result.returncode == 1
    assert "no apt" in result.stderr and "libportaudio2" in result.stderr


@pytest.mark.parametrize("role", ["app", "test"])
def test_every_listed_package_exists_in_the_package_index(role):
    apt_cache = require_tool("apt-cache", "apt")
    shown = subprocess.run([apt_cache, "show", "--no-all-versions", *packages(role)], capture_output=True,
                           text=True, timeout=60)
    assert shown.returncode == 0, shown.stderr
