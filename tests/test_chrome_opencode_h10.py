"""OpenCode chrome, round h10: behaviour on a real recording (recordings/opencode/h10-*).

- h10-cheesecave-small-60x20: 10 turns at the smallest size, answers much
  taller than the screen, PageUp/PageDown during and after answers, a shrink
  to 52x17 and a grow to 74x24 mid-answer, a code block with lines twice the
  column's width, a table, tool calls. One answer is a numbered list of ten
  items that fills the whole 74x24 screen while it streams: when item `10.`
  arrives OpenCode right-aligns the numbers and redraws items 1 to 9 (and
  their wrapped rows) one column further in.

Each test replays the real recording through the real CLI (or runs the real
profile on its real frames) and checks a structural property against
truth.json or the recording's frames.
"""
from __future__ import annotations

import json
import re

import pytest

from agents_chrome.opencode import ANSWER_COLUMN, NUMBERED, PROFILE, _unpad_numbers
from screen.cast import CastReader
from screen.frames import iter_frames
from tests.test_chrome_opencode import answers, case, replay, segments

SMALL = "h10-cheesecave-small-60x20"
ITEM = re.compile(r"^(\d+)\. (.*)$")


def _truth_turns(name: str) -> list[dict]:
    return json.loads((case(name) / "truth.json").read_text())["turns"]


def _served_lists(name: str) -> list[tuple[str, list[str]]]:
    """(prompt, items) of every served answer holding a numbered list of ten
    or more items, the items' text with bold marks dropped."""
    out, prompt = [], None
    for t in _truth_turns(name):
        if t["role"] == "user":
            prompt = t["text"]
        elif t["role"] == "assistant":
            items = [m.group(2).replace("**", "") for m in map(ITEM.match, t["text"].split("\n")) if m]
            if len(items) >= 10:
                out.append((prompt, items))
    return out


@pytest.mark.parametrize("screen_only", [False, True])
def test_a_list_of_ten_comes_back_once_with_each_item_on_one_line(screen_only, tmp_path_factory):
    """The list's items 1 to 9 are drawn at one indentation before item 10
    streams in and one column further in after; the screen then holds
    nothing but the list. Each item comes back exactly once, in order, as
    the one line it was served as (an item wrapped in the pushed-in layout
    is joined, though its row reads one column short of the edge)."""
    lists = _served_lists(SMALL)
    assert lists, "the case serves a numbered list of ten items"
    got = segments(replay(case(SMALL), screen_only, tmp_path_factory)["turns"])
    for prompt, items in lists:
        text = next(answers(s) for s in got if s["user"] == prompt).replace("**", "")
        drawn = [m.group(2) for m in map(ITEM.match, (ln.strip() for ln in text.split("\n"))) if m]
        assert drawn == items, prompt


def test_pushed_in_numbers_read_at_the_answer_column():
    """On the recording's own frames: a frame that draws item `10.` at the
    answer column draws items 1 to 9 one column further in, and the rows
    their text wraps onto at the column after that. The profile's rows put
    every item's number at the answer column and each wrapped row under its
    item's text, as a list short of ten draws them."""
    checked = 0
    for f in iter_frames(CastReader(case(SMALL) / "session.cast")):
        if not f.alternate or not any(re.match(r"^ {5}10\. \S", ln) for ln in f.lines):
            continue
        if not any(re.match(r"^ {6}[1-9]\. \S", ln) for ln in f.lines):
            continue
        item = None
        for r in PROFILE.rows(f):
            r = r or ""
            m = NUMBERED.match(r)
            if m:
                assert len(m.group("ind")) == ANSWER_COLUMN, r
                item = m.group("num")
            elif item is not None and r.startswith(" " * (ANSWER_COLUMN + 1)) and r.strip():
                # a wrapped row: under its item's text
                assert len(r) - len(r.lstrip()) == ANSWER_COLUMN + len(item) + 2, (item, r)
            else:
                item = None
        checked += 1
    assert checked >= 3


def test_unpad_leaves_other_rows_alone():
    """Only a list whose numbers end in one column and whose narrower numbers
    are pushed in is moved: a list short of ten, a nested list and a code
    line that starts with a number stay as drawn."""
    short = ["     1. one", "        wrapped", "     2. two"]
    assert _unpad_numbers(short) == short
    nested = ["     1. outer", "        1. inner", "        2. inner"]
    assert _unpad_numbers(nested) == nested
    ten = ["      9. nine", "         wrapped", "     10. ten", "         its wrap"]
    assert _unpad_numbers(ten) == ["     9. nine", "        wrapped", "     10. ten", "         its wrap"]
    top = ["         cut off", "      3. three"]
    assert _unpad_numbers(top) == ["        cut off", "     3. three"]


@pytest.mark.parametrize("screen_only", [False, True])
def test_a_resize_over_a_row_cut_mid_word_keeps_one_copy_of_it(screen_only, tmp_path_factory):
    """The window shrinks to 52x17 while the code answer's first row streams:
    the old layout last drew it cut inside a word (`… logger f`), five whole
    words before the cut. The new layout reprints the row whole; the two
    layouts join on those words and the cut word as the start of the
    reprint's word, so the answer opens with its served first line, once,
    not with the cut row and then the reprint."""
    got = segments(replay(case(SMALL), screen_only, tmp_path_factory)["turns"])
    for t in _truth_turns(SMALL):
        if t["role"] == "user":
            prompt = t["text"]
        elif t["role"] == "assistant" and "```" in t["text"]:
            first = t["text"].split("\n", 1)[0].replace("`", "")
            text = next(answers(s) for s in got if s["user"] == prompt)
            lines = [ln for ln in text.split("\n") if ln.strip()]
            assert lines[0] == first, (prompt, lines[:2])
            assert not any(first.startswith(ln) and ln != first for ln in lines), prompt
            return
    raise AssertionError("the case serves a code answer")


@pytest.mark.parametrize("screen_only", [False, True])
def test_a_row_grown_past_a_whole_screen_is_not_kept_as_drawn_first(screen_only, tmp_path_factory):
    """The code block's first row is drawn as `import` (the stream cut it
    there); the next frame, under load, shows the block a whole screen on,
    `import json, time, statistics` at the screen's top and nothing else it
    shares with the frames before but the turn's running footer. That row
    is the first one grown, not a new row under it: the answer holds no row
    that the next row it shows starts with."""
    got = segments(replay(case(SMALL), screen_only, tmp_path_factory)["turns"])
    prompt, checked = None, 0
    for t in _truth_turns(SMALL):
        if t["role"] == "user":
            prompt = t["text"]
        elif t["role"] == "assistant" and "```" in t["text"]:
            text = next(answers(s) for s in got if s["user"] == prompt)
            lines = [ln.strip() for ln in text.split("\n") if ln.strip()]
            for a, b in zip(lines, lines[1:]):
                assert not (b.startswith(a) and a != b), (prompt, a, b)
            checked += 1
    assert checked == 2
