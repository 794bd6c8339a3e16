"""Which kind of voice a model is, Coqui or Piper, is told in one place (desktop.engines.speech.voice_kinds):
by its name, its folder or what the store recorded of it. The engine and the rest only use the kind."""
from __future__ import annotations

import ast
from pathlib import Path

import desktop
from desktop.core.speech.tts_models import TtsModelStore
from desktop.engines.speech.voice_kinds import COQUI, PIPER, find_model, kind_of
from tests.helpers.piper_voice import JOE_KEY, copy_of_joe

ENGINES = Path(desktop.__file__).parent / "engines"
THE_ONE_PLACE = ENGINES / "speech" / "voice_kinds.py"
# What telling a Piper voice from a Coqui model looks like in code.
KIND_CHECKS = {"is_piper_voice", "is_piper_name", "_is_piper"}


def kind_checks(path: Path) -> list[int]:
    """The lines of path that tell a Piper voice from a Coqui model themselves."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            if name in KIND_CHECKS:
                lines.append(node.lineno)
        elif isinstance(node, ast.Compare):
            values = [node.left, *node.comparators]
            if any(isinstance(v, ast.Constant) and v.value == "piper" for v in values):
                lines.append(node.lineno)
    return lines


def test_no_engine_but_voice_kinds_tells_piper_from_coqui():
    elsewhere = [f"{path.relative_to(ENGINES.parent)}:{line}"
                 for path in sorted(ENGINES.rglob("*.py")) if path != THE_ONE_PLACE
                 for line in kind_checks(path)]

    assert elsewhere == [], "ask desktop.engines.speech.voice_kinds for the kind of a voice"
    assert kind_checks(THE_ONE_PLACE)  # and the one place does tell them apart


def test_the_check_finds_a_kind_told_by_name(tmp_path):
    engine = tmp_path / "engine.py"
    engine.write_text("def device(loaded, model):\n    if loaded.kind == 'piper':\n        return 'cpu'\n"
                      "    return 'cpu' if is_piper_name(model) else 'cuda'\n", encoding="utf-8")
    assert kind_checks(engine) == [2, 4]


def test_piper_voices_and_coqui_models_are_told_apart_by_name_folder_and_record(tmp_path, tiny_folders):
    store = TtsModelStore(tmp_path / "store")
    joe = copy_of_joe(tmp_path / "joe")
    imported_piper = store.import_folder(joe, "Office voice")
    imported_coqui = store.import_folder(tiny_folders["single"], "Tiny voice")

    assert kind_of(str(joe), store) is PIPER  # a folder used in place
    assert kind_of(str(joe / f"{JOE_KEY}.onnx"), store) is PIPER  # its .onnx
    assert kind_of(f"piper/{JOE_KEY}", store) is PIPER  # the catalog's name, not downloaded
    assert kind_of(imported_piper.name, store) is PIPER  # what the store recorded
    assert kind_of(str(tiny_folders["single"]), store) is COQUI
    assert kind_of(imported_coqui.name, store) is COQUI
    assert kind_of("tts_models/en/vctk/vits", store) is COQUI
    assert kind_of("imported/nothing-here", store) is COQUI  # never refuses: loading says what is wrong
    assert PIPER.cpu_only and not COQUI.cpu_only


def test_a_model_is_found_in_place_or_in_the_store_with_its_title_and_languages(tmp_path, tiny_folders):
    store = TtsModelStore(tmp_path / "store")
    joe = copy_of_joe(tmp_path / "joe")
    imported = store.import_folder(joe, "Office voice")

    in_place = find_model(str(joe / f"{JOE_KEY}.onnx"), store)
    stored = find_model(imported.name, store)
    coqui = find_model(str(tiny_folders["single"]), store)

    assert (in_place.title, in_place.catalog_languages, in_place.kind, in_place.store) == (JOE_KEY, ("en",), PIPER, None)
    assert (stored.title, stored.path, stored.kind, stored.store) == ("Office voice", store.folder(imported.name),
                                                                      PIPER, store)
    assert (coqui.title, coqui.kind, coqui.store) == (tiny_folders["single"].name, COQUI, None)


def test_a_piper_voice_loaded_through_its_kind_is_described_by_the_name_it_was_chosen_by(tmp_path):
    store = TtsModelStore(tmp_path / "store")
    imported = store.import_folder(copy_of_joe(tmp_path / "joe"))

    voice = PIPER.load(find_model(imported.name, store), "cpu", None)

    assert (voice.info.model, voice.info.title, voice.info.device) == (imported.name, JOE_KEY, "CPU")
    assert voice.info.languages == ("en",) and voice.info.can_change_speed
