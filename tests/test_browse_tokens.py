"""The tokenizer behind search: a word inside a CJK sentence must meet the query for it."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from archive.tokens import highlighter, is_cjk, terms, tokens

CJK = st.text(alphabet=st.sampled_from(list("发布流水线缓存数据库部署测试日本語のテキストも正しく한국어문장확인")), min_size=2,
              max_size=30)


@settings(max_examples=300, deadline=None)
@given(before=st.text(max_size=40), sentence=CJK, after=st.text(max_size=40), data=st.data())
def test_any_word_inside_a_cjk_run_is_found(before, sentence, after, data):
    i = data.draw(st.integers(0, len(sentence) - 2))
    j = data.draw(st.integers(i + 2, len(sentence)))
    word = sentence[i:j]
    text = f"{before} {sentence} {after}"
    assert terms(word) <= terms(text)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_tokens_of_any_text(text):
    for t in tokens(text):
        assert t == t.lower()
        assert 1 <= len(t) <= 40
        if not is_cjk(t):
            assert len(t) >= 2
    rx = highlighter(terms(text))
    rx.sub("", text)  # compiles and runs on whatever was typed


def test_latin_words_and_stop_words():
    assert list(tokens("The Release pipeline of the API")) == ["release", "pipeline", "api"]
    assert terms("发布流水线") == {"发布", "布流", "流水", "水线"}
    assert terms("猫") == {"猫"}
