"""An English-only model given Mandarin with the language on Auto-detect writes invented English; it
used to say nothing else. Now the command says the model understands only English (a warning line
and the JSON's warnings), and says nothing of the kind over English speech; with a multilingual model
in the model store, as that model hears the language. Real tiny.en, real base, real speech."""
from __future__ import annotations

import json

from desktop.core.common.paths import models_dir
from tests.cli.test_transcribe_cli import voxdesk
from tests.helpers.weights import DATA_DIR, base_dir, in_loud_noise, recording, tiny_en_dir, write_wav

OTHER_LANGUAGE = "This model understands only English; the speech may be in another language"


def test_mandarin_under_an_english_only_model_is_warned_of_and_english_is_not(tmp_path):
    """…0122 comes out as unsure English; over …0121 tiny.en writes a sure loop ("see you in the next
    video" four times in 4 s of speech), more words than the speech can hold."""
    result = voxdesk("transcribe", DATA_DIR / "BAC009S0764W0122.wav", DATA_DIR / "BAC009S0764W0121.wav",
                     DATA_DIR / "jfk.flac", "--model", tiny_en_dir(), "--format", "json", "--output-dir", tmp_path)

    assert result.returncode == 0, result.stderr
    warned = [line for line in result.stderr.splitlines() if OTHER_LANGUAGE in line]
    assert warned == [f"Warning: {name}: {OTHER_LANGUAGE}: choose a multilingual model."
                      for name in ("BAC009S0764W0122.wav", "BAC009S0764W0121.wav")]
    english = json.loads((tmp_path / "jfk.json").read_text(encoding="utf-8"))
    for name in ("BAC009S0764W0122", "BAC009S0764W0121"):
        mandarin = json.loads((tmp_path / f"{name}.json").read_text(encoding="utf-8"))
        assert any(OTHER_LANGUAGE in warning for warning in mandarin["warnings"]), name
    assert not any(OTHER_LANGUAGE in warning for warning in english.get("warnings", []))
    assert "country" in " ".join(segment["text"] for segment in english["segments"])


def test_with_a_multilingual_model_here_what_it_hears_decides(tmp_path):
    """English in loud noise, which tiny.en alone takes for another language, is not warned of once base
    is in the model store and tells it is English; Mandarin still is."""
    (models_dir() / "ct2").mkdir(parents=True)
    (models_dir() / "ct2" / "base").symlink_to(base_dir(), target_is_directory=True)
    noisy = write_wav(tmp_path / "noisy english.wav", in_loud_noise(recording("speakers/spk2_snt6.wav")))
    out = tmp_path / "out"
    out.mkdir()

    result = voxdesk("transcribe", DATA_DIR / "BAC009S0764W0122.wav", noisy, "--model", tiny_en_dir(),
                     "--format", "json", "--output-dir", out)

    assert result.returncode == 0, result.stderr
    warned = [line for line in result.stderr.splitlines() if OTHER_LANGUAGE in line]
    assert warned == [f"Warning: BAC009S0764W0122.wav: {OTHER_LANGUAGE}: choose a multilingual model."]
    mandarin = json.loads((out / "BAC009S0764W0122.json").read_text(encoding="utf-8"))
    english = json.loads((out / "noisy english.json").read_text(encoding="utf-8"))
    assert any(OTHER_LANGUAGE in warning for warning in mandarin["warnings"])
    assert not any(OTHER_LANGUAGE in warning for warning in english.get("warnings", []))
    assert english["segments"], "the noisy sentence is still transcribed"
