"""No import circle anywhere in desktop/, and the transcription room stays grouped by job.

An import circle (a imports b, b imports a, perhaps through others) means neither module can be read,
tested or moved without the other. Imports made only for type hints (under TYPE_CHECKING) never run
and are left out; imports inside functions count, since they run.
"""
import functools
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
TRANSCRIPTION = ROOT / "desktop" / "engines" / "transcription"
MOST_MODULES_AT_THE_TOP = 8  # beside __init__.py, the rest in the folders of their job


@functools.cache
def _graph():
    return grimp.build_graph("desktop", exclude_type_checking_imports=True, cache_dir=None)


def _circles(graph) -> list[list[str]]:
    """One chain per circle: a module, the modules it imports on the way back, and the module again."""
    found = []
    for module in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            inside = imported.partition(".")[0] == module.partition(".")[0]  # not a library's module
            if inside and imported > module and graph.chain_exists(importer=imported, imported=module):
                found.append([module, *graph.find_shortest_chain(importer=imported, imported=module)])
    return found


def test_no_module_of_desktop_imports_itself_through_others():
    graph = _graph()
    circles = _circles(graph)
    assert circles == [], "\n".join(" -> ".join(chain) for chain in circles)


def test_the_circle_check_finds_a_circle(tmp_path, monkeypatch):
    package = tmp_path / "circular"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "first.py").write_text("from circular import second\n")
    (package / "second.py").write_text("def later():\n    from circular import first\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    graph = grimp.build_graph("circular", exclude_type_checking_imports=True, cache_dir=None)
    assert _circles(graph) == [["circular.first", "circular.second", "circular.first"]]


def test_the_transcription_room_keeps_few_modules_at_its_top():
    top = sorted(path.name for path in TRANSCRIPTION.glob("*.py") if path.name != "__init__.py")
    assert len(top) <= MOST_MODULES_AT_THE_TOP, top
