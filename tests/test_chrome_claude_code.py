"""Claude Code chrome on real recordings: what the r3 round of fresh
recordings found (scrolled-back views, padding above the status row,
thinking-time rows, tips wrapped at narrow widths), asserted on every
Claude Code recording that shows the situation, against its truth.json.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import pytest
import regex

from agents_chrome.claude_code import (DETAILED_FOOTER, PROFILE, SCROLLED_PILL, _ideograph_bold, _running_thinking,
                                       _still_mascot, _task_panel)
from agents_chrome.replay import replay
from tests.conftest import frames_of, recording_cases, turns_of as shared_turns_of
from tests.selection import select

CASES = recording_cases("claude-code")
#: the fresh round: long sessions, both renderers, resizes, shells, scroll-back
R3 = [c for c in CASES if c.name.startswith("r3-")]
PROFILE_THINKING = regex.compile(r"^(●\s+)?(Thought|Thinking) for \d+s")
PROFILE_CONVERSATION_ROW = regex.compile(r"^\s*[-•▎A-Za-z]")  # text rows (not spinners, status, tips)


def turns_of(case: Path) -> tuple:
    return shared_turns_of(case, "claude-code")


def truth_prompts(case: Path) -> list[str]:
    truth = json.loads((case / "truth.json").read_text(encoding="utf-8"))
    return [" ".join(t["text"].split()) for t in truth["turns"] if t["role"] == "user" and not t.get("kind")]


def replayed_prompts(case: Path) -> list[str]:
    return [" ".join(t.text.split()) for t in turns_of(case) if t.role == "user"]


def _input_box_top(frame) -> int:
    top = PROFILE._input_box_top(frame.lines)
    return top if top is not None else len(frame.lines)


def test_the_fresh_round_is_there() -> None:
    assert len(R3) >= 6


@pytest.mark.parametrize("case", R3, ids=lambda c: c.name)
def test_every_prompt_once_in_order(case: Path) -> None:
    """Nothing early vanishes, nothing is doubled: long sessions, scroll-back,
    resizes, a tip wrapped under a prompt, thinking rows under a prompt."""
    assert replayed_prompts(case) == truth_prompts(case)


def _pill_frames(case: Path) -> list:
    """(frame, its input box's top, the pill's rows) of every full-screen view
    the user scrolled back (a pill drawn just above the input box)."""
    out = []
    for f in frames_of(case):
        if not f.alternate:
            continue
        top = _input_box_top(f)
        pill = [y for y in range(max(0, top - 3), top) if SCROLLED_PILL.search(f.lines[y])]
        if pill:
            out.append((f, top, pill))
    return out


SCROLLED_BACK = select("SCROLLED_BACK", CASES, lambda c: _pill_frames(c))


def test_some_recording_shows_a_scrolled_back_view() -> None:
    assert SCROLLED_BACK, "no recording shows a scrolled-back view"


@pytest.mark.parametrize("case", SCROLLED_BACK, ids=lambda c: c.name)
def test_scrolled_back_views_cover_the_pill_and_the_pinned_prompt(case) -> None:
    """A full-screen view the user scrolled back draws a pill over a row near
    its bottom and pins the prompt in view over its top row: both rows are
    covered (None) for the stitcher, and neither reaches a turn."""
    for f, top, pill in _pill_frames(case):
        rows = PROFILE.rows(f)
        # (a run of blank rows above is squeezed: the rows under it move up)
        assert not any(r is not None and SCROLLED_PILL.search(r) for r in rows)
        assert sum(1 for r in rows[:top] if r is None) >= len(pill)
        if f.lines[0].startswith("❯"):
            assert rows[0] is None
    assert not any(SCROLLED_PILL.search(t.text) for t in turns_of(case))
    assert replayed_prompts(case) == truth_prompts(case)


@lru_cache(maxsize=None)
def _squeezed(case: Path) -> int:
    """How many full-screen views (every fifth frame) the view squeezes, after
    checking each: blank rows above the status row squeezed to two, the
    conversation rows in order, the rows from the box down in place. Kept per
    recording: the stored selection's check and the test ask it on one worker."""
    squeezed = 0
    for f in frames_of(case)[::5]:
        if not f.alternate:
            continue
        rows = PROFILE.rows(f)
        top = _input_box_top(f)
        assert len(rows) == len(f.lines)
        assert rows[top:] == f.lines[top:]
        if any(r is None for r in rows):
            continue  # scrolled back: see the test above
        # (the header's mascot cells are blanked: it animates, see _still_mascot;
        # bold between ideographs gets its marks, see _ideograph_bold)
        drawn = _still_mascot(_ideograph_bold(f, top), top)
        # (2.1.197's task list over the input box is chrome, left out of the view)
        panel = _task_panel(f.lines, top)
        # (the thinking a running group shows goes: it is gone once the group closes)
        thinking = _running_thinking(f, top)
        assert not any(r.strip() for r in rows[panel:top])
        assert [r for r in rows[:panel] if r.strip()] == [
            r for y, r in enumerate(drawn[:panel]) if r.strip() and y not in thinking]
        body = list(rows[:panel])
        while body and not body[-1].strip():
            body.pop()  # the rows squeezed out go to the end of the region
        run = 0
        for r in body:
            run = run + 1 if not r.strip() else 0
            assert run <= 2
        squeezed += rows != f.lines
    return squeezed


SQUEEZED = select("SQUEEZED", CASES, lambda c: _squeezed(c))


def test_some_recording_has_padding_squeezed() -> None:
    assert SQUEEZED


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_padding_above_the_status_row_is_squeezed(case) -> None:
    """A short conversation is drawn from the top and the status row sits
    above the input box: the blank rows between are squeezed to two, the
    conversation rows keep their order and the rows from the box down their
    places (checked on every fifth frame of every recording)."""
    _squeezed(case)


def test_thinking_time_rows_are_no_turn_text() -> None:
    """'Thought for 1s' under a prompt and '● Thinking for 1s…' are chrome of
    thinking models, in both renderers."""
    checked = 0
    for case in R3:
        truth = json.loads((case / "truth.json").read_text(encoding="utf-8"))
        if not any(t["role"] == "thinking" for t in truth["turns"]):
            continue
        checked += 1
        for t in turns_of(case):
            if t.role in ("user", "assistant"):
                for row in t.text.splitlines():
                    assert not PROFILE_THINKING.match(row.strip()), (case.name, row)
    assert checked >= 3



@pytest.mark.parametrize("name", ["r3-long-fullscreen-100x30", "r3-resize-fullscreen-200x60"])
@pytest.mark.parametrize("seed,max_pause,split,merge", [(3, 0.0, 0.3, 0.5), (11, 0.001, 0.8, 0.95)])
def test_scroll_back_and_padding_do_not_depend_on_timing(name: str, seed: int, max_pause: float, split: float,
                                                         merge: float, tmp_path: Path) -> None:
    """Scrolled-back views and a short conversation's padding, with every pause
    cut and the output cut into other events: the same turns."""
    from tests.test_timing import retime
    case = next(c for c in CASES if c.name == name)
    fast = tmp_path / "session.cast"
    retime(case / "session.cast", fast, seed, max_pause, split, merge)
    _m, turns, _l = replay(fast, agent="claude-code")
    assert [(t.role, t.text, t.name) for t in turns] == [(t.role, t.text, t.name) for t in turns_of(case)]


def test_a_frozen_scrolled_view_does_not_cut_what_streamed_below_it() -> None:
    """Cut the recording right after each scrolled-back view that only
    repeats rows: every row of the last live view before it is still in the
    transcript (taken for the live tail, the frozen view would end the
    document where it ends)."""
    checked = 0
    for case in CASES:
        frames = frames_of(case)
        last_live = None
        for k, f in enumerate(frames):
            if not f.alternate or PROFILE.viewport(f) is None:
                continue
            if not PROFILE._scrolled(f):
                last_live = f
                continue
            if last_live is None or checked >= 6:
                continue
            live_rows = [r for r in PROFILE.rows(last_live)[slice(*PROFILE.viewport(last_live))]
                         if r and len(r.strip()) >= 3 and PROFILE_CONVERSATION_ROW.match(r)]
            lines = [ln.text for ln in PROFILE.transcript(frames[:k + 1])]
            doc = set(lines)
            # (after a resize the document may keep a paragraph's rows of the older
            # width: a live row is then in it by its text, across a row break)
            flat = "".join("".join(t.split()) for t in lines)
            assert [r for r in live_rows if r not in doc and "".join(r.split()) not in flat] == [], case.name
            checked += 1
    assert checked



def test_rows_scrolled_under_the_inline_detailed_transcript_are_left_out() -> None:
    """Ctrl+O in the inline renderer: the detailed transcript overflows into
    history, then the normal view is redrawn in place. The detailed rows (tool
    output in full, thinking text, right-aligned time stamps) are a second
    copy: none reaches the turns, and every prompt comes once."""
    stamp = regex.compile(r"^\s{20,}\d{1,2}:\d{2}\s?[AP]M\s+\S+\s*$")
    seen = 0
    for case in CASES:
        shown = [f for f in frames_of(case) if not f.alternate and f.scrolled
                 and any(DETAILED_FOOTER.match(ln) for ln in f.lines[-3:])]
        if not shown:
            continue
        seen += 1
        texts = {ln.text for ln in PROFILE.transcript(frames_of(case)) if ln.source == "history"}
        times = {ln.time for ln in PROFILE.transcript(frames_of(case)) if ln.source == "history"}
        assert not times & {f.time for f in shown}
        assert not any(stamp.match(t) for t in texts)
        assert replayed_prompts(case) == truth_prompts(case)
    assert seen, "no recording opens the detailed transcript inline"
