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
- `screen.cast` reads an event line with the JSON scanner alone: what
  `json.loads` reads, and its errors; `FrameBuilder.take` makes frames
  field by field: what `Frame(...)` makes; Claude Code's input box is read
  once per set of rows: a box drawn again teaches its rows again.
"""
from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from agents_chrome.claude_code import MD_MARKS, SCROLLED_PILL, _markless, _pill
from agents_chrome.transcript import _covered
from screen.cast import CastReader, _event_json
from screen.frames import _FRAME_FIELDS, Frame, iter_frames
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


@settings(max_examples=300, deadline=None)
@given(st.one_of(
    st.tuples(st.floats(allow_nan=True, allow_infinity=True), st.sampled_from(["o", "i", "r", "m"]),
              st.text(max_size=20)).map(lambda e: json.dumps(list(e)) + "\n"),
    st.text(alphabet='[]"0123456789.,oi \\nu\t\r', max_size=24).map(lambda t: t + "\n"),
    st.sampled_from(['[1, "o", "a"] x\n', '[1, "o", "\\ud800"]\n', '[1,\n', '[1, "o", "a"]', '\ufeff[1, "o", "a"]\n',
                     '[1, "o", "a"]\r\n', ' [1, "o", "a"]\n', '[1, "o", "a"]  \n', '[1e400, "o", ""]\n'])))
def test_an_event_line_reads_as_json_loads_reads_it(line):
    # `screen.cast` reads an event line with the JSON scanner alone when it is
    # one array and its newline; anything else goes through `json.loads`: the
    # same value, or the same error.
    def read(fn):
        try:
            return ("ok", fn(line))
        except (ValueError, RecursionError) as e:
            return (type(e).__name__, str(e))
    got, want = read(_event_json), read(json.loads)
    assert got[0] == want[0]
    if got[0] == "ok":
        assert json.dumps(got[1]) == json.dumps(want[1])
    else:
        assert got == want


def test_frames_made_field_by_field_are_frames_made_by_init():
    # `FrameBuilder.take` makes a frame without the dataclass's __init__: every
    # field, no memo carried over, the same frame `Frame(...)` would be.
    cast = sorted(Path(__file__).resolve().parent.parent.glob("recordings/claude-code/*/session.cast"))[0]
    with CastReader(cast) as r:
        frames = list(iter_frames(r))
    assert frames
    for f in frames:
        made = Frame(**{x.name: getattr(f, x.name) for x in fields(Frame) if x.init})
        assert made == f and vars(made).keys() == vars(f).keys() and f.memo == {}
    assert len({id(f.memo) for f in frames}) == len(frames)
    assert tuple(x.name for x in fields(Frame)) == _FRAME_FIELDS


def test_an_input_box_drawn_again_teaches_what_it_taught():
    # Claude Code's `_learn_box` keeps what a box teaches by its rows: the same
    # rows drawn again (a keystroke elsewhere, a spinner) set the key again,
    # so a box drawn as A, then B (same key), then A again leaves A's rows.
    from agents_chrome.claude_code import ClaudeCodeProfile
    rule = "─" * 40
    a = [rule, "❯ make it **bold**", rule]
    b = [rule, "❯ make it *bold*", rule]
    p = ClaudeCodeProfile()
    p._boxed, p._wide_box = {}, {}
    for n, rows in enumerate((a, b, a)):
        p._learn_box(Frame(index=n, time=float(n), reason="quiet", columns=40, rows=len(rows), lines=rows,
                           cursor=(0, 0), cursor_hidden=False, alternate=False, scrolled=[]))
    assert p._boxed == {"makeitbold": ["make it **bold**"]}


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(["$", "#", "%", "❯", ">", " ", "a", "─", "~", ":", "@", "日", "\t"]), max_size=160)
       .map("".join))
def test_prompt_match_is_the_prompt_regex(text):
    # the shell's prompt regex is asked only of a text holding a marker where
    # a prompt's can be (its first 124 characters): the same answer
    from agents_chrome.shell import PROMPT, _prompt_match
    got, want = _prompt_match(text), PROMPT.match(text)
    assert (got and got.groups()) == (want and want.groups())


def test_prompt_match_finds_the_marker_at_the_farthest_place_it_can_be():
    from agents_chrome.shell import PROMPT, _prompt_match
    for text in ("x" * 121 + "$ ls", "x" * 122 + "> ls", "x" * 122 + "$ ls", "x" * 123 + "> ls", "─" * 200):
        got, want = _prompt_match(text), PROMPT.match(text)
        assert (got and got.groups()) == (want and want.groups())
