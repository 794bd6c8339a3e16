"""Speaker verification with Resemblyzer's real encoder on real recordings of real people."""
from __future__ import annotations

import numpy as np
import pytest

from desktop.engines.voices.speaker import (
    SAME_SPEAKER_THRESHOLD,
    SpeakerEncoder,
    SpeakerError,
    cosine_similarity,
    resample,
)
from tests.helpers.weights import DATA_DIR, recording


@pytest.fixture(scope="module")
def encoder() -> SpeakerEncoder:
    return SpeakerEncoder()


@pytest.fixture(scope="module")
def embeddings(encoder) -> dict[str, np.ndarray]:
    names = ("BAC009S0764W0121.wav", "BAC009S0764W0122.wav", "jfk.flac", "lj050-0131.wav")
    return {name: encoder.embed_file(DATA_DIR / name) for name in names}


def test_two_recordings_of_the_same_mandarin_speaker_are_the_same_voice(embeddings):
    similarity = cosine_similarity(embeddings["BAC009S0764W0121.wav"], embeddings["BAC009S0764W0122.wav"])

    assert similarity > 0.8
    assert similarity >= SAME_SPEAKER_THRESHOLD


@pytest.mark.parametrize("a, b", [
    ("jfk.flac", "BAC009S0764W0121.wav"),
    ("jfk.flac", "BAC009S0764W0122.wav"),
    ("jfk.flac", "lj050-0131.wav"),
    ("lj050-0131.wav", "BAC009S0764W0121.wav"),
    ("lj050-0131.wav", "BAC009S0764W0122.wav"),
])
def test_recordings_of_different_people_are_refused(embeddings, a, b):
    similarity = cosine_similarity(embeddings[a], embeddings[b])

    assert similarity < 0.6
    assert similarity < SAME_SPEAKER_THRESHOLD


def test_two_halves_of_one_speech_are_the_same_voice(encoder):
    jfk = recording("jfk.flac")
    half = len(jfk) // 2

    assert encoder.similarity(jfk[:half], 16000, jfk[half:], 16000) > SAME_SPEAKER_THRESHOLD


def test_the_voice_is_recognised_whatever_the_sample_rate(encoder, embeddings):
    jfk_48k = resample(recording("jfk.flac"), 16000, 48000)

    assert cosine_similarity(encoder.embed(jfk_48k, 48000), embeddings["jfk.flac"]) > 0.97


def test_embeddings_are_unit_vectors_of_256_values(embeddings):
    for vector in embeddings.values():
        assert vector.shape == (256,)
        assert abs(float(np.linalg.norm(vector)) - 1.0) < 1e-4


def test_a_recording_without_speech_cannot_be_compared(encoder):
    with pytest.raises(SpeakerError) as raised:
        encoder.embed(np.zeros(5 * 16000, np.float32), 16000)

    assert "too little speech" in raised.value.message
