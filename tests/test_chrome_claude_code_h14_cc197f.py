"""Claude Code full screen on real recordings: what the h14 round found with the
older build (2.1.197, no synchronized updates), asserted on every Claude Code
recording that shows the situation (never on one case by name), against its
truth.json, as recorded and with the input events stripped:

- the slash-command menu is drawn over the conversation's last rows, right
  above the input box; an Enter on `/clear` wipes the screen with the menu
  still up. Its rows (and the blank rows it keeps above its entries) are
  covered, so the answer under it keeps its tail;
- the header a `/clear` draws again (model and directory rows, the mascot's
  cells blanked) is chrome, not the end of the answer above it;
- a frame taken as the terminal changed size while the renderer was still
  redrawing the conversation (the cursor up in the rows it writes) holds
  rows half rewritten: it opens no layout, so no words come twice;
- a prompt of several lines typed with the newline key in Chinese or
  Japanese keeps its line breaks (the input box's width tells a short row
  from a wrapped one);
- bold set between ideographs gets its `**` back (its only word boundary).
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import regex

from agents_chrome.claude_code import PROFILE, SLASH_ENTRY, _menu_top
from agents_chrome.cjk_bold import IDEOGRAPH
from tests.conftest import cast_events, cli_replay, frames_of, meta_of, recording_cases, truth_turns
from tests.selection import select

CASES = recording_cases("claude-code")
FULL = [c for c in CASES if meta_of(c).get("render_mode") == "fullscreen"]
WORD = regex.compile(r"\w+")


def _segments(turns: list[dict]) -> list[dict]:
    """Per typed prompt or slash command: its text and the assistant words after it."""
    out: list[dict] = []
    for t in turns:
        if t["role"] in ("user", "system") and (t["role"] == "user" or t.get("text", "").startswith("/")):
            out.append({"prompt": t["text"], "words": [], "text": []})
        elif t["role"] == "assistant" and out:
            # (a fence's language tag is never drawn)
            text = regex.sub(r"(?m)^(\s*```)\S+", r"\1", t["text"])
            out[-1]["words"] += [w.lower() for w in WORD.findall(text)]
            out[-1]["text"].append(t["text"])
    return out


# ---------------------------------------------------------------- slash menu over an answer, then /clear
def _menu_frames(case: Path) -> list:
    out = []
    for f in frames_of(case):
        if not f.alternate:
            continue
        top = PROFILE._input_box_top(f.lines)
        if top is not None and _menu_top(f.lines, top) < top:
            out.append((f, top))
    return out


CLEAR_CASES = [c for c in FULL if any(t.get("text") == "/clear" for t in truth_turns(c))]


MENU_CASES = select("MENU_CASES", FULL, lambda c: _menu_frames(c))


def test_there_are_menu_and_clear_cases():
    assert CLEAR_CASES and set(CLEAR_CASES) & set(MENU_CASES)


@pytest.mark.parametrize("case", MENU_CASES, ids=lambda c: c.name)
def test_menu_rows_are_covered(case):
    """Every row of a menu drawn above the input box is covered (None) in the rows the stitcher gets."""
    for f, top in _menu_frames(case):
        rows = PROFILE.rows(f)
        menu = _menu_top(f.lines, top)
        assert any(SLASH_ENTRY.match(ln) for ln in f.lines[menu:top])
        assert all(r is None for r in rows[menu:top]), f.time


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
@pytest.mark.parametrize("case", CLEAR_CASES, ids=lambda c: c.name)
def test_answer_before_clear_keeps_its_tail(case, screen_only):
    """The answer right before /clear: every truth word the screen drew, in order, and no header row."""
    truth = _segments(truth_turns(case))
    got = _segments(cli_replay(case, "claude-code", screen_only)["turns"])
    i = next(k for k, s in enumerate(truth) if s["prompt"] == "/clear")
    j = next(k for k, s in enumerate(got) if s["prompt"] == "/clear")
    want, have = truth[i - 1]["words"], got[j - 1]["words"]
    assert got[j - 1]["prompt"].split() == truth[i - 1]["prompt"].split()
    # the answer's tail, short of its last words (an interrupted answer's last
    # words reached the client but were never drawn)
    tail = want[-40:-10]
    assert _in_order(tail, have[-60:]), (tail, have[-60:])
    sm = regex.compile(r"\s+")
    header = {sm.sub(" ", ln[11:].strip()) for f in frames_of(case)[:40] if f.alternate
              for ln in f.lines[:8] if "Claude Code v" in ln}
    assert header and not any(h and h in " ".join(got[j - 1]["text"]) for h in header)


def _in_order(want: list[str], have: list[str]) -> bool:
    it = iter(have)
    return all(w in it for w in want)


@pytest.mark.parametrize("case", CLEAR_CASES, ids=lambda c: c.name)
def test_header_drawn_again_is_chrome(case):
    """No assistant text holds a row of the header (its model or directory row)."""
    rows = set()
    for f in frames_of(case):
        if f.alternate:
            for y, ln in enumerate(f.lines[:8]):
                if "Claude Code v" in ln:
                    rows |= {r[11:].strip() for r in f.lines[y + 1:y + 3] if len(r) > 11 and r[11:].strip()}
    assert rows
    for screen_only in (False, True):
        for t in cli_replay(case, "claude-code", screen_only)["turns"]:
            if t["role"] == "assistant":
                assert not any(r in t["text"] for r in rows), t["text"][-200:]


# ---------------------------------------------------------------- half-drawn frame at a resize
def _half_drawn_at_resize(case: Path) -> list:
    out = []
    for f in frames_of(case):
        if f.alternate and f.reason == "resize":
            top = PROFILE._input_box_top(f.lines)
            if top is not None and f.cursor[1] < top:
                out.append(f)
    return out


HALF = select("HALF", FULL, lambda c: _half_drawn_at_resize(c))


def test_there_are_half_drawn_resize_frames():
    assert HALF


@pytest.mark.parametrize("case", HALF, ids=lambda c: c.name)
def test_half_drawn_resize_frame_is_left_out(case):
    kept = {f.index for f in PROFILE._laid_out(iter(frames_of(case)))}
    assert not any(f.index in kept for f in _half_drawn_at_resize(case))


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
@pytest.mark.parametrize("case", HALF, ids=lambda c: c.name)
def test_no_words_twice_after_resize(case, screen_only):
    """No run of eight words comes more often in a turn's answer than truth has it."""
    truth = _segments(truth_turns(case))
    got = _segments(cli_replay(case, "claude-code", screen_only)["turns"])
    assert [s["prompt"].split() for s in got] == [s["prompt"].split() for s in truth]
    for t, g in zip(truth, got):
        grams = lambda ws: Counter(tuple(ws[k:k + 8]) for k in range(len(ws) - 7))  # noqa: E731
        want, have = grams(t["words"]), grams(g["words"])
        assert not [gr for gr, n in have.items() if n > want.get(gr, 0) and want.get(gr, 0) >= 1], t["prompt"]


# ---------------------------------------------------------------- a CJK prompt typed with the newline key
def _newline_key_prompts(case: Path) -> list[str]:
    """truth's prompts of several lines with wide characters, typed key by key with Meta+Enter between lines."""
    typed = "".join(d for _t, code, d in cast_events(case) if code == "i" and "\x1b[200~" not in d)
    if "\x1b\r" not in typed:
        return []
    return [t["text"] for t in truth_turns(case) if t["role"] == "user" and "\n" in t["text"]
            and IDEOGRAPH.search(t["text"]) and t["text"].split("\n")[0] in typed]


NEWLINE = [c for c in CASES if _newline_key_prompts(c)]


def test_there_are_newline_key_prompts():
    assert NEWLINE


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
@pytest.mark.parametrize("case", NEWLINE, ids=lambda c: c.name)
def test_newline_key_prompt_keeps_its_lines(case, screen_only):
    got = [[ln.strip() for ln in t["text"].split("\n")]
           for t in cli_replay(case, "claude-code", screen_only)["turns"] if t["role"] == "user"]
    for p in _newline_key_prompts(case):
        assert [ln.strip() for ln in p.split("\n")] in got


# ---------------------------------------------------------------- bold between ideographs
_RUN = r"\*\*[^*\s](?:[^*\n]*[^*\s])?\*\*"
GLUED_BOLD = regex.compile(r"(?<=%s)%s|%s(?=%s)" % (IDEOGRAPH.pattern, _RUN, _RUN, IDEOGRAPH.pattern))


def _glued_bold(case: Path) -> list[str]:
    return [m.group() for t in truth_turns(case) if t["role"] == "assistant"
            for m in GLUED_BOLD.finditer(t["text"])]


BOLD = [c for c in FULL if _glued_bold(c)]


def test_there_are_glued_bold_cases():
    assert BOLD


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
@pytest.mark.parametrize("case", BOLD, ids=lambda c: c.name)
def test_bold_between_ideographs_keeps_its_marks(case, screen_only):
    text = "\n".join(t["text"] for t in cli_replay(case, "claude-code", screen_only)["turns"]
                     if t["role"] == "assistant")
    for b in _glued_bold(case):
        assert b in text
