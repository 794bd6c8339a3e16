"""Why the batched engine decodes with openai-whisper's DecodingTask rather than transformers' generate.

    .venv/bin/python benchmarks/decoder_comparison.py [BATCH] [TOKENS]

The decoder loop alone, on the same model dimensions (Whisper tiny; random weights, since only the
arithmetic is compared), the same batch of 30-second log-mel windows and the same number of generated
tokens (end-of-text suppressed for openai-whisper, min = max new tokens for transformers), greedy and
beam 5, both with PyTorch's scaled-dot-product attention. Prints the best of two runs of each.
"""
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TINY = dict(n_mels=80, n_audio_ctx=1500, n_audio_state=384, n_audio_head=6, n_audio_layer=4,
            n_vocab=51864, n_text_ctx=448, n_text_state=384, n_text_head=6, n_text_layer=4)
SOT, NO_TIMESTAMPS, EOT = 50257, 50362, 50256  # tiny.en's token ids


def main(batch: int, tokens: int) -> None:
    import torch
    from transformers import WhisperConfig, WhisperForConditionalGeneration
    from whisper.decoding import DecodingOptions
    from whisper.model import ModelDimensions, Whisper

    from desktop.engines.transcription.decoders.whisper_batched import _batch_task

    torch.manual_seed(0)
    mel = torch.randn(batch, TINY["n_mels"], 3000)
    openai_model = Whisper(ModelDimensions(**TINY)).eval()
    config = WhisperConfig(vocab_size=TINY["n_vocab"], num_mel_bins=80, encoder_layers=4, encoder_attention_heads=6,
                           decoder_layers=4, decoder_attention_heads=6, d_model=384, encoder_ffn_dim=1536,
                           decoder_ffn_dim=1536, max_source_positions=1500, max_target_positions=448,
                           decoder_start_token_id=SOT, eos_token_id=EOT, pad_token_id=EOT, attn_implementation="sdpa")
    hf_model = WhisperForConditionalGeneration(config).eval()

    def openai_whisper(beam: int):
        options = DecodingOptions(language="en", without_timestamps=True, sample_len=tokens,
                                  beam_size=beam if beam > 1 else None, suppress_tokens=[EOT], suppress_blank=False)
        return _batch_task(openai_model, options).run(mel)

    def transformers(beam: int):
        with torch.no_grad():
            return hf_model.generate(input_features=mel, decoder_input_ids=torch.tensor([[SOT, NO_TIMESTAMPS]] * batch),
                                     min_new_tokens=tokens, max_new_tokens=tokens, num_beams=beam, do_sample=False)

    for beam in (1, 5):
        for name, run in (("openai-whisper DecodingTask", openai_whisper), ("transformers generate", transformers)):
            run(beam)  # warm-up
            best = float("inf")
            for _ in range(2):
                started = time.perf_counter()
                run(beam)
                best = min(best, time.perf_counter() - started)
            print(f"batch {batch}, {tokens} tokens, beam {beam}: {name}: {best:.2f} s", flush=True)


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3])) if len(sys.argv) > 2 else main(4, 40)
