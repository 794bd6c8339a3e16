"""Every entry (the window, each command, live captions, the doctor) gets its model stores from
desktop.settings.open_model_stores, the one place that applies the shared model folders and the
download source. A command that built a store of its own would search neither."""
from __future__ import annotations

import ast
from pathlib import Path

import desktop

PACKAGE = Path(desktop.__file__).parent
THE_ONE_PLACE = PACKAGE / "settings.py"
# The stores, and the sources they are given: a command that chose its own sources (the environment's
# alone, say) would skip the folders and the download source chosen in Settings.
STORE_CLASSES = {"ModelStore", "TtsModelStore", "LiveSources", "from_choices"}


def store_constructions(path: Path) -> list[int]:
    """The lines of `path` that build a store or the sources for one."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            if name in STORE_CLASSES:
                lines.append(node.lineno)
    return lines


def test_model_stores_are_built_in_one_place_only():
    elsewhere = [f"{path.relative_to(PACKAGE.parent)}:{line}"
                 for path in sorted(PACKAGE.rglob("*.py")) if path != THE_ONE_PLACE
                 for line in store_constructions(path)]

    assert elsewhere == [], "build model stores with desktop.settings.open_model_stores, not here"
    assert store_constructions(THE_ONE_PLACE)  # and the one place does build them


def test_the_check_finds_a_store_built_by_a_command(tmp_path):
    command = tmp_path / "command.py"
    command.write_text("from desktop.core.transcription import whisper_models as wm\n"
                       "def run(root):\n    return wm.ModelStore(root)\n", encoding="utf-8")
    assert store_constructions(command) == [3]


def test_the_stores_search_the_shared_folders_of_the_environment(tmp_path, monkeypatch):
    from desktop.settings import open_model_stores

    monkeypatch.setenv("VOXDESK_MODEL_DIRS", str(tmp_path))
    stores = open_model_stores()
    assert tmp_path in stores.whisper.sources.shared_dirs
    assert stores.voices.sources == stores.whisper.sources
