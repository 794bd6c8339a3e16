"""Loading a voice model runs no code from its files, even for a file changed after it was checked."""
import pytest
import torch

from desktop.core.common.errors import ModelError
from desktop.core.gpu.fallback import FallbackLog
from desktop.core.speech.tts_models import TtsModelStore
from desktop.engines.speech import coqui
from desktop.engines.speech.coqui import use_safe_coqui_loaders
from desktop.engines.speech.tts import SpeechSynthesizer, SynthesisSettings
from tests.core.common.hostile_models import CreatesAFile, copy_of, genuine_stats, stats_inside, with_stats


@pytest.fixture
def engine(tmp_path):
    return SpeechSynthesizer(TtsModelStore(tmp_path / "store"), FallbackLog())


def test_a_model_with_genuine_statistics_loads_and_speaks(engine, tiny_folders, tmp_path):
    folder = copy_of(tiny_folders["single"], tmp_path / "voice")
    with_stats(folder, genuine_stats(folder / "scale_stats.npy"))

    speech = engine.synthesize("Hello there.", SynthesisSettings(model=str(folder)))

    assert speech.complete and speech.duration > 0.3


def test_statistics_swapped_after_the_check_still_run_no_code(engine, tiny_folders, tmp_path, monkeypatch):
    marker = tmp_path / "code-was-run"
    folder = stats_inside(tiny_folders["single"], tmp_path / "voice", marker)
    monkeypatch.setattr(coqui, "check_model", lambda *args, **kwargs: None)  # as if the file changed after it

    with pytest.raises(ModelError) as refused:
        engine.synthesize("Hello there.", SynthesisSettings(model=str(folder)))

    assert not marker.exists()
    assert "scale_stats.npy" in refused.value.message


def test_torch_loads_only_weights_even_when_asked_for_more(tmp_path):
    marker = tmp_path / "code-was-run"
    evil = tmp_path / "model.pth"
    torch.save({"model": {}, "extra": CreatesAFile(marker)}, evil)
    use_safe_coqui_loaders()

    with pytest.raises(Exception, match="[Ww]eights only"):
        torch.load(evil, weights_only=False)

    assert not marker.exists()
