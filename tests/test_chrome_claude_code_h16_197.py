"""Claude Code 2.1.197 on real recordings: what round h16's randomized probes
found, asserted on every Claude Code recording that shows the situation (never
on one case by name), against its truth.json, as recorded and with the input
events stripped:

- a frame taken at a pause in the middle of a full-screen render (2.1.197
  draws without synchronized updates; a render of more than 4 kB reaches the
  recorder in two reads, far apart on a busy machine) is no view: its rows
  mix two states (an old row left above the new ones);
- a box table laid out anew as it grows (wider columns, cells wrapped anew)
  in the same render that scrolled the view shares no row with its older
  layout as drawn (and may share every row with an earlier answer's copy of
  the same table): it is still one table;
- a row drawn while it streamed, then a render that scrolled the view past
  everything above it, is one row, not its half and its whole;
- the header's first row as 2.1.197 draws it (the mascot closing on `▌`) is
  the header: a screen after an inline `/clear` starts over, so the rows the
  clear wiped are kept, and the header is no answer text;
- the rows an inline wipe erased above the row the redraw of the live part
  starts from (after the window grew shorter) are kept;
- the slash-command menu drawn above the task list (not right above the
  input box) covers the conversation's last rows, which it hides.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import regex

from agents_chrome.claude_code import PROFILE, SLASH_ENTRY, _task_panel
from agents_chrome.transcript import TLine
from tests.conftest import cli_replay, frames_of, meta_of, recording_cases, truth_turns
from tests.segments import per_prompt as _per_prompt
from tests.selection import select

ALL = recording_cases("claude-code")
CASES = [c for c in ALL if meta_of(c).get("agent_version", "").startswith("2.1.197")]
BOTH = pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
WORD = regex.compile(r"\w+")


def _answers(turns: list[dict]) -> list[str]:
    """Per prompt, its answers' text joined."""
    return ["\n".join(t["text"] for t in ts if t["role"] == "assistant") for _p, ts in _per_prompt(turns)]


# ---------------------------------------------------------------- a frame taken mid-render

def _mid_render(case: Path) -> list[int]:
    """Indices of full-screen frames taken at a pause with the cursor up in the
    conversation's rows (above the input box): the renderer was mid-write."""
    out = []
    for f in frames_of(case):
        if f.alternate and f.reason == "quiet":
            top = PROFILE._input_box_top(f.lines)
            if top is not None and f.cursor[1] < top:
                out.append(f.index)
    return out


MID = select("MID", CASES, lambda c: _mid_render(c))


def test_there_are_mid_render_frames():
    assert MID, "no 2.1.197 recording holds a frame taken in the middle of a render"


@pytest.mark.parametrize("case", MID, ids=lambda c: c.name)
def test_a_frame_taken_mid_render_is_no_view(case):
    kept = {f.index for f in PROFILE._laid_out(iter(frames_of(case)))}
    assert not kept & set(_mid_render(case))


# ---------------------------------------------------------------- rows twice in one answer

def _twice(text: str) -> list[str]:
    """Rows of an answer that come twice in a row, or a row followed by itself grown
    (its half, then its whole)."""
    rows = [r.strip() for r in text.splitlines()]
    bad = []
    for a, b in zip(rows, rows[1:]):
        if len(a) >= 10 and WORD.search(a) and b.startswith(a) and "│" not in a:
            bad.append(a)
    return bad


@BOTH
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_a_streamed_row_comes_back_once(case, screen_only):
    want = _answers(truth_turns(case))
    got = _answers(cli_replay(case, "claude-code", screen_only)["turns"])
    for k, text in enumerate(got):
        extra = [r for r in _twice(text) if not (k < len(want) and r in _twice(want[k]))]
        assert not extra, f"answer {k}: {extra}"


# ---------------------------------------------------------------- a box table laid out anew

def _md_headers(text: str) -> list[tuple[str, ...]]:
    """The header cells of each markdown table of an answer."""
    rows = text.splitlines()
    out = []
    for a, b in zip(rows, rows[1:]):
        if a.startswith("|") and regex.match(r"^\|(\s*:?-{3,}:?\s*\|)+\s*$", b):
            out.append(tuple(c.strip() for c in a.strip().strip("|").split("|")))
    return out


def _box_headers(text: str, cells: tuple[str, ...]) -> int:
    """Rows of an answer that draw the header `cells` in a box (`│ A │ B │`)."""
    n = 0
    for r in text.splitlines():
        got = tuple(c.strip() for c in r.strip().strip("│").split("│"))
        if "│" in r and got == cells:
            n += 1
    return n


TABLES = [c for c in CASES if meta_of(c).get("render_mode", meta_of(c).get("render")) != "inline"
          and any(_md_headers(t["text"]) for t in truth_turns(c) if t["role"] == "assistant")]


@BOTH
@pytest.mark.parametrize("case", TABLES, ids=lambda c: c.name)
def test_a_box_table_laid_out_anew_is_one_table(case, screen_only):
    want = _answers(truth_turns(case))
    got = _answers(cli_replay(case, "claude-code", screen_only)["turns"])
    checked = 0
    for k, text in enumerate(want):
        if k >= len(got):
            break
        for cells in set(_md_headers(text)):
            if all(cells) and len(cells) >= 2:
                checked += 1
                assert _box_headers(got[k], cells) <= _md_headers(text).count(cells), (k, cells)
    assert checked


# ---------------------------------------------------------------- the slash menu over the task list

def _menus_over_tasks(case: Path) -> list:
    out = []
    for f in frames_of(case):
        if not f.alternate:
            continue
        top = PROFILE._input_box_top(f.lines)
        if top is None:
            continue
        panel = _task_panel(f.lines, top)
        if panel < top and any(SLASH_ENTRY.match(ln) for ln in f.lines[max(0, panel - 8):panel]):
            out.append((f, panel))
    return out


MENUS = select("MENUS", CASES, lambda c: _menus_over_tasks(c))


def test_there_are_menus_over_the_task_list():
    assert MENUS, "no 2.1.197 recording draws the slash menu above the task list"


@pytest.mark.parametrize("case", MENUS, ids=lambda c: c.name)
def test_the_menu_above_the_task_list_covers_its_rows(case):
    for f, panel in _menus_over_tasks(case):
        rows = PROFILE.rows(f)
        for y in range(max(0, panel - 8), panel):
            if SLASH_ENTRY.match(f.lines[y]):
                assert rows[y] is None, (f.index, y, f.lines[y])


# ---------------------------------------------------------------- the header, the mascot closing on `▌`

def _header_rows(case: Path) -> set[str]:
    """The header's first row as frames drew it: the mascot's glyphs, then `Claude Code v…`."""
    out: set[str] = set()
    for f in frames_of(case):
        for ln in f.lines[:6]:
            if regex.match(r"^\s*[▐▝▘▗▖▛▜▟▙▀▄█▌]{3,}\s+Claude Code v\d", ln):
                out.add(ln.rstrip())
    return out


HEADERS = select("HEADERS", CASES, lambda c: _header_rows(c))


def test_there_are_headers():
    assert any("▌" in r for c in HEADERS for r in _header_rows(c))


@pytest.mark.parametrize("case", HEADERS, ids=lambda c: c.name)
def test_the_header_row_is_the_logo(case):
    """2.1.197 draws the mascot's first row as `▐▛███▜▌`: the row is the header's
    (so a screen after `/clear` is known to start over, and the rows the clear
    wiped are kept, and the header is never answer text)."""
    for row in _header_rows(case):
        assert PROFILE.label([TLine(row, 0.0, "screen", 0)])[0].rule == "logo", row


# ---------------------------------------------------------------- the live part drawn again after a shrink

def _wiped_above_redraw(case: Path) -> list[str]:
    """Rows with words an inline wipe erased above the row its redraw starts
    from (the previous frame showed them, at the same width, above that row)."""
    fs = frames_of(case)
    out: list[str] = []
    prev = None
    for i, f in enumerate(fs):
        if f.alternate:
            prev = None
            continue
        if prev is not None and any(why == "clear" for _o, why in f.marks):
            nxt = next((g for g in fs[i:i + 3] if any(r.strip() for r in g.scrolled + g.lines)), None)
            if nxt is not None and nxt.columns == prev.columns and not nxt.alternate:
                drawn = [r.rstrip() for r in nxt.lines if r.strip()]
                top = PROFILE._input_box_top(prev.lines)
                shown = [r.rstrip() for r in prev.lines[:top if top is not None else len(prev.lines)]]
                k = next((y for y, r in enumerate(shown) if drawn and r == drawn[0]), None)
                if k and len(drawn) >= 3 and [r for r in shown[k:] if r.strip()][:3] == drawn[:3]:
                    out += [r for r in shown[:k] if WORD.search(r) and not r.lstrip().startswith(("❯", "─"))]
        if any(r.strip() for r in f.lines):
            prev = f
    return out


WIPED = select("WIPED", CASES, lambda c: meta_of(c).get("render_mode") == "inline" and _wiped_above_redraw(c))


def test_there_are_wipes_above_a_redraw():
    assert WIPED, "no 2.1.197 recording wipes rows above the redraw of its live part"


@BOTH
@pytest.mark.parametrize("case", WIPED, ids=lambda c: c.name)
def test_rows_wiped_above_a_redraw_are_kept(case, screen_only):
    text = " ".join(t["text"] for t in cli_replay(case, "claude-code", screen_only)["turns"])
    got = " ".join(WORD.findall(text))
    for row in _wiped_above_redraw(case):
        lb = PROFILE.label([TLine(row, 0.0, "screen", 0)])[0]
        if lb.kind == "chrome":
            continue  # (the status row, a key hint: never text of the conversation)
        body = regex.sub(r"\s*\((?:ctrl|shift|alt)\+[^()]*\)\s*$", "", row)
        assert " ".join(WORD.findall(body)) in got, row
