"""Words of a text as index terms, for the keyword index and its queries.

Latin-script text splits on word boundaries (2 to 40 word characters,
stop words dropped, lower-cased). Chinese, Japanese and Korean write no
spaces between words, so a whole sentence is one `\\w+` run and a word
inside it could never be found; those runs are cut into overlapping
character bigrams instead (the standard CJK approach of Lucene's CJK
analyzer and SQLite FTS's bigram tokenizers): `发布流水线` gives `发布`,
`布流`, `流水`, `水线`, and a query `流水线` gives `流水`, `水线`, both of
which the sentence holds. A lone CJK character is its own term.

The same function cuts both the indexed text and the query, which is what
makes them meet.
"""
from __future__ import annotations

import re
from typing import Iterable, Iterator

# Scripts written without spaces, as code point ranges (the stdlib `re` has no \p{Han}; it
# compiles in a millisecond, which the CLI's start-up notices): Hangul Jamo, Hiragana and
# Katakana, Hangul compatibility Jamo, Katakana extensions, CJK extension A, CJK unified
# ideographs, Hangul syllables, CJK compatibility ideographs, halfwidth Katakana, and the
# supplementary ideograph planes.
_CJK_CLASS = ("\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
              "\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f\U00020000-\U0002fa1f")
_CJK_RANGES = ((0x1100, 0x11FF), (0x3040, 0x30FF), (0x3130, 0x318F), (0x31F0, 0x31FF), (0x3400, 0x4DBF),
               (0x4E00, 0x9FFF), (0xAC00, 0xD7AF), (0xF900, 0xFAFF), (0xFF66, 0xFF9F), (0x20000, 0x2FA1F))
_token_re: "re.Pattern[str] | None" = None  # compiled on first use: ~5 ms that `list` and `show` never pay


def _token() -> "re.Pattern[str]":
    global _token_re
    if _token_re is None:
        _token_re = re.compile(f"(?P<cjk>[{_CJK_CLASS}]+)|(?P<word>[^\\W{_CJK_CLASS}]{{2,40}})")
    return _token_re

STOP = frozenset("""a an and are as at be but by can do for from has have he her his i if in into is it its
me my no not of on or our she so than that the their them then there these they this to too up us was we
were what when which who will with you your""".split())


def tokens(text: str) -> Iterator[str]:
    """Every term of `text`, in order, repeats included (term frequencies count them)."""
    for m in _token().finditer(text):
        run = m.group("cjk")
        if run is not None:
            if len(run) == 1:
                yield run
            else:
                for i in range(len(run) - 1):
                    yield run[i:i + 2]
            continue
        w = m.group("word").lower()
        if w not in STOP:
            yield w


def terms(text: str) -> set[str]:
    """The distinct terms of `text` (a query's terms)."""
    return set(tokens(text))


def is_cjk(term: str) -> bool:
    """Whether `term` starts with a character of a script written without spaces."""
    if not term:
        return False
    c = ord(term[0])
    return any(lo <= c <= hi for lo, hi in _CJK_RANGES)


def highlighter(words: Iterable[str]) -> "re.Pattern[str]":
    """A pattern matching the query's terms in text: a Latin term from a word start through
    the word's end (`pipe` marks `pipeline`); a CJK term wherever it stands in its run."""
    alts = [re.escape(w) if is_cjk(w) else r"\b" + re.escape(w) + r"\w*"
            for w in sorted(words, key=len, reverse=True)]
    if not alts:
        return re.compile(r"(?!)")
    return re.compile("(" + "|".join(alts) + ")", re.I)
