"""Tiny, randomly initialised cloning models built from Coqui's own config and model classes.

No XTTS or OpenVoice weights can be fetched in tests, so these stand in for them, saved the way the
released models are laid out, and loaded by VoxDesk through the very path a user's download takes:

- XTTS v2: config.json (XttsConfig), model.pth ({"model": state_dict}) and vocab.json (a BPE
  tokenizer made with the `tokenizers` library, with XTTS's special tokens and language tags). The
  GPT has one layer of 32 channels and may emit at most 40 audio codes per sentence (1.9 s); the
  HiFi-GAN decoder and its speaker encoder keep XTTS's fixed architecture.
- OpenVoice v2 converter: config.json in OpenVoice's own format ("data" and "model" sections, as
  MyShell publishes it) and checkpoint.pth, with 16 hidden channels.

The sound is noise, but every tensor, sample rate and code path is the real one.

    xtts = build_tiny_xtts(tmp_path / "xtts")
    converter = build_tiny_openvoice(tmp_path / "openvoice")
"""
from __future__ import annotations

import json
from pathlib import Path

LETTERS = "abcdefghijklmnopqrstuvwxyz0123456789'.,!?-:;\"()"
XTTS_SPECIAL_TOKENS = ("[STOP]", "[UNK]", "[SPACE]", "[START]", "[en]", "[zh-cn]", "[de]", "[fr]")


def build_tiny_xtts(folder: Path, *, seed: int = 0, max_audio_codes: int = 40) -> Path:
    """An XTTS model folder (config.json, model.pth, vocab.json); returns folder."""
    import torch
    from tokenizers import Tokenizer, models, pre_tokenizers
    from TTS.tts.configs.xtts_config import XttsArgs, XttsConfig
    from TTS.tts.layers.xtts.tokenizer import VoiceBpeTokenizer
    from TTS.tts.models.xtts import Xtts

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    vocabulary = {token: i for i, token in enumerate([*XTTS_SPECIAL_TOKENS, *LETTERS])}
    tokenizer = Tokenizer(models.BPE(vocab=vocabulary, merges=[], unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer.add_special_tokens(list(XTTS_SPECIAL_TOKENS))
    tokenizer.save(str(folder / "vocab.json"))

    args = XttsArgs(
        gpt_layers=1,
        gpt_n_model_channels=32,
        gpt_n_heads=2,
        gpt_max_audio_tokens=max_audio_codes,
        gpt_num_audio_tokens=1026,
        gpt_start_audio_token=1024,
        gpt_stop_audio_token=1025,
        gpt_use_perceiver_resampler=True,
        gpt_use_masking_gt_prompt_approach=True,
        decoder_input_dim=32,
    )
    config = XttsConfig(model_args=args)
    torch.manual_seed(seed)
    model = Xtts(config)
    model.tokenizer = VoiceBpeTokenizer(str(folder / "vocab.json"))
    model.init_models()
    torch.save({"model": model.state_dict()}, folder / "model.pth")
    config.save_json(str(folder / "config.json"))
    return folder


def build_tiny_openvoice(folder: Path, *, seed: int = 0, sample_rate: int = 22050) -> Path:
    """An OpenVoice converter folder (config.json in OpenVoice's format + checkpoint.pth); returns folder."""
    import torch
    from TTS.vc.configs.openvoice_config import OpenVoiceArgs, OpenVoiceAudioConfig, OpenVoiceConfig
    from TTS.vc.models.openvoice import OpenVoice

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    model_section = {
        "zero_g": True,
        "inter_channels": 16,
        "hidden_channels": 16,
        "filter_channels": 32,
        "n_heads": 2,
        "n_layers": 1,
        "kernel_size": 3,
        "p_dropout": 0.1,
        "resblock": "1",
        "resblock_kernel_sizes": [3],
        "resblock_dilation_sizes": [[1, 3, 5]],
        "upsample_rates": [8, 8, 2, 2],
        "upsample_initial_channel": 32,
        "upsample_kernel_sizes": [16, 16, 4, 4],
        "gin_channels": 16,
    }
    data_section = {"sampling_rate": sample_rate, "filter_length": 1024, "hop_length": 256, "win_length": 1024,
                    "n_speakers": 0}
    audio = OpenVoiceAudioConfig(input_sample_rate=sample_rate, output_sample_rate=sample_rate)
    config = OpenVoiceConfig(model_args=OpenVoiceArgs(**model_section), audio=audio)
    torch.manual_seed(seed)
    model = OpenVoice(config)
    torch.save({"model": model.state_dict()}, folder / "checkpoint.pth")
    (folder / "config.json").write_text(
        json.dumps({"_version_": "v2", "data": data_section, "model": model_section}, indent=2), encoding="utf-8"
    )
    return folder
