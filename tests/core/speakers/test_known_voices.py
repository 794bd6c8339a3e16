"""The store of known voices: plain data, sealed, written whole or not at all, moved with its agreement."""
from __future__ import annotations

import json
import os

import numpy as np
import pytest

from desktop.core.speakers import agreement as agreements
from desktop.core.speakers.agreement import AgreementError, recognition_prompt
from desktop.core.speakers.known_voices import KnownVoiceError, KnownVoiceStore, check_name

KEY = bytes(range(32))


def embeddings(seed: int, count: int = 8) -> np.ndarray:
    rows = np.random.default_rng(seed).normal(size=(count, 256)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


@pytest.fixture
def store(tmp_path):
    return KnownVoiceStore(tmp_path / "known", key=KEY)


def test_an_added_voice_is_plain_json_and_an_npy_read_back_with_its_agreement(store):
    voice = store.add("Anna Li", embeddings(1), 7.5, agreements.confirmed("maria"))
    folder = store.root / voice.id
    entry = json.loads((folder / "voice.json").read_text("utf-8"))
    assert entry["name"] == "Anna Li" and entry["agreement"]["how"] == "confirmed"
    assert entry["agreement"]["confirmed_by"] == "maria" and entry["recordings"] == 1
    npy = [path for path in folder.iterdir() if path.suffix == ".npy"]
    assert len(npy) == 1 and np.load(npy[0], allow_pickle=False).shape == (8, 256)
    (again,) = KnownVoiceStore(store.root, key=KEY).list()
    assert again.name == "Anna Li" and again.speech_seconds == 7.5
    assert np.allclose(again.embeddings, voice.embeddings)


def test_a_voice_without_agreement_is_not_kept(store):
    with pytest.raises(AgreementError):
        store.add("Anna", embeddings(1), 7.5, None)
    assert not store.root.exists() or not any(store.root.iterdir())


@pytest.mark.parametrize("name", ["Anna\nLi", "Anna\x1b[31m", "An\u202ena", "\x00", "Anna\tLi"])
def test_a_name_with_control_characters_is_refused_with_a_sentence_and_nothing_is_saved(store, name):
    with pytest.raises(KnownVoiceError, match="cannot be shown"):
        store.add(name, embeddings(1), 7.5, agreements.confirmed("maria"))
    assert not store.root.exists() or not any(store.root.iterdir())


def test_names_are_tidied_and_two_voices_never_share_one(store):
    assert check_name("  Anna   Li ") == "Anna Li"
    store.add("Anna Li", embeddings(1), 7.5, agreements.confirmed("maria"))
    with pytest.raises(KnownVoiceError, match="already exists"):
        store.add("anna li", embeddings(2), 7.5, agreements.confirmed("maria"))
    assert len(store.list()) == 1


def test_a_damaged_entry_is_refused_with_a_sentence_while_the_others_still_work(store):
    anna = store.add("Anna", embeddings(1), 7.5, agreements.confirmed("maria"))
    store.add("Ben", embeddings(2), 8.0, agreements.confirmed("maria"))
    entry = store.root / anna.id / "voice.json"
    data = json.loads(entry.read_text("utf-8"))
    data["name"] = "Carla"  # edited by hand: the seal no longer fits
    entry.write_text(json.dumps(data), "utf-8")
    voices, damaged = store.read()
    assert [voice.name for voice in voices] == ["Ben"]
    assert len(damaged) == 1 and damaged[0].folder == anna.id and "damaged" in damaged[0].message


def test_an_entry_whose_agreement_was_taken_out_is_refused(store):
    anna = store.add("Anna", embeddings(1), 7.5, agreements.confirmed("maria"))
    entry = store.root / anna.id / "voice.json"
    data = json.loads(entry.read_text("utf-8"))
    data["agreement"] = {}
    entry.write_text(json.dumps(data), "utf-8")
    assert store.list() == [] and len(store.read()[1]) == 1


def test_swapped_embeddings_make_the_entry_damaged(store):
    anna = store.add("Anna", embeddings(1), 7.5, agreements.confirmed("maria"))
    (npy,) = (store.root / anna.id).glob("*.npy")
    np.save(npy, embeddings(9), allow_pickle=False)
    assert store.list() == []


def test_a_pickled_embeddings_file_is_never_unpickled(store):
    anna = store.add("Anna", embeddings(1), 7.5, agreements.confirmed("maria"))
    (npy,) = (store.root / anna.id).glob("*.npy")
    np.save(npy, np.array([{"x": 1}], dtype=object), allow_pickle=True)
    assert store.list() == [] and len(store.read()[1]) == 1


def test_remove_deletes_every_file_of_that_voice_and_nothing_else(store):
    anna = store.add("Anna", embeddings(1), 7.5, agreements.confirmed("maria"))
    ben = store.add("Ben", embeddings(2), 8.0, agreements.confirmed("maria"))
    store.remove(anna)
    assert sorted(path.name for path in store.root.iterdir()) == [ben.id]
    assert [voice.name for voice in store.list()] == ["Ben"]


def test_rename_and_being_heard_again_keep_one_embeddings_file(store):
    anna = store.add("Anna", embeddings(1), 7.5, agreements.confirmed("maria"))
    store.rename(anna, "Anna Li")
    store.heard_again(anna, embeddings(3, 4), 3.0)
    (voice,) = store.list()
    assert voice.name == "Anna Li" and voice.recordings == 2 and len(voice.embeddings) == 12
    assert voice.speech_seconds == 10.5
    assert len(list((store.root / anna.id).glob("*.npy"))) == 1


def test_an_export_moves_the_voice_and_its_agreement_to_another_install(store, tmp_path):
    anna = store.add("Anna", embeddings(1), 7.5, agreements.confirmed("maria"))
    exported = store.export(anna, tmp_path / "anna.voxvoice")
    other = KnownVoiceStore(tmp_path / "other", key=bytes(32))  # another computer: another key
    imported = other.import_file(exported)
    assert imported.name == "Anna" and imported.agreement == anna.agreement
    assert np.allclose(other.list()[0].embeddings, anna.embeddings)


@pytest.mark.parametrize("change", ["name", "embeddings", "agreement"])
def test_an_altered_export_is_refused_and_nothing_is_imported(store, tmp_path, change):
    anna = store.add("Anna", embeddings(1), 7.5, agreements.confirmed("maria"))
    exported = store.export(anna, tmp_path / "anna.voxvoice")
    data = json.loads(exported.read_text("utf-8"))
    if change == "name":
        data["name"] = "Carla"
    elif change == "embeddings":
        data["embeddings_npy"] = data["embeddings_npy"][:-8] + "AAAAAAA="
    else:
        data["agreement"]["confirmed_by"] = "someone else"
    exported.write_text(json.dumps(data), "utf-8")
    other = KnownVoiceStore(tmp_path / "other", key=bytes(32))
    with pytest.raises(KnownVoiceError, match="changed after it was exported"):
        other.import_file(exported)
    assert other.list() == [] and (not other.root.exists() or not any(other.root.iterdir()))


def test_an_export_without_agreement_is_refused_even_when_its_seal_fits(store, tmp_path):
    from desktop.core.speakers import known_voices

    anna = store.add("Anna", embeddings(1), 7.5, agreements.confirmed("maria"))
    exported = store.export(anna, tmp_path / "anna.voxvoice")
    data = json.loads(exported.read_text("utf-8"))
    del data["agreement"]
    data["seal"] = known_voices.seal(known_voices._EXPORT_KEY, known_voices._EXPORT_SEAL,
                                     known_voices._without_seal(data))
    exported.write_text(json.dumps(data), "utf-8")
    other = KnownVoiceStore(tmp_path / "other", key=bytes(32))
    with pytest.raises(AgreementError, match="without the person's agreement"):
        other.import_file(exported)
    assert other.list() == []


def test_an_import_from_a_fifo_is_refused_with_a_sentence(store, tmp_path):
    fifo = tmp_path / "voice.voxvoice"
    os.mkfifo(fifo)
    with pytest.raises(Exception) as caught:
        store.import_file(fifo)
    assert "not a regular file" in caught.value.message


def test_a_recorded_agreement_holds_only_when_whisper_heard_the_sentence():
    prompt = recognition_prompt("Anna Li", "en")
    agreement = agreements.recorded(prompt, prompt.text)
    again = agreements.Agreement.from_dict(agreement.to_dict())
    assert again == agreement and "my voice may be recognized" in again.sentence
    with pytest.raises(AgreementError):
        agreements.recorded(prompt, "My name is Anna Li. I like tea.")
    forged = dict(agreement.to_dict(), heard="something else entirely")
    with pytest.raises(AgreementError):
        agreements.Agreement.from_dict(forged)


def test_a_recorded_agreement_in_chinese_is_checked_too():
    prompt = recognition_prompt("李安娜", "zh")
    assert agreements.recorded(prompt, prompt.text).language == "zh"
