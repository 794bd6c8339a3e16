"""The layer rule of ARCHITECTURE.md: ui -> workers -> engines -> core, no Qt below workers, no heavy
library loaded by importing core or engines, and no import of a module path that does not exist."""
import ast
import functools
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("torch", "torchaudio", "whisper", "TTS", "ctranslate2", "faster_whisper", "transformers", "resemblyzer", "sklearn")


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


def _module_file(name: str) -> Path | None:
    parts = name.split(".")
    if parts[:2] == ["desktop", "resources"]:  # shipped from resources/ (pyproject's package-dir)
        parts = ["resources", *parts[2:]]
    base = ROOT.joinpath(*parts)
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


@functools.lru_cache(maxsize=None)
def _defined_names(path: Path) -> set[str]:
    """Names bound at the top level of a module, also inside if/try blocks."""
    names: set[str] = set()
    pending = list(ast.parse(path.read_text(encoding="utf-8")).body)
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
        elif isinstance(node, (ast.If, ast.Try)):
            pending.extend(node.body + node.orelse + getattr(node, "finalbody", []))
            pending.extend(n for handler in getattr(node, "handlers", []) for n in handler.body)
    return names


def test_every_import_of_a_desktop_module_names_one_that_exists():
    """Also the imports inside functions, which nothing runs until a user reaches them."""
    missing = []
    for path in sorted([*ROOT.joinpath("desktop").rglob("*.py"), *ROOT.joinpath("tests").rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', '?')}"
            if isinstance(node, ast.Import):
                missing += [f"{where} {a.name}" for a in node.names
                            if a.name.startswith("desktop.") and _module_file(a.name) is None]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "desktop":
                module = _module_file(node.module)
                if module is None:
                    missing.append(f"{where} {node.module}")
                    continue
                defined = _defined_names(module)
                missing += [f"{where} {node.module}.{a.name}" for a in node.names
                            if a.name != "*" and a.name not in defined and _module_file(f"{node.module}.{a.name}") is None]
    assert missing == []


def test_outside_the_editor_room_nothing_reaches_into_the_panels_table():
    """The room's way in is the TranscriptPanel's own methods, the EditorContext and the documents
    (ARCHITECTURE.md): code around it never reads the panel's table model or search model itself.
    import-linter sees imports only, not these attributes."""
    room = ROOT / "desktop" / "ui" / "transcribe" / "editor"
    reaching = []
    for path in sorted(ROOT.joinpath("desktop").rglob("*.py")):
        if room in path.parents:
            continue
        reaching += [f"{path.relative_to(ROOT)}:{node.lineno} .{node.attr}"
                     for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                     if isinstance(node, ast.Attribute) and node.attr in ("segments_model", "search_model")]
    assert reaching == []
