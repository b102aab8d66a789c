"""OpenCode chrome, round h8: behaviour on real recordings (recordings/opencode/h8-*).

- h8-sailloft-long-69x23: 13 turns at 69x23 with bash/read/write/edit calls,
  a failing command, a table, a code block with blank lines; the window
  shrinks to 54x20 during one answer and grows to 88x25 during another.
- h8-observatory-wide-187x53: a reasoning model, Chinese/Japanese and emoji
  in prompts, answers and a table, an answer taller than the screen scrolled
  back (PageUp) while it streams, the mouse wheel during another, the ctrl+p
  palette and /models over the conversation.
- h8-quarry-fast-116x34: fast streaming, answers that open with a code block,
  nested lists, multi-line prompts holding markdown.

Each test replays a real recording through the real CLI (or the real replay
functions) and checks a structural property against truth.json.
"""
from __future__ import annotations

import re

import pytest

from agents_chrome.opencode import PROFILE, BOX_BOTTOM
from screen.cast import CastReader
from screen.frames import iter_frames
from tests.test_chrome_opencode import answers, case, recall, replay, segments, truth_segments

LONG = "h8-sailloft-long-69x23"
WIDE = "h8-observatory-wide-187x53"
FAST = "h8-quarry-fast-116x34"
#: the sidebar's own words (session title, context, cost, LSP); none is in
#: any prompt or answer of the wide recording
SIDEBAR = re.compile(r"\b(tokens|spent|LSPs?|Context|% used)\b")


def _plain(text: str) -> str:
    """A served answer without its code fences' language lines (OpenCode
    draws a fence as nothing)."""
    return re.sub(r"^```[\w-]*$", "", text, flags=re.M)


@pytest.mark.parametrize("name", [LONG, WIDE, FAST])
@pytest.mark.parametrize("screen_only", [False, True])
def test_every_prompt_once_every_answer_whole(name, screen_only, tmp_path_factory):
    """Whatever the window did (shrink and grow mid-answer, scroll-back,
    popups), each typed prompt comes back once and in order, and each
    answer's served words come back in order under it."""
    path = case(name)
    got = segments(replay(path, screen_only, tmp_path_factory)["turns"])
    want = truth_segments(path)
    assert [s["user"] for s in got] == [s["user"] for s in want]
    for g, w in zip(got, want):
        assert recall(_plain(answers(w)), answers(g)) >= 0.99, g["user"]


def test_old_layout_drawn_after_a_grow_is_not_conversation():
    """Grown from 54 to 88 columns mid-answer, OpenCode drew its next frames
    still at 54 (input box two columns short of 54, the terminal's leftovers
    to the right of the rows), then reprinted everything at 88. Those frames
    have no conversation viewport; every settled frame at 88 has one."""
    path = case(LONG)
    stale, settled = [], 0
    with CastReader(path / "session.cast") as reader:
        for f in iter_frames(reader):
            box = next((ln for ln in reversed(f.lines) if BOX_BOTTOM.match(ln)), None)
            if not f.alternate or f.columns != 88 or box is None:
                continue
            if len(box.rstrip()) <= 54:
                stale.append(f.time)
                assert PROFILE.viewport(f) is None, f.time
            else:
                settled += 1
                assert PROFILE.viewport(f) is not None, f.time
    assert stale and settled > 50
    resize = 68.0  # the grow, per meta.json (68.34 s)
    assert all(resize < t < resize + 2 for t in stale)


def test_grow_mid_answer_gives_one_answer_without_leftovers(tmp_path_factory):
    """The answer streaming through the grow comes back once, under its one
    prompt, with no cells the terminal left right of the old layout (the
    code of an earlier answer, `itch_mm)`)."""
    path = case(LONG)
    segs = segments(replay(path, False, tmp_path_factory)["turns"])
    tension = [s for s in segs if s["user"].startswith("how do I set bobbin tension")]
    assert len(tension) == 1
    text = answers(tension[0])
    assert "itch_mm" not in text and "-> None" not in text
    want = next(s for s in truth_segments(path) if s["user"] == tension[0]["user"])
    assert recall(answers(want), text) == 1.0


@pytest.mark.parametrize("screen_only", [False, True])
def test_sidebar_cropped_by_columns_on_wide_character_rows(screen_only, tmp_path_factory):
    """The sidebar starts at a column; on a row of ideographs or emoji that
    column lies fewer characters into the text than it has cells. Cropped by
    cells, no row keeps the sidebar's text, and the Chinese table comes back
    as one table whose four records each hold their five cells."""
    path = case(WIDE)
    got = replay(path, screen_only, tmp_path_factory)["turns"]
    for t in got:
        if t["role"] in ("user", "assistant"):
            assert not SIDEBAR.search(t["text"]), t["text"][:300]
    first = segments(got)[0]
    records = [r for r in answers(first).splitlines() if r.startswith("│ ")]
    assert len(records) == 5  # the header and four instruments
    assert all(len(r.strip("│ ").split(" │ ")) == 5 for r in records), records


@pytest.mark.parametrize("screen_only", [False, True])
def test_dialogs_on_a_wide_terminal_are_dialogs(screen_only, tmp_path_factory):
    """OpenCode's dialogs keep their width (about 60 columns) on a wide
    terminal, less than a third of 187: centred, in their own background,
    they are still dialogs. The ctrl+p palette (opened after the second
    answer) and the model picker (after the third) are system turns there,
    and none of their rows reach an answer."""
    path = case(WIDE)
    got = replay(path, screen_only, tmp_path_factory)["turns"]
    users = 0
    where = {}
    for t in got:
        if t["role"] == "user":
            users += 1
        elif t["role"] == "system":
            where[t["text"].splitlines()[0]] = users
    assert where == {"Commands": 2, "Select model": 3}
    text = "\n".join(t["text"] for t in got if t["role"] == "assistant")
    assert "Switch model" not in text and "Connect provider" not in text


@pytest.mark.parametrize("screen_only", [False, True])
def test_answers_opening_with_code_and_nested_lists(screen_only, tmp_path_factory):
    """Streamed fast: an answer that opens with a code block starts with the
    code's first line (no fence, no language); nested list items keep their
    indentation; a multi-line prompt holding markdown marks comes back with
    its line breaks and marks as typed."""
    path = case(FAST)
    got = segments(replay(path, screen_only, tmp_path_factory)["turns"])
    want = truth_segments(path)
    assert [s["user"] for s in got] == [s["user"] for s in want]
    assert "\n- **cone** crusher\n" in got[2]["user"]
    for g, w in zip(got, want):
        served = answers(w)
        if served.startswith("```"):
            first_code = served.splitlines()[1]
            assert answers(g).splitlines()[0] == first_code, g["user"]
    rows = answers(got[1]).splitlines()
    for line in ("  - Check the toggle plate", "    - look for cracks at both seats", "    1. measure at four points"):
        assert line in rows


@pytest.mark.parametrize("name", [LONG, WIDE, "h6-resize-stream-93x23"])
def test_same_turns_with_pauses_squeezed(name, tmp_path):
    """Pauses taken out and the output cut and joined elsewhere: the same
    turns, dialogs in the same place (the frames drawn at the old width
    after the grow are told by their own rows, not by when they came)."""
    from tests.test_timing import retime, turns_of

    path = case(name)
    fast = tmp_path / "session.cast"
    retime(path / "session.cast", fast, 3, 0.0, 0.3, 0.6)
    assert turns_of(fast, "opencode") == turns_of(path / "session.cast", "opencode")


@pytest.mark.parametrize("screen_only", [False, True])
def test_reprint_fuller_than_the_old_copy_replaces_it(screen_only, tmp_path_factory):
    """h6-resize-stream (recorded on a loaded machine): the bicycle-wheel
    answer streamed at 67x21 with frames seconds apart, so rows scrolled past
    the top before any frame drew them whole (`...a quarter turn and tig`,
    `3. Work in s`, the code block never). Grown to 137 columns, OpenCode
    reprints the answer whole: that reprint holds every word of the old copy
    in order and words it never had, so it takes the old copy's place. The
    answer comes back with every served word, the prompt after it once."""
    path = case("h6-resize-stream-93x23")
    got = segments(replay(path, screen_only, tmp_path_factory)["turns"])
    want = truth_segments(path)
    assert [s["user"] for s in got] == [s["user"] for s in want]
    text = answers(got[0])
    assert recall(_plain(answers(want[0])), text) == 1.0
    assert not re.search(r"\btig$|\bin s$|^6\.$", text, re.M)
