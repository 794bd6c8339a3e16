"""The faster-whisper engine: devices, openai checkpoints converted for it, and its offline tokenizer."""
from __future__ import annotations

import json
import os
import shutil

import numpy as np
import pytest

from desktop.core.common.errors import ModelError
from desktop.engines.transcription.model_files import ct2_format, weight_mapping
from desktop.engines.transcription.engine import TranscribeOptions
from desktop.engines.transcription.model_files.ct2_folders import tokenizer_json, vocabulary, whisper_config
from desktop.engines.transcription.decoders.whisper_ct2 import load_ct2_engine
from tests.helpers.weights import ModelRef, base_dir, normalize_english, recording, reference, tiny_en_dir


def save_openai_checkpoint(folder, path) -> None:
    """Write an openai-whisper checkpoint (fp16, like openai's own) from a CTranslate2 folder."""
    import torch

    dims, state = weight_mapping.to_whisper_state_dict(ct2_format.read_model_bin(folder / "model.bin"))
    torch.save({"dims": dims, "model_state_dict": {k: torch.from_numpy(v).half() for k, v in state.items()}}, path)


def shipped_vocabulary(folder) -> list[str]:
    return (folder / "vocabulary.txt").read_text(encoding="utf-8").split("\n")[:-1]


def english_jfk_is_word_perfect(engine) -> bool:
    result = engine.transcribe(recording("jfk.flac"), TranscribeOptions(beam_size=1))
    return normalize_english("".join(s.text for s in result.segments)) == normalize_english(reference("jfk.flac"))


def test_the_gpu_is_refused_when_ctranslate2_has_no_gpu_even_if_torch_has_one(monkeypatch):
    import ctranslate2
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(ctranslate2, "get_cuda_device_count", lambda: 0)
    with pytest.raises(ModelError, match="processor"):
        load_ct2_engine(ModelRef("tiny.en", "ct2", tiny_en_dir()), "cuda")


def test_the_cpu_runs_int8_by_default_and_an_impossible_precision_is_explained():
    engine = load_ct2_engine(ModelRef("tiny.en", "ct2", tiny_en_dir()), "cpu")
    try:
        assert engine.compute_type == "int8"
        assert (engine.name, engine.device, engine.model_name) == ("ct2", "cpu", "tiny.en")
    finally:
        engine.close()
    with pytest.raises(ModelError, match="precision"):
        load_ct2_engine(ModelRef("tiny.en", "ct2", tiny_en_dir()), "cpu", compute_type="float16")


def test_an_openai_checkpoint_is_converted_once_into_the_same_files_and_transcribes(tmp_path):
    checkpoint = tmp_path / "tiny.en.pt"
    save_openai_checkpoint(tiny_en_dir(), checkpoint)

    engine = load_ct2_engine(ModelRef("tiny.en", "pt", checkpoint), "cpu")
    try:
        assert english_jfk_is_word_perfect(engine)
    finally:
        engine.close()

    converted = tmp_path / "tiny.en.ct2"
    shipped = tiny_en_dir()
    assert (converted / "model.bin").read_bytes() == (shipped / "model.bin").read_bytes()
    assert (converted / "tokenizer.json").read_bytes() == (shipped / "tokenizer.json").read_bytes()
    assert json.loads((converted / "vocabulary.json").read_text()) == shipped_vocabulary(shipped)
    config, expected = json.loads((converted / "config.json").read_text()), json.loads((shipped / "config.json").read_text())
    for key in ("alignment_heads", "suppress_ids", "suppress_ids_begin"):
        assert config[key] == expected[key], key
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]  # no work folder left

    # A second load reuses the conversion; a changed checkpoint is converted again.
    first = (converted / "model.bin").stat().st_mtime_ns
    load_ct2_engine(ModelRef("tiny.en", "pt", checkpoint), "cpu").close()
    assert (converted / "model.bin").stat().st_mtime_ns == first
    os.utime(checkpoint, ns=(first + 10**9, first + 10**9))
    load_ct2_engine(ModelRef("tiny.en", "pt", checkpoint), "cpu").close()
    assert (converted / "model.bin").stat().st_mtime_ns != first


def test_the_conversion_goes_to_a_given_cache_folder(tmp_path):
    checkpoint = tmp_path / "models" / "tiny.en.pt"
    checkpoint.parent.mkdir()
    save_openai_checkpoint(tiny_en_dir(), checkpoint)

    load_ct2_engine(ModelRef("tiny.en", "pt", checkpoint), "cpu", cache_dir=tmp_path / "cache").close()

    assert (tmp_path / "cache" / "tiny.en.ct2" / "model.bin").is_file()
    assert [p.name for p in checkpoint.parent.iterdir()] == ["tiny.en.pt"]


def test_multilingual_settings_match_those_of_the_shipped_base_model():
    folder = base_dir()
    dims = weight_mapping.whisper_dims(ct2_format.read_model_bin(folder / "model.bin", shapes_only=True))

    assert whisper_config(dims, "base") == json.loads((folder / "config.json").read_text())
    assert vocabulary(tokenizer_json(dims["n_vocab"]), dims["n_vocab"]) == shipped_vocabulary(folder)


@pytest.mark.parametrize("multilingual", [False, True])
def test_the_shipped_tokenizers_encode_text_like_openai_whisper(multilingual):
    import tokenizers
    from whisper.tokenizer import get_tokenizer

    hf = tokenizers.Tokenizer.from_str(tokenizer_json(51865 if multilingual else 51864))
    openai = get_tokenizer(multilingual)
    text = " And so, my fellow Americans: it's 3.5 km — naïve café, 甚至出现交易几乎停滞的情况。"
    assert hf.encode(text, add_special_tokens=False).ids == openai.encode(text)


def test_a_large_v3_tokenizer_adds_cantonese_and_moves_the_special_tokens_after_it():
    import tokenizers
    from faster_whisper.tokenizer import Tokenizer
    from whisper.tokenizer import get_tokenizer

    hf = Tokenizer(tokenizers.Tokenizer.from_str(tokenizer_json(51866)), True, task="transcribe", language="yue")
    openai = get_tokenizer(True, num_languages=100, language="yue", task="transcribe")

    assert hf.sot_sequence == list(openai.sot_sequence) == [50258, 50358, 50360]
    assert (hf.eot, hf.no_speech, hf.no_timestamps, hf.sot_prev) == (
        openai.eot, openai.no_speech, openai.no_timestamps, openai.sot_prev)


def test_a_ctranslate2_folder_without_tokenizer_or_vocabulary_gets_them_and_loads_offline(tmp_path):
    for name in ("model.bin", "config.json"):
        shutil.copyfile(tiny_en_dir() / name, tmp_path / name)

    engine = load_ct2_engine(ModelRef("tiny.en", "ct2", tmp_path), "cpu")
    try:
        assert english_jfk_is_word_perfect(engine)
    finally:
        engine.close()
    assert (tmp_path / "tokenizer.json").read_bytes() == (tiny_en_dir() / "tokenizer.json").read_bytes()
    assert json.loads((tmp_path / "vocabulary.json").read_text()) == shipped_vocabulary(tiny_en_dir())


def test_missing_or_damaged_models_are_explained(tmp_path):
    with pytest.raises(ModelError, match="missing"):
        load_ct2_engine(ModelRef("gone", "ct2", tmp_path / "gone"), "cpu")
    with pytest.raises(ModelError, match="missing"):
        load_ct2_engine(ModelRef("gone", "pt", tmp_path / "gone.pt"), "cpu")
    (tmp_path / "junk.pt").write_bytes(np.arange(1000, dtype=np.int32).tobytes())
    with pytest.raises(ModelError, match="damaged"):
        load_ct2_engine(ModelRef("junk", "pt", tmp_path / "junk.pt"), "cpu")
    assert not (tmp_path / "junk.ct2").exists()


def test_the_batched_decoding_of_a_long_mandarin_recording_leaves_no_sentence_without_text():
    """A window of alike sentences decoded on its own often ends after the first one or two; the rest
    of such a window is decoded again, so every sentence has text before any second look."""
    from desktop.core.transcription import chinese
    from desktop.engines.transcription.review.coverage import uncovered

    silence = np.zeros(16000, dtype=np.float32)
    sentences = [recording("BAC009S0764W0121.wav"), recording("BAC009S0764W0122.wav")]  # about 4 s each
    samples = np.concatenate([piece for _ in range(8) for sentence in sentences for piece in (sentence, silence)])
    engine = load_ct2_engine(ModelRef("base", "ct2", base_dir()), "cpu", bf16_from_windows=None)
    try:
        result = engine.transcribe(samples, TranscribeOptions(
            language="zh", initial_prompt=chinese.initial_prompt("zh", "transcribe", None), batch_size=2))
    finally:
        engine.close()
    assert result.batch_size == 2
    without_text = [end - start for start, end in uncovered(result.speech, result.segments, min_length=0.0)]
    assert max(without_text) < 2.5, "only the pauses between sentences are without text"


def test_a_fraction_of_a_second_decoded_alone_may_write_only_what_that_speech_can_hold(monkeypatch):
    """The second look decodes stretches of under a second on their own; Whisper's fallback may then
    sample up to its whole context at each temperature. The decoding is asked for no more tokens than
    the stretch can hold, and still writes what was said."""
    from faster_whisper import WhisperModel

    from desktop.engines.transcription.decoders.ct2_model import token_limit

    asked = []
    real = WhisperModel.generate_with_fallback

    def generate_with_fallback(self, encoder_output, prompt, tokenizer, options):
        asked.append(options.max_new_tokens)
        return real(self, encoder_output, prompt, tokenizer, options)

    monkeypatch.setattr(WhisperModel, "generate_with_fallback", generate_with_fallback)
    engine = load_ct2_engine(ModelRef("base", "ct2", base_dir()), "cpu", bf16_from_windows=None)
    try:
        stretch = recording("jfk.flac")[int(8.0 * 16000):int(8.8 * 16000)]  # "ask what"
        result = engine.transcribe(stretch, TranscribeOptions(language="en", vad=False))
    finally:
        engine.close()
    assert asked and all(limit is not None and limit <= token_limit(0.8) for limit in asked)
    assert "ask" in normalize_english(" ".join(s.text for s in result.segments))
