"""Voice activity detection shared by both engines, and the way back to the original timeline."""
from __future__ import annotations

import numpy as np

from desktop.core.transcription.transcript import Segment, Word
from desktop.engines.transcription.decoders import vad
from tests.helpers.weights import recording

RATE = vad.SAMPLE_RATE


def speech_seconds(time_map: vad.TimeMap) -> float:
    return sum(end - start for start, end in time_map.chunks) / RATE


def test_digital_silence_and_low_noise_have_no_speech():
    rng = np.random.default_rng(0)
    for audio in (np.zeros(10 * RATE, np.float32), (0.003 * rng.standard_normal(10 * RATE)).astype(np.float32)):
        speech, time_map = vad.prepare(audio, enabled=True)
        assert speech.size == 0
        assert speech_seconds(time_map) == 0


def test_empty_or_all_zero_audio_has_no_speech_even_without_vad():
    assert vad.prepare(np.zeros(0, np.float32), enabled=False)[0].size == 0
    assert vad.prepare(np.zeros(RATE, np.float32), enabled=False)[0].size == 0


def test_silence_around_speech_is_removed_and_speech_kept():
    speech = recording("jfk.flac")
    padded = np.concatenate([np.zeros(6 * RATE, np.float32), speech, np.zeros(5 * RATE, np.float32)])

    kept, time_map = vad.prepare(padded, enabled=True)

    assert 0 < kept.size < padded.size - 8 * RATE  # most of the 11 s of silence is gone
    first_start, _ = time_map.chunks[0]
    assert 5.0 <= first_start / RATE <= 6.5  # speech begins after the silence (with a little padding)
    assert speech_seconds(time_map) == kept.size / RATE


def test_without_vad_the_audio_passes_unchanged():
    speech = recording("jfk.flac")
    kept, time_map = vad.prepare(speech, enabled=False)
    assert np.array_equal(kept, speech)
    assert time_map.original_time(3.25) == 3.25


def test_times_on_the_joined_speech_map_back_across_removed_silence():
    # Speech kept at 1-3 s and 10-12 s of the original: joined, the second chunk starts at 2 s.
    time_map = vad.TimeMap(chunks=[(1 * RATE, 3 * RATE), (10 * RATE, 12 * RATE)])

    assert time_map.original_time(0.5) == 1.5
    assert time_map.original_time(2.5) == 10.5
    assert time_map.original_time(2.0, is_end=True) == 3.0  # an end on the boundary stays in its chunk
    assert time_map.original_time(2.0) == 10.0  # a start on the boundary begins the next chunk


def test_each_word_keeps_both_ends_in_the_chunk_of_its_middle():
    time_map = vad.TimeMap(chunks=[(1 * RATE, 3 * RATE), (10 * RATE, 12 * RATE)])
    segment = Segment(start=1.0, end=3.0, text=" one two three", words=[
        Word(1.0, 1.5, " one"), Word(1.7, 2.1, " two"), Word(2.2, 3.0, " three")])

    restored = time_map.restore(segment)

    assert [(w.start, w.end) for w in restored.words] == [(2.0, 2.5), (2.7, 3.1), (10.2, 11.0)]
    assert (restored.start, restored.end) == (2.0, 11.0)  # the segment spans its words
    assert restored.text == segment.text


def test_a_segment_without_words_maps_its_start_and_end_separately():
    time_map = vad.TimeMap(chunks=[(1 * RATE, 3 * RATE), (10 * RATE, 12 * RATE)])
    restored = time_map.restore(Segment(start=0.0, end=2.0, text=" hello"))
    assert (restored.start, restored.end) == (1.0, 3.0)
