"""HSA_OVERRIDE_GFX_VERSION: the value per card, and the launcher's re-exec that puts it in place."""
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import desktop
from desktop.core.gpu.environment import (
    OVERRIDE_VARIABLE,
    REEXEC_MARKER,
    advice_for,
    ensure_gpu_environment,
)


@pytest.mark.parametrize("arch", ["gfx1031", "gfx1032", "gfx1034", "gfx1035", "gfx1036"])
def test_rdna2_cards_without_their_own_code_run_as_gfx1030(arch):
    assert advice_for(arch).override == "10.3.0"


@pytest.mark.parametrize("arch", ["gfx1101", "gfx1102"])
def test_smaller_rdna3_cards_run_as_gfx1100(arch):
    assert advice_for(arch).override == "11.0.0"


def test_the_780m_gets_a_newer_rocm_instead_of_an_override():
    advice = advice_for("gfx1103")
    assert advice.override is None
    assert advice.rocm_release == "7.2"


def test_target_features_after_the_colon_do_not_matter():
    assert advice_for("gfx1031:xnack-").override == "10.3.0"


def test_cards_with_code_in_the_wheel_or_unknown_ones_get_no_override():
    assert advice_for("gfx1100").override is None
    assert advice_for("gfx90a").override is None


class Exec:
    """Records the exec instead of replacing the test process."""

    def __init__(self):
        self.calls = []

    def __call__(self, path, argv):
        self.calls.append((path, list(argv)))


def test_the_override_is_added_and_the_same_command_started_again():
    environ, execv = {}, Exec()
    ensure_gpu_environment("10.3.0", environ=environ, execv=execv, command=["/venv/bin/python", "-m", "desktop"])
    assert environ[OVERRIDE_VARIABLE] == "10.3.0"
    assert environ[REEXEC_MARKER] == "1"
    assert execv.calls == [("/venv/bin/python", ["/venv/bin/python", "-m", "desktop"])]


def test_an_empty_setting_changes_nothing():
    environ, execv = {}, Exec()
    ensure_gpu_environment("", environ=environ, execv=execv)
    assert environ == {} and execv.calls == []


def test_a_value_the_user_exported_wins_over_the_setting():
    environ, execv = {OVERRIDE_VARIABLE: "11.0.0"}, Exec()
    ensure_gpu_environment("10.3.0", environ=environ, execv=execv)
    assert environ[OVERRIDE_VARIABLE] == "11.0.0"
    assert execv.calls == []


def test_the_re_executed_process_never_executes_again():
    # The variable got lost on the way (something strips it): starting again would loop forever.
    environ, execv = {REEXEC_MARKER: "1"}, Exec()
    ensure_gpu_environment("10.3.0", environ=environ, execv=execv)
    assert execv.calls == []


def test_a_malformed_value_is_ignored():
    environ, execv = {}, Exec()
    ensure_gpu_environment("10.3", environ=environ, execv=execv)
    ensure_gpu_environment("gfx1030", environ=environ, execv=execv)
    assert OVERRIDE_VARIABLE not in environ and execv.calls == []


def test_a_real_launcher_restarts_once_with_the_variable_in_place(tmp_path):
    """A real process: the first run re-executes itself, the second sees the variable and goes on."""
    script = tmp_path / "launcher.py"
    script.write_text(textwrap.dedent("""
        import os, sys
        print("start", os.environ.get("HSA_OVERRIDE_GFX_VERSION", "-"), flush=True)
        from desktop.core.gpu.environment import ensure_gpu_environment
        ensure_gpu_environment("10.3.0")
        print("running", os.environ["HSA_OVERRIDE_GFX_VERSION"], sys.argv[1:], flush=True)
    """))
    env = {k: v for k, v in os.environ.items() if k not in (OVERRIDE_VARIABLE, REEXEC_MARKER)}
    package_root = Path(desktop.__file__).resolve().parents[1]
    env["PYTHONPATH"] = os.pathsep.join([str(package_root), env.get("PYTHONPATH", "")])
    result = subprocess.run([sys.executable, str(script), "--an-argument"], env=env, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["start -", "start 10.3.0", "running 10.3.0 ['--an-argument']"]
