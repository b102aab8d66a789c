"""Replay's shortcuts give exactly what the plain code they stand in for gives.

- `transcript._covered` (which words of an older copy a reprint holds, in
  order) walks the words mostly in C; here it is checked against the plain
  greedy scan it replaced, word by word over the look-ahead window.
- Claude Code's `_markless` (a prompt's key: no marks, no spacing) against
  the character-by-character reading.
- `screen.memo.IdentityMemo` keeps an answer by the identity of a row
  snapshot: an equal tuple that is another object is worked out again.
"""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from agents_chrome.claude_code import MD_MARKS, _markless
from agents_chrome.transcript import _covered
from screen.memo import IdentityMemo


def covered_plain(old: list[str], new: list[str], window: int = 40) -> list[bool]:
    """The greedy in-order match as first written: each word looked for in the
    next `window` words after the last match."""
    hit = [False] * len(old)
    j = 0
    for i, w in enumerate(old):
        for k in range(j, min(len(new), j + window)):
            if new[k] == w:
                hit[i] = True
                j = k + 1
                break
    return hit


WORDS = st.lists(st.sampled_from("a b c d e f the of".split()), max_size=120)


@settings(max_examples=200, deadline=None)
@given(WORDS, st.integers(0, 120), st.integers(0, 120), st.sampled_from([1, 2, 6, 40]))
def test_covered_is_the_plain_greedy_scan(words, a, b, window):
    split = min(a, len(words))
    j = min(b, split)
    # as `_find_copy` asks: an older stretch against the reprint after `split`,
    # and the reprint's opening against the 100 words after a candidate
    old = words[j:split]
    assert _covered(old, words, split, len(words), window) == covered_plain(old, words[split:], window)
    ahead = words[split:split + 80]
    hi = min(j + 100, split)
    assert _covered(ahead, words, j, hi, window) == covered_plain(ahead, words[j:hi], window)


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab #*_`~>\t\n\x0b\x1c\x85\xa0\u2003\u3000\u200b中")), max_size=40))
def test_markless_drops_marks_and_every_space(text):
    assert _markless(text) == "".join(c for c in text if not c.isspace() and c not in MD_MARKS)


def test_identity_memo_answers_by_the_object_not_its_value():
    memo = IdentityMemo(limit=4)
    calls: list[tuple] = []

    def work(row: tuple) -> int:
        calls.append(row)
        return len(calls)

    row = ("x", "y")
    twin = tuple(list(row))  # equal, another object
    assert twin == row and twin is not row
    assert memo.get(row, 80, work, row) == 1
    assert memo.get(row, 80, work, row) == 1  # kept
    assert memo.get(row, 100, work, row) == 2  # another key: another answer
    assert memo.get(twin, 80, work, twin) == 3  # the same value, another snapshot
    for k in range(4):  # full: everything goes at once
        memo.get(row, k, work, row)
    assert len(memo) <= 4
