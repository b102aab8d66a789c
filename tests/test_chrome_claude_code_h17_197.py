"""Claude Code 2.1.197 on real recordings: what round h17's randomized probes
found, asserted on every Claude Code recording that shows the situation (never
on one case by name), against its truth.json, as recorded and with the input
events stripped:

- a sent prompt taller than the full-screen view (a paste of many lines at few
  rows): the render after Enter scrolls the echo's first rows, `❯ ` and all,
  above the view's top before any frame shows them. The echo's tail (rows
  indented two on the echo's background from the first cell, at the view's
  top) is that prompt, not the end of the answer above: the turns stay
  aligned, and as recorded the paste the input events hold is the prompt;
- a tall echo whose head a frame did show keeps its last rows (seen alone at
  a later view's top) as its own, not as a second prompt.
"""
from __future__ import annotations


import pytest

from tests.conftest import cli_replay, meta_of, recording_cases, truth_turns, typed_prompts
from tests.segments import headless_prompts as _headless_prompts
from tests.selection import select

ALL = recording_cases("claude-code")
FULL = [c for c in ALL if meta_of(c).get("agent_version", "").startswith("2.1.197")
        and meta_of(c).get("render_mode", meta_of(c).get("render")) != "inline"]
BOTH = pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])


HEADLESS = select("HEADLESS", FULL, lambda c: _headless_prompts(c))


def test_there_is_a_prompt_taller_than_the_view():
    assert HEADLESS, "no full-screen recording shows a prompt whose echo's first row was never drawn"


def _segments(turns: list[dict]) -> list[tuple[str, str]]:
    """(prompt, its answers joined) per prompt, slash commands left out."""
    out: list[tuple[str, list[str]]] = []
    for t in turns:
        if t["role"] == "user" and not t.get("kind") and not t["text"].startswith("/"):
            out.append((" ".join(t["text"].split()), []))
        elif t["role"] == "assistant" and out:
            out[-1][1].append(t["text"])
    return [(p, " ".join(" ".join(a).split())) for p, a in out]


@BOTH
@pytest.mark.parametrize("case", HEADLESS, ids=lambda c: c.name)
def test_a_prompt_taller_than_the_view_is_a_prompt(case, screen_only):
    want = _segments(truth_turns(case))
    got = _segments(cli_replay(case, "claude-code", screen_only)["turns"])
    assert len(got) == len(want), [p[:40] for p, _a in got]
    for k, p in enumerate(_headless_prompts(case)):
        i = next(i for i, (q, _a) in enumerate(want) if q == " ".join(p.split()))
        gp, _ga = got[i]
        if screen_only:
            # what was drawn of it: its tail, as the prompt
            assert gp and " ".join(p.split()).endswith(gp), (gp[:80], p[:80])
        else:
            assert gp == " ".join(p.split())
        # the echo's rows are not the answer above's
        above = got[i - 1][1]
        tail_words = gp.split()[-6:]
        assert " ".join(tail_words) not in above


@BOTH
@pytest.mark.parametrize("case", FULL, ids=lambda c: c.name)
def test_no_prompt_is_made_of_an_echo_tail_that_had_its_head(case, screen_only):
    """A prompt comes back as the tail of a prompt of truth.json (its first
    rows left out) only when no frame showed that prompt's `❯ ` row: an echo's
    last rows seen alone at a later view's top are no prompt of their own."""
    want = [" ".join(p.split()) for p in typed_prompts(truth_turns(case))]
    headless = {" ".join(p.split()) for p in _headless_prompts(case)}
    got = [" ".join(p.split()) for p in typed_prompts(cli_replay(case, "claude-code", screen_only)["turns"])]
    for p in got:
        if p in want:
            continue
        ends = [w for w in want if w.endswith(p)]
        assert all(w in headless for w in ends), (p[:60], [w[:60] for w in ends])
        if ends:
            assert p.split()[0] != ends[0].split()[0], p[:60]


# ---------------------------------------------------------------- every prompt, once

@BOTH
@pytest.mark.parametrize("case", FULL, ids=lambda c: c.name)
def test_every_prompt_comes_back_once_in_its_place(case, screen_only):
    """A tall echo drawn headless at first and whole only once the view grew
    (a resize) is one prompt in its place: the prompts come back as typed, in
    order, none twice (a prompt never drawn with its head: its tail, without
    the input events)."""
    want = [" ".join(p.split()) for p in typed_prompts(truth_turns(case))]
    never = {" ".join(p.split()) for p in _headless_prompts(case)} if screen_only else set()
    got = [" ".join(p.split()) for p in typed_prompts(cli_replay(case, "claude-code", screen_only)["turns"])
           if not p.startswith("/")]
    assert len(got) == len(want), [p[:40] for p in got]
    for w, g in zip(want, got):
        assert g == w or (w in never and w.endswith(g)), (w[:60], g[:60])


# ---------------------------------------------------------------- an answer after a finished group

def _labeled(rows: list[str]):
    from agents_chrome.claude_code import PROFILE
    from agents_chrome.transcript import TLine

    return PROFILE.label([TLine(r, float(i), "alt", 0, 168) for i, r in enumerate(rows)])


# rows the way a 16-row full-screen view (168 columns) of round h17's probe g1707 drew
# them: a wide box table relaid as it grew, its `●` row left above the view, under the
# finished group of the call before it (no spinner row between them)
_GROUP_THEN_TABLE = [
    "❯ vapu of habin to before maplush the?", "",
    "● Zyquader then megind glytret truk broush nin brastul each.", "",
    "  Ran 1 shell command", "",
    "  │                    Chir                    │                      Cho                      │",
    "  ├────────────────────────────────────────────┼───────────────────────────────────────────────┤",
    "  │ 844                                        │ pygloux shitycar klethyx is kohysh cedou then │",
    "  └────────────────────────────────────────────┴───────────────────────────────────────────────┘", "",
    "  Glavou chait was cheand klon.",
]


def test_rows_under_a_finished_group_and_a_blank_row_are_an_answer():
    lb = _labeled(_GROUP_THEN_TABLE)
    kinds = [(x.kind, x.line.text.strip()[:12]) for x in lb]
    assert lb[4].kind == "tool_call", kinds
    assert lb[6].kind == "assistant", kinds
    assert all(x.kind in ("cont", "blank", "assistant") for x in lb[6:]), kinds


def test_a_running_group_or_a_call_row_with_its_bullet_off_is_no_answer():
    # the group still running (`Running 1 shell command…`): its command rows follow
    running = _labeled(_GROUP_THEN_TABLE[:4] + ["  Running 1 shell command…", ""] + _GROUP_THEN_TABLE[6:])
    assert running[6].kind != "assistant"
    # the next call's row caught with its blinking bullet off (`  Update(notes.txt)`)
    call = _labeled(_GROUP_THEN_TABLE[:6] + ["  Update(notes.txt)", "", "  Glavou chait was cheand klon."])
    assert call[6].kind != "assistant", [(x.kind, x.line.text) for x in call]

