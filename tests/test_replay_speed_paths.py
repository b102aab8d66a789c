"""Replay's shortcuts give exactly what the plain code they stand in for gives.

- `transcript._covered` (which words of an older copy a reprint holds, in
  order) walks the words mostly in C; here it is checked against the plain
  greedy scan it replaced, word by word over the look-ahead window, and its
  early way out (`least`) gives up only on a place that cannot reach it.
- Claude Code's `_pill` (the scrolled-back pill is on a row) searches only
  rows holding its arrow or "to scroll": the same answer as the search.
- Claude Code's `_markless` (a prompt's key: no marks, no spacing) against
  the character-by-character reading.
- `screen.memo.IdentityMemo` keeps an answer by the identity of a row
  snapshot: an equal tuple that is another object is worked out again.
"""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from agents_chrome.claude_code import MD_MARKS, SCROLLED_PILL, _markless, _pill
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


@settings(max_examples=300, deadline=None)
@given(WORDS, st.integers(0, 120), st.integers(0, 120), st.sampled_from([1, 6, 40]), st.floats(0, 1),
       st.integers(0, 120), st.floats(0, 1))
def test_covered_gives_up_only_on_what_cannot_reach_least(words, a, b, window, share, head, head_share):
    # With `least` (words found in all) and `head_least` (of the first
    # `head`), `_covered` stops once too many words were passed over: it may
    # give None only when the plain scan misses one of the two, and gives
    # the plain scan's answer otherwise (what `_find_copy` reads it for).
    split = min(a, len(words))
    j = min(b, split)
    old = words[j:split]
    head = min(head, len(old))
    least, head_least = share * len(old), head_share * head
    plain = covered_plain(old, words[split:], window)
    got = _covered(old, words, split, len(words), window, least=least, head=head, head_least=head_least)
    if sum(plain) >= least and sum(plain[:head]) >= head_least:
        assert got == plain
    else:
        assert got is None or got == plain
    # on the edge: exactly as many as the plain scan finds is enough
    assert _covered(old, words, split, len(words), window, least=sum(plain), head=head,
                    head_least=sum(plain[:head])) == plain


def test_covered_gives_up_past_the_misses_it_can_afford():
    # old: 4 words, 2 of them not in the reprint ("x", "y"), before the rest
    words = ["x", "a", "y", "b", "a", "b"]
    old, split = words[:4], 4
    assert _covered(old, words, split, len(words)) == [False, True, False, True]
    assert _covered(old, words, split, len(words), least=2) == [False, True, False, True]
    assert _covered(old, words, split, len(words), least=2.5) is None
    assert _covered(old, words, split, len(words), head=3, head_least=1) == [False, True, False, True]
    assert _covered(old, words, split, len(words), head=3, head_least=1.5) is None


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab #*_`~>\t\n\x0b\x1c\x85\xa0\u2003\u3000\u200b中")), max_size=40))
def test_markless_drops_marks_and_every_space(text):
    assert _markless(text) == "".join(c for c in text if not c.isspace() and c not in MD_MARKS)


_PILL_BITS = ["Jump to bottom", "3 new messages", "1 new message", "Waiting for your answer", " (ctrl+End)",
              " ↓", " · fn+↓ to scroll", " to scroll", "↓", " ", "·", "word", "(", ")", "\t"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PILL_BITS), max_size=8))
def test_pill_is_the_pill_search(parts):
    ln = "".join(parts)
    assert _pill(ln) == (SCROLLED_PILL.search(ln) is not None)


def test_pill_found_on_the_rows_it_is_drawn_on():
    for ln in ("   text  Jump to bottom (ctrl+End) ↓  more", " 3 new messages ↓", " Waiting for your answer · fn+↓ to scroll"):
        assert _pill(ln)
    assert not _pill("Jump to bottom") and not _pill(" Jump to bottom (ctrl+End)")


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
