"""The glossary's terms in Whisper's prompt."""
from desktop.core.glossary.prompting import (PROMPT_TOKENS, estimated_tokens, hotwords, ordered_terms,
                                             prompt_with_terms, terms_heard_in)
from desktop.core.transcription.chinese import MANDARIN_PROMPT


def test_terms_go_before_the_mandarin_prompt():
    prompt = prompt_with_terms(MANDARIN_PROMPT, ["太乙真人", "城市"])
    assert prompt == "太乙真人、城市。" + MANDARIN_PROMPT


def test_a_long_glossary_is_cut_to_whispers_prompt_length_heard_terms_first():
    terms = [f"术语{i}号" for i in range(500)]
    heard = terms_heard_in(["我们讨论了术语499号的问题"], terms)
    assert heard == {"术语499号"}
    prompt = prompt_with_terms("用户的提示。", ordered_terms(terms, heard))
    assert prompt.startswith("术语499号、术语0号") and prompt.endswith("用户的提示。")
    assert estimated_tokens(prompt) <= PROMPT_TOKENS
    assert "术语498号" not in prompt


def test_english_terms_and_no_prompt():
    assert prompt_with_terms(None, ["VoxDesk", "Kubernetes"]) == "VoxDesk, Kubernetes."
    assert prompt_with_terms("Hello", []) == "Hello"
    assert hotwords(["VoxDesk", "Kubernetes"]) == "VoxDesk Kubernetes"
    assert hotwords([]) is None


def test_the_terms_heard_in_the_windows_so_far_go_in_the_last_heard_first():
    from desktop.core.glossary.prompting import HeardTerms

    heard = HeardTerms(["Kubernetes", "城市", "太乙真人", "VoxDesk", "交易"])
    assert heard.ordered() == ()
    heard.hear("我们用VoxDesk记录了交易")
    assert heard.ordered() == ("VoxDesk", "交易")
    heard.hear("太乙真人来了")
    assert heard.ordered() == ("太乙真人", "VoxDesk", "交易")
    heard.hear("")
    assert heard.ordered() == ("太乙真人", "VoxDesk", "交易")
    assert HeardTerms([]).ordered() == ()


def test_a_term_is_not_suggested_before_it_is_heard_as_whisper_would_write_it_for_a_common_word():
    from desktop.core.glossary.prompting import HeardTerms

    # Told of 城实 or 调正, Whisper writes them where 城市 and 调整 were said.
    heard = HeardTerms(["城实", "调正", "Salesforce"])
    assert hotwords(heard.ordered()) is None
    heard.hear("一二线城市虽然也处于调整中")  # correct words that sound like the terms are not the terms
    assert heard.ordered() == ()
    heard.hear("城实集团的报告")
    assert heard.ordered() == ("城实",)


def test_a_term_heard_as_a_near_miss_is_heard():
    from desktop.core.glossary.prompting import HeardTerms

    heard = HeardTerms(["一二线城市", "太乙真人", "停滞", "VoxDesk", "Kubernetes"])
    heard.hear("一二线尝试孙然也处于调整中，我最喜欢太以真人")
    assert heard.ordered() == ("一二线城市", "太乙真人")
    heard.hear("We installed vox desk.")
    assert heard.ordered() == ("VoxDesk", "一二线城市", "太乙真人")


def test_terms_heard_in_earlier_parts_of_a_recording_steer_from_its_first_window():
    from desktop.core.glossary.prompting import HeardTerms

    heard = HeardTerms(["城市", "VoxDesk", "交易"], heard=["交易", "Kubernetes", "交易"])
    assert heard.ordered() == ("交易",)  # a term not in the glossary is not suggested
    heard.hear("VoxDesk")
    assert heard.ordered() == ("VoxDesk", "交易")
