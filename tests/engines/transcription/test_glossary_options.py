"""The glossary's terms travel with the options to the engine process and into each window's prompt."""
from desktop.core.transcription.chinese import MANDARIN_PROMPT
from desktop.engines.transcription.engine import TranscribeOptions
from desktop.engines.transcription.process.protocol import decode_options, encode_options


def test_terms_reach_the_engine_process_and_the_prompt():
    options = TranscribeOptions(language="zh", initial_prompt=MANDARIN_PROMPT, glossary_terms=("太乙真人", "城市"))
    again = decode_options(encode_options(options))
    assert again == options
    assert again.prompt_with_glossary() == "太乙真人、城市。" + MANDARIN_PROMPT


def test_without_a_glossary_the_prompt_is_the_initial_prompt():
    assert TranscribeOptions(initial_prompt="Hello").prompt_with_glossary() == "Hello"
    assert TranscribeOptions().prompt_with_glossary() is None
