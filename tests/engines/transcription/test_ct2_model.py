"""How VoxDesk's faster-whisper model encodes: a short live window cut before the encoder, whole windows
to the encoder in use."""
from __future__ import annotations

from desktop.engines.transcription.decoders.ct2_model import EncoderChoice


def test_a_short_window_is_cut_before_the_encoder_and_whole_windows_go_to_the_encoder_in_use():
    import numpy as np

    seen = []
    choice = EncoderChoice()
    features = np.zeros((80, 3000), np.float32)
    choice.encode(features, seen.append)
    choice.frames = 900
    choice.encode(features, seen.append)
    assert [f.shape[-1] for f in seen] == [3000, 900]
