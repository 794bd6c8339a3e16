"""The layer rule of ARCHITECTURE.md: ui -> workers -> engines -> core, no Qt below workers, and no heavy
library loaded by importing core or engines."""
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("torch", "torchaudio", "whisper", "TTS", "ctranslate2", "faster_whisper", "transformers", "resemblyzer")


def test_the_import_contracts_in_pyproject_hold():
    lint_imports = Path(sys.executable).with_name("lint-imports")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p))
    done = subprocess.run([str(lint_imports), "--no-cache", "--no-logo"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def test_importing_every_core_and_engines_module_loads_neither_qt_nor_a_heavy_library():
    """lint-imports sees imports inside functions too; this checks what loading a module costs."""
    script = textwrap.dedent(f"""
        import importlib, pkgutil, sys
        import desktop.core, desktop.engines
        for package in (desktop.core, desktop.engines):
            for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
                importlib.import_module(module.name)
        loaded = sorted(m for m in ("PySide6", *{HEAVY!r}) if m in sys.modules)
        print(",".join(loaded) or "none")
    """)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "none"
