"""Mistral Vibe 3.0.2: randomized probes (round h21).

The probes come from /tmp/h21-vibekimi/harness/vibe/gen21.py (gen20's
generator, plus `/help` run twice in most sessions, resizes while a tool
runs, thinking before some answers, longer answers): random sizes, resizes
between turns and in answers, pastes, unknown slash commands, `/clear`, Esc,
tables with CJK cells, code blocks, links.

What was wrong before this round:

- `/help` run a second time prints the very block the first run printed
  (h20-vibe-s2035-136x30). Where the block fills the view, every row of the
  view is a row of the first copy, away from the document's tail, and the
  stitcher took the view for the user paging back to it: the second block
  was never added, the views after it were laid over the first copy and the
  turn between the two runs (its tool call and answer) was cut away. The
  scrollbar tells the two apart: paged back, the thumb ends above rows of
  its track; at the end, on the track's last row. Vibe folds a tool's
  expanded rows once it settles, so a view at the end may still replace
  rows above the document's end (it cannot pin the view to the tail), but it
  never pages: at the end, a view whose every row lies on an older copy of
  itself continues the document (`vibe.scroll_position`, `Stitcher.add`'s
  `live`).

h21-vibe-s2144-165x42 is seed 2144 (165x42; resizes between turns to 164x35,
146x26 and 176x35, in answers to 135x39 and 146x24; thinking; an unknown
slash command; `/help` run twice at 176x35, a block taller than the view,
with one prompt between): the second block was dropped before.
Seeds 2141-2143 and 2145-2147 (not landed) replay alike before and after
but for s2146's second `/help` block, now whole.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import RECORDINGS, cli_replay, recording_cases, truth_turns

AGENT = "vibe"
BOTH = pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])


def _is_help(text: str) -> bool:
    """A system block that is `/help`'s list: rows of `• /command: what it does`."""
    return sum(1 for r in text.splitlines() if r.startswith("• /") and ": " in r) >= 5


def _sequence(turns: list[dict], truth: bool) -> list[str]:
    """The prompts and `/help` runs in order: `P` a typed prompt, `H` a help block."""
    out = []
    for t in turns:
        if t["role"] == "user" and not t.get("kind"):
            out.append("P")
        elif truth and t["role"] == "user" and t.get("kind") == "slash_command" and t["text"].strip() == "/help":
            out.append("H")
        elif not truth and t["role"] == "system" and _is_help(t.get("text") or ""):
            out.append("H")
    return out


def _helps_twice(case: Path) -> bool:
    # (a cheap look at the recording first)
    return (case / "session.cast").read_text(encoding="utf-8").count("/whoami") >= 2 and \
        sum(1 for t in truth_turns(case) if t["role"] == "user" and t.get("text", "").strip() == "/help") >= 2


CASES = [c for c in recording_cases(AGENT) if _helps_twice(c)]
S2035 = RECORDINGS / "vibe" / "h20-vibe-s2035-136x30"
S2144 = RECORDINGS / "vibe" / "h21-vibe-s2144-165x42"


def test_the_situation_is_recorded() -> None:
    assert S2035 in CASES and S2144 in CASES


@BOTH
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_help_printed_again_sits_where_it_ran(case: Path, screen_only: bool) -> None:
    """Each `/help` block comes back between the prompts it ran between: the
    second run is not laid over the first one's rows, nor dropped."""
    want = _sequence(truth_turns(case), truth=True)
    got = _sequence(cli_replay(case, AGENT, screen_only)["turns"], truth=False)
    assert got == want


@BOTH
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_every_prompt_keeps_its_tool_calls(case: Path, screen_only: bool) -> None:
    """The calls each prompt's turn made, by count: the turn before the second
    `/help` keeps its call."""
    def per_prompt(turns: list[dict]) -> list[int]:
        out: list[int] = []
        for t in turns:
            if t["role"] == "user" and not t.get("kind"):
                out.append(0)
            elif out and t["role"] == "tool_call":
                out[-1] += 1
        return out
    assert per_prompt(cli_replay(case, AGENT, screen_only)["turns"]) == per_prompt(truth_turns(case))
